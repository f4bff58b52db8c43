import Foundation

/// The queue's storage. `PostgresJobStore` is the real one; every state change names the state and
/// lease it expects, and reports a lost race instead of overwriting.
public protocol JobStore: Sendable {
    /// Enqueue jobs in one statement. Results are in the order of `jobs`.
    func enqueue(_ jobs: [NewJob], onConflict: UniqueConflict) async throws -> [EnqueueResult]

    /// Lease up to `limit` due jobs of `queue`, earliest `due_at` first, in one statement. With
    /// `ahead`, jobs of those kinds due within its window are leased too, before they are due
    /// (`ClaimedJob.dueIn`): their handlers prepare, then wait for the due instant. With `session`,
    /// the claim is made under it (and takes nothing if its lock is no longer held), so the jobs go
    /// back to the queue as soon as the session ends, not when their lease does.
    func claim(queue: String, limit: Int, owner: String, lease: Duration, ahead: ClaimAhead?,
               session: PresenceSession?) async throws -> [ClaimedJob]

    /// Put back, unrun and without using their attempt, the jobs a claim tagged `owner` took: for a
    /// claim whose answer was lost (the connection dropped after the server committed it), so its
    /// jobs run now instead of after their lease expires. Returns how many.
    func releaseClaim(owner: String) async throws -> Int

    /// Finish jobs (or send recurring ones back to `queued`). Returns the leases that were no longer
    /// held (taken over after expiry, or cancelled): those completions were refused.
    func complete(_ completions: [Completion]) async throws -> Set<Lease>

    /// Record a failed attempt. Returns the state the job moved to, or nil if the lease was lost.
    func fail(_ lease: Lease, error: String, disposition: FailureDisposition) async throws -> JobState?

    /// Put a running job back without using an attempt (snooze, or release on shutdown).
    func snooze(_ lease: Lease, for delay: Duration) async throws -> Bool

    /// Extend the leases a worker holds. Returns the leases that were lost.
    func heartbeat(_ leases: [Lease], lease: Duration) async throws -> Set<Lease>

    /// Return jobs whose worker is gone to `queued` (their lease expired, or the presence session
    /// they were claimed under ended), or end them when out of attempts or past their deadline.
    /// Returns the rescued jobs' kinds.
    func rescueExpired(limit: Int) async throws -> [(kind: String, state: JobState)]

    /// Delete finished rows older than `retention`. Returns how many were deleted.
    func prune(olderThan retention: Duration, limit: Int) async throws -> Int

    /// Seconds until the earliest queued job of `queue` is due (negative when overdue), or nil if none is queued.
    /// With `ahead`, jobs of its kinds count from their due time less its window (when a claim takes them).
    func secondsUntilNextDue(queue: String, ahead: ClaimAhead?) async throws -> Double?

    /// Counts by queue and state (scans the table: for operators, not for every scrape).
    func stats() async throws -> QueueStats

    /// Ready-queue depth and oldest due age per queue (uses the ready index: cheap enough to sample).
    func ready() async throws -> [QueueStats.Ready]

    func list(state: JobState?, limit: Int) async throws -> [JobSummary]

    /// Operator: cancel a queued or running job. False if it is already finished or unknown.
    func cancel(_ id: JobID) async throws -> Bool

    /// Operator: put a finished (discarded, expired, cancelled) or queued job back to run now, with fresh attempts.
    func retry(_ id: JobID) async throws -> Bool
}

/// Which jobs a claim may take before they are due, and how long before.
public struct ClaimAhead: Sendable, Equatable {
    public let window: Duration
    public let kinds: [String]
    public init(window: Duration, kinds: [String]) { self.window = window; self.kinds = kinds }
}

extension JobStore {
    /// Due jobs only, bound by the lease alone.
    public func claim(queue: String, limit: Int, owner: String, lease: Duration) async throws -> [ClaimedJob] {
        try await claim(queue: queue, limit: limit, owner: owner, lease: lease, ahead: nil, session: nil)
    }

    /// Bound by the lease alone.
    public func claim(queue: String, limit: Int, owner: String, lease: Duration, ahead: ClaimAhead?) async throws -> [ClaimedJob] {
        try await claim(queue: queue, limit: limit, owner: owner, lease: lease, ahead: ahead, session: nil)
    }

    public func secondsUntilNextDue(queue: String) async throws -> Double? {
        try await secondsUntilNextDue(queue: queue, ahead: nil)
    }
}

/// A hint that work may be ready on a queue: NOTIFY from an enqueuing transaction, or a reconnect
/// of the listener (which may have missed some). The table is the truth; this only wakes workers.
public struct Wakeup: Sendable, Equatable {
    public let queue: String?
    /// Seconds until the earliest job of that enqueue is due; nil means "look now".
    public let dueInSeconds: Double?
    public init(queue: String?, dueInSeconds: Double?) { self.queue = queue; self.dueInSeconds = dueInSeconds }
    /// Sent after (re)connecting: anything could have been missed.
    public static let resync = Wakeup(queue: nil, dueInSeconds: nil)
}

/// A source of wake-ups. The handler is called from the listener's task; keep it cheap.
public protocol WakeupSource: Sendable {
    func subscribe(_ handler: @escaping @Sendable (Wakeup) -> Void)
}
