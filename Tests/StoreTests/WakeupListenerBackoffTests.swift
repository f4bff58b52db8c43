import AlfredCore
import AlfredTestKit
import Logging
import Synchronization
import Testing
@testable import Store

/// The wake-up listener's reconnect backoff, on a manual clock and with sessions that fail or
/// listen as the test says: no Postgres, no socket.
@Suite(.timeLimit(.minutes(5))) struct WakeupListenerBackoffTests {
    static let quiet = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })

    @Test func reconnectAttemptsBackOffOnTheClockDoublingUpToASecond() async throws {
        let clock = ManualClock()
        let attempts = Mutex(0)
        let listener = PostgresWakeupListener(logger: Self.quiet, clock: clock) { _, _, _ in
            attempts.withLock { $0 += 1 }
            throw RefusedConnection()
        }
        let running = Task { try await listener.run() }
        var expected: [Duration] = []
        for milliseconds in [100, 200, 400, 800, 1_000, 1_000, 1_000, 1_000] {
            await clock.waitForSleepers(1)
            expected.append(.milliseconds(milliseconds))
            // One attempt per pause: the next one waits for the clock.
            #expect(clock.sleeps == expected)
            #expect(attempts.withLock { $0 } == expected.count)
            #expect(!listener.isConnected)
            clock.advance(by: .milliseconds(milliseconds))
        }
        await clock.waitForSleepers(1)
        running.cancel()
        try await running.value
    }

    /// A session that got as far as LISTEN resets the backoff and announces a resync (notifications
    /// may have been missed while it was down); its notifications arrive parsed.
    @Test func aListeningSessionResetsTheBackoffAndDeliversResyncThenWakeUps() async throws {
        let clock = ManualClock()
        let attempt = Mutex(0)
        let listener = PostgresWakeupListener(logger: Self.quiet, clock: clock) { _, listening, notification in
            let number = attempt.withLock { $0 += 1; return $0 }
            // Two refusals, then a session that listens, hears one wake-up and drops.
            guard number == 3 else { throw RefusedConnection() }
            listening()
            notification("delivery 2.5")
            throw RefusedConnection()
        }
        let wakeups = EventLog<Wakeup>()
        listener.subscribe { wakeups.record($0) }
        let running = Task { try await listener.run() }
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(100))
        await clock.waitForSleepers(1)
        clock.advance(by: .milliseconds(200))
        await clock.waitForSleepers(1)
        // The third session listened: the pause after it starts from 100 ms again.
        #expect(clock.sleeps == [.milliseconds(100), .milliseconds(200), .milliseconds(100)])
        #expect(wakeups.all == [.resync, Wakeup(queue: "delivery", dueInSeconds: 2.5)])
        running.cancel()
        try await running.value
    }

    struct RefusedConnection: Error {}
}
