import AlfredTestKit
import Testing
@testable import API

/// The API's token buckets on a manual clock: a burst at once, then the rate, per key.
@Suite(.timeLimit(.minutes(5))) struct RateLimiterTests {
    @Test func aBurstIsAllowedThenRefusedWithTheWholeSecondsToWait() {
        let clock = ManualClock()
        let limiter = RateLimiter(.init(burst: 3, perSecond: 0.5), clock: clock)
        for _ in 0..<3 { #expect(limiter.take("user") == nil) }
        #expect(limiter.take("user") == 2, "one token every two seconds")
        clock.advance(by: .seconds(1))
        #expect(limiter.take("user") == 1)
        clock.advance(by: .seconds(1))
        #expect(limiter.take("user") == nil)
    }

    @Test func bucketsRefillOnlyUpToTheBurst() {
        let clock = ManualClock()
        let limiter = RateLimiter(.init(burst: 2, perSecond: 10), clock: clock)
        clock.advance(by: .seconds(3600))
        #expect(limiter.take("user") == nil)
        #expect(limiter.take("user") == nil)
        #expect(limiter.take("user") != nil, "an idle hour is worth a burst, not 36,000 requests")
    }

    @Test func keysHaveBucketsOfTheirOwn() {
        let clock = ManualClock()
        let limiter = RateLimiter(.init(burst: 1, perSecond: 1), clock: clock)
        #expect(limiter.take("a") == nil)
        #expect(limiter.take("a") != nil)
        #expect(limiter.take("b") == nil, "another key is not held back by the first")
        clock.advance(by: .seconds(1))
        #expect(limiter.take("a") == nil)
    }
}
