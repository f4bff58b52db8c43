import Foundation

/// Where redacted audit events go: appended to the user's hash chain. An event about a user who no
/// longer exists is dropped (a job still running after a delete-all must not write about them).
public protocol AuditRecorder: Sendable {
    func record(_ event: AuditEvent) async throws
    /// Counts a routine success into the user's tally of identical events (same type, connector,
    /// result and metadata; `items` adds up what fetches returned): the tally becomes one event,
    /// with the count, when it is folded (`AuditStore.fold`, daily). Failures are `record`ed.
    func tally(_ event: AuditEvent, items: Int?) async throws
}

/// One stored audit event, with its place in the user's chain.
public struct AuditEntry: Sendable, Equatable {
    public let id: UUID
    public let userID: UUID
    public let seq: Int64
    public let eventType: String
    public let connector: String?
    public let result: String
    /// `redacted_metadata` as Postgres renders the jsonb (the exact text the hash covers).
    public let metadataJSON: String
    /// `created_at` in Unix microseconds.
    public let createdAtMicros: Int64
    public let prevHash: [UInt8]
    public let hash: [UInt8]

    public init(id: UUID, userID: UUID, seq: Int64, eventType: String, connector: String?, result: String, metadataJSON: String,
                createdAtMicros: Int64, prevHash: [UInt8], hash: [UInt8]) {
        self.id = id; self.userID = userID; self.seq = seq; self.eventType = eventType; self.connector = connector
        self.result = result; self.metadataJSON = metadataJSON; self.createdAtMicros = createdAtMicros
        self.prevHash = prevHash; self.hash = hash
    }

    public var createdAt: Date { Date(timeIntervalSince1970: Double(createdAtMicros) / 1_000_000) }
}

/// A chain's end and, after pruning, its start: the oldest kept event links to `prunedThroughHash`.
public struct AuditHead: Sendable, Equatable {
    public let seq: Int64
    public let hash: [UInt8]
    public let prunedThroughSeq: Int64
    public let prunedThroughHash: [UInt8]
    public init(seq: Int64, hash: [UInt8], prunedThroughSeq: Int64, prunedThroughHash: [UInt8]) {
        self.seq = seq; self.hash = hash; self.prunedThroughSeq = prunedThroughSeq; self.prunedThroughHash = prunedThroughHash
    }
}

/// Reading and pruning the audit trail.
public protocol AuditStore: AuditRecorder {
    /// Events of the user with `seq > afterSeq`, in chain order.
    func entries(userID: UUID, afterSeq: Int64, limit: Int) async throws -> [AuditEntry]
    /// The user's chain head; nil when the user has none (never audited, or deleted).
    func head(userID: UUID) async throws -> AuditHead?
    /// Removes events created before `before` (a prefix of each chain), at most `limit`.
    func prune(before: Date, limit: Int) async throws -> Int
    /// Appends one event for each tally whose first event is before `before`, and removes the tally,
    /// at most `limit`; returns how many it folded.
    func fold(before: Date, limit: Int) async throws -> Int
}

/// A delete-all request, as `alfred privacy status` shows it. Holds no user id once completed.
public struct PrivacyRequest: Sendable, Codable, Equatable {
    public enum State: String, Sendable, Codable { case queued = "QUEUED", running = "RUNNING", completed = "COMPLETED" }
    public enum Outcome: String, Sendable, Codable { case deleted = "DELETED", nothingToDelete = "NOTHING_TO_DELETE" }

    public let id: UUID
    public let state: State
    public let requestedAt: Date
    public let startedAt: Date?
    public let completedAt: Date?
    public let connectorsRevoked: Int
    /// Connectors whose Google grant is still to be revoked (retried by `privacy.revoke` jobs).
    public let revocationsPending: Int
    /// Rows deleted, by table (counts only).
    public let rowsDeleted: [String: Int]?
    public let outcome: Outcome?

    public init(id: UUID, state: State, requestedAt: Date, startedAt: Date?, completedAt: Date?, connectorsRevoked: Int,
                revocationsPending: Int, rowsDeleted: [String: Int]?, outcome: Outcome?) {
        self.id = id; self.state = state; self.requestedAt = requestedAt; self.startedAt = startedAt
        self.completedAt = completedAt; self.connectorsRevoked = connectorsRevoked; self.revocationsPending = revocationsPending
        self.rowsDeleted = rowsDeleted; self.outcome = outcome
    }

    enum CodingKeys: String, CodingKey {
        case id = "request_id", state, outcome
        case requestedAt = "requested_at", startedAt = "started_at", completedAt = "completed_at"
        case connectorsRevoked = "connectors_revoked", revocationsPending = "revocations_pending", rowsDeleted = "rows_deleted"
    }

    /// Request to completion, once completed.
    public var duration: Duration? {
        completedAt.map { .milliseconds(Int64(($0.timeIntervalSince(requestedAt) * 1000).rounded())) }
    }
}

/// Delete-all's storage. Each step is idempotent, so a run killed anywhere can simply run again.
public protocol PrivacyStore: Sendable {
    /// Opens a delete-all request for the user, or returns the one already open (`created` false).
    func openDeleteAll(userID: UUID) async throws -> (request: UUID, created: Bool)
    func request(_ id: UUID) async throws -> PrivacyRequest?
    /// The request, only if it is `userID`'s (an app asking about its own; nil for someone else's).
    func request(_ id: UUID, of userID: UUID?) async throws -> PrivacyRequest?
    /// Marks the request running and returns its user; nil when it is already completed.
    func start(_ request: UUID) async throws -> UUID?
    /// The user's connectors Google may still honour (not revoked, not parked).
    func connectorsToRevoke(userID: UUID) async throws -> [UUID]
    func countRevoked(_ request: UUID) async throws
    /// Keeps the connector's sealed token aside (never read by the caller) for a later revocation.
    func parkRevocation(connector: UUID, request: UUID) async throws
    /// Deletes every row of the user and writes the one final audit record, in one transaction.
    func deleteUser(_ request: UUID) async throws -> PrivacyRequest
    /// After a parked revocation went through: recounts what is still pending for its request.
    func revocationSettled(request: UUID) async throws
    /// Grants a delete-all could not revoke yet, oldest first.
    func parkedRevocations() async throws -> [(connector: UUID, request: UUID, parkedAt: Date)]
    /// Seconds since the oldest open delete-all request was made, and since the oldest parked
    /// revocation was parked, by the database's clock; nil when there is none.
    func backlogAges() async throws -> (openRequest: Double?, parkedRevocation: Double?)
    /// Everything stored about the user, as one JSON object (secrets stay sealed and are left out).
    func export(userID: UUID) async throws -> String
}

/// What a connector's revocation came to.
public enum RevocationResult: Sendable, Equatable {
    case revoked
    /// No such connector (already deleted and revoked).
    case gone
}

/// A revocation that did not go through. `reason` is a code, safe to log and to record.
public struct RevocationFailure: Error, Sendable, CustomStringConvertible {
    public let retryable: Bool
    public let reason: String
    public init(retryable: Bool, reason: String) { self.retryable = retryable; self.reason = reason }
    public var description: String { "revocation failed (\(reason))\(retryable ? ", retryable" : "")" }
}

/// Revokes a connector's Google grant (through the token broker, which alone can decrypt it).
public protocol ConnectorRevoker: Sendable {
    func revoke(connector: UUID) async throws(RevocationFailure) -> RevocationResult
}
