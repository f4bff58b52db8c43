import AlfredTestKit
import Testing

/// The event log tests wait on instead of polling: a waiter is woken by the event it waits for,
/// whether it was recorded before or after the wait began.
@Suite(.timeLimit(.minutes(5))) struct EventLogTests {
    @Test func anEventRecordedBeforeTheWaitIsFoundAtOnce() async throws {
        let log = EventLog<Int>()
        log.record(1)
        log.record(2)
        #expect(try await log.first { $0 > 1 } == 2)
    }

    @Test func aWaiterIsWokenByTheFirstMatchingEventRecordedAfterIt() async throws {
        let log = EventLog<String>()
        let gate = Gate()
        async let found = log.first { $0.hasPrefix("done") }
        log.record("started")
        gate.open()
        log.record("done: 7")
        log.record("done: 8")
        #expect(try await found == "done: 7")
        await gate.wait()
    }

    @Test func waitingForACountReturnsThatManyInOrder() async throws {
        let log = EventLog<Int>()
        async let evens = log.wait(for: 3) { $0 % 2 == 0 }
        for value in 1...8 { log.record(value) }
        #expect(try await evens == [2, 4, 6])
    }

    @Test func aCancelledWaitThrowsInsteadOfHanging() async throws {
        let log = EventLog<Int>()
        let waiting = Task { try await log.first { $0 == 42 } }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        log.record(42)
        #expect(log.all == [42])
    }
}
