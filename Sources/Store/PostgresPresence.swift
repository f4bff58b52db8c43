import AlfredCore
import Foundation
import Logging
import NIOCore
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// A worker process's presence (migration 0023): on a connection of its own it holds the advisory
/// lock of a random key for as long as the process lives. Claims are made under that session; the
/// rescuer frees the jobs of a session whose lock is gone, so a killed worker's reminders run
/// elsewhere within a rescue interval instead of waiting out their lease.
///
/// When the connection ends while the process lives on (the server restarted or dropped it, or it
/// stopped answering), the session is ended here first (`PresenceSession.end()`): the workers stop
/// every handler of the claims made under it before another worker can take those jobs. Then it
/// connects again with a new key and backoff.
public final class PostgresPresence: WorkerPresence, Service {
    /// One connection's life: connect and take a lock (then call `holding` with the key), until the
    /// connection ends (by returning or throwing) or the task is cancelled or shuts down. `ending`
    /// is called before this side closes the connection: the session is ended here first, so no
    /// handler runs on once the lock can be gone.
    typealias Connect = @Sendable (_ id: Int, _ holding: @escaping @Sendable (Int32) -> Void,
                                   _ ending: @escaping @Sendable () -> Void) async throws -> Void

    private let connect: Connect
    private let logger: Logger
    private let clock: any Clock<Duration>
    private let session = Mutex<PresenceSession?>(nil)
    /// The connection (by its number) that last held a session.
    private let lastHeld = Mutex(0)

    /// - Parameters:
    ///   - pingInterval: how often the connection is asked whether it still answers.
    ///   - pingTimeout: a ping unanswered this long ends the session (a network cut closes nothing).
    ///     Keep it well under the lease, so a cut-off worker stops its handlers before their leases
    ///     can run out and another worker take them.
    public convenience init(database: DatabaseURL, logger: Logger, clock: any Clock<Duration> = ContinuousClock(),
                            pingInterval: Duration = .seconds(1), pingTimeout: Duration = .seconds(5)) {
        self.init(logger: logger, clock: clock) { id, holding, ending in
            let connection = try await PostgresConnection.connect(configuration: database.connectionConfiguration(), id: id, logger: logger)
            var failure: (any Error)?
            do {
                let key = try await Self.takeLock(on: connection, logger: logger)
                holding(key)
                try await withTaskCancellationOrGracefulShutdownHandler {
                    try await Self.watch(connection, clock: clock, every: pingInterval, timeout: pingTimeout, logger: logger)
                } onCancelOrGracefulShutdown: {
                    connection.close().whenComplete { _ in }
                }
            } catch {
                failure = error
            }
            ending()
            try? await connection.close()
            if let failure { throw failure }
        }
    }

    init(logger: Logger, clock: any Clock<Duration>, connect: @escaping Connect) {
        self.connect = connect
        self.logger = logger
        self.clock = clock
    }

    public var current: PresenceSession? { session.withLock { $0 } }

    public func run() async throws {
        var backoff = Duration.milliseconds(100)
        var connectionID = 0
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            connectionID += 1
            var failure: (any Error)?
            let id = connectionID
            do {
                try await connect(connectionID, { [self] key in
                    session.withLock { $0 = PresenceSession(key: key) }
                    lastHeld.withLock { $0 = id }
                    logger.debug("worker presence held", metadata: ["alfred.presence.key": "\(key)"])
                }, { [self] in endSession() })
            } catch {
                failure = error
            }
            endSession()
            if lastHeld.withLock({ $0 }) == id {
                backoff = .milliseconds(100)
                if Task.isCancelled || Task.isShuttingDownGracefully { break }
                logger.warning("worker presence lost: the handlers of its claims were stopped; connecting again",
                               metadata: ["alfred.error": "\(failure.map { String(reflecting: $0) } ?? "connection closed")"])
            } else if Task.isCancelled || Task.isShuttingDownGracefully {
                break
            } else {
                logger.warning("worker presence could not be taken; trying again", metadata: [
                    "alfred.error": "\(failure.map { String(reflecting: $0) } ?? "connection closed")", "alfred.retry_in": "\(backoff)"])
            }
            try? await clock.sleep(for: backoff)
            backoff = min(backoff * 2, .seconds(5))
        }
    }

    /// Ends the current session, if any: its claims' handlers stop now. True if there was one.
    @discardableResult
    private func endSession() -> Bool {
        guard let ended = session.withLock({ current -> PresenceSession? in defer { current = nil }; return current }) else { return false }
        ended.end()
        return true
    }

    /// Takes the lock of a fresh random key (another on the rare collision with a live session).
    private static func takeLock(on connection: PostgresConnection, logger: Logger) async throws -> Int32 {
        for _ in 0..<8 {
            let key = Int32.random(in: 1...Int32.max)
            for try await taken in try await connection.query(JobSQL.takePresence(key: key), logger: logger).decode(Bool.self) where taken {
                return key
            }
        }
        throw StoreError.unexpected("no free presence key after 8 tries")
    }

    /// Returns when the connection closes, or throws when a ping goes unanswered for `timeout`.
    private static func watch(_ connection: PostgresConnection, clock: any Clock<Duration>, every interval: Duration,
                              timeout: Duration, logger: Logger) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await connection.closeFuture.get() }
            group.addTask {
                while true {
                    try await clock.sleep(for: interval)
                    try await withThrowingTaskGroup(of: Bool.self) { ping in
                        ping.addTask {
                            _ = try await connection.query(JobSQL.presencePing, logger: logger).collect()
                            return true
                        }
                        ping.addTask {
                            try await clock.sleep(for: timeout)
                            return false
                        }
                        let answered = try await ping.next() ?? false
                        ping.cancelAll()
                        if !answered { throw StoreError.connectionLost }
                    }
                }
            }
            try await group.next()
            group.cancelAll()
        }
    }
}
