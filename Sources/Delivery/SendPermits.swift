import Synchronization

/// At most `limit` APNs requests of this worker in flight; the rest wait here, first come first
/// served. A request queued inside the HTTP client would spend its timeout waiting for a stream, and
/// a timeout after the request left is in doubt; waiting here costs nothing but the wait.
final class SendPermits: Sendable {
    private struct State {
        var available: Int
        /// Waiters from `head` on (a burst queues thousands: no shifting per release).
        var waiters: [CheckedContinuation<Void, Never>] = []
        var head = 0
    }
    private let state: Mutex<State>

    init(limit: Int) {
        precondition(limit > 0)
        state = Mutex(State(available: limit))
    }

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

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.head < state.waiters.count else {
                state.available += 1
                return nil
            }
            let next = state.waiters[state.head]
            state.head += 1
            if state.head == state.waiters.count || state.head >= 4096 {
                state.waiters.removeFirst(state.head)
                state.head = 0
            }
            return next
        }
        next?.resume()
    }
}
