import AlfredCore
import Foundation
import PostgresNIO

/// Every query on the audit trail, in one place. Appends go through `alfred_audit_append` (migration
/// 0005), which chains the event under a lock on the user's head; nothing here updates an event.
enum AuditSQL {
    /// Appends many events in one statement (see `StatementBatcher`), users in order so that two
    /// statements never wait on each other's audit heads. A missing connector is ''. Prepared: every
    /// Google fetch of a burst appends one.
    struct Append: PostgresPreparedStatement {
        static let sql = """
            SELECT alfred_audit_append(a.user_id, a.type, NULLIF(a.connector, ''), a.result, a.metadata::jsonb)
            FROM (SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[])
                      WITH ORDINALITY AS a(user_id, type, connector, result, metadata, n)
                  ORDER BY user_id, n) a
            """
        typealias Row = UUID?
        var users: [UUID] = [], types: [String] = [], connectors: [String] = [], results: [String] = [], metadata: [String] = []

        init(_ events: [AuditEvent]) throws {
            for event in events {
                users.append(event.userID)
                types.append(event.type)
                connectors.append(event.connector ?? "")
                results.append(event.result)
                metadata.append(String(
                    decoding: try JSONSerialization.data(withJSONObject: event.metadata, options: [.sortedKeys]), as: UTF8.self))
            }
        }

        func makeBindings() throws -> PostgresBindings {
            var b = PostgresBindings()
            b.append(users); b.append(types); b.append(connectors); b.append(results); b.append(metadata)
            return b
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(UUID?.self) }
    }

    /// Adds events to their users' tallies (`alfred_audit_tally`, migration 0026), many users in one
    /// statement. A missing connector is '', `items` nil is -1 (arrays carry no NULLs here). Prepared:
    /// a burst's every calendar read tallies one.
    struct Tally: PostgresPreparedStatement {
        static let sql = "SELECT alfred_audit_tally($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int8[])"
        typealias Row = Int64
        var users: [UUID] = [], types: [String] = [], connectors: [String] = [], results: [String] = [], metadata: [String] = []
        var items: [Int64] = []

        init(_ events: [(event: AuditEvent, items: Int?)]) throws {
            for (event, count) in events {
                users.append(event.userID); types.append(event.type); connectors.append(event.connector ?? "")
                results.append(event.result); items.append(count.map(Int64.init) ?? -1)
                metadata.append(String(
                    decoding: try JSONSerialization.data(withJSONObject: event.metadata, options: [.sortedKeys]), as: UTF8.self))
            }
        }

        func makeBindings() throws -> PostgresBindings {
            var b = PostgresBindings()
            b.append(users); b.append(types); b.append(connectors); b.append(results); b.append(metadata); b.append(items)
            return b
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Int64.self) }
    }

    static func fold(before: Date, limit: Int) -> PostgresQuery {
        "SELECT alfred_audit_fold(\(before), \(Int32(clamping: limit)))::int8"
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
