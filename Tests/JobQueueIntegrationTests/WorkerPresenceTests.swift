import AlfredCore
import AlfredTestCluster
import Foundation
import JobQueue
import Logging
import PostgresNIO
import ServiceLifecycle
import Store
import Synchronization
import Testing

/// A worker's presence in the database (migration 0023): claims made under its session are freed as
/// soon as the session's lock is gone, not when their lease runs out; and a worker whose session
/// ended while it lives on stops what it claimed under it, so it never runs a job beside the worker
/// that took it over. Leases here are an hour: only the presence can free anything.
@Suite(.timeLimit(.minutes(5))) struct WorkerPresenceTests {
    static let logger = TestDatabase.quietLogger

    /// Ends a presence's session from outside the worker, as a server restart or a dropped connection
    /// would: the backend holding its lock (found in `pg_locks`) is terminated.
    static func terminateSession(of key: Int32, client: PostgresClient) async throws -> Bool {
        let rows = try await client.query("""
            SELECT pg_terminate_backend(pid) FROM pg_locks
            WHERE locktype = 'advisory' AND classid = 1634493047 AND objid = \(key)::oid AND objsubid = 2 AND granted
            """, logger: logger)
        for try await terminated in rows.decode(Bool.self) where terminated { return true }
        return false
    }

    static func presence(_ url: DatabaseURL) -> PostgresPresence {
        PostgresPresence(database: url, logger: logger)
    }

    @Test func theRescuerFreesTheJobsOfAnEndedSessionAtOnceAndKeepsALiveSessionsJobs() async throws {
        let url = try await TestDatabase.fresh()
        let (gone, alive) = (Self.presence(url), Self.presence(url))
        try await TestDatabase.withClient(url) { client in
            try await withRunningServices([gone, alive], logger: Self.logger) {
                #expect(try await eventually { gone.current != nil && alive.current != nil })
                let (goneSession, aliveSession) = (try #require(gone.current), try #require(alive.current))
                let store = PostgresJobStore(client: client, logger: Self.logger)
                _ = try await store.enqueue(Array(repeating: NewJob(kind: .noop), count: 2), onConflict: .keep)
                let lost = try await store.claim(queue: "default", limit: 1, owner: "gone/1", lease: .seconds(3600), ahead: nil,
                                                 session: goneSession)
                let kept = try await store.claim(queue: "default", limit: 1, owner: "alive/1", lease: .seconds(3600), ahead: nil,
                                                 session: aliveSession)
                #expect(lost.count == 1 && kept.count == 1)
                #expect(try await store.rescueExpired(limit: 10).isEmpty, "both sessions hold their locks: nothing is freed")

                #expect(try await Self.terminateSession(of: goneSession.key, client: client))
                #expect(try await eventually { goneSession.hasEnded }, "the process learns its session ended")
                // The server drops the lock as its backend exits, a moment after the socket closed.
                var rescued: [(kind: String, state: JobState)] = []
                #expect(try await eventually { rescued = try await store.rescueExpired(limit: 10); return !rescued.isEmpty })
                #expect(rescued.map(\.kind) == ["noop"] && rescued.map(\.state) == [.queued])
                let freed = try #require(try await JobRows.row(lost[0].id, client: client))
                #expect(freed.state == .queued && freed.lastError?.contains("database session ended") == true, "\(String(describing: freed.lastError))")
                #expect(try await JobRows.row(kept[0].id, client: client)?.state == .running, "the live session's job stays with it")

                // A claim under the ended session takes nothing, though a job is due.
                #expect(try await store.claim(queue: "default", limit: 5, owner: "gone/2", lease: .seconds(3600), ahead: nil,
                                              session: goneSession).isEmpty)
                // The presence holds a new session, and claims under it work.
                #expect(try await eventually { gone.current.map { !$0.hasEnded } ?? false })
                let again = try #require(gone.current)
                #expect(again.key != goneSession.key)
                #expect(try await store.claim(queue: "default", limit: 5, owner: "gone/3", lease: .seconds(3600), ahead: nil,
                                              session: again).map(\.id) == [lost[0].id])
            }
        }
    }

    /// The trap of this design: a worker whose database session ended while its process lives on
    /// (Postgres dropped the connection) must not go on to run what another worker now runs. Its
    /// handler is held at a gate until the other worker has finished the job; it is stopped before
    /// the gate opens, so the job's work happens once.
    @Test func aWorkerWhoseSessionEndedStopsItsJobsAndAnotherRunsThemOnce() async throws {
        let url = try await TestDatabase.fresh()
        let kind = JobKind("test.presence")
        let work = Mutex<[String]>([])
        let gate = AsyncStream<Void>.makeStream()
        var first = JobRegistry()
        first.register(ClosureHandler<Empty>(kind: kind) { _, _ in
            for await _ in gate.stream { break }
            try Task.checkCancellation()
            work.withLock { $0.append("first") }
            return .done
        })
        var second = JobRegistry()
        second.register(ClosureHandler<Empty>(kind: kind) { _, _ in
            work.withLock { $0.append("second") }
            return .done
        })
        var configuration = Worker<ContinuousClock>.Configuration()
        configuration.lease = .seconds(3600)
        configuration.pollInterval = .milliseconds(200)
        let events = EventLog<WorkerEvent>()
        let runtime = Runtime.test(clock: ContinuousClock(), logger: Self.logger, events: events)
        let (firstPresence, secondPresence) = (Self.presence(url), Self.presence(url))
        var (firstConfiguration, secondConfiguration) = (configuration, configuration)
        firstConfiguration.owner = "first"
        secondConfiguration.owner = "second"
        let (firstRegistry, secondRegistry) = (first, second)
        let (firstSettings, secondSettings) = (firstConfiguration, secondConfiguration)

        try await TestDatabase.withClient(url, maxConnections: 6) { client in
            let store = PostgresJobStore(client: client, logger: Self.logger)
            let firstWorker = Worker(store: store, registry: firstRegistry, wakeups: nil, configuration: firstSettings, runtime: runtime,
                                     presence: firstPresence)
            try await withRunningServices([firstPresence, firstWorker] as [any Service], logger: Self.logger) {
                #expect(try await eventually { firstPresence.current != nil })
                let session = try #require(firstPresence.current)
                let id = try #require(try await store.enqueue([NewJob(kind: kind)], onConflict: .keep)[0].jobID)
                _ = try await events.first { $0.job == id && $0.what == .started }

                let secondWorker = Worker(store: store, registry: secondRegistry, wakeups: nil, configuration: secondSettings,
                                          runtime: .test(clock: ContinuousClock(), logger: Self.logger), presence: secondPresence)
                let rescuer = Maintenance.rescuer(store: store, kinds: [kind], interval: .milliseconds(200),
                                                  runtime: .test(clock: ContinuousClock(), logger: Self.logger))
                try await withRunningServices([secondPresence, secondWorker, rescuer] as [any Service], logger: Self.logger) { () async throws in
                    #expect(try await Self.terminateSession(of: session.key, client: client))
                    #expect(try await eventually { try await JobRows.row(id, client: client)?.state == .completed })
                    // The first worker's handler would do its work now, were it still running.
                    gate.continuation.yield()
                    gate.continuation.finish()
                    #expect(try await eventually { firstWorker.inFlight == 0 })
                    #expect(work.withLock { $0 } == ["second"], "the job's work happened once, on the worker that took it over")
                    let released = events.all.contains { $0.job == id && $0.what == .released }
                    #expect(released, "the first worker stopped it when its session ended")
                    // 1 if the first worker's release (which gives the attempt back) reached the
                    // database before the rescuer did, 2 if the rescuer freed it first.
                    #expect(try await JobRows.row(id, client: client).map { (1...2).contains($0.attempts) } == true)
                }
            }
        }
    }

    /// The other trap: a network cut closes nothing. The cut-off worker's pings go unanswered, so it
    /// ends its session and stops its handlers after the ping timeout; the server still holds that
    /// session's lock, so the job moves only when its lease has run out (nothing extends it across the
    /// cut), to a worker that runs it once. The lease is 4 s and the timeout 1 s here (30 s and 5 s
    /// by default): the handler must be stopped before the other worker starts the job. (With a
    /// timeout longer than the lease, the first worker was still running when the second started,
    /// and both did the work.)
    @Test func aWorkerCutOffFromTheDatabaseStopsItsJobsBeforeTheirLeaseRunsOut() async throws {
        let url = try await TestDatabase.fresh()
        let proxy = try FreezableProxy(to: url.port)
        defer { proxy.close() }
        let cutURL = { var cut = url; cut.port = proxy.port; return cut }()
        let kind = JobKind("test.presence-cut")
        let work = Mutex<[String]>([])
        let gate = AsyncStream<Void>.makeStream()
        let firstPresence = PostgresPresence(database: cutURL, logger: Self.logger, pingInterval: .milliseconds(200),
                                             pingTimeout: .seconds(1))
        let firstStopped = Mutex<Bool?>(nil)  // whether the cut-off worker's session had ended when the job moved
        var first = JobRegistry()
        first.register(ClosureHandler<Empty>(kind: kind) { _, _ in
            for await _ in gate.stream { break }
            try Task.checkCancellation()
            work.withLock { $0.append("first") }
            return .done
        })
        var second = JobRegistry()
        second.register(ClosureHandler<Empty>(kind: kind) { _, _ in
            firstStopped.withLock { $0 = firstPresence.current.map(\.hasEnded) ?? true }
            work.withLock { $0.append("second") }
            return .done
        })
        var configuration = Worker<ContinuousClock>.Configuration()
        configuration.lease = .seconds(4)
        configuration.heartbeatInterval = .milliseconds(500)
        configuration.pollInterval = .milliseconds(200)
        configuration.shutdownGrace = .seconds(1)
        var (firstSettings, secondSettings) = (configuration, configuration)
        firstSettings.owner = "first"
        secondSettings.owner = "second"
        let events = EventLog<WorkerEvent>()
        let (firstRegistry, secondRegistry, firstConfiguration, secondConfiguration) = (first, second, firstSettings, secondSettings)
        let secondPresence = Self.presence(url)

        try await TestDatabase.withClient(url, maxConnections: 6) { client in
            try await TestDatabase.withClient(cutURL, maxConnections: 4) { cutClient in
                let store = PostgresJobStore(client: client, logger: Self.logger)
                // Everything the first worker says to Postgres goes through the proxy.
                let firstWorker = Worker(store: PostgresJobStore(client: cutClient, logger: Self.logger), registry: firstRegistry,
                                         wakeups: nil, configuration: firstConfiguration,
                                         runtime: .test(clock: ContinuousClock(), logger: Self.logger, events: events), presence: firstPresence)
                try await withRunningServices([firstPresence, firstWorker] as [any Service], logger: Self.logger) {
                    #expect(try await eventually { firstPresence.current != nil })
                    let session = try #require(firstPresence.current)
                    let id = try #require(try await store.enqueue([NewJob(kind: kind)], onConflict: .keep)[0].jobID)
                    _ = try await events.first { $0.job == id && $0.what == .started }

                    proxy.cut()
                    let secondWorker = Worker(store: store, registry: secondRegistry, wakeups: nil, configuration: secondConfiguration,
                                              runtime: .test(clock: ContinuousClock(), logger: Self.logger), presence: secondPresence)
                    let rescuer = Maintenance.rescuer(store: store, kinds: [kind], interval: .milliseconds(200),
                                                      runtime: .test(clock: ContinuousClock(), logger: Self.logger))
                    try await withRunningServices([secondPresence, secondWorker, rescuer] as [any Service], logger: Self.logger) { () async throws in
                        #expect(try await eventually(timeout: .seconds(60)) { try await JobRows.row(id, client: client)?.state == .completed })
                        #expect(session.hasEnded, "the cut-off worker ended its session when its pings went unanswered")
                        #expect(firstStopped.withLock { $0 } == true, "it had stopped before the other worker started the job")
                        // The first worker's handler would do its work now, were it still running.
                        gate.continuation.yield()
                        gate.continuation.finish()
                        #expect(try await eventually { events.all.contains { $0.job == id && $0.what == .released } || firstWorker.inFlight == 0 })
                        #expect(work.withLock { $0 } == ["second"], "the job's work happened once, on the worker that took it over")
                        // Connections closed, the first worker's hung statements end and it can shut down.
                        proxy.close()
                    }
                }
            }
        }
    }
}
