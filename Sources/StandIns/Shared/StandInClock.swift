import Foundation
import Synchronization

/// The stand-in's notion of "now": a base clock plus an offset that the control plane can advance,
/// so tests can expire codes, access tokens and refresh tokens without waiting an hour or a week.
public final class StandInClock: Sendable {
    private let base: @Sendable () -> Date
    private let offset = Mutex<TimeInterval>(0)

    /// - Parameter now: the base clock; tests may pin it. Defaults to the system clock.
    public init(now: @escaping @Sendable () -> Date = { Date() }) {
        base = now
    }

    public func now() -> Date {
        base().addingTimeInterval(offset.withLock { $0 })
    }

    /// Moves this clock forward (never back: expiries already handed out must stay monotonic).
    public func advance(bySeconds seconds: TimeInterval) {
        precondition(seconds >= 0, "StandInClock only moves forward; got \(seconds) s")
        offset.withLock { $0 += seconds }
    }

    func reset() {
        offset.withLock { $0 = 0 }
    }
}
