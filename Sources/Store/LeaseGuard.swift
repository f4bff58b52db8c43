import Logging
import PostgresNIO
import Synchronization

/// Bounds how long a store call waits for a pooled connection.
///
/// postgres-nio's pool (1.33) can lose a request for a connection that was queued while new
/// connections were failing. We saw it after a Postgres restart under load: the pool reconnected
/// and served everyone else, but that one request was never answered, not even when cancelled, so
/// its caller waited forever (a worker's claim loop stopped for good). Every store call therefore
/// waits at most `limit` for its connection and for its statement to start, then fails with a
/// retryable `StoreError`, and the callers' usual retries take over. Once a statement has started
/// there is no limit: how long it runs is Postgres's business (`statement_timeout`).
enum LeaseGuard {
    static let limit: Duration = .seconds(15)

    /// `client.query`, bounded as above.
    static func query(
        _ client: PostgresClient, _ query: PostgresQuery, logger: Logger, limit: Duration = limit
    ) async throws -> PostgresRowSequence {
        let race = Race<PostgresRowSequence>()
        return try await race.run(limit: limit, giveUp: { race.abandon() }) {
            let work = Task {
                let result: Result<PostgresRowSequence, any Error>
                do { result = .success(try await client.query(query, logger: logger)) } catch { result = .failure(error) }
                if !race.finish(result), case .success(let rows) = result {
                    // Too late: nobody reads these rows, so read them here to give the connection back.
                    for try await _ in rows {}
                }
            }
            race.onAbandon { work.cancel() }
        }
    }

    /// `client.withTransaction`, with the wait for its connection bounded as above. `body` runs in the
    /// caller's task; a failure in it rolls back and is rethrown as it is.
    static func transaction<T: Sendable>(
        _ client: PostgresClient, logger: Logger, limit: Duration = limit,
        _ body: (PostgresConnection) async throws -> T
    ) async throws -> T {
        let handoff = Handoff()
        // The lease is held by a task of its own, which hands the connection over and keeps it until
        // the caller gives it back; if the caller gave up waiting, the connection goes straight back.
        let holder = Task {
            try await client.withConnection { connection in
                guard handoff.offer(connection) else { return }
                await handoff.waitForReturn()
            }
        }
        let connection: PostgresConnection
        do {
            connection = try await Self.wait(for: handoff, holder: holder, limit: limit)
        } catch {
            holder.cancel()
            throw error
        }
        defer { handoff.giveBack() }
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

    private static func wait(for handoff: Handoff, holder: Task<Void, any Error>, limit: Duration) async throws -> PostgresConnection {
        let race = Race<PostgresConnection>()
        return try await race.run(limit: limit, giveUp: { handoff.refuse() }) {
            handoff.onOffer { race.finish(.success($0)) }
            Task {
                // The holder failed before offering (the pool refused the lease, or it was cancelled).
                if case .failure(let error) = await holder.result { race.finish(.failure(error)) }
            }
        }
    }
}

/// The first of several outcomes resumes the caller; the others are told they lost.
private final class Race<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        var early: Result<T, any Error>?
        var done = false
        var abandon: (@Sendable () -> Void)?
        var abandoned = false
    }
    private let state = Mutex(State())

    private func start(_ continuation: CheckedContinuation<T, any Error>) {
        let early = state.withLock { state -> Result<T, any Error>? in
            if let early = state.early { return early }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    /// Returns true if this outcome was the first.
    @discardableResult
    func finish(_ result: Result<T, any Error>) -> Bool {
        let (first, continuation) = state.withLock { state -> (Bool, CheckedContinuation<T, any Error>?) in
            if state.done { return (false, nil) }
            state.done = true
            defer { state.continuation = nil }
            if state.continuation == nil { state.early = result }
            return (true, state.continuation)
        }
        continuation?.resume(with: result)
        return first
    }

    /// Sets `start` going and returns the first of: the outcome it passes to `finish`,
    /// `StoreError.connectionWait` once `limit` has passed, or `CancellationError`. `giveUp` runs when
    /// one of the last two came first, to stop or undo what `start` set going.
    func run(limit: Duration, giveUp: @escaping @Sendable () -> Void, start: () -> Void) async throws -> T {
        let timer = Task {
            try await Task.sleep(for: limit)
            if finish(.failure(StoreError.connectionWait(limit))) { giveUp() }
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                self.start(continuation)
                start()
            }
        } onCancel: {
            if finish(.failure(CancellationError())) { giveUp() }
        }
    }

    func onAbandon(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            if state.abandoned { return true }
            state.abandon = action
            return false
        }
        if now { action() }
    }

    func abandon() {
        let action = state.withLock { state -> (@Sendable () -> Void)? in
            state.abandoned = true
            defer { state.abandon = nil }
            return state.abandon
        }
        action?()
    }
}

/// A leased connection passed from the task holding the lease to the caller, and back.
private final class Handoff: Sendable {
    private struct State {
        var accept: (@Sendable (PostgresConnection) -> Bool)?
        var offered: PostgresConnection?
        var refused = false
        var returned = false
        var waiter: CheckedContinuation<Void, Never>?
    }
    private let state = Mutex(State())

    /// The caller's side: `accept` returns false if the caller stopped waiting.
    func onOffer(_ accept: @escaping @Sendable (PostgresConnection) -> Bool) {
        let early = state.withLock { state -> PostgresConnection? in
            if let offered = state.offered { return offered }
            state.accept = accept
            return nil
        }
        if let early, !accept(early) { giveBack() }
    }

    /// The holder's side: returns false if the caller no longer wants the connection.
    func offer(_ connection: PostgresConnection) -> Bool {
        let accept = state.withLock { state -> (@Sendable (PostgresConnection) -> Bool)?? in
            if state.refused { return .some(nil) }
            if let accept = state.accept { return accept }
            state.offered = connection
            return nil
        }
        switch accept {
        case .some(nil): return false
        case .some(let accept?): return accept(connection)
        case nil: return true  // taken by `onOffer` when it is installed
        }
    }

    func refuse() { state.withLock { $0.refused = true } }

    func waitForReturn() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if state.returned { return true }
                state.waiter = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    func giveBack() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.returned = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }
}
