import AlfredCore
import AlfredTestCluster
import Foundation
import JobQueue
import PostgresNIO
import Store
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(10))) struct PostgresRestartTests {
    static let kind = JobKind("test.steady")

    /// Postgres restarts five times under a working worker. Each time, jobs are running (their
    /// handlers held at a gate) and others are queued behind them. The restart ends the worker's
    /// presence session, so it stops the running handlers at once (another worker could take their
    /// jobs as soon as Postgres is back: issue #31) and runs them again after the restart. Every job
    /// completes and runs to its end once, and the worker recovers on its own: no store call had to
    /// wait out the bound on waiting for a pooled connection (before that was fixed, a call could
    /// wait forever).
    @Test func workerSurvivesFiveRestartsAndRunsEveryJobExactlyOnce() async throws {
        try await EmbeddedPostgres.with(options: .init(durable: false)) { cluster in
            let url = try await cluster.createDatabase("restart", logger: TestDatabase.quietLogger)
            try await TestDatabase.migrate(url, logger: TestDatabase.quietLogger)
            let started = RunLog(), finished = RunLog()
            let gate = Gate(open: true)
            var registry = JobRegistry()
            registry.register(ClosureHandler<Empty>(kind: Self.kind) { _, context in
                started.record(context.id)
                try await gate.pass()
                finished.record(context.id)
                return .done
            })
            let logs = LogCapture()
            let harness = WorkerHarness(
                configure: { $0.concurrency = 4; $0.maxConcurrency = 4; $0.claimBatch = 4; $0.lease = .seconds(120) }, workerLogger: logs.logger("worker"))
            let ids = try await harness.run(url, registry: registry) { store, _ in
                var all: [JobID] = []
                for round in 1...5 {
                    gate.close()
                    let ids = try await store.enqueue(Array(repeating: NewJob(kind: Self.kind), count: 40), onConflict: .keep)
                        .compactMap(\.jobID)
                    all += ids
                    // Four jobs are running and held; the other 36 are queued behind them.
                    #expect(try await eventually { ids.filter { started.count($0) > 0 }.count == 4 }, "round \(round)")
                    try await cluster.stopServer()
                    try await cluster.startServer()
                    gate.open()
                    #expect(try await eventually { await Self.completed(url, ids) == ids.count },
                            "round \(round): \(logs.all.filter { !$0.hasPrefix("trace") }.suffix(20))")
                    // The scenario happened: all 40 were claimed (the 4 held ones again) and finished after Postgres came back.
                    let afterRestart = try await TestDatabase.withClient(url, maxConnections: 1) { client in
                        try await client.query("""
                            SELECT count(*) FILTER (WHERE last_run_at > pg_postmaster_start_time())::int8,
                                   count(*) FILTER (WHERE finished_at > pg_postmaster_start_time())::int8
                            FROM jobs WHERE id = ANY(\(ids.map(\.uuid)))
                            """, logger: TestDatabase.quietLogger).collect().first?.decode((Int, Int).self)
                    }
                    #expect(afterRestart?.0 == 40 && afterRestart?.1 == 40, "round \(round): \(String(describing: afterRestart))")
                    #expect(ids.filter { started.count($0) == 2 }.count == 4, "round \(round): the held ones were stopped and run again")
                }
                return all
            }
            #expect(ids.allSatisfy { finished.count($0) == 1 }, "every job ran to its end exactly once")
            #expect(try await TestDatabase.withClient(url) { try await JobRows.count(state: .completed, client: $0) } == ids.count)
            #expect(!logs.all.contains { $0.contains("became available within") }, "recovered without the connection-wait bound")
        }
    }

    /// Completed jobs among `ids`, counted on a connection of its own.
    static func completed(_ url: DatabaseURL, _ ids: [JobID]) async -> Int {
        (try? await TestDatabase.withClient(url, maxConnections: 1) { client in
            try await client.query("SELECT count(*)::int8 FROM jobs WHERE state = 'completed' AND id = ANY(\(ids.map(\.uuid)))",
                                   logger: TestDatabase.quietLogger).collect().first?.decode(Int.self) ?? 0
        }) ?? 0
    }
}
