import AlfredCore
import Foundation
import Logging
import Metrics

/// What a process's components take from their surroundings, as one value: the clock that times
/// sleeps and timeouts, wall time, randomness (retry jitter), the metrics factory, the logger, and
/// who hears the worker's events. The executables pass the real ones (`live`); tests pass a manual
/// clock, a seeded generator, counting metrics and an event log, and so run the same composition
/// (`WorkerApp`, `APIServer`) that ships, with nothing read from a global.
public struct Runtime<C: Clock<Duration>>: Sendable {
    public var clock: C
    public var now: @Sendable () -> Date
    public var random: AnyGenerator
    public var metrics: any MetricsFactory
    public var logger: Logger
    public var events: WorkerEvents

    public init(clock: C, now: @escaping @Sendable () -> Date, random: AnyGenerator, metrics: any MetricsFactory,
                logger: Logger, events: WorkerEvents = .none) {
        self.clock = clock; self.now = now; self.random = random; self.metrics = metrics; self.logger = logger; self.events = events
    }

    /// The same runtime with another logger (a component's own label or metadata).
    public func with(logger: Logger) -> Runtime {
        var copy = self
        copy.logger = logger
        return copy
    }
}

extension Runtime where C == ContinuousClock {
    /// Real time, system randomness, and the process's metrics (`MetricsSystem`, bootstrapped by the
    /// executable before it builds anything).
    public static func live(logger: Logger, metrics: any MetricsFactory = MetricsSystem.factory, events: WorkerEvents = .none) -> Runtime {
        Runtime(clock: ContinuousClock(), now: { Date() }, random: AnyGenerator(SystemRandomNumberGenerator()),
                metrics: metrics, logger: logger, events: events)
    }
}

/// What a worker did with a job: for tests to wait on instead of polling rows or reading logs, and
/// for anything else that watches a worker. Ids and kinds only, never a payload.
public struct WorkerEvent: Sendable, Equatable, CustomStringConvertible {
    public enum What: Sendable, Equatable {
        /// Taken by a claim (its handler starts at once, or at its due time if claimed ahead).
        case claimed
        /// Its handler started.
        case started
        /// The handler finished and the store took its outcome (done, or scheduled to run again).
        case completed
        /// The handler finished, but the lease was gone (rescued or cancelled meanwhile): nothing was written.
        case outcomeRefused
        /// A failed attempt, recorded: `queued` (to retry), `discarded`, `expired`; nil when the lease was gone.
        case failed(JobState?)
        /// Put off without using an attempt (`JobError.snooze`).
        case snoozed
        /// Handed back at shutdown, its attempt unused.
        case released
        /// A heartbeat found the lease gone while the handler ran.
        case leaseLost
    }

    public let job: JobID
    /// The job's kind as registered (`unknown` for a kind this worker has no handler for).
    public let kind: String
    public let queue: String
    public let attempt: Int
    public let what: What

    public init(job: JobID, kind: String, queue: String, attempt: Int, what: What) {
        self.job = job; self.kind = kind; self.queue = queue; self.attempt = attempt; self.what = what
    }

    public var description: String { "\(kind) \(job) attempt \(attempt) on \(queue): \(what)" }

    /// True for the events after which the worker holds the job no more.
    public var isFinal: Bool {
        switch what {
        case .completed, .outcomeRefused, .failed, .snoozed, .released: true
        case .claimed, .started, .leaseLost: false
        }
    }
}

/// Where a worker's events go (nowhere by default).
public struct WorkerEvents: Sendable {
    let sink: (@Sendable (WorkerEvent) -> Void)?

    public init(_ sink: @escaping @Sendable (WorkerEvent) -> Void) { self.sink = sink }
    private init() { sink = nil }

    public static let none = WorkerEvents()

    @inline(__always) func emit(_ event: @autoclosure () -> WorkerEvent) {
        if let sink { sink(event()) }
    }
}
