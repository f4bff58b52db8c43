import AlfredCore
import Foundation
import JobQueue
import Logging
import Metrics

/// The privacy jobs' kinds. Both are system jobs (no `user_id` on the row): deleting a user's jobs
/// must not delete the job doing the deleting, and nothing left behind may name the user.
public enum PrivacyKind {
    public static let deleteAll = JobKind("privacy.delete_all", maxAttempts: 25, priority: 20)
    /// A revocation Google did not confirm before the user was deleted, retried with backoff for about a week.
    public static let revoke = JobKind("privacy.revoke", maxAttempts: 40)

    public static func deleteAllJob(request: UUID) throws -> NewJob {
        NewJob(kind: deleteAll, payload: try JobRegistry.encode(DeleteAllHandler.Payload(requestID: request)),
               uniqueKey: "privacy.delete_all:\(request.uuidString.lowercased())")
    }

    /// Opens the user's delete-all request (or finds the open one) and enqueues its job by unique
    /// key: asking again re-enqueues a request whose job was lost, never a second one. What the
    /// API's route, Apple's account-deleted notification and `alfred privacy delete-all` all do.
    public static func requestDeleteAll(userID: UUID, privacy: any PrivacyStore, jobs: any JobStore) async throws
        -> (request: UUID, created: Bool)
    {
        let opened = try await privacy.openDeleteAll(userID: userID)
        _ = try await jobs.enqueue([try deleteAllJob(request: opened.request)], onConflict: .keep)
        return opened
    }
}

/// `privacy.delete_all` (RFC §9.3): revoke every Google connector of the user through the broker,
/// then delete every row of the user and write the one final audit record, in one transaction.
///
/// Every step can run again: a revoked connector is not revoked twice, parking and the deletion are
/// idempotent, and a completed request only reports its outcome. So a worker killed anywhere loses
/// nothing; the rescued job finishes the work. When Google keeps refusing, the local data is deleted
/// anyway and the grant is parked for `privacy.revoke` to retry: the deletion never waits on Google.
public struct DeleteAllHandler: JobHandler {
    public struct Payload: Codable, Sendable {
        public var requestID: UUID
        public init(requestID: UUID) { self.requestID = requestID }
        enum CodingKeys: String, CodingKey { case requestID = "request_id" }
    }

    public struct Configuration: Sendable {
        /// Tries per connector before it is parked (retryable failures only).
        public var revokeTries = 3
        /// Pause between those tries.
        public var revokePause: Duration = .milliseconds(500)
        /// When the first retry of a parked revocation runs.
        public var parkedRetryDelay: Duration = .seconds(60)
        public init() {}
    }

    public let kind = PrivacyKind.deleteAll
    let store: any PrivacyStore
    let revoker: (any ConnectorRevoker)?
    let jobs: any JobStore
    let configuration: Configuration
    /// Paces the pause between revocation tries.
    let clock: any Clock<Duration>
    let duration: Timer

    public init(store: any PrivacyStore, revoker: (any ConnectorRevoker)?, jobs: any JobStore, configuration: Configuration = .init(),
                clock: any Clock<Duration> = ContinuousClock(), metrics: any MetricsFactory = MetricsSystem.factory) {
        self.store = store; self.revoker = revoker; self.jobs = jobs; self.configuration = configuration; self.clock = clock
        duration = Timer(label: MetricName.deleteAllDuration, preferredDisplayUnit: .seconds, factory: metrics)
    }

    public func run(_ payload: Payload, context: JobContext) async throws -> JobOutcome {
        let request = payload.requestID
        guard let user = try await store.start(request) else {
            // Requests are never deleted: one that is not there was never made (a hand-written job).
            guard let completed = try await store.request(request) else {
                throw JobError.discard("no privacy request \(request.uuidString.lowercased())")
            }
            // A run that deleted the user but failed before queueing the revocations it parked.
            try await queueParkedRevocations(completed)
            context.logger.info("delete-all request already completed", metadata: ["alfred.privacy.request": "\(request)"])
            return .done
        }
        for connector in try await store.connectorsToRevoke(userID: user) {
            guard !context.isLeaseLost else { throw JobError.retry("lease lost during revocation") }
            switch await revoke(connector) {
            case .success(.revoked):
                try await store.countRevoked(request)
            case .success(.gone):
                break
            case .failure(let failure):
                context.logger.warning("Google revocation did not go through; deleting anyway and parking it for retry",
                                       metadata: ["alfred.privacy.request": "\(request)", "alfred.reason": "\(failure.reason)"])
                try await store.parkRevocation(connector: connector, request: request)
                _ = try await jobs.enqueue([try PrivacyKind.revokeJob(connector: connector, request: request,
                                                                  after: configuration.parkedRetryDelay)], onConflict: .keep)
            }
        }
        guard !context.isLeaseLost else { throw JobError.retry("lease lost before deletion") }
        let done = try await store.deleteUser(request)
        try await queueParkedRevocations(done)
        if let elapsed = done.duration { duration.recordNanoseconds(Int64(elapsed.seconds * 1e9)) }
        context.logger.info("delete-all completed", metadata: [
            "alfred.privacy.request": "\(request)", "alfred.privacy.outcome": "\(done.outcome?.rawValue ?? "?")",
            "alfred.privacy.revoked": "\(done.connectorsRevoked)", "alfred.privacy.revocations_pending": "\(done.revocationsPending)",
            "alfred.privacy.seconds": "\(done.duration.map { String(format: "%.3f", $0.seconds) } ?? "?")"])
        return .done
    }

