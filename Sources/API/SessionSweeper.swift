import AlfredCore
import JobQueue
import Metrics

/// Keeps only the sign-in state that is still needed (RFC §8.2): every `interval`, sessions past
/// their expiry end (and their devices stop receiving), ended sessions and retired devices go after
/// `retention`, and used refresh tokens once they could no longer have been accepted anyway (the
/// refresh lifetime after their use: as long as presenting one again can still reveal a theft).
/// Idempotent and bounded per statement, so every API replica may run it.
public enum SessionSweeper {
    public struct Settings: Sendable {
        public var interval: Duration = .seconds(600)
        public var retention: Duration = .seconds(86_400)
        public var usedTokenWindow: Duration = SessionTokens.defaultRefreshLifetime
        public var batch = 5000
        public init() {}
    }

    public static func service<C: Clock<Duration>>(store: any APIStore, settings: Settings = .init(),
                                                   runtime: Runtime<C>) -> PeriodicService<C> {
        let counters = ["expired_sessions", "deleted_sessions", "used_refresh_tokens", "retired_devices"].map {
            Counter(label: MetricName.apiSwept, dimensions: [("what", $0)], factory: runtime.metrics)
        }
        return PeriodicService(name: "sessions.sweep", interval: settings.interval, runtime: runtime) {
            try await sweep(store: store, settings: settings, counters: counters)
        }
    }

    /// One sweep to the end (in batches); returns the totals.
    @discardableResult
    public static func sweep(store: any APIStore, settings: Settings = .init(), counters: [Counter] = []) async throws -> SessionSweep {
        var total = SessionSweep()
        while true {
            let swept = try await store.sweepSessions(usedTokenWindow: settings.usedTokenWindow, retention: settings.retention,
                                                      limit: settings.batch)
            let counts = [swept.expired, swept.deletedSessions, swept.deletedUsedTokens, swept.deletedDevices]
            for (counter, count) in zip(counters, counts) where count > 0 { counter.increment(by: count) }
            total.expired += swept.expired
            total.deletedSessions += swept.deletedSessions
            total.deletedUsedTokens += swept.deletedUsedTokens
            total.deletedDevices += swept.deletedDevices
            if !swept.full(settings.batch) { return total }
        }
    }
}
