import AlfredCore
import AlfredTestKit
import Foundation
@testable import JobQueue
import Logging
import Privacy
import Synchronization
import Testing

/// The delete-all's few quick revocation tries, paced on an injected clock. Pure: the store, the
/// job queue and Google (behind the revoker) are in-memory stand-ins.
@Suite(.timeLimit(.minutes(5))) struct DeleteAllRevokePauseTests {
    static let user = UUID(), request = UUID(), connector = UUID()

    struct Unused: Error {}

    /// Refuses the first `failures` tries (retryable unless told otherwise), then revokes.
    final class Revoker: ConnectorRevoker {
        private let failures: Int
        private let retryable: Bool
        private let count = Mutex(0)
        init(failures: Int, retryable: Bool = true) { self.failures = failures; self.retryable = retryable }
        var tries: Int { count.withLock { $0 } }

        func revoke(connector: UUID) async throws(RevocationFailure) -> RevocationResult {
            let attempt = count.withLock { $0 += 1; return $0 }
            guard attempt > failures else { throw RevocationFailure(retryable: retryable, reason: "google_unavailable") }
            return .revoked
        }
    }

    /// One user with one connector; remembers what the handler did to them. `completedWithPending`:
    /// the request was completed by an earlier run, leaving that many parked revocations.
    final class Store: PrivacyStore {
        let log = Mutex<[String]>([])
        var events: [String] { log.withLock { $0 } }
        let completedWithPending: Int?
        init(completedWithPending: Int? = nil) { self.completedWithPending = completedWithPending }

        func start(_ request: UUID) async throws -> UUID? { completedWithPending == nil ? DeleteAllRevokePauseTests.user : nil }
        func connectorsToRevoke(userID: UUID) async throws -> [UUID] { [DeleteAllRevokePauseTests.connector] }
        func countRevoked(_ request: UUID) async throws { log.withLock { $0.append("revoked") } }
        func parkRevocation(connector: UUID, request: UUID) async throws { log.withLock { $0.append("parked") } }
        func deleteUser(_ request: UUID) async throws -> PrivacyRequest {
            log.withLock { $0.append("deleted") }
            return PrivacyRequest(id: request, state: .completed, requestedAt: Date(timeIntervalSince1970: 0), startedAt: nil,
                                  completedAt: nil, connectorsRevoked: 0, revocationsPending: 0, rowsDeleted: nil, outcome: .deleted)
        }
        func openDeleteAll(userID: UUID) async throws -> (request: UUID, created: Bool) { throw Unused() }
        func request(_ id: UUID) async throws -> PrivacyRequest? {
            guard let pending = completedWithPending else { throw Unused() }
            return PrivacyRequest(id: id, state: .completed, requestedAt: Date(timeIntervalSince1970: 0), startedAt: nil,
                                  completedAt: Date(timeIntervalSince1970: 1), connectorsRevoked: 0, revocationsPending: pending,
                                  rowsDeleted: nil, outcome: .deleted)
        }
        func request(_ id: UUID, of userID: UUID?) async throws -> PrivacyRequest? { throw Unused() }
        func revocationSettled(request: UUID) async throws { throw Unused() }
        func parkedRevocations() async throws -> [(connector: UUID, request: UUID, parkedAt: Date)] {
            [(DeleteAllRevokePauseTests.connector, DeleteAllRevokePauseTests.request, Date(timeIntervalSince1970: 0))]
        }
        func backlogAges() async throws -> (openRequest: Double?, parkedRevocation: Double?) { throw Unused() }
        func export(userID: UUID) async throws -> String { throw Unused() }
    }

    /// A delete-all only enqueues (the parked grant's retry job).
    final class Jobs: JobStore {
        let enqueued = Mutex<[NewJob]>([])
        func enqueue(_ jobs: [NewJob], onConflict: UniqueConflict) async throws -> [EnqueueResult] {
            enqueued.withLock { $0 += jobs }
            return []
        }
        func claim(queue: String, limit: Int, owner: String, lease: Duration, ahead: ClaimAhead?,
                   session: PresenceSession?) async throws -> [ClaimedJob] { throw Unused() }
        func releaseClaim(owner: String) async throws -> Int { throw Unused() }
        func complete(_ completions: [Completion]) async throws -> Set<Lease> { throw Unused() }
        func fail(_ lease: Lease, error: String, disposition: FailureDisposition) async throws -> JobState? { throw Unused() }
        func snooze(_ lease: Lease, for delay: Duration) async throws -> Bool { throw Unused() }
        func heartbeat(_ leases: [Lease], lease: Duration) async throws -> Set<Lease> { throw Unused() }
        func rescueExpired(limit: Int) async throws -> [(kind: String, state: JobState)] { throw Unused() }
        func prune(olderThan retention: Duration, limit: Int) async throws -> Int { throw Unused() }
        func secondsUntilNextDue(queue: String, ahead: ClaimAhead?) async throws -> Double? { throw Unused() }
        func stats() async throws -> QueueStats { throw Unused() }
        func ready() async throws -> [QueueStats.Ready] { throw Unused() }
        func list(state: JobState?, limit: Int) async throws -> [JobSummary] { throw Unused() }
        func cancel(_ id: JobID) async throws -> Bool { throw Unused() }
        func retry(_ id: JobID) async throws -> Bool { throw Unused() }
    }

    static func run(_ handler: DeleteAllHandler) async throws -> JobOutcome {
        let context = JobContext(id: JobID(), kind: PrivacyKind.deleteAll.name, attempt: 1, maxAttempts: 25, deadline: nil,
                                 userID: nil, lateness: .zero, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
                                 leaseLost: { false })
        return try await handler.run(DeleteAllHandler.Payload(requestID: request), context: context)
    }

    @Test func retryableRefusalsPauseOnTheClockBeforeTheNextTry() async throws {
        let clock = ManualClock()
        let revoker = Revoker(failures: 2)
        let store = Store()
        let handler = DeleteAllHandler(store: store, revoker: revoker, jobs: Jobs(), clock: clock)
        let running = Task { try await Self.run(handler) }

        await clock.waitForSleepers(1)
        #expect(revoker.tries == 1, "the second try waits for the pause")
        clock.advance(by: DeleteAllHandler.Configuration().revokePause)
        await clock.waitForSleepers(1)
        #expect(revoker.tries == 2)
        clock.advance(by: DeleteAllHandler.Configuration().revokePause)

        #expect(try await running.value == .done)
        #expect(revoker.tries == 3)
        #expect(clock.sleeps == [.milliseconds(500), .milliseconds(500)])
        #expect(store.events == ["revoked", "deleted"])
    }

    @Test(arguments: [(true, 3, 2), (false, 1, 0)])
    func aGrantStillRefusedIsParkedAndTheUserDeletedWithoutAFinalPause(retryable: Bool, tries: Int, pauses: Int) async throws {
        let clock = ManualClock(sleepsAdvance: true)
        let revoker = Revoker(failures: .max, retryable: retryable)
        let store = Store(), jobs = Jobs()
        #expect(try await Self.run(DeleteAllHandler(store: store, revoker: revoker, jobs: jobs, clock: clock)) == .done)
        #expect(revoker.tries == tries)
        #expect(clock.sleeps == Array(repeating: .milliseconds(500), count: pauses))
        #expect(store.events == ["parked", "deleted"])
        #expect(jobs.enqueued.withLock { $0.map(\.kind.name) } == [PrivacyKind.revoke.name])
    }

    /// A run that deleted the user and then failed before queueing the revocations the deletion parked:
    /// its retry finds the request completed and still gives every parked grant a job.
    @Test func aRetryAfterTheDeletionStillQueuesTheParkedRevocations() async throws {
        let jobs = Jobs()
        let handler = DeleteAllHandler(store: Store(completedWithPending: 1), revoker: Revoker(failures: 0), jobs: jobs,
                                       clock: ManualClock(sleepsAdvance: true))
        #expect(try await Self.run(handler) == .done)
        #expect(jobs.enqueued.withLock { $0.map(\.uniqueKey) } == ["privacy.revoke:" + Self.connector.uuidString.lowercased()])
        let quiet = Jobs()
        _ = try await Self.run(DeleteAllHandler(store: Store(completedWithPending: 0), revoker: nil, jobs: quiet,
                                                clock: ManualClock(sleepsAdvance: true)))
        #expect(quiet.enqueued.withLock { $0.isEmpty })
    }
}
