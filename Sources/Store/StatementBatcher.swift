import Synchronization

/// Many callers' requests answered by one statement: the delivery stage's reads and writes in a burst.
///
/// No timer and no task of its own. A caller that finds fewer than `maxInFlight` statements running
/// runs one at once, for itself and whoever is waiting (up to `maxBatch`); a caller that finds them all
/// busy waits, and the next statement takes it along. So under light load a request costs one
/// statement as before, and under heavy load requests share statements (and their round trip, plan
/// and commit) by themselves. When a statement's runner finishes, it hands the next batch to the
/// first waiter, whose own task runs it.
///
/// Requests with the same `key` never share a statement: two runs of one push must see each other's
/// writes, as they would with a statement each. A failed statement of several requests is retried one
/// request at a time, so one bad request fails only itself; a lost connection fails them all (their
/// callers retry, as they would have).
final class StatementBatcher<Request: Sendable, Key: Hashable, Response: Sendable>: Sendable {
    private enum Turn: Sendable {
        case answered(Result<Response, any Error>)
        case run
    }

    private struct Waiter {
        let request: Request
        let continuation: CheckedContinuation<Turn, Never>
    }

    private struct State {
        var waiting: [Waiter] = []
        var running = 0
        /// `waitUntilWaiting` callers: how many waiters each needs.
        var watchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// The watchers now satisfied, removed.
        mutating func satisfiedWatchers() -> [CheckedContinuation<Void, Never>] {
            let count = waiting.count
            let ready = watchers.filter { $0.count <= count }.map(\.continuation)
            watchers.removeAll { $0.count <= count }
            return ready
        }
    }

    private let state = Mutex(State())
    private let maxBatch: Int
    private let maxInFlight: Int
    private let key: @Sendable (Request) -> Key
    private let execute: @Sendable ([Request]) async throws -> [Response]

    /// - Parameter execute: answers every request, in order, in one statement.
    init(maxBatch: Int = 500, maxInFlight: Int = 2, key: @escaping @Sendable (Request) -> Key,
         execute: @escaping @Sendable ([Request]) async throws -> [Response]) {
        precondition(maxBatch > 0 && maxInFlight > 0)
        self.maxBatch = maxBatch
        self.maxInFlight = maxInFlight
        self.key = key
        self.execute = execute
    }

    /// Requests waiting for a statement (tests).
    var waiting: Int { state.withLock { $0.waiting.count } }

    /// Returns once at least `count` requests wait for a statement (tests: no polling, no sleeping).
    func waitUntilWaiting(atLeast count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.waiting.count >= count { return true }
                state.watchers.append((count, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }

    func submit(_ request: Request) async throws -> Response {
        let turn = await withCheckedContinuation { (continuation: CheckedContinuation<Turn, Never>) in
            let (runNow, watchers) = state.withLock { state -> (Bool, [CheckedContinuation<Void, Never>]) in
                if state.running < maxInFlight {
                    state.running += 1
                    return (true, [])
                }
                state.waiting.append(Waiter(request: request, continuation: continuation))
                return (false, state.watchers.isEmpty ? [] : state.satisfiedWatchers())
            }
            if runNow { continuation.resume(returning: .run) }
            for watcher in watchers { watcher.resume() }
        }
        switch turn {
        case .answered(let result): return try result.get()
        case .run: return try await run(leading: request)
        }
    }

    /// Runs one statement for `own` and the waiters it can take, answers them, and passes the turn on.
    private func run(leading own: Request) async throws -> Response {
        let others = state.withLock { state -> [Waiter] in
            var keys: Set<Key> = [key(own)]
            var taken: [Waiter] = [], left: [Waiter] = []
            for waiter in state.waiting {
                if taken.count < maxBatch - 1, keys.insert(key(waiter.request)).inserted { taken.append(waiter) } else { left.append(waiter) }
            }
            state.waiting = left
            return taken
        }
        let results = await answers([own] + others.map(\.request))
        for (waiter, result) in zip(others, results.dropFirst()) { waiter.continuation.resume(returning: .answered(result)) }
        let next = state.withLock { state -> Waiter? in
            guard !state.waiting.isEmpty else {
                state.running -= 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.continuation.resume(returning: .run)
        return try results[0].get()
    }

    private func answers(_ requests: [Request]) async -> [Result<Response, any Error>] {
        // Shielded: a runner cancelled (its job shut down) must not fail the others' statement.
        let execute = self.execute
        let all = await Task { () -> Result<[Response], any Error> in
            do { return .success(try await execute(requests)) } catch { return .failure(error) }
        }.value
        switch all {
        case .success(let responses):
            guard responses.count == requests.count else {
                let error = StoreError.unexpected("a batched statement answered \(responses.count) of \(requests.count) requests")
                return requests.map { _ in .failure(error) }
            }
            return responses.map { .success($0) }
        case .failure(let error):
            guard requests.count > 1, !Self.isConnectionLevel(error) else { return requests.map { _ in .failure(error) } }
            var results: [Result<Response, any Error>] = []
            for request in requests {
                let one = await Task { () -> Result<Response, any Error> in
                    do {
                        guard let response = try await execute([request]).first else {
                            throw StoreError.unexpected("a batched statement answered no row for its request")
                        }
                        return .success(response)
                    } catch { return .failure(error) }
                }.value
                results.append(one)
            }
            return results
        }
    }

    /// Failures no single request caused: running them one by one would only fail slower.
    private static func isConnectionLevel(_ error: any Error) -> Bool {
        if let error = error as? StoreError { return error.isConnectionLevel }
        return error is CancellationError
    }
}
