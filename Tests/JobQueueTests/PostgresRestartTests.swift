import AlfredCore
import AlfredTesting
import Foundation
import JobQueue
import PostgresNIO
import Store
import Testing

@Suite struct PostgresRestartTests {
    /// The worker logs, backs off and reconnects; no job is lost.
    @Test func workerSurvivesAPostgresRestartAndFinishesTheWork() async throws {
        let cluster = try EmbeddedPostgres(options: .init(durable: false))
        defer { cluster.stop() }
        let url = try await cluster.createDatabase("restart", logger: TestDatabase.quietLogger)
        try await TestDatabase.migrate(url, logger: TestDatabase.quietLogger)
        let log = RunLog()
        var registry = JobRegistry()
        registry.register(ClosureHandler<Empty>(kind: Self.kind) { _, context in
            try await Task.sleep(for: .milliseconds(5))
            log.record(context.id)
            return .done
        })
        let harness = WorkerHarness(configure: { $0.concurrency = 4; $0.claimBatch = 4; $0.pollInterval = .milliseconds(500) })
        let (ids, finished) = try await harness.run(url, registry: registry) { store, client in
            try await Self.restartMidway(cluster: cluster, store: store, client: client, log: log)
        }
        #expect(finished, "all 600 jobs completed after the restart")
        #expect(Set(log.counts.keys).isSuperset(of: ids), "every job ran (at least once: a restart may lose a completion write)")
    }

    static let kind = JobKind("test.steady")

    static func restartMidway(cluster: EmbeddedPostgres, store: PostgresJobStore, client: PostgresClient, log: RunLog)
        async throws -> ([JobID], Bool)
    {
        let ids = try await store.enqueue(Array(repeating: NewJob(kind: kind), count: 600), onConflict: .keep).compactMap(\.jobID)
        _ = try await eventually { log.counts.count >= 50 }
        try cluster.stopServer()
        try await Task.sleep(for: .seconds(1))
        try cluster.startServer()
        let finished = try await eventually(timeout: .seconds(90)) {
            (try? await JobRows.count(state: .completed, client: client)) == ids.count
        }
        return (ids, finished)
    }
}
