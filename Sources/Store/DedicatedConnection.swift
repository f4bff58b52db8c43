import Logging
import PostgresNIO
import ServiceLifecycle

/// A connection of its own, not from a pool, for one long-lived session (the wake-up LISTEN, the
/// worker's presence lock): a pooled connection would be shared and recycled.
enum DedicatedConnection {
    /// Connects and runs `body` until it ends, or until the task is cancelled or shuts down (which
    /// closes the connection, ending `body`); then calls `beforeClose`, closes the connection (it
    /// must be closed before it is released) and rethrows `body`'s error.
    static func session(_ database: DatabaseURL, id: Int, logger: Logger, beforeClose: () -> Void = {},
                        _ body: (PostgresConnection) async throws -> Void) async throws {
        let connection = try await PostgresConnection.connect(configuration: database.connectionConfiguration(), id: id, logger: logger)
        var failure: (any Error)?
        do {
            try await withTaskCancellationOrGracefulShutdownHandler {
                try await body(connection)
            } onCancelOrGracefulShutdown: {
                connection.close().whenComplete { _ in }
            }
        } catch {
            failure = error
        }
        beforeClose()
        try? await connection.close()
        if let failure { throw failure }
    }
}
