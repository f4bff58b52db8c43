import Synchronization

/// At most `limit` APNs requests of this worker in flight; the rest wait here, first come first
/// served. A request queued inside the HTTP client would spend its timeout waiting for a stream, and
/// a timeout after the request left is in doubt; waiting here costs nothing but the wait.
///
/// It also tells when a burst's requests are all out (`untilNoneWaiting`): the bookkeeping after a
/// send waits for that, so that the sends of a burst get the machine first.
final class SendPermits: Sendable {
    private struct State {
        var available: Int
        /// Waiters from `head` on (a burst queues thousands: no shifting per release).
        var waiters: [CheckedContinuation<Void, Never>] = []
        var head = 0
        /// Waiting for no request to be waiting.
        var quiet: [CheckedContinuation<Void, Never>] = []
    }
    private let state: Mutex<State>

    init(limit: Int) {
        precondition(limit > 0)
        state = Mutex(State(available: limit))
    }

    /// Requests waiting for a permit (tests).
    var waitingCount: Int { state.withLock { $0.waiters.count - $0.head } }
    /// Callers of `untilNoneWaiting` still waiting (tests).
    var quietWaitingCount: Int { state.withLock { $0.quiet.count } }

    func withPermit<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                if state.available > 0 {
                    state.available -= 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    /// Returns once no request is waiting for a permit (at once if none is). Bounded by the burst:
    /// a worker holds at most its delivery concurrency of pushes, so the queue drains.
    func untilNoneWaiting() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                if state.head >= state.waiters.count { return true }
                state.quiet.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    private func release() {
        let (next, quiet) = state.withLock { state -> (CheckedContinuation<Void, Never>?, [CheckedContinuation<Void, Never>]) in
            guard state.head < state.waiters.count else {
                state.available += 1
                return (nil, [])
            }
            let next = state.waiters[state.head]
            state.head += 1
            var quiet: [CheckedContinuation<Void, Never>] = []
            if state.head == state.waiters.count {
                state.waiters.removeAll(keepingCapacity: true)
                state.head = 0
                swap(&quiet, &state.quiet)
            } else if state.head >= 4096 {
                state.waiters.removeFirst(state.head)
                state.head = 0
            }
            return (next, quiet)
        }
        next?.resume()
        for waiter in quiet { waiter.resume() }
    }
}
