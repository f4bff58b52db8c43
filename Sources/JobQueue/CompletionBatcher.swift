import AlfredCore
import Logging
import Metrics
import Synchronization

/// Collects completions from many handlers and writes them in one statement: whatever finished while
/// the previous write was in flight goes into the next. No timer: under light load a completion is
/// written at once, under heavy load batches grow by themselves.
final class CompletionBatcher: Sendable {
    private struct State {
        var pending: [(Completion, CheckedContinuation<Bool, Never>)] = []
        var finished = false
    }
    private let state = Mutex(State())
    private let signal = Signal()
    private let store: any JobStore
    private let clock: any Clock<Duration>
    private let logger: Logger
    private let storeErrors: Counter
    static let maxBatch = 1000

    init(store: any JobStore, clock: any Clock<Duration>, logger: Logger, metrics: any MetricsFactory) {
        self.store = store
        self.clock = clock
        self.logger = logger
        storeErrors = QueueMetrics.storeError("complete", factory: metrics)
    }

    /// Returns true if the store accepted the completion, false if the lease was lost.
    func complete(_ completion: Completion) async -> Bool {
        await withCheckedContinuation { continuation in
            state.withLock { $0.pending.append((completion, continuation)) }
            signal.fire()
        }
    }

    /// Stop once everything pending is written.
    func finish() {
        state.withLock { $0.finished = true }
        signal.fire()
    }

    func run() async {
        while true {
            let (batch, finished) = state.withLock { s in
                let take = min(s.pending.count, Self.maxBatch)
                let batch = Array(s.pending.prefix(take))
                s.pending.removeFirst(take)
                return (batch, s.finished && s.pending.isEmpty)
            }
            if batch.isEmpty {
                if finished { return }
                // Not cancellable: handlers that are still finishing must get their completions written.
                await signal.waitForFire()
                continue
            }
            let lost = await write(batch.map(\.0))
            for (completion, continuation) in batch {
                continuation.resume(returning: !lost.contains(completion.lease))
            }
        }
    }

    /// Writes with retries while the store is unreachable. Shielded from cancellation: a finished job
    /// must be recorded. After a minute of failures it gives up: the leases will have expired, the
    /// rescuer returns the jobs, and they run again (at-least-once).
    private func write(_ completions: [Completion]) async -> Set<Lease> {
        var delay = Duration.milliseconds(50)
        var waited = Duration.zero
        while true {
            do {
                return try await shielded { try await self.store.complete(completions) }
            } catch {
                storeErrors.increment()
                if waited >= .seconds(60) {
                    logger.error("giving up recording completions; the jobs will be rescued and run again",
                                 metadata: ["alfred.jobs": "\(completions.count)", "alfred.error": "\(String(reflecting: error))"])
                    return Set(completions.map(\.lease))
                }
                logger.warning("recording completions failed; retrying",
                               metadata: ["alfred.jobs": "\(completions.count)", "alfred.error": "\(String(reflecting: error))"])
                try? await clock.sleep(for: delay)
                waited += delay
                delay = min(delay * 2, .seconds(2))
            }
        }
    }
}
