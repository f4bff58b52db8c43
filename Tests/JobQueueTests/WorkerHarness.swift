import AlfredCore
import AlfredTesting
import Foundation
import JobQueue
import Logging
import PostgresNIO
import ServiceLifecycle
import Store
import Synchronization

/// Runs real workers (pool, LISTEN connection, rescuer) in-process under a ServiceGroup, the way
/// `alfred worker` does, against a test database.
struct WorkerHarness {
    var workers = 1
    var configure: @Sendable (inout Worker<ContinuousClock>.Configuration) -> Void = { _ in }
    var rescueInterval: Duration = .seconds(1)
    /// The workers' logger (a `LogCapture`'s, to wait for what a worker logs).
    var workerLogger = TestDatabase.quietLogger

    func run<T: Sendable>(
        _ url: DatabaseURL, registry: JobRegistry,
        _ body: @Sendable (PostgresJobStore, PostgresClient) async throws -> T
    ) async throws -> T {
        let logger = TestDatabase.quietLogger
        var services: [any Service] = []
        for index in 0..<workers {
            let client = PostgresClient(configuration: url.clientConfiguration(maxConnections: 4), backgroundLogger: logger)
            let store = PostgresJobStore(client: client, logger: logger)
            let listener = PostgresWakeupListener(database: url, logger: logger)
            var configuration = Worker<ContinuousClock>.Configuration()
            configuration.owner = "test-worker-\(index)"
            configure(&configuration)
            let worker = Worker(store: store, registry: registry, wakeups: listener, configuration: configuration,
                                clock: ContinuousClock(), logger: workerLogger)
            services += [client, listener, worker,
                         Maintenance.rescuer(store: store, kinds: registry.kinds, interval: rescueInterval,
                                             clock: ContinuousClock(), logger: logger)]
        }
        let group = ServiceGroup(services: services, logger: logger)
        let client = PostgresClient(configuration: url.clientConfiguration(maxConnections: 4), backgroundLogger: logger)
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { await client.run() }
            // The group runs in its own task so the body's result can wait for a real graceful shutdown.
            let running = Task { try await group.run() }
            let result: Result<T, any Error>
            do {
                result = .success(try await body(PostgresJobStore(client: client, logger: logger), client))
            } catch {
                result = .failure(error)
            }
            await group.triggerGracefulShutdown()
            try await running.value
            tasks.cancelAll()
            return try result.get()
        }
    }
}

/// A handler assembled from a closure, for tests.
struct ClosureHandler<Payload: Decodable & Sendable>: JobHandler {
    let kind: JobKind
    var preparesAhead = false
    let body: @Sendable (Payload, JobContext) async throws -> JobOutcome
    func run(_ payload: Payload, context: JobContext) async throws -> JobOutcome { try await body(payload, context) }
}

struct Empty: Codable, Sendable {}

/// Counts how often each job ran.
final class RunLog: Sendable {
    private let runs = Mutex<[JobID: Int]>([:])
    func record(_ id: JobID) { runs.withLock { $0[id, default: 0] += 1 } }
    var counts: [JobID: Int] { runs.withLock { $0 } }
    func count(_ id: JobID) -> Int { runs.withLock { $0[id] ?? 0 } }
}
