import Logging
import NIOCore
import PostgresNIO
import Synchronization

/// Statements on pooled connections that cannot hang when Postgres goes away under them.
///
/// postgres-nio (1.33, and its main branch) can hand a caller a connection that has just closed, and
/// then drop the statement written to it: when the server ends a session (a restart, `pg_terminate_backend`),
/// the connection fails its running statement first, whose release gives the still-"available"
/// connection to the next waiting caller; the connection's handlers are removed before the pool
/// learns of the close (`closeFuture` completes a tick later), and a statement written in between is
/// discarded with `promise: nil`, so its future never completes and cancelling does nothing. A worker
/// whose claim loop drew that connection stopped for good (upstream: PR #487 fixed it, #501 reverted
/// it). So every statement runs through `connection(_:)`: a connection that is already closed is
/// refused, and the work is raced against the connection's `closeFuture`, which completes right after
/// any statement on it can no longer be answered. Either way the caller gets `StoreError.connectionLost`
/// at once (retryable) and its usual retry takes another connection. Rows are read in full before the
/// connection goes back to the pool.
///
/// The wait for a connection is bounded too (`leaseLimit`): a backstop for the pool keeping a request
/// queued while it opens no connection for it (upstream issue #657), not the mechanism of recovery.
enum Pooled {
    static let leaseLimit: Duration = .seconds(15)

    /// `query`'s rows, on a pooled connection.
    static func rows(_ client: PostgresClient, _ query: PostgresQuery, logger: Logger) async throws -> [PostgresRow] {
        try await connection(client) { connection in try await connection.query(query, logger: logger).collect() }
    }

    /// A prepared statement's rows, on a pooled connection.
    static func execute<Statement: PostgresPreparedStatement>(
        _ client: PostgresClient, _ statement: Statement, logger: Logger
    ) async throws -> [Statement.Row] where Statement.Row: Sendable {
        try await connection(client) { connection in
            var rows: [Statement.Row] = []
            for try await row in try await connection.execute(statement, logger: logger) { rows.append(row) }
            return rows
        }
    }

    /// `body` in a transaction on a pooled connection: committed when it returns, rolled back when it
    /// throws (its error is rethrown as it is).
    static func transaction<T: Sendable>(
        _ client: PostgresClient, logger: Logger, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        try await connection(client) { connection in
            _ = try await connection.query("BEGIN", logger: logger)
            let value: T
            do {
                value = try await body(connection)
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger)
                throw error
            }
            _ = try await connection.query("COMMIT", logger: logger)
            return value
        }
    }

    /// Runs `body` on a pooled connection, guarded as described above: it ends with `body`'s outcome,
    /// `StoreError.connectionLost` when the connection closes first, `StoreError.connectionWait` when no
    /// connection was leased within `limit`, or `CancellationError` when the caller is cancelled while
    /// waiting for one (a caller cancelled later waits for `body`, which sees the cancellation).
    static func connection<T: Sendable>(
        _ client: PostgresClient, limit: Duration = leaseLimit, clock: any Clock<Duration> = ContinuousClock(),
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let race = Race<T>()
        // A task of its own: when the connection drops a statement, `body` never returns, and the task
        // is left behind (suspended, a few hundred bytes) while the caller goes on.
        let work = Task {
            do {
                let value = try await client.withConnection { connection in
                    guard race.leased() else { throw CancellationError() }  // the caller stopped waiting
                    return try await CloseWatch.race(connection, race: race) { try await body(connection) }
                }
                race.finish(.success(value))
            } catch {
                race.finish(.failure(error))
            }
        }
        let timer = Task {
            try await clock.sleep(for: limit)
            if race.finishUnleased(.failure(StoreError.connectionWait(limit))) { work.cancel() }
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await race.value()
        } onCancel: {
            // Waiting for a connection: stop now. Running `body`: it sees the cancellation and ends.
            race.finishUnleased(.failure(CancellationError()))
            work.cancel()
        }
    }
}

/// The first outcome of a pooled call resumes its caller; the later ones are dropped.
final class Race<T: Sendable>: Sendable {
    private struct State {
        var leased = false
        var outcome: Result<T, any Error>?
        var waiter: CheckedContinuation<T, any Error>?
    }
    private let state = Mutex(State())

    /// Called with the leased connection: false if the caller already gave up waiting for it.
    func leased() -> Bool {
        state.withLock { state in
            if state.outcome != nil { return false }
            state.leased = true
            return true
        }
    }

    func finish(_ outcome: Result<T, any Error>) { complete(outcome, onlyUnleased: false) }

    /// Ends the wait only while no connection is leased yet; true if it did.
    @discardableResult
    func finishUnleased(_ outcome: Result<T, any Error>) -> Bool { complete(outcome, onlyUnleased: true) }

    @discardableResult
    private func complete(_ outcome: Result<T, any Error>, onlyUnleased: Bool) -> Bool {
        let waiter = state.withLock { state -> CheckedContinuation<T, any Error>?? in
            if state.outcome != nil || (onlyUnleased && state.leased) { return .none }
            state.outcome = outcome
            defer { state.waiter = nil }
            return .some(state.waiter)
        }
        guard case .some(let continuation) = waiter else { return false }
        continuation?.resume(with: outcome)
        return true
    }

    func value() async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<T, any Error>? in
                if let outcome = state.outcome { return outcome }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }
}

/// One `closeFuture` callback per connection, however many statements run on it: a callback per
/// statement would pile up on a connection that lives for days.
enum CloseWatch {
    private struct Entry {
        var watchers: [Int: @Sendable () -> Void] = [:]
    }
    private static let state = Mutex<(next: Int, entries: [ObjectIdentifier: Entry])>((0, [:]))

    /// `body`'s result, or `StoreError.connectionLost` (finishing `race`) as soon as `connection`
    /// closes, whichever comes first. `body` keeps running after a close; its result is then dropped.
    static func race<T: Sendable>(
        _ connection: PostgresConnection, race: Race<T>, _ body: @Sendable () async throws -> T
    ) async throws -> T {
        guard !connection.isClosed else { throw StoreError.connectionLost }
        let key = ObjectIdentifier(connection)
        let (id, first) = state.withLock { state -> (Int, Bool) in
            state.next += 1
            let first = state.entries[key] == nil
            state.entries[key, default: Entry()].watchers[state.next] = { race.finish(.failure(StoreError.connectionLost)) }
            return (state.next, first)
        }
        if first {
            connection.closeFuture.whenComplete { _ in
                let watchers = state.withLock { $0.entries.removeValue(forKey: key)?.watchers.values.map { $0 } ?? [] }
                for watcher in watchers { watcher() }
            }
        }
        defer { state.withLock { _ = $0.entries[key]?.watchers.removeValue(forKey: id) } }
        // Closed between the check and the registration: the callback may have run before we were in it.
        guard !connection.isClosed else { throw StoreError.connectionLost }
        return try await body()
    }
}

extension Array where Element == PostgresRow {
    /// Every row decoded as `type` (one column).
    func decode<Column: PostgresDecodable>(_ type: Column.Type) throws -> [Column] {
        try map { try $0.decode(type) }
    }

    /// Every row decoded as a tuple of columns.
    func decode<each Column: PostgresDecodable>(_ type: (repeat each Column).Type) throws -> [(repeat each Column)] {
        try map { try $0.decode(type) }
    }
}
