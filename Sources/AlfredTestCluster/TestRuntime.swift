import AlfredCore
import Foundation
import JobQueue
import Logging

extension Runtime {
    /// A test's runtime: its clock (wall time from a manual clock's `date` when it is one), a seeded
    /// generator, counting metrics and, if given, an event log.
    public static func test(clock: C, logger: Logger = TestDatabase.quietLogger, metrics: CountingMetrics = CountingMetrics(),
                            events: EventLog<WorkerEvent>? = nil, seed: UInt64 = 1) -> Runtime {
        var now: @Sendable () -> Date = { Date() }
        if let manual = clock as? ManualClock { now = manual.nowDate }
        return Runtime(clock: clock, now: now, random: AnyGenerator(SeededGenerator(seed: seed)), metrics: metrics, logger: logger,
                       events: events.map { log in WorkerEvents(log.record) } ?? .none)
    }
}
