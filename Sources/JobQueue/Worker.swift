import AlfredCore
import Foundation
import Logging
import Metrics
import ServiceLifecycle
import Synchronization

/// Claims and runs jobs of one queue with bounded concurrency.
///
/// - Claims are batched (one statement for up to `claimBatch` jobs) and completions are batched (one
///   statement for all jobs that finished while the previous write was in flight), so the round
///   trips per job stay well below one under load.
/// - It sleeps until the earliest known `due_at`; NOTIFY wakes it early, a slow poll is the fallback.
/// - Leases are extended by a heartbeat while handlers run; a lost lease is reported to the handler
///   and its outcome is refused by the store.
/// - On graceful shutdown it stops claiming, lets running jobs finish within `shutdownGrace`, then
///   cancels the rest and releases them (back to `queued`, no attempt used).
/// - With a `presence`, claims are made under its current session: if the process dies, the rescuer
///   frees its jobs as soon as the session's lock is gone. If the session ends while the process
///   lives on, every handler of the claims made under it is cancelled at once (and its job released
///   if the database still takes it), so a worker cut off from the database does not go on to run
///   what another worker now runs.
public final class Worker<C: Clock<Duration>>: Service {
    public struct Configuration: Sendable {
        public var queue = "default"
        /// Jobs held at once while they take time (I/O): the floor of the adaptive limit.
        public var concurrency = 32
        /// Jobs held at once while cheap jobs are backlogged (`InFlightLimit`); nil: 1,024, or
        /// `concurrency` if that is more.
        /// Equal to `concurrency`, the limit is fixed.
        public var maxConcurrency: Int?
        public var claimBatch = 100
        public var lease: Duration = .seconds(30)
        public var heartbeatInterval: Duration = .seconds(10)
        /// Fallback poll; NOTIFY and the next-due timer are the mechanism.
        public var pollInterval: Duration = .seconds(5)
        public var shutdownGrace: Duration = .seconds(20)
        /// How long before their due time jobs of kinds that prepare ahead (`JobHandler.preparesAhead`)
        /// are claimed: their handlers do what does not depend on the last moment, then wait for it.
        /// Zero: every job is claimed when due. Keep it below `lease`.
        public var claimAhead: Duration = .zero
        public var retry = RetryPolicy.default
        public var owner: String = Worker.defaultOwner()
        public init() {}
    }

    private let store: any JobStore
    private let registry: JobRegistry
    private let configuration: Configuration
    private let clock: C
    private let logger: Logger
    private let metrics: QueueMetrics
    private let storeErrors: (claim: Counter, fail: Counter, heartbeat: Counter)
    private let events: WorkerEvents

    private struct Shared {
        var stopping = false
        var inFlight = 0
        var limit: InFlightLimit
        var running: [JobID: Running] = [:]
        var lost: Set<JobID> = []
        /// Set by wake-ups: work is ready now.
        var workReady = false
        /// Set by wake-ups: the earliest instant something was announced due.
        var announcedDue: C.Instant?
        /// True while the last store call failed (readiness).
        var storeHealthy = true
    }
    private struct Running {
        let lease: Lease
        let kind: String
        let attempt: Int
    }
    private let shared: Mutex<Shared>
    private let signal = Signal()
    private let rng: Mutex<AnyGenerator>
    private let completions: CompletionBatcher
    /// What claims may take early, if anything.
    private let ahead: ClaimAhead?
    private let presence: (any WorkerPresence)?

