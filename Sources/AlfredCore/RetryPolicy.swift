/// Exponential backoff with full jitter, capped: attempt n waits a uniform random time in
/// `[0, min(cap, base * 2^(n-1))]`. Full jitter spreads a thundering herd (every reminder of the
/// top of the hour failing at once) instead of moving it.
public struct RetryPolicy: Sendable, Equatable {
    public var base: Duration
    public var cap: Duration
    /// An upstream `Retry-After` is honoured up to this long; beyond it a broken or hostile header
    /// would park a job for years (or past the database's timestamp range).
    public var maxRetryAfter: Duration

    public init(base: Duration = .seconds(1), cap: Duration = .seconds(300), maxRetryAfter: Duration = .seconds(24 * 3600)) {
        self.base = base
        self.cap = cap
        self.maxRetryAfter = maxRetryAfter
    }

    public static let `default` = RetryPolicy()

    /// The ceiling of the backoff window after the given (1-based) attempt failed.
    public func ceiling(afterAttempt attempt: Int) -> Duration {
        let exponent = min(max(attempt - 1, 0), 40)
        let seconds = min(cap.seconds, base.seconds * Double(1 << UInt64(exponent)))
        return .seconds(seconds)
    }

    /// What to do after the given attempt failed. `retryAfter` (an upstream `Retry-After`) is a floor.
    public func next<R: RandomNumberGenerator>(
        afterAttempt attempt: Int, maxAttempts: Int, retryAfter: Duration? = nil, using rng: inout R
    ) -> FailureDisposition {
        guard attempt < maxAttempts else { return .discard }
        let ceiling = ceiling(afterAttempt: attempt).seconds
        var delay = Double.random(in: 0...ceiling, using: &rng)
        if let retryAfter { delay = max(delay, min(retryAfter, maxRetryAfter).seconds) }
        return .retry(after: .seconds(delay))
    }
}

extension Duration {
    /// The duration in (fractional) seconds.
    public var seconds: Double {
        let (s, atto) = components
        return Double(s) + Double(atto) / 1e18
    }
}
