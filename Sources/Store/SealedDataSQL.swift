import AlfredCore
import Foundation
import NIOCore
import PostgresNIO

/// Every query of the data-key re-seal, in one place. Boxes start with `ALFH`, a version byte and,
/// from version 2, a 4-byte key id (`HostSealer`): `substring(col from 1 for 9)` is the header the
/// active key writes, `substring(col from 6 for 4)` the key id.
enum SealedDataSQL {
    static func cells(_ column: SealedColumn, notStartingWith header: [UInt8], after: (key: String, subkey: String)?,
                      limit: Int) -> PostgresQuery {
        let key = after?.key ?? "", subkey = after?.subkey ?? ""
        switch column {
        case .deviceToken:
            return """
                SELECT id::text, '', user_id, apns_token_ciphertext FROM devices
                WHERE substring(apns_token_ciphertext from 1 for 9) <> \(ByteBuffer(bytes: header)) AND (id::text, '') > (\(key), \(subkey))
                ORDER BY id::text LIMIT \(limit)
                """
        case .preferences:
            return """
                SELECT user_id::text, '', user_id, urgency_ciphertext FROM preferences
                WHERE urgency_ciphertext IS NOT NULL AND substring(urgency_ciphertext from 1 for 9) <> \(ByteBuffer(bytes: header))
                  AND (user_id::text, '') > (\(key), \(subkey))
                ORDER BY user_id::text LIMIT \(limit)
                """
        case .cursor:
            return """
                SELECT connector_id::text, kind, user_id, state_ciphertext FROM sync_cursors
                WHERE substring(state_ciphertext from 1 for 9) <> \(ByteBuffer(bytes: header)) AND (connector_id::text, kind) > (\(key), \(subkey))
                ORDER BY connector_id::text, kind LIMIT \(limit)
                """
        case .mailAlert:
            return """
                SELECT user_id::text, message_key, user_id, message_ciphertext FROM mail_alerts
                WHERE substring(message_ciphertext from 1 for 9) <> \(ByteBuffer(bytes: header)) AND (user_id::text, message_key) > (\(key), \(subkey))
                ORDER BY user_id::text, message_key LIMIT \(limit)
                """
        }
    }

    static func replace(_ column: SealedColumn, _ cell: SealedCell, with sealed: [UInt8]) -> PostgresQuery {
        switch column {
        case .deviceToken:
            return """
                UPDATE devices SET apns_token_ciphertext = \(ByteBuffer(bytes: sealed))
                WHERE id = \(cell.key)::uuid AND apns_token_ciphertext = \(ByteBuffer(bytes: cell.sealed)) RETURNING 1
                """
        case .preferences:
            return """
                UPDATE preferences SET urgency_ciphertext = \(ByteBuffer(bytes: sealed))
                WHERE user_id = \(cell.key)::uuid AND urgency_ciphertext = \(ByteBuffer(bytes: cell.sealed)) RETURNING 1
                """
        case .cursor:
            return """
                UPDATE sync_cursors SET state_ciphertext = \(ByteBuffer(bytes: sealed))
                WHERE connector_id = \(cell.key)::uuid AND kind = \(cell.subkey) AND state_ciphertext = \(ByteBuffer(bytes: cell.sealed)) RETURNING 1
                """
        case .mailAlert:
            return """
                UPDATE mail_alerts SET message_ciphertext = \(ByteBuffer(bytes: sealed))
                WHERE user_id = \(cell.key)::uuid AND message_key = \(cell.subkey) AND message_ciphertext = \(ByteBuffer(bytes: cell.sealed)) RETURNING 1
                """
        }
    }

    /// `{"sealed":"` — how JSONEncoder writes a `SealedPayload`.
    static let sealedPayloadPrefix = Array(#"{"sealed":""#.utf8)

    static func sealedJobs(after: UUID?, limit: Int) -> PostgresQuery {
        let prefix = sealedPayloadPrefix
        return """
            SELECT id, user_id, kind, payload FROM jobs
            WHERE state = 'queued' AND substring(payload from 1 for \(unescaped: String(prefix.count))) = \(ByteBuffer(bytes: prefix))
              AND (\(after)::uuid IS NULL OR id > \(after))
            ORDER BY id LIMIT \(limit)
            """
    }

    static func replacePayload(of job: SealedJobPayload, with payload: [UInt8]) -> PostgresQuery {
        "UPDATE jobs SET payload = \(ByteBuffer(bytes: payload)) WHERE id = \(job.id) AND state = 'queued' AND payload = \(ByteBuffer(bytes: job.payload)) RETURNING 1"
    }

    static let usage: PostgresQuery = """
        WITH boxes (col, box) AS (
            SELECT 'devices.apns_token_ciphertext', apns_token_ciphertext FROM devices
            UNION ALL SELECT 'preferences.urgency_ciphertext', urgency_ciphertext FROM preferences WHERE urgency_ciphertext IS NOT NULL
            UNION ALL SELECT 'sync_cursors.state_ciphertext', state_ciphertext FROM sync_cursors
            UNION ALL SELECT 'mail_alerts.message_ciphertext', message_ciphertext FROM mail_alerts
        )
        SELECT col, CASE WHEN substring(box from 5 for 1) = '\\x02'::bytea THEN encode(substring(box from 6 for 4), 'hex') ELSE 'v1' END,
               count(*)::int
        FROM boxes GROUP BY 1, 2
        """
}
