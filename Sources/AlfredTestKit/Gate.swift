import Synchronization

/// A signal many tasks can wait on: `wait()` returns while the gate is open and suspends while it is
/// closed, until `open()`. A test holds handlers at a point of its choosing with it, instead of sleeping.
public final class Gate: Sendable {
    private let state: Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>

    public init(open: Bool = false) { state = Mutex((open, [])) }

    public func wait() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if state.open { return true }
                state.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    public func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    public func close() { state.withLock { $0.open = false } }
}
