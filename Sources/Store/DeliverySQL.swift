import Foundation
import NIOCore
import PostgresNIO

/// Every statement of the delivery stage.
enum DeliverySQL {
    /// Opens runs of `push.deliver` jobs, many in one statement (see `StatementBatcher`): per job, the
    /// notification, one row per active device of its user (NULL device columns when there is none),
    /// every earlier send record (two parallel arrays, read before this statement's own writes), and
    /// `sending` marks for every device without a record yet — written and committed here, before any
    /// request goes out — unless the notification is finished or past its deadline. `claimed` and
    /// `apns_id` say which rows got a mark now. A job missing from the answer has no notification.
    /// Prepared: it runs for every push in a burst, so it is planned once per connection.
    struct Begin: PostgresPreparedStatement {
        static let sql = """
            WITH n AS (
                SELECT job_id, idempotency_key, user_id, kind, deadline_at, state FROM notifications WHERE job_id = ANY($1::uuid[])
            ), d AS (
                SELECT n.job_id, d.id, d.environment, d.apns_token_ciphertext, d.updated_at, d.created_at
                FROM devices d JOIN n ON d.user_id = n.user_id WHERE d.retired_at IS NULL
            ), claimed AS (
                INSERT INTO push_sends (idempotency_key, device_id, user_id, state, apns_id)
                SELECT n.idempotency_key, d.id, n.user_id, 'sending', md5(n.idempotency_key || '/' || d.id::text)::uuid
                FROM n JOIN d ON d.job_id = n.job_id
                WHERE n.state = 'pending' AND (n.deadline_at IS NULL OR n.deadline_at > now())
                ON CONFLICT (idempotency_key, device_id) DO NOTHING
                RETURNING idempotency_key, device_id, apns_id
            )
            SELECT n.job_id, n.idempotency_key, n.user_id, n.kind, n.deadline_at, n.state,
                   d.id, d.environment, d.apns_token_ciphertext, d.updated_at,
                   coalesce(prev.devices, '{}'::uuid[]), coalesce(prev.states, '{}'::text[]), c.apns_id,
                   coalesce(n.deadline_at <= now(), false)
            FROM n
            CROSS JOIN LATERAL (
                SELECT array_agg(s.device_id) AS devices, array_agg(s.state) AS states
                FROM push_sends s WHERE s.idempotency_key = n.idempotency_key
            ) prev
            LEFT JOIN d ON d.job_id = n.job_id
            LEFT JOIN claimed c ON c.idempotency_key = n.idempotency_key AND c.device_id = d.id
            ORDER BY n.job_id, d.created_at, d.id
            """
        typealias Row = (UUID, String, UUID, String, Date?, String, UUID?, String?, ByteBuffer?, Date?, [UUID], [String], UUID?, Bool)
        let jobIDs: [UUID]

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(jobIDs)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// Records runs' outcomes, many in one statement: final per-device states (`accepted`, `rejected`,
    /// `unconfirmed`), `sending` marks dropped for devices to retry, devices retired, each
    /// notification's first acceptance time kept and — with a non-empty `finish` — its final state
    /// set, its push job's text deleted and its `DELIVERY` audit event appended (users in order, so
    /// two statements never wait on each other's audit heads). Answers, per notification, whether this
    /// statement set `first_accepted_at` (so the SLI is observed once): the UPDATE re-reads a row
    /// another transaction changed first, so of two racing runs only one sees its own time stored.
    /// Per-notification values are parallel arrays ($1-$4, the audit's $13-$15); per-device ones too.
    /// A missing acceptance time is the epoch (arrays carry no NULL here).
    struct Record: PostgresPreparedStatement {
        static let sql = """
            WITH batch AS (
                SELECT * FROM unnest($1::text[], $2::uuid[], $3::timestamptz[], $4::text[]) AS b(key, job_id, first_at, finish)
            ), final AS (
                UPDATE push_sends s SET state = o.state, reason = NULLIF(o.reason, ''), finished_at = now()
                FROM unnest($5::text[], $6::uuid[], $7::text[], $8::text[]) AS o(key, device_id, state, reason)
                WHERE s.idempotency_key = o.key AND s.device_id = o.device_id
                RETURNING 1
            ), dropped AS (
                DELETE FROM push_sends s USING unnest($9::text[], $10::uuid[]) AS r(key, device_id)
                WHERE s.idempotency_key = r.key AND s.device_id = r.device_id AND s.state = 'sending'
                RETURNING 1
            ), retired AS (
                UPDATE devices d SET retired_at = now(), retired_reason = r.reason, updated_at = now()
                FROM unnest($11::uuid[], $12::text[]) AS r(id, reason)
                WHERE d.id = r.id AND d.retired_at IS NULL
                RETURNING 1
            ), notification AS (
                UPDATE notifications n SET
                    first_accepted_at = coalesce(n.first_accepted_at, NULLIF(b.first_at, 'epoch')),
                    state = CASE WHEN b.finish <> '' AND n.state = 'pending' THEN b.finish ELSE n.state END,
                    finished_at = CASE WHEN b.finish <> '' AND n.state = 'pending' THEN now() ELSE n.finished_at END
                FROM batch b WHERE n.idempotency_key = b.key
                RETURNING n.idempotency_key,
                          b.first_at <> 'epoch' AND n.first_accepted_at IS NOT DISTINCT FROM b.first_at AS set_now
            ), text_deleted AS (
                UPDATE jobs j SET payload = '', updated_at = now()
                FROM batch b WHERE b.finish <> '' AND j.id = b.job_id AND j.payload <> ''
                RETURNING 1
            ), audited AS (
                SELECT alfred_audit_append(a.user_id, 'DELIVERY', 'apns', a.result, a.metadata::jsonb) AS id
                FROM (SELECT * FROM unnest($13::uuid[], $14::text[], $15::text[]) AS a(user_id, result, metadata)
                      ORDER BY user_id) a
            )
            SELECT idempotency_key, set_now, (SELECT count(*) FROM audited)::int8 FROM notification
            """
        typealias Row = (String, Bool, Int64)
        var keys: [String] = [], jobIDs: [UUID] = [], firstAccepted: [Date] = [], finish: [String] = []
        var outcomeKeys: [String] = [], outcomeDevices: [UUID] = [], outcomeStates: [String] = [], outcomeReasons: [String] = []
        var retryKeys: [String] = [], retryDevices: [UUID] = []
        var retireDevices: [UUID] = [], retireReasons: [String] = []
        var auditUsers: [UUID] = [], auditResults: [String] = [], auditMetadata: [String] = []

        func makeBindings() throws -> PostgresBindings {
            var b = PostgresBindings()
            b.append(keys); b.append(jobIDs); b.append(firstAccepted); b.append(finish)
            b.append(outcomeKeys); b.append(outcomeDevices); b.append(outcomeStates); b.append(outcomeReasons)
            b.append(retryKeys); b.append(retryDevices)
            b.append(retireDevices); b.append(retireReasons)
            b.append(auditUsers); b.append(auditResults); b.append(auditMetadata)
            return b
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
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
