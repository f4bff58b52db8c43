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
    static let maxBackoff = Duration.seconds(1)

    /// - Parameters:
    ///   - pingInterval: how often the connection is asked whether it still answers.
    ///   - pingTimeout: a ping unanswered this long ends the session (a network cut closes nothing).
    ///     Keep it well under the lease, so a cut-off worker stops its handlers before their leases
    ///     can run out and another worker take them.
    public convenience init(database: DatabaseURL, logger: Logger, clock: any Clock<Duration> = ContinuousClock(),
                            pingInterval: Duration = .seconds(1), pingTimeout: Duration = .seconds(5)) {
        self.init(logger: logger, clock: clock) { id, holding, ending in
            try await DedicatedConnection.session(database, id: id, logger: logger, beforeClose: ending) { connection in
                holding(try await Self.takeLock(on: connection, clock: clock, timeout: pingTimeout, logger: logger))
                await Self.watch(connection, clock: clock, every: pingInterval, timeout: pingTimeout, logger: logger)
            }
        }
    }

    init(logger: Logger, clock: any Clock<Duration>, connect: @escaping Connect) {
        self.connect = connect
        self.logger = logger
        self.clock = clock
    }

    public var current: PresenceSession? { session.withLock { $0 } }

    /// How many worker processes hold their presence in the database now: the database's own view of
    /// the live workers (a process that died has none).
    public static func held(client: PostgresClient, logger: Logger) async throws -> Int {
        try await client.query(JobSQL.presenceHeld, logger: logger).collect().first?.decode(Int.self) ?? 0
    }

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
            // At most a second between tries: this worker claims nothing until its presence is back,
            // so after a Postgres restart every second of backoff past its return is a second every
            // due reminder waits (with 5 s, claims resumed 3-6 s after Postgres accepted connections).
            // One connection attempt a second per worker is nothing to Postgres.
            backoff = min(backoff * 2, Self.maxBackoff)
        }
    }

    /// Ends the current session, if any: its claims' handlers stop now.
    private func endSession() {
        session.withLock { current -> PresenceSession? in defer { current = nil }; return current }?.end()
    }

    /// Takes the lock of a fresh random key (another on the rare collision with a live session).
    private static func takeLock(on connection: PostgresConnection, clock: any Clock<Duration>, timeout: Duration,
                                 logger: Logger) async throws -> Int32 {
        for _ in 0..<8 {
            let key = Int32.random(in: 1...Int32.max)
            guard let rows = await answer(JobSQL.takePresence(key: key), on: connection, within: timeout, clock: clock, logger: logger)
            else { throw StoreError.connectionLost }
            if try rows.decode(Bool.self).first == true { return key }
        }
        throw StoreError.unexpected("no free presence key after 8 tries")
    }

    /// `query`'s rows, or nil if it failed, or the connection closed or `timeout` passed first. The
    /// statement runs in a task of its own, never awaited where a hang would hold anything up:
    /// postgres-nio can drop a statement written as its connection closes and never answer it, and
    /// cancelling does not end that wait (see `Pooled`); such a task is left behind.
    private static func answer(_ query: PostgresQuery, on connection: PostgresConnection, within timeout: Duration,
                               clock: any Clock<Duration>, logger: Logger) async -> [PostgresRow]? {
        let race = Race<[PostgresRow]>()
        Task {
            do {
                let rows = try await CloseWatch.race(connection, race: race) { try await connection.query(query, logger: logger).collect() }
                race.finish(.success(rows))
            } catch {
                race.finish(.failure(error))
            }
        }
        let timer = Task {
            try await clock.sleep(for: timeout)
            race.finish(.failure(StoreError.connectionLost))
        }
        defer { timer.cancel() }
        return try? await race.value()
    }

    /// Returns as soon as the connection closes, a ping fails, or a ping goes unanswered for
    /// `timeout`. (Pings awaited in a task group once held the group, and with it the session,
    /// forever when one was caught in a restart: the worker claimed nothing again.)
    private static func watch(_ connection: PostgresConnection, clock: any Clock<Duration>, every interval: Duration,
                              timeout: Duration, logger: Logger) async {
        let (lost, signal) = AsyncStream<Void>.makeStream()
        connection.closeFuture.whenComplete { _ in signal.finish() }
        let pings = Task {
            while !Task.isCancelled {
                do { try await clock.sleep(for: interval) } catch { return }
                guard await answer(JobSQL.presencePing, on: connection, within: timeout, clock: clock, logger: logger) != nil else {
                    logger.warning("worker presence ping failed or went unanswered", metadata: ["alfred.timeout": "\(timeout)"])
                    signal.finish()
                    return
                }
            }
        }
        for await _ in lost {}
        pings.cancel()
    }
}
