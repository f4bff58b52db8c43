import Synchronization

/// A worker process's presence in the database: a session-level advisory lock it holds on a
/// connection of its own (migration 0023). Claims made under a session record its key; when the
/// session ends, Postgres drops the lock and the rescuer frees those jobs at once, so a killed
/// worker costs its jobs seconds, not their lease. `PostgresPresence` is the real one.
public protocol WorkerPresence: Sendable {
    /// The session claims are made under now; nil while there is none (connecting again), when
    /// claims fall back to the lease alone.
    var current: PresenceSession? { get }
}

/// One session of a worker's presence. `end()` is called once the process knows the session is
/// over; everything running under claims made in it is stopped then, before the database is
/// reachable again for another worker to take those jobs.
public final class PresenceSession: Sendable {
    /// The advisory lock's key (the second of its two numbers): positive, random per session.
    public let key: Int32
    private let state = Mutex<(ended: Bool, waiters: [UInt64: CheckedContinuation<Void, Never>], next: UInt64)>((false, [:], 0))

    public init(key: Int32) { self.key = key }

    public var hasEnded: Bool { state.withLock { $0.ended } }

    /// Marks the session over and wakes everything waiting in `ended()`.
    public func end() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.ended = true
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the session has ended, or when the calling task is cancelled.
    public func ended() async {
        let id = state.withLock { state -> UInt64 in
            state.next += 1
            return state.next
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.ended || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }
}