    /// - Parameter runtime: the clock, the retry jitter (`random`), metrics, logger and event sink.
    public init(store: any JobStore, registry: JobRegistry, wakeups: (any WakeupSource)?,
                configuration: Configuration, runtime: Runtime<C>, presence: (any WorkerPresence)? = nil) {
        self.store = store
        self.presence = presence
        shared = Mutex(Shared(limit: InFlightLimit(concurrency: configuration.concurrency,
                                                   ceiling: configuration.maxConcurrency ?? InFlightLimit.defaultCeiling)))
        self.rng = Mutex(runtime.random)
        self.registry = registry
        self.configuration = configuration
        self.clock = runtime.clock
        var logger = runtime.logger
        logger[metadataKey: "alfred.worker"] = "\(configuration.owner)"
        logger[metadataKey: "alfred.queue"] = "\(configuration.queue)"
        self.logger = logger
        self.metrics = QueueMetrics(kinds: registry.kinds, factory: runtime.metrics)
        storeErrors = (QueueMetrics.storeError("claim", factory: runtime.metrics), QueueMetrics.storeError("fail", factory: runtime.metrics),
                       QueueMetrics.storeError("heartbeat", factory: runtime.metrics))
        events = runtime.events
        self.completions = CompletionBatcher(store: store, clock: clock, logger: logger, metrics: runtime.metrics)
        let early = registry.preparingAhead
        self.ahead = configuration.claimAhead > .zero && !early.isEmpty ? ClaimAhead(window: configuration.claimAhead, kinds: early) : nil
        wakeups?.subscribe { [weak self] wakeup in self?.wake(wakeup) }
    }

    /// `host:pid:random`, so operators can tell which process holds a lease.
    public static func defaultOwner() -> String {
        let host = ProcessInfo.processInfo.hostName
        return "\(host):\(ProcessInfo.processInfo.processIdentifier):\(UUID().uuidString.prefix(8).lowercased())"
    }

    /// False while the store is failing; `/readyz` reports it.
    public var isHealthy: Bool { shared.withLock { $0.storeHealthy } }

    public var inFlight: Int { shared.withLock { $0.inFlight } }

    private func wake(_ wakeup: Wakeup) {
        if let queue = wakeup.queue, queue != configuration.queue { return }
        let now = clock.now
        shared.withLock { s in
            // Jobs claimed ahead are wanted that much before they are due.
            let seconds = wakeup.dueInSeconds.map { $0 - (ahead?.window.seconds ?? 0) }
            if let seconds, seconds > 0.001 {
                let due = now.advanced(by: .seconds(seconds))
                s.announcedDue = s.announcedDue.map { min($0, due) } ?? due
            } else {
                s.workReady = true
            }
        }
        signal.fire()
    }

