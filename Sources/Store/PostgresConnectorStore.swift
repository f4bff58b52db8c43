import AlfredCore
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// `ConnectorStore` on PostgreSQL, used by the broker with its own role (`alfred_broker`).
public struct PostgresConnectorStore: ConnectorStore {
    let client: PostgresClient
    let logger: Logger
    /// One for the store's life: its appends share statements (a store per event would batch nothing).
    private let auditStore: PostgresAuditStore

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
        auditStore = PostgresAuditStore(client: client, logger: logger)
    }

    public func insert(_ c: NewConnector) async throws {
        _ = try await Pooled.rows(client, ConnectorSQL.insert(
            id: c.id, userID: c.userID, provider: c.provider, scopes: c.scopes, ciphertext: ByteBuffer(bytes: c.ciphertext),
            keyID: c.keyID, keyVersion: c.keyVersion, oauthClient: c.oauthClient.rawValue), logger: logger)
    }

    public func secret(_ id: UUID) async throws -> ConnectorSecret? {
        let rows = try await Pooled.rows(client, ConnectorSQL.secret(id: id), logger: logger)
        for (user, status, keyID, version, ciphertext, client) in try rows.decode((UUID, String, String, Int32, ByteBuffer, String).self) {
            return ConnectorSecret(id: id, userID: user, status: ConnectorStatus(rawValue: status) ?? .revoked, keyID: keyID,
                                   keyVersion: Int(version), ciphertext: Array(buffer: ciphertext),
                                   oauthClient: OAuthClientKind(rawValue: client) ?? .web)
        }
        return nil
    }

    public func status(_ id: UUID) async throws -> ConnectorStatus? {
        for status in try await Pooled.rows(client, ConnectorSQL.status(id: id), logger: logger).decode(String.self) {
            return ConnectorStatus(rawValue: status) ?? .revoked
        }
        return nil
    }

    public func setStatus(_ id: UUID, _ status: ConnectorStatus) async throws {
        _ = try await Pooled.rows(client, ConnectorSQL.setStatus(id: id, status: status.rawValue), logger: logger)
    }

    public func rewrapped(_ id: UUID, fromVersion: Int, toVersion: Int, ciphertext: [UInt8]) async throws -> Bool {
        let rows = try await Pooled.rows(client, ConnectorSQL.rewrapped(
            id: id, fromVersion: fromVersion, toVersion: toVersion, ciphertext: ByteBuffer(bytes: ciphertext)), logger: logger)
        for _ in try rows.decode(UUID.self) { return true }
        return false
    }

    public func needingRewrap(keyID: String, activeVersion: Int, after: UUID?, limit: Int) async throws -> [UUID] {
        var ids: [UUID] = []
        for id in try await Pooled.rows(client,
            ConnectorSQL.needingRewrap(keyID: keyID, activeVersion: activeVersion, after: after, limit: limit), logger: logger
        ).decode(UUID.self) { ids.append(id) }
        return ids
    }

    public func keyVersionUsage() async throws -> [KeyVersionUsage] {
        try await Pooled.rows(client, ConnectorSQL.keyVersionUsage, logger: logger).decode((String, Int32, Int32).self).map {
            KeyVersionUsage(keyID: $0.0, version: Int($0.1), connectors: Int($0.2))
        }
    }

    public func forgetParked(_ id: UUID) async throws {
        _ = try await Pooled.rows(client, ConnectorSQL.forgetParked(id: id), logger: logger)
    }

    public func audit(_ event: AuditEvent) async throws {
        try await auditStore.record(event)
    }

    public func tally(_ event: AuditEvent) async throws {
        try await auditStore.tally(event, items: nil)
    }
}
