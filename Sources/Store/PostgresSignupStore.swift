import AlfredCore
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The signup policy as operators change it (`alfred signups`). Every change is appended to the
/// operators' audit chain in the same transaction, with what changed but never who was allow-listed.
public struct PostgresSignupStore: Sendable {
    public struct Summary: Sendable, Equatable {
        public let policy: SignupPolicy
        public let accounts: Int
        public let allowListed: Int
        public let openInvites: Int
    }

    /// Who owns the operators' audit chain (`alfred audit list --user` with this id lists the changes).
    public static let operatorChain = SignupSQL.operatorUser

    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) { self.client = client; self.logger = logger }

    public func summary() async throws -> Summary {
        let rows = try await Pooled.rows(client, SignupSQL.show, logger: logger)
        guard let (mode, cap, accounts, allowed, invites) = try rows.decode((String, Int32?, Int64, Int64, Int64).self).first else {
            throw PostgresAPIStoreError(description: "the signup policy row is missing (migration 0017)")
        }
        return Summary(policy: SignupPolicy(mode: SignupPolicy.Mode(rawValue: mode) ?? .closed, userCap: cap.map(Int.init)),
                       accounts: Int(accounts), allowListed: Int(allowed), openInvites: Int(invites))
    }

    public func setPolicy(_ policy: SignupPolicy) async throws {
        try await audited("SIGNUP_POLICY", ["mode": policy.mode.rawValue, "user_cap": policy.userCap.map(String.init) ?? "none"]) {
            [SignupSQL.setPolicy(mode: policy.mode.rawValue, cap: policy.userCap.map { Int32(clamping: $0) })]
        }
    }

    /// Adds (true) or removes (false) an identity's keyed hash; returns whether anything changed.
    @discardableResult
    public func setAllowed(_ identityHash: String, _ allowed: Bool) async throws -> Bool {
        try await audited("SIGNUP_ALLOW_LIST", ["change": allowed ? "added" : "removed"]) {
            [allowed ? SignupSQL.allow(identityHash) : SignupSQL.disallow(identityHash)]
        }
    }

    /// Stores invitations (their SHA-256) valid until `expiresAt`; used and expired ones are dropped.
    public func addInvites(_ hashes: [[UInt8]], expiresAt: Date) async throws {
        try await audited("SIGNUP_INVITES", ["created": String(hashes.count)]) {
            [SignupSQL.pruneInvites, SignupSQL.addInvites(hashes.map { ByteBuffer(bytes: $0) }, expiresAt: expiresAt)]
        }
    }

    /// Runs the statements and the audit append in one transaction; true when the last one returned a row.
    @discardableResult
    private func audited(_ type: String, _ metadata: [String: String], _ statements: @Sendable () -> [PostgresQuery]) async throws -> Bool {
        let (logger, queries) = (self.logger, statements())
        let append = try AuditSQL.Append([AuditEvent(userID: SignupSQL.operatorUser, type: type, connector: nil, result: "SUCCESS",
                                                     metadata: metadata)])
        return try await Pooled.transaction(client, logger: logger) { connection in
            var changed = false
            for query in queries { changed = try await !connection.query(query, logger: logger).collect().isEmpty }
            _ = try await connection.query(SignupSQL.ensureOperatorChain, logger: logger).collect()
            for try await _ in try await connection.execute(append, logger: logger) {}
            return changed
        }
    }
}
