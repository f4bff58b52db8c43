import Foundation

/// A job's identity: the `jobs.id` UUID, time-ordered by default (`UUID.timeOrdered`).
public struct JobID: Hashable, Sendable, CustomStringConvertible, Codable {
    public let uuid: UUID
    public init(_ uuid: UUID = .timeOrdered()) { self.uuid = uuid }
    public init?(_ string: String) {
        guard let uuid = UUID(uuidString: string) else { return nil }
        self.uuid = uuid
    }
    public var description: String { uuid.uuidString.lowercased() }
}

/// A job kind: a stable string stored in rows (`"calendar.sync"`), never a Swift type name, so
/// renaming a type never strands queued jobs. Carries the per-kind defaults used at enqueue time.
public struct JobKind: Hashable, Sendable, CustomStringConvertible {
    public let name: String
    /// The queue this kind runs on by default (delivery has its own so slow APNs calls never starve claiming).
    public let queue: String
    public let maxAttempts: Int
    /// Tie-breaker among jobs due at the same instant (top-of-the-hour bursts); higher runs first.
    public let priority: Int16

    public init(_ name: String, queue: String = "default", maxAttempts: Int = 20, priority: Int16 = 0) {
        precondition(maxAttempts >= 1, "a job kind needs at least one attempt")
        self.name = name
        self.queue = queue
        self.maxAttempts = maxAttempts
        self.priority = priority
    }

    public var description: String { name }

    /// Built-in kind for smoke tests, demos and benchmarks.
    public static let noop = JobKind("noop", maxAttempts: 3)
}

/// Where a job is in its life. Terminal states are final: nothing moves a job out of them
/// except an operator's explicit `retry`, which re-queues it as a fresh attempt series.
public enum JobState: String, Sendable, CaseIterable, Codable {
    case queued, running, completed, discarded, cancelled, expired

    public var isTerminal: Bool {
        switch self {
        case .queued, .running: false
        case .completed, .discarded, .cancelled, .expired: true
        }
    }

    /// Transitions the queue performs. `running -> queued` is a retry, snooze, release or rescue;
    /// `queued -> queued` is a reschedule through a unique key.
    public func canMove(to next: JobState) -> Bool {
        switch (self, next) {
        case (.queued, .running), (.queued, .cancelled), (.queued, .queued): true
        case (.running, _): next != .running
        case (_, .queued) where isTerminal: true  // operator retry
        default: false
        }
    }
}

/// When a job should run. `.now` and `.after` are resolved against the database clock, so app and
/// database clocks never get compared with each other.
public enum JobSchedule: Sendable, Equatable {
    case now
    case after(Duration)
    case at(Date)
}

/// A job to put on the queue.
public struct NewJob: Sendable {
    /// Chosen by the caller when another row must name the job before it exists; random otherwise.
    public var id: JobID?
    public var kind: JobKind
    public var payload: [UInt8]
    public var schedule: JobSchedule
    /// After this instant the job is no longer useful: it is `expired` rather than retried.
    public var deadline: Date?
    /// While a job with this key is queued or running, another enqueue with it is idempotent.
    public var uniqueKey: String?
    public var userID: UUID?
    public var queue: String
    public var maxAttempts: Int
    public var priority: Int16

    public init(kind: JobKind, payload: [UInt8] = [], schedule: JobSchedule = .now, deadline: Date? = nil,
                uniqueKey: String? = nil, userID: UUID? = nil) {
        self.kind = kind
        self.payload = payload
        self.schedule = schedule
        self.deadline = deadline
        self.uniqueKey = uniqueKey
        self.userID = userID
        self.queue = kind.queue
        self.maxAttempts = kind.maxAttempts
        self.priority = kind.priority
    }
}

/// What to do when a job with the same unique key is already queued or running.
public enum UniqueConflict: Sendable {
    /// Change nothing (the default: enqueue is idempotent).
    case keep
    /// Move the queued job to the new schedule and deadline (a moved meeting reschedules its reminder).
    case replaceSchedule
}

/// The result of one enqueue.
public enum EnqueueResult: Sendable, Equatable {
    case inserted(JobID)
    /// A job with the same unique key was already queued or running; nothing changed.
    case duplicate(JobID?)
    /// A queued job with the same unique key was moved to the new schedule.
    case rescheduled(JobID)

    public var jobID: JobID? {
        switch self {
        case .inserted(let id), .rescheduled(let id): id
        case .duplicate(let id): id
        }
    }
}

