import Foundation
import NIOCore
import PostgresNIO

/// Every statement of the delivery stage.
enum DeliverySQL {
    /// Opens a run of a `push.deliver` job, in one statement: the notification, one row per active
    /// device of its user (NULL device columns when there is none), every earlier send record (two
    /// parallel arrays, read before this statement's own writes), and `sending` marks for every device
    /// without a record yet — written and committed here, before any request goes out — unless the
    /// notification is finished or past its deadline. `claimed` and `apns_id` say which rows got a mark
    /// now. A prepared statement: it runs once per push in a burst, so it is planned once per connection.
    struct Begin: PostgresPreparedStatement {
        static let sql = """
            WITH n AS (
                SELECT idempotency_key, user_id, kind, deadline_at, state FROM notifications WHERE job_id = $1
            ), d AS (
                SELECT d.id, d.environment, d.apns_token_ciphertext, d.updated_at, d.created_at
                FROM devices d JOIN n ON d.user_id = n.user_id WHERE d.retired_at IS NULL
            ), claimed AS (
                INSERT INTO push_sends (idempotency_key, device_id, user_id, state, apns_id)
                SELECT n.idempotency_key, d.id, n.user_id, 'sending', md5(n.idempotency_key || '/' || d.id::text)::uuid
                FROM n CROSS JOIN d
                WHERE n.state = 'pending' AND (n.deadline_at IS NULL OR n.deadline_at > now())
                ON CONFLICT (idempotency_key, device_id) DO NOTHING
                RETURNING device_id, apns_id
            )
            SELECT n.idempotency_key, n.user_id, n.kind, n.deadline_at, n.state,
                   d.id, d.environment, d.apns_token_ciphertext, d.updated_at,
                   coalesce(prev.devices, '{}'::uuid[]), coalesce(prev.states, '{}'::text[]), c.apns_id,
                   coalesce(n.deadline_at <= now(), false)
            FROM n
            CROSS JOIN LATERAL (
                SELECT array_agg(s.device_id) AS devices, array_agg(s.state) AS states
                FROM push_sends s WHERE s.idempotency_key = n.idempotency_key
            ) prev
            LEFT JOIN d ON true LEFT JOIN claimed c ON c.device_id = d.id
            ORDER BY d.created_at, d.id
            """
        typealias Row = (String, UUID, String, Date?, String, UUID?, String?, ByteBuffer?, Date?, [UUID], [String], UUID?, Bool)
        let jobID: UUID

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(jobID)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// One statement for a run's outcome: final per-device states (`accepted`, `rejected`,
    /// `unconfirmed`), `sending` marks dropped for devices to retry, devices retired, the first
    /// acceptance time kept, and — with a non-empty `finish` — the notification's final state and the
    /// push job's text deleted. Returns whether this statement set `first_accepted_at` (so the SLI is
    /// observed once per notification): the UPDATE re-reads a row another transaction changed first,
    /// so of two racing runs only one sees its own time stored. Prepared, like `Begin`; the per-device values are
    /// indexed with `array_position` rather than joined through `unnest`, so the generic plan costs
    /// the same as a custom one and the server stops re-planning it after five runs.
    struct Record: PostgresPreparedStatement {
        static let sql = """
            WITH final AS (
                UPDATE push_sends s SET state = ($4::text[])[array_position($3::uuid[], s.device_id)],
                    reason = NULLIF(($5::text[])[array_position($3::uuid[], s.device_id)], ''), finished_at = now()
                WHERE s.idempotency_key = $1 AND s.device_id = ANY($3::uuid[])
                RETURNING 1
            ), dropped AS (
                DELETE FROM push_sends WHERE idempotency_key = $1 AND device_id = ANY($6::uuid[]) AND state = 'sending'
                RETURNING 1
            ), retired AS (
                UPDATE devices d SET retired_at = now(), retired_reason = ($8::text[])[array_position($7::uuid[], d.id)],
                    updated_at = now()
                WHERE d.id = ANY($7::uuid[]) AND d.retired_at IS NULL
                RETURNING 1
            ), notification AS (
                UPDATE notifications SET
                    first_accepted_at = coalesce(first_accepted_at, $9::timestamptz),
                    state = CASE WHEN $10::text <> '' AND state = 'pending' THEN $10::text ELSE state END,
                    finished_at = CASE WHEN $10::text <> '' AND state = 'pending' THEN now() ELSE finished_at END
                WHERE idempotency_key = $1
                RETURNING first_accepted_at IS NOT DISTINCT FROM $9::timestamptz AND $9::timestamptz IS NOT NULL AS set_now
            ), text_deleted AS (
                UPDATE jobs SET payload = '', updated_at = now() WHERE $10::text <> '' AND id = $2 AND payload <> ''
                RETURNING 1
            )
            SELECT set_now FROM notification
            """
        typealias Row = Bool
        let key: String, jobID: UUID
        let devices: [UUID], states: [String], reasons: [String], retry: [UUID], retire: [UUID], retireReasons: [String]
        let firstAccepted: Date?, finish: String

        func makeBindings() throws -> PostgresBindings {
            var b = PostgresBindings()
            b.append(key); b.append(jobID); b.append(devices); b.append(states); b.append(reasons); b.append(retry)
            b.append(retire); b.append(retireReasons)
            if let firstAccepted { b.append(firstAccepted) } else { b.appendNull() }
            b.append(finish)
            return b
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Bool.self) }
    }

    static func registerDevice(id: UUID, userID: UUID, tokenKey: String, sealed: ByteBuffer, environment: String) -> PostgresQuery {
        """
        INSERT INTO devices (id, user_id, apns_token_ciphertext, environment, token_key)
        VALUES (\(id), \(userID), \(sealed), \(environment), \(tokenKey))
        ON CONFLICT (user_id, token_key) WHERE token_key IS NOT NULL DO UPDATE
            SET apns_token_ciphertext = EXCLUDED.apns_token_ciphertext, environment = EXCLUDED.environment,
                retired_at = NULL, retired_reason = NULL, updated_at = now()
        RETURNING id
        """
    }
}