    public func run() async throws {
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { services in
                services.addTask { await self.completions.run() }
                services.addTask { await self.heartbeatLoop() }
                await withDiscardingTaskGroup { jobs in
                    await self.claimLoop(&jobs)
                    await self.drain(&jobs)
                }
                // Every handler has returned: stop the helpers once their last writes are done.
                self.completions.finish()
                self.shared.withLock { $0.stopping = true }
                self.heartbeatStop.fire()
            }
        } onGracefulShutdown: {
            self.shared.withLock { $0.stopping = true }
            self.logger.info("shutting down: claiming stopped; running jobs get the grace period",
                             metadata: ["alfred.jobs": "\(self.inFlight)"])
            self.signal.fire()
        }
    }

    private var stopping: Bool { shared.withLock { $0.stopping } } 

    private func claimLoop(_ jobs: inout DiscardingTaskGroup) async {
        var plan = ClaimPlan<C.Instant>(batch: configuration.claimBatch, pollInterval: configuration.pollInterval)
        // Each claim carries its own owner tag. A claim that failed may still have committed (the
        // connection dropped after the server's commit, before its answer arrived): its jobs would
        // sit leased to nobody until the lease expired, and a reminder would be that late. So a
        // failed claim's tag is kept, and its jobs are put back before the next claim.
        var claims = 0
        var inDoubt: [String] = []
        while !stopping && !Task.isCancelled {
            let (free, batch) = shared.withLock { s in
                (s.limit.current - s.inFlight, s.limit.claimSize(free: Int.max, batch: configuration.claimBatch))
            }
            switch plan.next(free: free, batch: batch, now: clock.now) {
            case .claim(let want):
                // With a presence, claims wait for its session (connecting, or again after one ended),
                // so that every claim can be freed as soon as this process is gone.
                let session = presence?.current
                if presence != nil, session?.hasEnded ?? true {
                    _ = await signal.wait(until: clock.now.advanced(by: .milliseconds(50)), clock: clock)
                    continue
                }
                let claimed: [ClaimedJob]
                claims += 1
                let tag = "\(configuration.owner)/\(claims)"
                var sent = false
                do {
                    while let doubtful = inDoubt.first {
                        let released = try await store.releaseClaim(owner: doubtful)
                        if released > 0 {
                            logger.warning("a claim whose answer was lost had taken jobs; they were put back unrun",
                                           metadata: ["alfred.jobs": "\(released)"])
                        }
                        inDoubt.removeFirst()
                    }
                    sent = true
                    claimed = try await store.claim(queue: configuration.queue, limit: want, owner: tag, lease: configuration.lease,
                                                    ahead: ahead, session: session)
                } catch {
                    if sent { inDoubt.append(tag) }
                    storeErrors.claim.increment()
                    shared.withLock { $0.storeHealthy = false }
                    let retryAt = plan.claimFailed(now: clock.now)
                    logger.error("claim failed; backing off", metadata: [
                        "alfred.error": "\(String(reflecting: error))", "alfred.failures": "\(plan.failures)"])
                    _ = await signal.wait(until: retryAt, clock: clock)
                    continue
                }
                if !isHealthy { logger.info("store reachable again; claiming") }
                shared.withLock { s in
                    s.storeHealthy = true
                    s.limit.claimed(claimed.count, of: want)
                    s.inFlight += claimed.count
                    for job in claimed { s.running[job.id] = Running(lease: job.lease, kind: job.kind, attempt: job.attempt) }
                }
                for job in claimed { emit(job, .claimed) }
                let claimedAt = clock.now
                // One child per claim, whose own group runs its jobs: a task group finds a finished
                // child by walking its children, and with thousands of jobs in hand (claimed ahead
                // for a burst) one flat group spent more CPU on that walk than on some of the jobs.
                jobs.addTask {
                    await self.stopping(when: session, count: claimed.count) {
                        await withDiscardingTaskGroup { batch in
                            for job in claimed { batch.addTask { await self.execute(job, due: claimedAt.advanced(by: job.dueIn)) } }
                        }
                    }
                }
                if plan.claimed(claimed.count, of: want) {
                    do {
                        plan.nextDue(inSeconds: try await store.secondsUntilNextDue(queue: configuration.queue, ahead: ahead), now: clock.now)
                    } catch {
                        storeErrors.claim.increment()
                    }
                }
            case .sleep(let deadline):
                let fired = await signal.wait(until: deadline, clock: clock)
                let (ready, announced) = shared.withLock { s -> (Bool, C.Instant?) in
                    defer { s.workReady = false; s.announcedDue = nil }
                    return (s.workReady, s.announcedDue)
                }
                plan.wokeUp(workReady: ready, announced: announced, timedOut: !fired && clock.now >= deadline,
                            atCapacity: free <= 0)
            }
        }
    }

    /// Runs one claim's jobs, cancelling them all if the presence session they were claimed under
    /// ends first: another worker may take them as soon as the database is reachable again.
    private func stopping(when session: PresenceSession?, count: Int, _ body: @escaping @Sendable () async -> Void) async {
        guard let session else { return await body() }
        await withTaskGroup(of: Bool.self) { race in
            race.addTask { await body(); return true }
            race.addTask { await session.ended(); return false }
            if await race.next() == false, !Task.isCancelled {
                logger.warning("worker presence ended: stopping the jobs claimed under it", metadata: ["alfred.jobs": "\(count)"])
            }
            race.cancelAll()
        }
    }

    /// After claiming stopped: wait for running jobs up to the grace period, then cancel the rest
    /// (their handlers see cancellation and the jobs are released).
    private func drain(_ jobs: inout DiscardingTaskGroup) async {
        let graceEnd = clock.now.advanced(by: configuration.shutdownGrace)
        while shared.withLock({ $0.inFlight }) > 0 && clock.now < graceEnd && !Task.isCancelled {
            _ = await signal.wait(until: graceEnd, clock: clock)
        }
        let left = shared.withLock { $0.inFlight }
        if left > 0 {
            logger.warning("shutdown grace elapsed; releasing running jobs", metadata: ["alfred.jobs": "\(left)"])
            jobs.cancelAll()
        }
    }

    /// - Parameter due: when the job is due on this worker's clock (the claim's instant unless it was claimed ahead).
    private func execute(_ job: ClaimedJob, due: C.Instant) async {
        let m = metrics[job.kind]
        m.claimed.increment()
        m.lateness.recordNanoseconds(Int64(job.lateness.seconds * 1e9))
        var logger = self.logger
        logger[metadataKey: "alfred.job.id"] = "\(job.id)"
        logger[metadataKey: "alfred.job.kind"] = "\(registry.entry(for: job.kind) == nil ? MetricName.unknownKind : job.kind)"
        logger[metadataKey: "alfred.attempt"] = "\(job.attempt)"
        defer {
            shared.withLock { s in
                s.inFlight -= 1
                s.running[job.id] = nil
                s.lost.remove(job.id)
            }
            signal.fire()
        }

        guard let entry = registry.entry(for: job.kind) else {
            await record(job, m, logger, error: "no handler for kind '\(job.kind.prefix(64))' on this worker", .discard)
            return
        }
        if Task.isCancelled {
            // Stopped before it started (shutdown past its grace, or the presence session ended).
            await release(job, logger)
            return
        }
        if job.pastDeadline {
            // A retry "now" is at or past the deadline, so the store expires the job.
            await record(job, m, logger, error: "deadline passed before the job could start", .retry(after: .zero))
            return
        }
        // Only kinds that prepare ahead are claimed early (`ahead` names them to the claim), and
        // their handlers call this before what must not happen early.
        let clock = self.clock
        let untilDue: @Sendable () async throws -> Void = { if clock.now < due { try await clock.sleep(until: due, tolerance: nil) } }
        let context = JobContext(
            id: job.id, kind: job.kind, attempt: job.attempt, maxAttempts: job.maxAttempts, deadline: job.deadline,
            userID: job.userID, lateness: job.lateness, sinceScheduled: job.sinceScheduled, logger: logger, leaseLost: { [self] in self.shared.withLock { $0.lost.contains(job.id) } },
            untilDue: untilDue)
        logger.debug("job started")
        emit(job, .started)
        let start = clock.now
        let ran = { [self] in
            let seconds = start.duration(to: clock.now).seconds
            m.duration.recordNanoseconds(Int64(seconds * 1e9))
            self.shared.withLock { $0.limit.ran(seconds: seconds) }
        }
        do {
            let outcome = try await entry.run(job.payload, context)
            ran()
            let next: JobSchedule? = if case .runAgain(let schedule) = outcome { schedule } else { nil }
            if await completions.complete(Completion(lease: job.lease, next: next)) {
                m.completed.increment()
                emit(job, .completed)
            } else {
                m.leaseLost.increment()
                logger.warning("job finished but its lease was lost (rescued or cancelled meanwhile); outcome refused")
                emit(job, .outcomeRefused)
            }
        } catch {
            ran()
            if Task.isCancelled {
                await release(job, logger)
                return
            }
            switch error {
            case let error as PayloadDecodingError:
                await record(job, m, logger, error: error.description, .discard)
            case let error as JobError:
                switch error.action {
                case .discard:
                    await record(job, m, logger, error: error.reason, .discard)
                case .retry(let after):
                    await record(job, m, logger, error: error.reason, policy(job, retryAfter: after))
                case .snooze(let delay):
                    do {
                        if try await store.snooze(job.lease, for: delay) == false {
                            m.leaseLost.increment()
                            emit(job, .outcomeRefused)
                        } else {
                            emit(job, .snoozed)
                        }
                    } catch {
                        logger.error("could not record snooze; the lease will expire and the job be rescued",
                                     metadata: ["alfred.error": "\(String(reflecting: error))"])
                    }
                }
            default:
                // Only the type: an arbitrary error's description may quote a payload, an address or a
                // title, and this text goes to `jobs.last_error` and the logs. Handlers that want a
                // readable reason throw `JobError` (whose reason they keep free of personal data).
                await record(job, m, logger, error: "unclassified error \(type(of: error)); throw JobError for a reason",
                             policy(job, retryAfter: nil))
            }
        }
    }

    /// Hands a cancelled job back without using its attempt (shutdown past its grace, or the presence
    /// session ended: then the database may refuse it, and the rescuer frees it instead).
    private func release(_ job: ClaimedJob, _ logger: Logger) async {
        await shielded { _ = try? await self.store.snooze(job.lease, for: .zero) }
        logger.info("released a job that was stopped")
        emit(job, .released)
    }

    private func policy(_ job: ClaimedJob, retryAfter: Duration?) -> FailureDisposition {
        rng.withLock { rng in
            configuration.retry.next(afterAttempt: job.attempt, maxAttempts: job.maxAttempts, retryAfter: retryAfter,
                                     using: &rng)
        }
    }

    /// Records a failed attempt and counts what it led to.
    private func record(_ job: ClaimedJob, _ m: QueueMetrics.Kind, _ logger: Logger, error: String,
                        _ disposition: FailureDisposition) async {
        m.failed.increment()
        let state: JobState?
        do {
            state = try await shielded { try await self.store.fail(job.lease, error: error, disposition: disposition) }
        } catch {
            storeErrors.fail.increment()
            logger.error("could not record a failed attempt; the lease will expire and the job be rescued",
                         metadata: ["alfred.error": "\(String(reflecting: error))"])
            return
        }
        switch state {
        case .queued?: m.retried.increment()
        case .discarded?: m.discarded.increment()
        case .expired?: m.expired.increment()
        case nil: m.leaseLost.increment()
        default: break
        }
        let level: Logger.Level = state == .queued ? .info : .warning
        logger.log(level: level, "job attempt failed", metadata: [
            "alfred.outcome": "\(state?.rawValue ?? "lease-lost")", "alfred.error": "\(error.prefix(300))"])
        emit(job, .failed(state))
    }

    private func emit(_ job: ClaimedJob, _ what: WorkerEvent.What) {
        events.emit(WorkerEvent(job: job.id, kind: registry.entry(for: job.kind) == nil ? MetricName.unknownKind : job.kind,
                                queue: configuration.queue, attempt: job.attempt, what: what))
    }

    private let heartbeatStop = Signal()

    /// Extends the leases of running jobs every `heartbeatInterval`.
    private func heartbeatLoop() async {
        while true {
            _ = await heartbeatStop.wait(until: clock.now.advanced(by: configuration.heartbeatInterval), clock: clock)
            let (leases, done) = shared.withLock { s in (s.running.values.map(\.lease), s.stopping && s.inFlight == 0) }
            if done || Task.isCancelled { return }
            guard !leases.isEmpty else { continue }
            do {
                let lost = try await store.heartbeat(leases, lease: configuration.lease)
                guard !lost.isEmpty else { continue }
                let newlyLost = shared.withLock { s -> [(JobID, Running)] in
                    let gone = lost.compactMap { lease in s.running[lease.id].flatMap { $0.lease == lease ? (lease.id, $0) : nil } }
                    s.lost.formUnion(gone.map(\.0))
                    return gone
                }
                for (id, job) in newlyLost {
                    let kind = registry.entry(for: job.kind) == nil ? MetricName.unknownKind : job.kind
                    events.emit(WorkerEvent(job: id, kind: kind, queue: configuration.queue, attempt: job.attempt, what: .leaseLost))
                }
                logger.warning("leases lost (rescued or cancelled while running)", metadata: ["alfred.jobs": "\(lost.count)"])
            } catch {
                storeErrors.heartbeat.increment()
                logger.error("heartbeat failed", metadata: ["alfred.error": "\(String(reflecting: error))"])
            }
        }
    }
}

/// Runs a bookkeeping write to completion even if the calling task was cancelled (shutdown past its
/// grace): the unstructured task does not inherit cancellation, and we wait for it.
func shielded<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
    try await Task { try await body() }.value
}

func shielded(_ body: @escaping @Sendable () async -> Void) async {
    await Task { await body() }.value
}
