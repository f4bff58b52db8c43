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
    /// One connection's life: connect, LISTEN (then call `listening`), hand each payload to
    /// `notification`, until the connection ends (by throwing) or the task is cancelled or shuts down.
    typealias Session = @Sendable (_ id: Int, _ listening: @escaping @Sendable () -> Void,
                                   _ notification: @escaping @Sendable (String) -> Void) async throws -> Void

    private let session: Session
    private let logger: Logger
    private let handlers = Mutex<[@Sendable (Wakeup) -> Void]>([])
    private let connected = Mutex(false)
    /// Paces the reconnect backoff.
    private let clock: any Clock<Duration>

    public convenience init(database: DatabaseURL, logger: Logger, clock: any Clock<Duration> = ContinuousClock()) {
        self.init(logger: logger, clock: clock) { id, listening, notification in
            try await DedicatedConnection.session(database, id: id, logger: logger) { connection in
                try await connection.listen(on: JobSQL.channel) { notifications in
                    listening()
                    for try await event in notifications { notification(event.payload) }
                }
            }
        }
    }

    /// - Parameter session: how one connection is made and listened on (tests pass one without sockets).
    init(logger: Logger, clock: any Clock<Duration>, session: @escaping Session) {
        self.session = session
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
        let backoff = Mutex(Duration.milliseconds(100))
        var connectionID = 0
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            connectionID += 1
            do {
                try await session(connectionID, { [self] in
                    connected.withLock { $0 = true }
                    backoff.withLock { $0 = .milliseconds(100) }
                    deliver(.resync)
                }, { [self] payload in deliver(Self.parse(payload)) })
            } catch {
                if Task.isCancelled || Task.isShuttingDownGracefully { break }
                logger.warning("wake-up listener lost its connection; reconnecting",
                               metadata: ["alfred.error": "\(String(reflecting: error))",
                                          "alfred.retry_in": "\(backoff.withLock { $0 })"])
            }
            connected.withLock { $0 = false }
            if Task.isCancelled || Task.isShuttingDownGracefully { break }
            let pause = backoff.withLock { pause in
                defer { pause = min(pause * 2, .seconds(1)) }  // a missed wake-up after a restart is a late claim
                return pause
            }
            try? await clock.sleep(for: pause)
        }
    }

    /// Payload: `<queue> <seconds until due>`.
    static func parse(_ payload: String) -> Wakeup {
        let parts = payload.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, let seconds = Double(parts[1]) else { return .resync }
        return Wakeup(queue: String(parts[0]), dueInSeconds: seconds)
    }
}