/// A job a worker holds a lease on.
public struct ClaimedJob: Sendable {
    public let id: JobID
    public let kind: String
    public let queue: String
    public let payload: [UInt8]
    /// 1 for the first attempt.
    public let attempt: Int
    public let maxAttempts: Int
    public let leaseToken: UUID
    public let deadline: Date?
    public let userID: UUID?
    /// Claim time minus `due_at`, by the database clock.
    public let lateness: Duration
    /// The deadline had passed at claim time, by the database clock: the job must not run.
    public let pastDeadline: Bool
    /// `due_at` minus claim time, by the database clock: zero unless claimed ahead (`ClaimAhead`).
    public let dueIn: Duration
    /// Claim time minus the time the job was meant for (`scheduled_at`), which retries, snoozes and
    /// rescues do not move: how late the work itself is, where `lateness` is this attempt's.
    public let sinceScheduled: Duration

    public init(id: JobID, kind: String, queue: String, payload: [UInt8], attempt: Int, maxAttempts: Int,
                leaseToken: UUID, deadline: Date?, userID: UUID?, lateness: Duration, pastDeadline: Bool = false,
                dueIn: Duration = .zero, sinceScheduled: Duration? = nil) {
        self.id = id; self.kind = kind; self.queue = queue; self.payload = payload; self.attempt = attempt
        self.maxAttempts = maxAttempts; self.leaseToken = leaseToken; self.deadline = deadline
        self.userID = userID; self.lateness = lateness; self.pastDeadline = pastDeadline; self.dueIn = dueIn
        self.sinceScheduled = sinceScheduled ?? lateness
    }

    public var lease: Lease { Lease(id: id, token: leaseToken) }
}

/// Proof that a worker holds a job: every state change is guarded by it.
public struct Lease: Hashable, Sendable {
    public let id: JobID
    public let token: UUID
    public init(id: JobID, token: UUID) { self.id = id; self.token = token }
}

/// A successful run: finished, or (recurring) back to `queued` at the next run time.
public struct Completion: Sendable {
    public let lease: Lease
    public let next: JobSchedule?
    public init(lease: Lease, next: JobSchedule? = nil) { self.lease = lease; self.next = next }
}

/// What a failed attempt leads to, decided by `RetryPolicy` and the error's class.
public enum FailureDisposition: Sendable, Equatable {
    /// Back to `queued` after this delay, unless that is past the job's deadline (then `expired`).
    case retry(after: Duration)
    /// Terminal: `discarded` with the reason recorded.
    case discard
}

/// A row as operators see it (`alfred jobs list`).
public struct JobSummary: Sendable, Codable {
    public let id: JobID
    public let kind: String
    public let queue: String
    public let state: JobState
    public let attempts: Int
    public let maxAttempts: Int
    public let dueAt: Date
    public let lastError: String?
    public init(id: JobID, kind: String, queue: String, state: JobState, attempts: Int, maxAttempts: Int,
                dueAt: Date, lastError: String?) {
        self.id = id; self.kind = kind; self.queue = queue; self.state = state; self.attempts = attempts
        self.maxAttempts = maxAttempts; self.dueAt = dueAt; self.lastError = lastError
    }
}

/// Counts by queue and state, and how overdue the oldest ready job is.
public struct QueueStats: Sendable, Codable, Equatable {
    public struct Row: Sendable, Codable, Equatable {
        public let queue: String
        public let state: JobState
        public let count: Int
        public init(queue: String, state: JobState, count: Int) { self.queue = queue; self.state = state; self.count = count }
    }
    public struct Ready: Sendable, Codable, Equatable {
        public let queue: String
        /// Queued jobs whose `due_at` has passed.
        public let depth: Int
        /// Seconds since the oldest ready job became due (0 when none is ready).
        public let oldestDueAgeSeconds: Double
        /// An operator paused the queue (`alfred jobs pause`): its backlog is intended, not a fault.
        public let paused: Bool
        public init(queue: String, depth: Int, oldestDueAgeSeconds: Double, paused: Bool = false) {
            self.queue = queue; self.depth = depth; self.oldestDueAgeSeconds = oldestDueAgeSeconds; self.paused = paused
        }
    }
    public let rows: [Row]
    public let ready: [Ready]
    public init(rows: [Row], ready: [Ready]) { self.rows = rows; self.ready = ready }
}

extension UUID {
    /// A version 7 UUID (RFC 9562): the Unix time in milliseconds in the first 48 bits, then random
    /// bits. Jobs created together get neighbouring ids, so the primary-key entries that every claim
    /// and completion writes (a state change is never a HOT update: `state` is in the partial
    /// indexes' predicates) land on a few recent index pages rather than on random ones. With random
    /// ids, at a million users' size, the first write to each of those pages after a checkpoint logged
    /// a full page image (`alfred-bench scale`).
    public static func timeOrdered(at date: Date = Date()) -> UUID {
        let millis = UInt64(max(0, date.timeIntervalSince1970 * 1000))
        var bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max) }
        for i in 0..<6 { bytes[i] = UInt8(truncatingIfNeeded: millis >> (40 - 8 * UInt64(i))) }
        bytes[6] = 0x70 | (bytes[6] & 0x0F)  // version 7
        bytes[8] = 0x80 | (bytes[8] & 0x3F)  // variant 10
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
