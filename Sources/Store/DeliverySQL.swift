import Foundation
import PostgresNIO

/// Every statement of the delivery stage.
enum DeliverySQL {
    /// The notification, one row per active device of its user (NULL device columns when there is
    /// none), and every send record so far as two parallel arrays.
    static func plan(jobID: UUID) -> PostgresQuery {
        """
        SELECT n.idempotency_key, n.user_id, n.kind, n.deadline_at, n.state,
               d.id, d.environment, d.apns_token_ciphertext, d.updated_at,
               coalesce(s.devices, '{}'), coalesce(s.states, '{}')
        FROM notifications n
        LEFT JOIN devices d ON d.user_id = n.user_id AND d.retired_at IS NULL
        LEFT JOIN LATERAL (
            SELECT array_agg(device_id) AS devices, array_agg(state) AS states
            FROM push_sends WHERE idempotency_key = n.idempotency_key
        ) s ON true
        WHERE n.job_id = \(jobID)
        ORDER BY d.created_at, d.id
        """
    }

    static func beginSends(key: String, userID: UUID, devices: [UUID], apnsIDs: [UUID]) -> PostgresQuery {
        """
        INSERT INTO push_sends (idempotency_key, device_id, user_id, state, apns_id)
        SELECT \(key), d, \(userID), 'sending', a FROM unnest(\(devices)::uuid[], \(apnsIDs)::uuid[]) AS t(d, a)
        ON CONFLICT (idempotency_key, device_id) DO NOTHING
        RETURNING device_id
        """
    }

    /// One statement for a run's outcome: final per-device states (`accepted`, `rejected`,
    /// `unconfirmed`), `sending` marks dropped for devices to retry, devices retired, the first
    /// acceptance time kept, and — with a non-empty `finish` — the notification's final state and the
    /// push job's text deleted. Returns whether `first_accepted_at` was empty before (so the caller
    /// observes the SLI once per notification).
    static func record(key: String, jobID: UUID, devices: [UUID], states: [String], reasons: [String], retry: [UUID],
                       retire: [UUID], retireReasons: [String], firstAccepted: Date?, finish: String) -> PostgresQuery {
        """
        WITH prev AS (
            SELECT first_accepted_at IS NULL AS was_empty FROM notifications WHERE idempotency_key = \(key)
        ), final AS (
            UPDATE push_sends s SET state = t.state, reason = NULLIF(t.reason, ''), finished_at = now()
            FROM unnest(\(devices)::uuid[], \(states)::text[], \(reasons)::text[]) AS t(device_id, state, reason)
            WHERE s.idempotency_key = \(key) AND s.device_id = t.device_id
            RETURNING 1
        ), dropped AS (
            DELETE FROM push_sends
            WHERE idempotency_key = \(key) AND device_id = ANY(\(retry)::uuid[]) AND state = 'sending'
            RETURNING 1
        ), retired AS (
            UPDATE devices d SET retired_at = now(), retired_reason = t.reason, updated_at = now()
            FROM unnest(\(retire)::uuid[], \(retireReasons)::text[]) AS t(id, reason)
            WHERE d.id = t.id AND d.retired_at IS NULL
            RETURNING 1
        ), notification AS (
            UPDATE notifications SET
                first_accepted_at = coalesce(first_accepted_at, \(firstAccepted)),
                state = CASE WHEN \(finish) <> '' AND state = 'pending' THEN \(finish) ELSE state END,
                finished_at = CASE WHEN \(finish) <> '' AND state = 'pending' THEN now() ELSE finished_at END
            WHERE idempotency_key = \(key)
            RETURNING 1
        ), text_deleted AS (
            UPDATE jobs SET payload = '', updated_at = now()
            WHERE \(finish) <> '' AND id = \(jobID) AND payload <> ''
            RETURNING 1
        )
        SELECT was_empty AND \(firstAccepted)::timestamptz IS NOT NULL FROM prev
        """
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
