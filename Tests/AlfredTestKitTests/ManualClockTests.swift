import AlfredCore
import AlfredTestKit
import Foundation
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(5))) struct ManualClockTests {
    @Test func advancingWakesExactlyTheDueSleepersEarliestFirst() async throws {
        let clock = ManualClock()
        let (woken, wake) = AsyncStream<Int>.makeStream()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for seconds in [3, 1, 2] {
                group.addTask {
                    try await clock.sleep(for: .seconds(seconds))
                    #expect(clock.now.offset >= .seconds(seconds), "a sleeper never wakes before its deadline")
                    wake.yield(seconds)
                }
            }
            await clock.waitForSleepers(3)
            #expect(clock.sleeps.sorted() == [.seconds(1), .seconds(2), .seconds(3)])

            clock.advance(by: .milliseconds(1_999))
            #expect(clock.suspendedSleepers == 2, "only the 1 s sleeper was due")
            clock.advance(by: .milliseconds(1))
            #expect(clock.suspendedSleepers == 1, "the 2 s sleeper was due, the 3 s one was not")

            var iterator = woken.makeAsyncIterator()
            var first = [await iterator.next(), await iterator.next()]
            first.sort { ($0 ?? 0) < ($1 ?? 0) }
            #expect(first == [1, 2])

            clock.advance(by: .seconds(1))
            #expect(clock.suspendedSleepers == 0)
            #expect(await iterator.next() == 3)
            try await group.waitForAll()
        }
        #expect(clock.now.offset == .seconds(3))
    }

    @Test func oneAdvancePastSeveralDeadlinesWakesThemAll() async throws {
        let clock = ManualClock()
        let task = Task {
            try await clock.sleep(for: .seconds(10))
            try await clock.sleep(for: .seconds(10))
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(10))
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(60))
        try await task.value
        #expect(clock.sleeps == [.seconds(10), .seconds(10)])
    }

    @Test func cancellingTheTaskEndsItsSleepAndRemovesTheSleeper() async throws {
        let clock = ManualClock()
        let task = Task { try await clock.sleep(for: .seconds(3_600)) }
        await clock.waitForSleepers(1)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.suspendedSleepers == 0)
        #expect(clock.now.offset == .zero, "cancellation does not move time")
    }

    @Test func aTaskCancelledBeforeItSleepsThrowsAtOnce() async throws {
        let clock = ManualClock()
        let (started, signal) = AsyncStream<Void>.makeStream()
        let task = Task {
            for await _ in started { break }
            try await clock.sleep(for: .seconds(1))
        }
        task.cancel()
        signal.yield()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(clock.suspendedSleepers == 0)
    }

    @Test func aDeadlineThatBeatsTheBodyFiresOnlyWhenAdvanced() async throws {
        let clock = ManualClock()
        let (release, releaseBody) = AsyncStream<Void>.makeStream()
        let timedOut = Task {
            try await withDeadline(.seconds(30), clock: clock) {
                for await _ in release { break }
                return "finished"
            }
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(30))
        #expect(try await timedOut.value == nil)
        releaseBody.finish()

        // A body that finishes first cancels the timer: no sleeper is left behind.
        let finished = try await withDeadline(.seconds(30), clock: clock) { "finished" }
        #expect(finished == "finished")
        #expect(clock.suspendedSleepers == 0)
    }

    @Test func inSleepsAdvanceModeSleepsReturnAtOnceRecordTheRequestAndMoveTime() async throws {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let clock = ManualClock(start: start, sleepsAdvance: true)
        try await clock.sleep(for: .seconds(2))
        try await clock.sleep(for: .milliseconds(500))
        try await clock.sleep(until: clock.now.advanced(by: .seconds(-1)), tolerance: nil)
        #expect(clock.sleeps == [.seconds(2), .milliseconds(500), .zero])
        #expect(clock.totalSlept == .milliseconds(2_500))
        #expect(clock.now.offset == .milliseconds(2_500))
        #expect(clock.date == start.addingTimeInterval(2.5))
        #expect(clock.suspendedSleepers == 0)
    }

    @Test func waitForSleepersReturnsOnceThatManyTasksAreSuspended() async throws {
        let clock = ManualClock()
        await clock.waitForSleepers(0)  // nothing to wait for
        let (returned, signal) = AsyncStream<Int>.makeStream()
        let waiter = Task {
            await clock.waitForSleepers(2)
            signal.yield(clock.suspendedSleepers)
        }
        let sleepers = (0..<2).map { _ in Task { try await clock.sleep(for: .seconds(5)) } }
        var iterator = returned.makeAsyncIterator()
        #expect(await iterator.next() == 2)
        await waiter.value
        clock.advance(by: .seconds(5))
        for sleeper in sleepers { try await sleeper.value }
    }

    @Test func aCancelledWaitForSleepersReturns() async {
        let clock = ManualClock()
        let waiter = Task { await clock.waitForSleepers(1) }
        waiter.cancel()
        await waiter.value
        #expect(clock.suspendedSleepers == 0)
    }

    @Test func wallTimeIsTheStartPlusWhatWasAdvanced() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let clock = ManualClock(start: start)
        let now = clock.nowDate
        #expect(now() == start)
        clock.advance(by: .seconds(90))
        #expect(now() == start.addingTimeInterval(90))
        #expect(clock.date == now())
    }
}
