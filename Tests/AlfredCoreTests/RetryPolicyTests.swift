import AlfredTestKit
import AlfredCore
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(5))) struct RetryPolicyTests {
    let policy = RetryPolicy(base: .seconds(1), cap: .seconds(60))

    @Test(arguments: [(1, 1.0), (2, 2.0), (3, 4.0), (6, 32.0), (7, 60.0), (50, 60.0)])
    func ceilingDoublesPerAttemptUpToTheCap(attempt: Int, seconds: Double) {
        #expect(policy.ceiling(afterAttempt: attempt) == .seconds(seconds))
    }

    @Test func fullJitterStaysWithinTheWindowAndSpreadsOverIt() {
        var rng = SeededGenerator(seed: 42)
        var delays: [Double] = []
        for _ in 0..<2000 {
            guard case .retry(let after) = policy.next(afterAttempt: 4, maxAttempts: 10, using: &rng) else {
                Issue.record("attempt 4 of 10 must retry")
                return
            }
            delays.append(after.seconds)
        }
        #expect(delays.allSatisfy { $0 >= 0 && $0 <= 8 })
        // Full jitter: uniform over [0, 8] — both halves of the window are used about equally.
        let low = delays.filter { $0 < 4 }.count
        #expect((800...1200).contains(low), "low half got \(low) of 2000")
    }

    @Test func lastAttemptDiscards() {
        var rng = SeededGenerator(seed: 1)
        #expect(policy.next(afterAttempt: 5, maxAttempts: 5, using: &rng) == .discard)
        #expect(policy.next(afterAttempt: 1, maxAttempts: 1, using: &rng) == .discard)
    }

    @Test func retryAfterIsAFloor() {
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<100 {
            guard case .retry(let after) = policy.next(afterAttempt: 1, maxAttempts: 3, retryAfter: .seconds(30), using: &rng)
            else { Issue.record("must retry"); return }
            #expect(after >= .seconds(30))
        }
    }
}

@Suite(.timeLimit(.minutes(5))) struct JobStateTests {
    @Test func terminalStatesAreFinalExceptForAnOperatorRetry() {
        for state in JobState.allCases where state.isTerminal {
            for next in JobState.allCases {
                #expect(state.canMove(to: next) == (next == .queued), "\(state) -> \(next)")
            }
        }
    }

    @Test func runningJobsEndInAnyOtherState() {
        #expect(JobState.allCases.filter { JobState.running.canMove(to: $0) } == [.queued, .completed, .discarded, .cancelled, .expired])
        #expect(JobState.queued.canMove(to: .running) && !JobState.queued.canMove(to: .completed))
    }
}

@Suite(.timeLimit(.minutes(5))) struct RedactedTests {
    @Test func neverPrintsTheValue() {
        let secret = Redacted("ya29.refresh-token-value")
        #expect("\(secret)" == "<redacted>")
        #expect(String(reflecting: secret) == "<redacted>")
        var dumped = ""
        dump(secret, to: &dumped)
        #expect(!dumped.contains("ya29"))
        #expect(secret.unsafeValue == "ya29.refresh-token-value")
    }
}

@Suite(.timeLimit(.minutes(5))) struct RetryAfterCapAndDeadlineTests {
    @Test func anAbsurdRetryAfterIsHonouredOnlyUpToTheCap() {
        var rng = SeededGenerator(seed: 7)
        let policy = RetryPolicy(base: .seconds(1), cap: .seconds(60), maxRetryAfter: .seconds(3600))
        #expect(policy.next(afterAttempt: 1, maxAttempts: 5, retryAfter: .seconds(120), using: &rng) == .retry(after: .seconds(120)))
        #expect(policy.next(afterAttempt: 1, maxAttempts: 5, retryAfter: .seconds(999_999_999), using: &rng)
                == .retry(after: .seconds(3600)), "a broken header must not park a job for 31 years")
    }

    /// On a manual clock: the deadline fires when the test moves time to it, never by how fast anything ran.
    @Test func aDeadlineCancelsSlowWorkAndPassesFastWorkAndErrorsThrough() async throws {
        let clock = ManualClock()
        #expect(try await withDeadline(.seconds(5), clock: clock) { 42 } == 42, "fast work: the deadline never came")

        let cancelled = Flag()
        let slow = Task {
            try await withDeadline(.milliseconds(50), clock: clock) { () async throws -> Int in
                do { try await clock.sleep(for: .seconds(30)) } catch {
                    if error is CancellationError { cancelled.set() }
                    throw error
                }
                return 1
            }
        }
        await clock.waitForSleepers(2)  // the work and the deadline
        clock.advance(by: .milliseconds(50))
        #expect(try await slow.value == nil, "the deadline came first")
        #expect(cancelled.isSet, "and the slow work was cancelled, not left running")
        #expect(clock.now.offset == .milliseconds(50))

        struct Boom: Error {}
        await #expect(throws: Boom.self) { _ = try await withDeadline(.seconds(5), clock: clock) { () async throws -> Int in throw Boom() } }
    }
}

/// Set once, read from any task.
private final class Flag: Sendable {
    private let state = Mutex(false)
    func set() { state.withLock { $0 = true } }
    var isSet: Bool { state.withLock { $0 } }
}
