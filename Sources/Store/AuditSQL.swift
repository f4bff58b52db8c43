import Foundation
import PostgresNIO

/// Every query on the audit trail, in one place. Appends go through `alfred_audit_append` (migration
/// 0005), which chains the event under a lock on the user's head; nothing here updates an event.
enum AuditSQL {
    static func append(userID: UUID, type: String, connector: String?, result: String, metadata: String) -> PostgresQuery {
        "SELECT alfred_audit_append(\(userID), \(type), \(connector), \(result), \(metadata)::jsonb)"
    }

    /// The exact field texts the chain hash covers (see the migration): jsonb as Postgres renders it,
    /// the time as Unix microseconds.
    static func entries(userID: UUID, afterSeq: Int64, limit: Int) -> PostgresQuery {
        """
        SELECT id, seq, event_type, connector, result, redacted_metadata::text,
               floor(extract(epoch FROM created_at) * 1000000)::int8, prev_hash, hash
        FROM audit_events WHERE user_id = \(userID) AND seq > \(afterSeq)
        ORDER BY seq LIMIT \(limit)
        """
    }

    static func head(userID: UUID) -> PostgresQuery {
        "SELECT seq, hash, pruned_through_seq, pruned_through_hash FROM audit_heads WHERE user_id = \(userID)"
    }

    static func prune(before: Date, limit: Int) -> PostgresQuery {
        "SELECT alfred_audit_prune(\(before), \(Int32(clamping: limit)))::int8"
    }
}
