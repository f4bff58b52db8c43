import AlfredCore
import AlfredTestCluster
import Foundation
import JobQueue
import Logging
import PostgresNIO
import Store
import Synchronization
import WorkerProcess

/// Runs real worker processes' insides in-process: `WorkerApp` as `alfred worker` builds it (pool,
/// LISTEN connection, the workers, rescuer and the other maintenance loops), with the test's kinds
/// added, against a test database. Every worker's events go to `events`.
struct WorkerHarness {
    var workers = 1
    var configure: @Sendable (inout WorkerConfiguration) -> Void = { _ in }
    var rescueInterval: Duration = .seconds(1)
    /// The workers' logger (a `LogCapture`'s, to see what a worker logs).
    var workerLogger = TestDatabase.quietLogger
    let events = EventLog<WorkerEvent>()

    func run<T: Sendable>(
        _ url: DatabaseURL, registry: JobRegistry,
        _ body: @Sendable (PostgresJobStore, PostgresClient) async throws -> T
    ) async throws -> T {
        let logger = TestDatabase.quietLogger
        let apps = (0..<workers).map { index in
            var configuration = WorkerConfiguration()
            configuration.owner = "test-worker-\(index)"
            configuration.rescueInterval = rescueInterval
            configure(&configuration)
            let runtime = Runtime.live(logger: workerLogger, metrics: CountingMetrics(), events: WorkerEvents(events.record))
            return WorkerApp(database: url, configuration: configuration,
                             parts: WorkerParts(handlers: { kinds, _ in kinds.register(contentsOf: registry) }), runtime: runtime)
        }
        return try await TestDatabase.withClient(url, maxConnections: 4) { client in
            try await withRunningServices(apps, logger: logger) {
                try await body(PostgresJobStore(client: client, logger: logger), client)
            }
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
