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
    /// Through `alfred_audit_entries` (migration 0022), which records an operator's read first.
    static func entries(userID: UUID, afterSeq: Int64, limit: Int) -> PostgresQuery {
        "SELECT * FROM alfred_audit_entries(\(userID), \(afterSeq), \(Int32(clamping: limit)))"
    }

    /// Records an operator's read (a no-op for every other role): migration 0022.
    static func operatorRead(command: String, subject: UUID?) -> PostgresQuery {
        "SELECT alfred_operator_read(\(command), \(subject))"
    }

    static func head(userID: UUID) -> PostgresQuery {
        "SELECT seq, hash, pruned_through_seq, pruned_through_hash FROM audit_heads WHERE user_id = \(userID)"
    }

    static func prune(before: Date, limit: Int) -> PostgresQuery {
        "SELECT alfred_audit_prune(\(before), \(Int32(clamping: limit)))::int8"
    }
}
