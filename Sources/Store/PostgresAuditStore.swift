import AlfredCore
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The audit trail on PostgreSQL: workers and the broker append; operators list, verify and prune.
public struct PostgresAuditStore: AuditStore {
    let client: PostgresClient
    let logger: Logger

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    public func record(_ event: AuditEvent) async throws {
        let metadata = String(decoding: try JSONSerialization.data(withJSONObject: event.metadata, options: [.sortedKeys]), as: UTF8.self)
        _ = try await Pooled.rows(client, AuditSQL.append(
            userID: event.userID, type: event.type, connector: event.connector, result: event.result, metadata: metadata),
            logger: logger)
    }

    public func entries(userID: UUID, afterSeq: Int64, limit: Int) async throws -> [AuditEntry] {
        var entries: [AuditEntry] = []
        let rows = try await Pooled.rows(client, AuditSQL.entries(userID: userID, afterSeq: afterSeq, limit: limit), logger: logger)
        for (id, seq, type, connector, result, metadata, micros, prev, hash) in try rows.decode(
            (UUID, Int64, String, String?, String, String, Int64, ByteBuffer, ByteBuffer).self)
        {
            entries.append(AuditEntry(id: id, userID: userID, seq: seq, eventType: type, connector: connector, result: result,
                                      metadataJSON: metadata, createdAtMicros: micros, prevHash: Array(buffer: prev),
                                      hash: Array(buffer: hash)))
        }
        return entries
    }

    public func head(userID: UUID) async throws -> AuditHead? {
        for (seq, hash, prunedSeq, prunedHash) in try await Pooled.rows(client, AuditSQL.head(userID: userID), logger: logger)
            .decode((Int64, ByteBuffer, Int64, ByteBuffer).self)
        {
            return AuditHead(seq: seq, hash: Array(buffer: hash), prunedThroughSeq: prunedSeq, prunedThroughHash: Array(buffer: prunedHash))
        }
        return nil
    }

    public func prune(before: Date, limit: Int) async throws -> Int {
        for count in try await Pooled.rows(client, AuditSQL.prune(before: before, limit: limit), logger: logger).decode(Int64.self) {
            return Int(count)
        }
        return 0
    }
}