    /// A connector that appeared after the listing was parked by the deletion itself (migration 0008):
    /// give it, like every parked grant, a live revocation job (`.keep` leaves live ones alone).
    private func queueParkedRevocations(_ request: PrivacyRequest) async throws {
        guard request.revocationsPending > 0 else { return }
        _ = try await ParkedRevocations.requeue(privacy: store, jobs: jobs, onConflict: .keep)
    }

    /// A few quick tries: a blip should not leave a grant parked, but the deletion must not wait long.
    private func revoke(_ connector: UUID) async -> Result<RevocationResult, RevocationFailure> {
        guard let revoker else { return .failure(RevocationFailure(retryable: true, reason: "no_broker")) }
        var last = RevocationFailure(retryable: true, reason: "not_tried")
        for attempt in 1...max(1, configuration.revokeTries) {
            do {
                return .success(try await revoker.revoke(connector: connector))
            } catch {
                last = error
                guard error.retryable, attempt < configuration.revokeTries else { break }
                try? await clock.sleep(for: configuration.revokePause)
            }
        }
        return .failure(last)
    }
}

/// `privacy.revoke`: retries the revocation of a grant parked by a delete-all until Google confirms
/// (or says the token is already dead), then nothing of it remains.
public struct RevokeParkedHandler: JobHandler {
    public struct Payload: Codable, Sendable {
        public var connectorID: UUID
        public var requestID: UUID
        enum CodingKeys: String, CodingKey { case connectorID = "connector_id", requestID = "request_id" }
    }

    public let kind = PrivacyKind.revoke
    let store: any PrivacyStore
    /// nil on a worker without a broker: the job goes back for one that has it.
    let revoker: (any ConnectorRevoker)?

    public init(store: any PrivacyStore, revoker: (any ConnectorRevoker)?) { self.store = store; self.revoker = revoker }

    /// 1, 2, 4 … minutes, then every 6 hours: the 40 attempts span about a week of Google outage.
    static func delay(attempt: Int) -> Duration {
        .seconds(min(60 << min(max(attempt - 1, 0), 20), 6 * 3600))
    }

    public func run(_ payload: Payload, context: JobContext) async throws -> JobOutcome {
        guard let revoker else {
            throw JobError.retry("this worker has no broker socket; another worker will revoke", after: .seconds(60))
        }
        do {
            _ = try await revoker.revoke(connector: payload.connectorID)
        } catch {
            throw JobError.retry("revocation still failing (\(error.reason))", after: Self.delay(attempt: context.attempt))
        }
        try await store.revocationSettled(request: payload.requestID)
        context.logger.info("parked revocation went through", metadata: ["alfred.privacy.request": "\(payload.requestID)"])
        return .done
    }
}

extension PrivacyKind {
    /// The retry job of a parked revocation; its unique key makes enqueueing it again harmless.
    public static func revokeJob(connector: UUID, request: UUID, after delay: Duration) throws -> NewJob {
        let payload = RevokeParkedHandler.Payload(connectorID: connector, requestID: request)
        return NewJob(kind: revoke, payload: try JobRegistry.encode(payload), schedule: .after(delay),
                      uniqueKey: "privacy.revoke:\(connector.uuidString.lowercased())")
    }
}

/// Keeps every parked revocation on a live `privacy.revoke` job.
public enum ParkedRevocations {
    /// Queues a `privacy.revoke` job, due now, for every parked revocation; returns them. `.keep` leaves
    /// a live job's schedule alone (the sweep); `.replaceSchedule` moves it to now (the operator's
    /// `alfred privacy retry-revocations`). A job that ran out of attempts is replaced either way.
    public static func requeue(privacy: any PrivacyStore, jobs: any JobStore, onConflict: UniqueConflict)
        async throws -> [(connector: UUID, request: UUID, parkedAt: Date)]
    {
        let parked = try await privacy.parkedRevocations()
        let retries = try parked.map { try PrivacyKind.revokeJob(connector: $0.connector, request: $0.request, after: .zero) }
        if !retries.isEmpty { _ = try await jobs.enqueue(retries, onConflict: onConflict) }
        return parked
    }

    /// Every worker, at start and then daily: a revocation whose 40 attempts ran out (Google refused
    /// for more than a week) starts another round instead of waiting for an operator.
    public static func sweeper<C: Clock<Duration>>(privacy: any PrivacyStore, jobs: any JobStore, interval: Duration = .seconds(86_400),
                                                   runtime: Runtime<C>) -> PeriodicService<C> {
        let logger = runtime.logger
        return PeriodicService(name: "revocation-sweep", interval: interval, runtime: runtime) {
            let parked = try await requeue(privacy: privacy, jobs: jobs, onConflict: .keep)
            if !parked.isEmpty {
                logger.info("parked revocations have live retry jobs", metadata: ["alfred.privacy.parked": "\(parked.count)"])
            }
        }
    }
}

/// The gauges behind the privacy alerts (DeleteAllPastDeadline, RevocationParkedForDays): every
/// worker samples the same database-wide ages.
public enum PrivacyGauges {
    public static func sampler<C: Clock<Duration>>(privacy: any PrivacyStore, interval: Duration = .seconds(60),
                                                   runtime: Runtime<C>) -> PeriodicService<C> {
        let open = Gauge(label: MetricName.privacyOpenRequestAge, factory: runtime.metrics)
        let parked = Gauge(label: MetricName.privacyParkedRevocationAge, factory: runtime.metrics)
        return PeriodicService(name: "privacy-gauges", interval: interval, runtime: runtime) {
            let ages = try await privacy.backlogAges()
            open.record(ages.openRequest ?? 0)
            parked.record(ages.parkedRevocation ?? 0)
        }
    }
}

