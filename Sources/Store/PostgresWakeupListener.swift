import AlfredCore
import Foundation
import Logging
import NIOCore
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// LISTENs for job wake-ups on a dedicated connection (not from the pool: a pooled connection would be
/// shared and recycled). When the connection drops it reconnects with backoff, re-LISTENs, and sends
/// `.resync` because notifications may have been missed meanwhile. NOTIFY is a hint; the table is the truth.
public final class PostgresWakeupListener: WakeupSource, Service {
    private let database: DatabaseURL
    private let logger: Logger
    private let handlers = Mutex<[@Sendable (Wakeup) -> Void]>([])
    private let connected = Mutex(false)
    /// Paces the reconnect backoff.
    private let clock: any Clock<Duration>

    public init(database: DatabaseURL, logger: Logger, clock: any Clock<Duration> = ContinuousClock()) {
        self.database = database
        self.logger = logger
        self.clock = clock
    }

    public func subscribe(_ handler: @escaping @Sendable (Wakeup) -> Void) {
        handlers.withLock { $0.append(handler) }
    }

    public var isConnected: Bool { connected.withLock { $0 } }

    private func deliver(_ wakeup: Wakeup) {
        for handler in handlers.withLock({ $0 }) { handler(wakeup) }
    }

    public func run() async throws {
        var backoff = Duration.milliseconds(100)
        var connectionID = 0
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            connectionID += 1
            do {
                let connection = try await PostgresConnection.connect(
                    configuration: database.connectionConfiguration(), id: connectionID, logger: logger)
                var failure: (any Error)?
                do {
                    try await withTaskCancellationOrGracefulShutdownHandler {
                        try await connection.listen(on: JobSQL.channel) { notifications in
                            connected.withLock { $0 = true }
                            backoff = .milliseconds(100)
                            deliver(.resync)
                            for try await notification in notifications {
                                deliver(Self.parse(notification.payload))
                            }
                        }
                    } onCancelOrGracefulShutdown: {
                        connection.close().whenComplete { _ in }
                    }
                } catch {
                    failure = error
                }
                // A connection must be closed before it is released.
                try? await connection.close()
                if let failure { throw failure }
            } catch {
                if Task.isCancelled || Task.isShuttingDownGracefully { break }
                logger.warning("wake-up listener lost its connection; reconnecting",
                               metadata: ["alfred.error": "\(String(reflecting: error))",
                                          "alfred.retry_in": "\(backoff)"])
            }
            connected.withLock { $0 = false }
            if Task.isCancelled || Task.isShuttingDownGracefully { break }
            try? await clock.sleep(for: backoff)
            backoff = min(backoff * 2, .seconds(5))
        }
    }

    /// Payload: `<queue> <seconds until due>`.
    static func parse(_ payload: String) -> Wakeup {
        let parts = payload.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, let seconds = Double(parts[1]) else { return .resync }
        return Wakeup(queue: String(parts[0]), dueInSeconds: seconds)
    }
}
