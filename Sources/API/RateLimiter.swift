import AlfredCore
import Synchronization

/// Token buckets by key (a user, an address): `burst` requests at once, refilled at `perSecond`.
/// Per process: with N API replicas behind a balancer a client gets up to N times the rate, which
/// these limits allow for (they stop floods and scripted abuse, not fair queuing).
final class RateLimiter: Sendable {
    struct Limit: Sendable {
        var burst: Double
        var perSecond: Double
    }

    /// `at`: time on the limiter's clock since it was made.
    private struct Bucket { var tokens: Double; var at: Duration }
    private let buckets = Mutex<[String: Bucket]>([:])
    private let limit: Limit
    private let now: @Sendable () -> Duration
    /// Past this many keys, idle full buckets are dropped (they would refill to `burst` anyway).
    private let maxKeys: Int

    /// - Parameter clock: refills the buckets (a test's manual clock moves them).
    init<C: Clock<Duration>>(_ limit: Limit, maxKeys: Int = 100_000, clock: C) {
        self.limit = limit
        self.maxKeys = maxKeys
        let start = clock.now
        now = { start.duration(to: clock.now) }
    }

    /// Takes one token for `key`: nil when allowed, else the whole seconds until one is available.
    func take(_ key: String) -> Int? {
        let now = self.now()
        return buckets.withLock { buckets in
            var bucket = buckets[key] ?? Bucket(tokens: limit.burst, at: now)
            bucket.tokens = min(limit.burst, bucket.tokens + (now - bucket.at).seconds * limit.perSecond)
            bucket.at = now
            defer {
                buckets[key] = bucket
                if buckets.count > maxKeys { Self.dropIdle(&buckets, now: now, limit: limit) }
            }
            if bucket.tokens >= 1 {
                bucket.tokens -= 1
                return nil
            }
            return max(1, Int(((1 - bucket.tokens) / limit.perSecond).rounded(.up)))
        }
    }

    private static func dropIdle(_ buckets: inout [String: Bucket], now: Duration, limit: Limit) {
        buckets = buckets.filter { _, bucket in
            bucket.tokens + (now - bucket.at).seconds * limit.perSecond < limit.burst
        }
    }
}
