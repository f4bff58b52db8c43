import Foundation
import Logging
import PostgresNIO
import Store
import Synchronization

/// One private cluster per test process, started on first use and removed at exit; each suite gets
/// a fresh, migrated database of its own, so suites run in parallel without seeing each other's rows.
public enum TestDatabase {
    private static let starting = Mutex<Task<EmbeddedPostgres, any Error>?>(nil)
    private static let started = Mutex<EmbeddedPostgres?>(nil)

    /// The process-wide test cluster (fsync off: tests check behaviour, the benchmark checks speed).
    /// The first caller starts it; everyone else awaits that same start, without holding a lock or
    /// a thread while `initdb` runs.
    public static func cluster() async throws -> EmbeddedPostgres {
        let start = starting.withLock { starting in
            if let starting { return starting }
            let task = Task {
                // Suites run in parallel, each with its own pools, and some start worker processes.
                var options = EmbeddedPostgres.Options(durable: false)
                options.maxConnections = 600
                let cluster = try await EmbeddedPostgres(options: options)
                started.withLock { $0 = cluster }
                atexit { TestDatabase.stopAtExit() }
                return cluster
            }
            starting = task
            return task
        }
        return try await start.value
    }

    private static func stopAtExit() { started.withLock { $0 }?.stop() }

    /// A new database on the test cluster with every migration applied.
    public static func fresh(logger: Logger = quietLogger) async throws -> DatabaseURL {
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let cluster = try await cluster()
        return try await Admission.databases.run {
            try await explained {
                let url = try await cluster.createDatabase(name, logger: logger)
                try await migrate(url, logger: logger)
                return url
            }
        }
    }

    /// Runs `body`, and rethrows a `PSQLError` with its full details. Its own description is a fixed
    /// sentence (to keep query data out of logs), and Swift Testing prints only that, so a failed
    /// test would not say whether the server refused, the connect timed out or the query failed.
    /// Test databases hold no secrets.
    static func explained<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as PSQLError {
            throw ExplainedDatabaseError(details: String(reflecting: error))
        }
    }

    /// Warnings and errors only, so test output shows what matters.
    public static var quietLogger: Logger {
        var logger = Logger(label: "test")
        logger.logLevel = .warning
        return logger
    }

    /// Applies the repository's migrations to `url`.
    public static func migrate(_ url: DatabaseURL, logger: Logger) async throws {
        let client = PostgresClient(configuration: url.clientConfiguration(maxConnections: 2))
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask { await client.run() }
            _ = try await Migrator(directory: migrationsDirectory, logger: logger).migrate(client: client)
            group.cancelAll()
        }
    }

    /// `migrations/` at the package root, found from this source file's location.
    public static var migrationsDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("migrations")
    }

    /// Runs `body` with a running client for `url`.
    public static func withClient<T: Sendable>(
        _ url: DatabaseURL, maxConnections: Int = 10, _ body: @Sendable (PostgresClient) async throws -> T
    ) async throws -> T {
        let client = PostgresClient(configuration: url.clientConfiguration(maxConnections: maxConnections))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            return try await explained { try await body(client) }
        }
    }
}

/// A `PSQLError` from a test database helper, with the details its description leaves out.
public struct ExplainedDatabaseError: Error, CustomStringConvertible {
    public let details: String
    public var description: String { "database error: \(details)" }
}
