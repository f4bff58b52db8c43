import AlfredTesting
import Logging
import Store
import Testing

/// The wake-up listener's reconnect backoff, on a manual clock. No Postgres: nothing listens on the
/// port, so every connection attempt is refused at once and the listener backs off again.
@Suite(.timeLimit(.minutes(1))) struct WakeupListenerBackoffTests {
    @Test func reconnectAttemptsBackOffOnTheClockDoublingUpToFiveSeconds() async throws {
        let clock = ManualClock()
        let refused = DatabaseURL(host: "127.0.0.1", port: 1, username: "alfred", password: nil, database: "alfred")
        let listener = PostgresWakeupListener(database: refused, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
                                              clock: clock)
        let running = Task { try await listener.run() }
        var expected: [Duration] = []
        for milliseconds in [100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000] {
            await clock.waitForSleepers(1)
            expected.append(.milliseconds(milliseconds))
            // One attempt per pause: the next one waits for the clock.
            #expect(clock.sleeps == expected)
            #expect(!listener.isConnected)
            clock.advance(by: .milliseconds(milliseconds))
        }
        await clock.waitForSleepers(1)
        running.cancel()
        try await running.value
    }
}
