import AlfredCore

/// How much waiting one Google call may do in process. Deliberately small: a worker holding a job
/// lease should not sleep through a long outage. Longer waits go back to the job queue as
/// `GoogleAPIError.rateLimited` / `.unavailable` with `retryAfter`, where `JobError.retry(after:)` waits
/// without holding anything.
public struct RetryBudget: Sendable, Equatable {
    /// HTTP attempts for 408/429/5xx/network/403-rate-limit answers, the first one included. The single
    /// retry after a 401 (with a freshly minted token) does not count against this.
    public var maxAttempts: Int
    /// Total time one call may spend sleeping between attempts. A `Retry-After` beyond what is left
    /// ends the call at once instead of being waited out.
    public var maxTotalDelay: Duration
    /// Exponential backoff with full jitter (external-apis §0.2), `Retry-After` as a floor.
    public var backoff: RetryPolicy

    public init(maxAttempts: Int = 3, maxTotalDelay: Duration = .seconds(5),
                backoff: RetryPolicy = RetryPolicy(base: .milliseconds(500), cap: .seconds(4))) {
        self.maxAttempts = maxAttempts
        self.maxTotalDelay = maxTotalDelay
        self.backoff = backoff
    }

    /// No retries at all: every transient failure goes straight back to the caller.
    public static let none = RetryBudget(maxAttempts: 1, maxTotalDelay: .zero)

    /// How long to sleep before the next attempt after `attempt` (1-based) failed transiently, or nil
    /// to give up now: out of attempts, out of time, or told (`retryAfter`) to wait longer than we may.
    func delay<R: RandomNumberGenerator>(afterAttempt attempt: Int, alreadySlept: Duration, retryAfter: Duration?,
                                         using generator: inout R) -> Duration? {
        guard attempt < maxAttempts else { return nil }
        let remaining = maxTotalDelay - alreadySlept
        guard remaining > .zero else { return nil }
        if let retryAfter, retryAfter > remaining { return nil }
        guard case .retry(let delay) = backoff.next(afterAttempt: attempt, maxAttempts: maxAttempts,
                                                     retryAfter: retryAfter, using: &generator)
        else { return nil }
        // The jittered delay may overshoot what is left; the Retry-After floor never does (checked above).
        return min(delay, remaining)
    }
}
