import Synchronization

/// A signal many tasks can wait on: `wait()` returns while the gate is open and suspends while it is
/// closed, until `open()`. A test holds handlers at a point of its choosing with it, instead of sleeping.
public final class Gate: Sendable {
    private struct State {
        var open: Bool
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var next: UInt64 = 0
    }
    private let state: Mutex<State>

    public init(open: Bool = false) { state = Mutex(State(open: open)) }

    /// Waits until the gate is open, whatever happens to the task meanwhile.
    public func wait() async {
        await suspend(id: state.withLock { $0.next += 1; return $0.next }, cancellable: false)
    }

    /// Waits until the gate is open, as a handler honouring cancellation does: throws
    /// `CancellationError` if the task is cancelled first (before or while waiting).
    public func pass() async throws {
        let id = state.withLock { $0.next += 1; return $0.next }
        await withTaskCancellationHandler {
            await suspend(id: id, cancellable: true)
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
        try Task.checkCancellation()
    }

    private func suspend(id: UInt64, cancellable: Bool) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state in
                if state.open || (cancellable && Task.isCancelled) { return true }
                state.waiters[id] = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    public func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    public func close() { state.withLock { $0.open = false } }
}
