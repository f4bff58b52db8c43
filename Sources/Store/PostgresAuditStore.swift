import AlfredCore
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// The audit trail on PostgreSQL: workers and the broker append; operators list, verify and prune.
///
/// Appends go through a `StatementBatcher`: in a burst (every reminder's calendar read writes one
/// event) the appends that arrive while a statement is in flight share the next one, and its commit.
/// One user's appends never share a statement, so each still follows the one its caller awaited.
public struct PostgresAuditStore: AuditStore {
    let client: PostgresClient
    let logger: Logger
    private let appends: StatementBatcher<AuditEvent, UUID, Void>
    private let tallies: StatementBatcher<Tallied, UUID, Void>

    struct Tallied: Sendable { let event: AuditEvent; let items: Int? }

    public init(client: PostgresClient, logger: Logger) {
        self.client = client
        self.logger = logger
        appends = StatementBatcher(maxInFlight: 2, key: \.userID) { events in
            _ = try await Pooled.execute(client, try AuditSQL.Append(events), logger: logger)
            return events.map { _ in () }
        }
        tallies = StatementBatcher(maxInFlight: 2, key: \.event.userID) { tallied in
            _ = try await Pooled.execute(client, try AuditSQL.Tally(tallied.map { ($0.event, $0.items) }), logger: logger)
            return tallied.map { _ in () }
        }
    }

    public func record(_ event: AuditEvent) async throws {
        try await appends.submit(event)
    }

    public func tally(_ event: AuditEvent, items: Int?) async throws {
        try await tallies.submit(Tallied(event: event, items: items))
    }

    public func fold(before: Date, limit: Int) async throws -> Int {
        for count in try await Pooled.rows(client, AuditSQL.fold(before: before, limit: limit), logger: logger).decode(Int64.self) {
            return Int(count)
        }
        return 0
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
