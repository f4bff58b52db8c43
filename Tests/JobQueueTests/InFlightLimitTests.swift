import Testing
@testable import JobQueue

/// How many jobs a worker holds at once: the configured concurrency for jobs that take time, more
/// only while cheap jobs are backlogged.
@Suite(.timeLimit(.minutes(5))) struct InFlightLimitTests {
    static let cheapRun = 0.000_05  // 50 µs: a job that does no I/O
    static let ioRun = 0.120        // a Google fetch

    func limit(_ concurrency: Int = 32, ceiling: Int = 256) -> InFlightLimit {
        InFlightLimit(concurrency: concurrency, ceiling: ceiling)
    }

    /// A backlog: `claims` claims of the current limit, each coming back full, their jobs running
    /// `seconds` each.
    func backlog(_ limit: inout InFlightLimit, claims: Int, seconds: Double) {
        for _ in 0..<claims {
            let want = limit.current
            limit.claimed(want, of: want)
            for _ in 0..<want { limit.ran(seconds: seconds) }
        }
    }

    @Test func cheapJobsInABacklogRaiseTheLimitToTheCeiling() {
        var limit = limit()
        #expect(limit.current == 32)
        backlog(&limit, claims: 10, seconds: Self.cheapRun)
        #expect(limit.current == 256)
    }

    @Test func slowJobsNeverGetMoreThanTheConfiguredConcurrency() {
        var limit = limit()
        var most = 0
        for _ in 0..<100 {
            let want = limit.current
            most = max(most, want)
            limit.claimed(want, of: want)  // a backlog: every claim comes back full
            for _ in 0..<want { limit.ran(seconds: Self.ioRun) }
        }
        #expect(most == 32 && limit.current == 32)
    }

    @Test func theLimitWaitsForAFullSampleBeforeGrowing() {
        var limit = limit()
        limit.claimed(32, of: 32)
        #expect(limit.current == 32, "no run time known yet")
        for _ in 0..<31 { limit.ran(seconds: Self.cheapRun) }
        limit.claimed(32, of: 32)
        #expect(limit.current == 32, "31 runs are not yet a sample of the configured size")
        limit.ran(seconds: Self.cheapRun)
        limit.claimed(32, of: 32)
        #expect(limit.current == 64)
    }

    @Test func jobsThatStartTakingTimeBringTheLimitBackAtOnce() {
        var limit = limit()
        backlog(&limit, claims: 10, seconds: Self.cheapRun)
        #expect(limit.current == 256)
        // A single slow job moves a mean of 50 µs by 1/16 of 120 ms: 7.5 ms, over the cheap bound.
        limit.ran(seconds: Self.ioRun)
        #expect(limit.current == 32)
        limit.claimed(32, of: 32)
        #expect(limit.current == 32, "a full claim does not raise it while the mean is not cheap")
    }

    @Test func claimsThatKeepFindingNoBacklogReturnToTheConfiguredConcurrency() {
        var limit = limit()
        backlog(&limit, claims: 10, seconds: Self.cheapRun)
        for _ in 1..<InFlightLimit.patience { limit.claimed(50, of: 256) }
        #expect(limit.current == 256, "a steady stream smaller than the limit keeps it")
        limit.claimed(50, of: 256)
        #expect(limit.current == 32)
    }

    /// A claim or an acknowledgement costs a commit whatever its size: a backlog of cheap jobs is
    /// claimed half the limit at a time, never less than the configured batch.
    @Test func claimsGrowWithTheLimitButNeverBelowTheBatch() {
        var limit = limit(32, ceiling: InFlightLimit.defaultCeiling)
        #expect(limit.claimSize(free: 32, batch: 100) == 32, "the free slots bound a claim")
        backlog(&limit, claims: 10, seconds: Self.cheapRun)
        #expect(limit.current == 1024)
        #expect(limit.claimSize(free: 1024, batch: 100) == 512)
        #expect(limit.claimSize(free: 1024, batch: 600) == 600)
        for _ in 0..<InFlightLimit.patience { limit.claimed(3, of: 512) }
        #expect(limit.claimSize(free: 1024, batch: 100) == 100, "the backlog is gone: back to the batch")
    }

    @Test func aCeilingAtTheConcurrencyFixesTheLimit() {
        var limit = limit(8, ceiling: 8)
        backlog(&limit, claims: 10, seconds: Self.cheapRun)
        #expect(limit.current == 8)
        #expect(InFlightLimit(concurrency: 8, ceiling: 2).ceiling == 8, "the ceiling is never below the concurrency")
    }
}
