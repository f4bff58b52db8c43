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

/// A claim can commit on the server and still fail at the worker (the connection dropped before the
/// answer arrived). Its jobs must run at once, not when their lease expires, and the lost claim
/// must not use up an attempt.
@Suite(.timeLimit(.minutes(5))) struct InDoubtClaimTests {
    @Test func releaseClaimPutsBackOnlyThatClaimsJobsWithTheirAttempt() async throws {
        let url = try await TestDatabase.fresh()
        try await TestDatabase.withClient(url) { client in
            let store = PostgresJobStore(client: client, logger: TestDatabase.quietLogger)
            _ = try await store.enqueue(Array(repeating: NewJob(kind: .noop), count: 3), onConflict: .keep)
            let lost = try await store.claim(queue: "default", limit: 2, owner: "w/1", lease: .seconds(600))
            let kept = try await store.claim(queue: "default", limit: 1, owner: "w/2", lease: .seconds(600))
            #expect(lost.count == 2 && kept.count == 1)

            #expect(try await store.releaseClaim(owner: "w/1") == 2)
            for job in lost {
                let row = try #require(try await JobRows.row(job.id, client: client))
                #expect(row.state == .queued && row.attempts == 0, "put back unrun, attempt given back")
            }
            #expect(try await JobRows.row(kept[0].id, client: client)?.state == .running, "another claim's job is untouched")
            #expect(try await store.releaseClaim(owner: "w/1") == 0, "releasing twice changes nothing")
            #expect(try await store.complete([Completion(lease: lost[0].lease)]) == [lost[0].lease], "the lost lease is void")
        }
    }

    @Test func aWorkerRunsTheJobsOfAClaimWhoseAnswerWasLostAtOnceAndOnce() async throws {
        let url = try await TestDatabase.fresh()
        let runs = Mutex<[JobID: Int]>([:])
        let kind = JobKind("test.indoubt")
        var registry = JobRegistry()
        registry.register(ClosureHandler<Empty>(kind: kind) { _, context in
            runs.withLock { $0[context.id, default: 0] += 1 }
            return .done
        })
        let logger = TestDatabase.quietLogger
        let client = PostgresClient(configuration: url.clientConfiguration(maxConnections: 4), backgroundLogger: logger)
        let store = LosesFirstClaimAnswer(PostgresJobStore(client: client, logger: logger))
        var configuration = Worker<ContinuousClock>.Configuration()
        // Leases far longer than the test: only the release can bring the jobs back, never a rescue.
        configuration.lease = .seconds(3600)
        configuration.pollInterval = .milliseconds(100)
        let worker = Worker(store: store, registry: registry, wakeups: nil, configuration: configuration,
                            runtime: .test(clock: ContinuousClock(), logger: logger))
        try await withRunningServices([client, worker], logger: logger) {
            let owner = PostgresJobStore(client: client, logger: logger)
            let ids = try await owner.enqueue(Array(repeating: NewJob(kind: kind), count: 5), onConflict: .keep).compactMap(\.jobID)
            #expect(try await eventually { try await JobRows.count(state: .completed, client: client) == 5 })
            #expect(store.lostClaims == 1, "the first claim committed and its answer was dropped")
            for id in ids {
                let row = try #require(try await JobRows.row(id, client: client))
                #expect(row.attempts == 1, "the lost claim did not use an attempt")
            }
            #expect(runs.withLock { $0.values.allSatisfy { $0 == 1 } && $0.count == 5 }, "each job ran once")
        }
    }
}

/// The real store, except that the first claim that takes jobs commits and then fails, as when the
/// connection drops between the server's commit and its answer.
final class LosesFirstClaimAnswer: JobStore {
    let base: PostgresJobStore
    private let lost = Mutex(0)
    init(_ base: PostgresJobStore) { self.base = base }
    var lostClaims: Int { lost.withLock { $0 } }

    func claim(queue: String, limit: Int, owner: String, lease: Duration, ahead: ClaimAhead?,
               session: PresenceSession?) async throws -> [ClaimedJob] {
        let claimed = try await base.claim(queue: queue, limit: limit, owner: owner, lease: lease, ahead: ahead, session: session)
        let drop = !claimed.isEmpty && lost.withLock { count in
            guard count == 0 else { return false }
            count = 1
            return true
        }
        if drop { throw StoreError.connectionLost }
        return claimed
    }
    func releaseClaim(owner: String) async throws -> Int { try await base.releaseClaim(owner: owner) }
    func enqueue(_ jobs: [NewJob], onConflict: UniqueConflict) async throws -> [EnqueueResult] {
        try await base.enqueue(jobs, onConflict: onConflict)
    }
    func complete(_ completions: [Completion]) async throws -> Set<Lease> { try await base.complete(completions) }
    func fail(_ lease: Lease, error: String, disposition: FailureDisposition) async throws -> JobState? {
        try await base.fail(lease, error: error, disposition: disposition)
    }
    func snooze(_ lease: Lease, for delay: Duration) async throws -> Bool { try await base.snooze(lease, for: delay) }
    func heartbeat(_ leases: [Lease], lease: Duration) async throws -> Set<Lease> { try await base.heartbeat(leases, lease: lease) }
    func rescueExpired(limit: Int) async throws -> [(kind: String, state: JobState)] { try await base.rescueExpired(limit: limit) }
    func prune(olderThan retention: Duration, limit: Int) async throws -> Int { try await base.prune(olderThan: retention, limit: limit) }
    func secondsUntilNextDue(queue: String, ahead: ClaimAhead?) async throws -> Double? {
        try await base.secondsUntilNextDue(queue: queue, ahead: ahead)
    }
    func stats() async throws -> QueueStats { try await base.stats() }
    func ready() async throws -> [QueueStats.Ready] { try await base.ready() }
    func list(state: JobState?, limit: Int) async throws -> [JobSummary] { try await base.list(state: state, limit: limit) }
    func cancel(_ id: JobID) async throws -> Bool { try await base.cancel(id) }
    func retry(_ id: JobID) async throws -> Bool { try await base.retry(id) }
}
