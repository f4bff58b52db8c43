import AlfredCore
import Foundation
import Synchronization

/// A clock the test drives, for code that takes `some Clock<Duration>` (sleeps, timeouts) or a
/// `@Sendable () -> Date` (`nowDate`, wall time). Its time moves only when the test says so.
///
/// - Manual (the default): `sleep` suspends until `advance(by:)` moves time past the deadline, so a
///   test decides when a timer fires. `waitForSleepers(_:)` returns once the code under test is really
///   suspended, so the test advances only then (never a real sleep as a sync point).
/// - `sleepsAdvance: true`: every sleep returns at once and moves time to its deadline. For backoff
///   that should cost no real time, where the test only reads what was asked (`sleeps`, `totalSlept`).
public final class ManualClock: Clock, Sendable {
    public struct Instant: InstantProtocol, Sendable {
        /// Time since the clock's start.
        public var offset: Duration
        public init(offset: Duration) { self.offset = offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    /// A sleep, from the moment it was asked for: its continuation arrives once the task suspends.
    private enum Sleeper {
        case asked(deadline: Duration)
        case suspended(deadline: Duration, CheckedContinuation<Void, any Error>)
        /// Cancelled before it suspended: it throws as soon as it does.
        case cancelled
    }

    private struct State {
        var now: Duration = .zero
        var sleeps: [Duration] = []
        var nextID = 0
        var sleepers: [Int: Sleeper] = [:]
        var waiters: [Int: (count: Int, continuation: CheckedContinuation<Void, Never>?)] = [:]

        var suspendedCount: Int {
            sleepers.values.reduce(0) { count, sleeper in
                if case .suspended = sleeper { return count + 1 }
                return count
            }
        }

        mutating func id() -> Int {
            nextID += 1
            return nextID
        }

        /// The `waitForSleepers` calls that are now satisfied, removed.
        mutating func satisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            let suspended = suspendedCount
            var ready: [CheckedContinuation<Void, Never>] = []
            for (id, waiter) in waiters where waiter.count <= suspended {
                if let continuation = waiter.continuation {
                    ready.append(continuation)
                    waiters[id] = nil
                }
            }
            return ready
        }
    }

    public let start: Date
    public let sleepsAdvance: Bool
    private let state = Mutex(State())

    /// - Parameters:
    ///   - start: the wall time at offset zero (`date`, `nowDate`).
    ///   - sleepsAdvance: sleeps return at once and move time forward instead of waiting for `advance`.
    public init(start: Date = Date(timeIntervalSince1970: 1_800_000_000), sleepsAdvance: Bool = false) {
        self.start = start
        self.sleepsAdvance = sleepsAdvance
    }

    public var now: Instant { Instant(offset: state.withLock { $0.now }) }
    public var minimumResolution: Duration { .zero }

    /// Wall time on this clock: `start` plus the time advanced so far.
    public var date: Date { start.addingTimeInterval(now.offset.seconds) }
    /// `date` as a closure, for APIs that take `now: @Sendable () -> Date`.
    public var nowDate: @Sendable () -> Date { { self.date } }

    /// Every sleep asked for, in order (time from the request to the deadline).
    public var sleeps: [Duration] { state.withLock { $0.sleeps } }
    public var totalSlept: Duration { sleeps.reduce(.zero, +) }
    /// Tasks suspended in `sleep` right now. Exact after `advance` returns: the sleepers it woke are gone.
    public var suspendedSleepers: Int { state.withLock { $0.suspendedCount } }

    /// Moves time forward and resumes every sleeper whose deadline is reached, earliest first.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "a clock does not go back")
        let due = state.withLock { state in
            state.now += duration
            return Self.removeDue(&state)
        }
        for continuation in due { continuation.resume() }
    }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        enum Asked { case done, wait(Int) }
        let asked = state.withLock { state -> Asked in
            state.sleeps.append(max(.zero, deadline.offset - state.now))
            if sleepsAdvance {
                state.now = max(state.now, deadline.offset)
                return .done
            }
            if deadline.offset <= state.now { return .done }
            let id = state.id()
            state.sleepers[id] = .asked(deadline: deadline.offset)
            return .wait(id)
        }
        guard case .wait(let id) = asked else { return }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resume, ready) = state.withLock { state -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
                    switch state.sleepers[id] {
                    case .asked(let deadline) where deadline > state.now:
                        state.sleepers[id] = .suspended(deadline: deadline, continuation)
                        return (nil, state.satisfiedWaiters())
                    case .cancelled:
                        state.sleepers[id] = nil
                        return (.failure(CancellationError()), [])
                    default:  // advanced past the deadline before it suspended
                        state.sleepers[id] = nil
                        return (.success(()), [])
                    }
                }
                for waiter in ready { waiter.resume() }
                if let resume { continuation.resume(with: resume) }
            }
        } onCancel: {
            let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
                switch state.sleepers[id] {
                case .asked:
                    state.sleepers[id] = .cancelled
                case .suspended(_, let continuation):
                    state.sleepers[id] = nil
                    return continuation
                case .cancelled, nil:
                    break
                }
                return nil
            }
            continuation?.resume(throwing: CancellationError())
        }
    }

    /// Returns once at least `count` tasks are suspended in `sleep` on this clock (or when the calling
    /// task is cancelled), so the test advances time only after the code under test is waiting.
    public func waitForSleepers(_ count: Int) async {
        let id = state.withLock { state -> Int? in
            if state.suspendedCount >= count { return nil }
            let id = state.id()
            state.waiters[id] = (count, nil)
            return id
        }
        guard let id else { return }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    guard state.waiters[id] != nil else { return true }  // cancelled meanwhile
                    if state.suspendedCount >= count {
                        state.waiters[id] = nil
                        return true
                    }
                    state.waiters[id] = (count, continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        } onCancel: {
            let continuation = state.withLock { $0.waiters.removeValue(forKey: id)?.continuation }
            continuation?.resume()
        }
    }

    /// Removes the suspended sleepers whose deadline is reached, earliest deadline first.
    private static func removeDue(_ state: inout State) -> [CheckedContinuation<Void, any Error>] {
        let due = state.sleepers.compactMap { id, sleeper -> (id: Int, deadline: Duration, CheckedContinuation<Void, any Error>)? in
            guard case .suspended(let deadline, let continuation) = sleeper, deadline <= state.now else { return nil }
            return (id, deadline, continuation)
        }.sorted { ($0.deadline, $0.id) < ($1.deadline, $1.id) }
        for sleeper in due { state.sleepers[sleeper.id] = nil }
        return due.map(\.2)
    }
}
