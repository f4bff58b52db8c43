import Foundation

/// The columns that hold boxes sealed with the host data key, outside job payloads.
/// (Pending connects' verifiers live at most ten minutes and are not re-sealed: they expire first.)
public enum SealedColumn: String, CaseIterable, Sendable {
    case deviceToken = "devices.apns_token_ciphertext"
    case preferences = "preferences.urgency_ciphertext"
    case cursor = "sync_cursors.state_ciphertext"
    case mailAlert = "mail_alerts.message_ciphertext"
}

/// One sealed value and what identifies its row (one or two key columns, as text).
public struct SealedCell: Sendable, Equatable {
    public let key: String
    public let subkey: String
    public let userID: UUID?
    public let sealed: [UInt8]

    public init(key: String, subkey: String, userID: UUID?, sealed: [UInt8]) {
        self.key = key
        self.subkey = subkey
        self.userID = userID
        self.sealed = sealed
    }
}

/// A queued job whose payload is a sealed box (`{"sealed": …}`).
public struct SealedJobPayload: Sendable, Equatable {
    public let id: UUID
    public let userID: UUID?
    public let kind: String
    public let payload: [UInt8]

    public init(id: UUID, userID: UUID?, kind: String, payload: [UInt8]) {
        self.id = id
        self.userID = userID
        self.kind = kind
        self.payload = payload
    }
}

/// Where the data-key re-seal reads and rewrites sealed values. Every write is a compare-and-set on
/// the old bytes, so a value its owner changed meanwhile is left alone (it was sealed afresh anyway).
public protocol SealedDataStore: Sendable {
    /// Up to `limit` cells of `column` that do not start with `header` (the active key's), after
    /// (`key`, `subkey`) in their order.
    func cells(_ column: SealedColumn, notStartingWith header: [UInt8], after: (key: String, subkey: String)?,
               limit: Int) async throws -> [SealedCell]
    /// Replaces `cell`'s value with `sealed` if it still holds what was read. False when it changed.
    func replace(_ column: SealedColumn, _ cell: SealedCell, with sealed: [UInt8]) async throws -> Bool
    /// Queued jobs with a sealed payload, after `after` in id order.
    func sealedJobs(after: UUID?, limit: Int) async throws -> [SealedJobPayload]
    /// Replaces a queued job's payload if it is still queued with the payload that was read.
    func replacePayload(of job: SealedJobPayload, with payload: [UInt8]) async throws -> Bool
    /// Per column, how many values name each key: the key id (8 hex characters), or `v1` for boxes
    /// sealed before key ids (they belong to the ring's first key).
    func usage() async throws -> [SealedColumn: [String: Int]]
}
