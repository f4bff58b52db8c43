import Foundation
import PostgresNIO

/// Every statement of the delivery stage.
enum DeliverySQL {
    /// Opens the runs of some `push.deliver` jobs, in one statement: for each job its notification,
    /// one row per active device of its user (NULL device columns when there is none), every earlier
    /// send record (two parallel arrays, read before this statement's own writes), and `sending`
    /// marks for every device without a record yet — written and committed here, before any request
    /// goes out — unless the notification is finished or past its deadline. `apns_id` is set on the
    /// rows that got a mark now. Jobs run concurrently are opened together (see `Batcher`).
    static func begin(jobIDs: [UUID]) -> PostgresQuery {
        """
        WITH n AS (
            SELECT job_id, idempotency_key, user_id, kind, deadline_at, state FROM notifications
            WHERE job_id = ANY(\(jobIDs)::uuid[])
        ), d AS (
            SELECT n.job_id, d.id, d.environment, d.apns_token_ciphertext, d.updated_at, d.created_at
            FROM n JOIN devices d ON d.user_id = n.user_id AND d.retired_at IS NULL
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
               coalesce(prev.devices, '{}'::uuid[]), coalesce(prev.states, '{}'::text[]), c.apns_id
        FROM n
        CROSS JOIN LATERAL (
            SELECT array_agg(s.device_id) AS devices, array_agg(s.state) AS states
            FROM push_sends s WHERE s.idempotency_key = n.idempotency_key
        ) prev
        LEFT JOIN d ON d.job_id = n.job_id
        LEFT JOIN claimed c ON c.idempotency_key = n.idempotency_key AND c.device_id = d.id
        ORDER BY n.job_id, d.created_at, d.id
        """
    }

    /// The outcomes of some runs, in one statement: final per-device states (`accepted`, `rejected`,
    /// `unconfirmed`), `sending` marks dropped for devices to retry, devices retired, each
    /// notification's first acceptance time kept and — where `finish` is non-empty — its final state
    /// set and its push job's text deleted. Returns, per notification, whether `first_accepted_at`
    /// was empty before (so the SLI is observed once per notification). Times are `epoch` for none.
    static func record(_ batch: RecordBatch) -> PostgresQuery {
        """
        WITH prev AS (
            SELECT idempotency_key, first_accepted_at IS NULL AS was_empty FROM notifications
            WHERE idempotency_key = ANY(\(batch.keys)::text[])
        ), final AS (
            UPDATE push_sends s SET state = t.state, reason = NULLIF(t.reason, ''), finished_at = now()
            FROM unnest(\(batch.finalKeys)::text[], \(batch.finalDevices)::uuid[], \(batch.finalStates)::text[],
                        \(batch.finalReasons)::text[]) AS t(k, device_id, state, reason)
            WHERE s.idempotency_key = t.k AND s.device_id = t.device_id
            RETURNING 1
        ), dropped AS (
            DELETE FROM push_sends s USING unnest(\(batch.retryKeys)::text[], \(batch.retryDevices)::uuid[]) AS t(k, device_id)
            WHERE s.idempotency_key = t.k AND s.device_id = t.device_id AND s.state = 'sending'
            RETURNING 1
        ), retired AS (
            UPDATE devices d SET retired_at = now(), retired_reason = t.reason, updated_at = now()
            FROM unnest(\(batch.retireDevices)::uuid[], \(batch.retireReasons)::text[]) AS t(id, reason)
            WHERE d.id = t.id AND d.retired_at IS NULL
            RETURNING 1
        ), notification AS (
            UPDATE notifications n SET
                first_accepted_at = coalesce(n.first_accepted_at, NULLIF(t.accepted, 'epoch'::timestamptz)),
                state = CASE WHEN t.finish <> '' AND n.state = 'pending' THEN t.finish ELSE n.state END,
                finished_at = CASE WHEN t.finish <> '' AND n.state = 'pending' THEN now() ELSE n.finished_at END
            FROM unnest(\(batch.keys)::text[], \(batch.firstAccepted)::timestamptz[], \(batch.finishes)::text[]) AS t(k, accepted, finish)
            WHERE n.idempotency_key = t.k
            RETURNING 1
        ), text_deleted AS (
            UPDATE jobs j SET payload = '', updated_at = now()
            FROM unnest(\(batch.jobIDs)::uuid[], \(batch.finishes)::text[]) AS t(id, finish)
            WHERE t.finish <> '' AND j.id = t.id AND j.payload <> ''
            RETURNING 1
        )
        SELECT t.k, coalesce(p.was_empty, false) AND t.accepted <> 'epoch'::timestamptz
        FROM unnest(\(batch.keys)::text[], \(batch.firstAccepted)::timestamptz[]) AS t(k, accepted)
        LEFT JOIN prev p ON p.idempotency_key = t.k
        """
    }

    /// Parallel arrays for `record`.
    struct RecordBatch {
        var keys: [String] = [], jobIDs: [UUID] = [], firstAccepted: [Date] = [], finishes: [String] = []
        var finalKeys: [String] = [], finalDevices: [UUID] = [], finalStates: [String] = [], finalReasons: [String] = []
        var retryKeys: [String] = [], retryDevices: [UUID] = []
        var retireDevices: [UUID] = [], retireReasons: [String] = []
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
