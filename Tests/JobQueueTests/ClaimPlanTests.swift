import Testing
@testable import JobQueue

/// The claim loop's decisions, without Postgres or real time: instants are offsets the tests choose.
@Suite(.timeLimit(.minutes(5))) struct ClaimPlanTests {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    static func at(_ milliseconds: Int) -> Instant { Instant(offset: .milliseconds(milliseconds)) }

    func plan(batch: Int = 100, poll: Duration = .seconds(5)) -> ClaimPlan<Instant> {
        ClaimPlan(batch: batch, pollInterval: poll)
    }

    @Test func claimsAtStartUpToTheBatchOrTheFreeSlots() {
        #expect(plan(batch: 100).next(free: 32, now: Self.at(0)) == .claim(32))
        #expect(plan(batch: 10).next(free: 32, now: Self.at(0)) == .claim(10))
    }

    @Test func aFullBatchMeansLookAgainAtOnce() {
        var plan = plan(batch: 10)
        #expect(plan.claimed(10, of: 10) == false, "no need to ask when the next job is due")
        #expect(plan.next(free: 22, now: Self.at(1)) == .claim(10))
    }

    @Test func aShortBatchSleepsUntilTheNextDueJobOrThePoll() {
        var plan = plan(poll: .seconds(5))
        #expect(plan.claimed(3, of: 10) == true, "ask the store when the next job is due")
        #expect(plan.next(free: 29, now: Self.at(0)) == .sleep(until: Self.at(5_000)), "nothing known: the poll")
        plan.nextDue(inSeconds: 1.5, now: Self.at(0))
        #expect(plan.next(free: 29, now: Self.at(0)) == .sleep(until: Self.at(1_500)))
        #expect(plan.next(free: 29, now: Self.at(1_500)) == .claim(29), "due: claim without any wake-up")
    }

    @Test func aJobDueButLockedByAnotherWorkerIsLookedAtAgainShortly() {
        var plan = plan()
        _ = plan.claimed(0, of: 10)
        plan.nextDue(inSeconds: -0.2, now: Self.at(1_000))
        #expect(plan.next(free: 10, now: Self.at(1_000)) == .sleep(until: Self.at(1_020)))
    }

    @Test func aJobThatFellDueSinceAClaimThatTookSomeIsClaimedAtOnce() {
        var plan = plan()
        let ask = plan.claimed(3, of: 10)
        #expect(ask, "a short claim: ask when the next job is due")
        plan.nextDue(inSeconds: -0.001, now: Self.at(1_000))
        #expect(plan.next(free: 7, now: Self.at(1_000)) == .claim(7))
    }

    @Test func atCapacityTheDueTimeWaitsForAFreeSlot() {
        var plan = plan(poll: .seconds(5))
        _ = plan.claimed(2, of: 4)
        plan.nextDue(inSeconds: 1, now: Self.at(0))
        #expect(plan.next(free: 0, now: Self.at(2_000)) == .sleep(until: Self.at(7_000)), "no slot: the due time does not matter")
        #expect(plan.next(free: 1, now: Self.at(2_001)) == .claim(1), "a slot freed: the overdue job is claimed")
    }

    @Test func aWakeUpSaysWorkIsReady() {
        var plan = plan()
        _ = plan.claimed(0, of: 10)
        plan.wokeUp(workReady: true, announced: nil, timedOut: false, atCapacity: false)
        #expect(plan.next(free: 10, now: Self.at(10)) == .claim(10))
    }

    @Test func anAnnouncedDueTimeBringsTheWaitForward() {
        var plan = plan(poll: .seconds(5))
        _ = plan.claimed(0, of: 10)
        plan.nextDue(inSeconds: 3, now: Self.at(0))
        plan.wokeUp(workReady: false, announced: Self.at(800), timedOut: false, atCapacity: false)
        #expect(plan.next(free: 10, now: Self.at(10)) == .sleep(until: Self.at(800)))
        plan.wokeUp(workReady: false, announced: Self.at(2_000), timedOut: false, atCapacity: false)
        #expect(plan.next(free: 10, now: Self.at(10)) == .sleep(until: Self.at(800)), "the earliest one stands")
    }

    @Test func anExpiredPollLooksAgainUnlessItWasAtCapacity() {
        var idle = plan()
        _ = idle.claimed(0, of: 10)
        idle.wokeUp(workReady: false, announced: nil, timedOut: true, atCapacity: false)
        #expect(idle.next(free: 10, now: Self.at(5_000)) == .claim(10), "the poll is the fallback for a lost NOTIFY")

        var busy = plan()
        _ = busy.claimed(0, of: 10)
        busy.wokeUp(workReady: false, announced: nil, timedOut: true, atCapacity: true)
        #expect(busy.knownWork == false)
    }

    @Test func failedClaimsBackOffDoublingUpToTheCapAndASuccessResets() {
        var plan = plan()
        let waits = (1...8).map { _ in Self.at(0).duration(to: plan.claimFailed(now: Self.at(0))) }
        #expect(waits == [.milliseconds(200), .milliseconds(400), .milliseconds(800), .seconds(1), .seconds(1), .seconds(1),
                          .seconds(1), .seconds(1)])
        #expect(plan.next(free: 10, now: Self.at(0)) == .claim(10), "a failure does not forget that work is waiting")
        _ = plan.claimed(10, of: 10)
        #expect(plan.failures == 0)
        #expect(Self.at(0).duration(to: plan.claimFailed(now: Self.at(0))) == .milliseconds(200))
    }
}
