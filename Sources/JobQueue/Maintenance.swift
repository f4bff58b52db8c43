import AlfredCore
import Logging
import Metrics
import ServiceLifecycle

/// Runs `tick` every `interval` until shutdown; errors are logged and counted, never fatal.
public struct PeriodicService<C: Clock<Duration>>: Service {
    let name: String
    let interval: Duration
    let clock: C
    let logger: Logger
    let errors: Counter
    let tick: @Sendable () async throws -> Void

    public init(name: String, interval: Duration, runtime: Runtime<C>, tick: @escaping @Sendable () async throws -> Void) {
        self.name = name; self.interval = interval; self.clock = runtime.clock; self.logger = runtime.logger; self.tick = tick
        errors = QueueMetrics.storeError(name, factory: runtime.metrics)
    }

    public func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await tick()
            } catch {
                errors.increment()
                logger.error("\(name) failed; will try again", metadata: ["alfred.error": "\(String(reflecting: error))"])
            }
            do {
                try await cancelWhenGracefulShutdown { try await clock.sleep(for: interval) }
            } catch {
                return
            }
        }
    }
}

/// The rescuer, pruner and queue gauges: every worker runs them; they are idempotent, so running on
/// many workers at once is safe (SKIP LOCKED, guarded updates).
public enum Maintenance {
    /// Returns jobs whose lease expired (their worker died) to the queue.
    public static func rescuer<C: Clock<Duration>>(store: any JobStore, kinds: [JobKind], interval: Duration,
                                                    runtime: Runtime<C>) -> PeriodicService<C> {
        let metrics = QueueMetrics(kinds: kinds, factory: runtime.metrics)
        let logger = runtime.logger
        return PeriodicService(name: "rescue", interval: interval, runtime: runtime) {
            while true {
                let rescued = try await store.rescueExpired(limit: 500)
                for (kind, state) in rescued {
                    metrics[kind].rescued.increment()
                    if state == .discarded { metrics[kind].discarded.increment() }
                    if state == .expired { metrics[kind].expired.increment() }
                }
                if !rescued.isEmpty {
                    logger.warning("rescued jobs whose worker stopped heartbeating", metadata: ["alfred.jobs": "\(rescued.count)"])
                }
                if rescued.count < 500 { return }
            }
        }
    }

    /// Deletes finished rows older than `retention`, in bounded batches.
    public static func pruner<C: Clock<Duration>>(store: any JobStore, retention: Duration, interval: Duration,
                                                   runtime: Runtime<C>) -> PeriodicService<C> {
        let pruned = Counter(label: MetricName.jobsPruned, factory: runtime.metrics)
        return PeriodicService(name: "prune", interval: interval, runtime: runtime) {
            while true {
                let count = try await store.prune(olderThan: retention, limit: 5000)
                pruned.increment(by: count)
                if count < 5000 { return }
            }
        }
    }

    /// Samples ready-queue depth, the oldest due age and whether an operator paused it, per queue.
    public static func gauges<C: Clock<Duration>>(store: any JobStore, queues: [String], interval: Duration,
                                                   runtime: Runtime<C>) -> PeriodicService<C> {
        func gauges(_ label: String) -> [String: Gauge] {
            Dictionary(uniqueKeysWithValues: queues.map { ($0, Gauge(label: label, dimensions: [("queue", $0)], factory: runtime.metrics)) })
        }
        let (depth, age, paused) = (gauges(MetricName.queueReadyDepth), gauges(MetricName.queueOldestDueAge), gauges(MetricName.queuePaused))
        return PeriodicService(name: "gauges", interval: interval, runtime: runtime) {
            let ready = try await store.ready()
            for queue in queues {
                let row = ready.first { $0.queue == queue }
                depth[queue]?.record(row?.depth ?? 0)
                age[queue]?.record(row?.oldestDueAgeSeconds ?? 0)
                paused[queue]?.record(row?.paused == true ? 1 : 0)
            }
        }
    }
}
