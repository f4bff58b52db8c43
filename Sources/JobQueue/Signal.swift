import Synchronization

/// A wake-up flag for one waiting task: `fire()` from anywhere, `wait()` in the loop. Fires while
/// nobody waits are remembered (once), so a wake-up between two waits is never lost.
final class Signal: Sendable {
    private struct State {
        var fired = false
        var waiter: CheckedContinuation<Void, Never>?
    }
    private let state = Mutex(State())

    func fire() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            state.fired = true
            return nil
        }
        waiter?.resume()
    }

    /// Returns when fired (or at once if a fire is pending), ignoring cancellation: for loops that
    /// must keep serving others until told to stop (the completion writer), where waking on
    /// cancellation would only spin.
    func waitForFire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resumeNow = state.withLock { state -> Bool in
                if state.fired {
                    state.fired = false
                    return true
                }
                state.waiter = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    /// Returns when fired (or at once if a fire is pending) or when the task is cancelled.
    func wait() async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.fired || Task.isCancelled {
                        state.fired = false
                        return true
                    }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume()
        }
    }

    /// Waits until fired or until `deadline`. Returns true if fired.
    func wait<C: Clock>(until deadline: C.Instant, clock: C) async -> Bool {
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await self.wait()
                return !Task.isCancelled
            }
            group.addTask {
                try? await clock.sleep(until: deadline, tolerance: nil)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }
}
