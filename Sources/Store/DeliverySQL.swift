import Foundation
import PostgresNIO

/// Every statement of the delivery stage.
enum DeliverySQL {
    static func notification(jobID: UUID) -> PostgresQuery {
        """
        SELECT idempotency_key, user_id, kind, deadline_at, state FROM notifications WHERE job_id = \(jobID)
        """
    }

    static func activeDevices(userID: UUID) -> PostgresQuery {
        """
        SELECT id, environment, apns_token_ciphertext, updated_at FROM devices
        WHERE user_id = \(userID) AND retired_at IS NULL ORDER BY created_at, id
        """
    }

    static func sends(key: String) -> PostgresQuery {
        "SELECT device_id, state FROM push_sends WHERE idempotency_key = \(key)"
    }

    static func beginSends(key: String, userID: UUID, devices: [UUID], apnsIDs: [UUID]) -> PostgresQuery {
        """
        INSERT INTO push_sends (idempotency_key, device_id, user_id, state, apns_id)
        SELECT \(key), d, \(userID), 'sending', a FROM unnest(\(devices)::uuid[], \(apnsIDs)::uuid[]) AS t(d, a)
        ON CONFLICT (idempotency_key, device_id) DO NOTHING
        RETURNING device_id
        """
    }

    /// Final per-device states (accepted, rejected, unconfirmed); `retry` rows are deleted instead.
    static func finishSends(key: String, devices: [UUID], states: [String], reasons: [String]) -> PostgresQuery {
        """
        UPDATE push_sends s SET state = t.state, reason = NULLIF(t.reason, ''), finished_at = now()
        FROM unnest(\(devices)::uuid[], \(states)::text[], \(reasons)::text[]) AS t(device_id, state, reason)
        WHERE s.idempotency_key = \(key) AND s.device_id = t.device_id
        """
    }

    static func dropSends(key: String, devices: [UUID]) -> PostgresQuery {
        "DELETE FROM push_sends WHERE idempotency_key = \(key) AND device_id = ANY(\(devices)::uuid[]) AND state = 'sending'"
    }

    static func retireDevices(_ devices: [UUID], reasons: [String]) -> PostgresQuery {
        """
        UPDATE devices d SET retired_at = now(), retired_reason = t.reason, updated_at = now()
        FROM unnest(\(devices)::uuid[], \(reasons)::text[]) AS t(id, reason)
        WHERE d.id = t.id AND d.retired_at IS NULL
        """
    }

    /// Sets `first_accepted_at` once; returns a row only when this statement set it.
    static func firstAccepted(key: String, at: Date) -> PostgresQuery {
        """
        UPDATE notifications SET first_accepted_at = \(at)
        WHERE idempotency_key = \(key) AND first_accepted_at IS NULL RETURNING 1
        """
    }

    /// The notification's outcome, and its text deleted: the job keeps no payload once it is final.
    static func finish(key: String, jobID: UUID, state: String) -> PostgresQuery {
        """
        WITH n AS (
            UPDATE notifications SET state = \(state), finished_at = now()
            WHERE idempotency_key = \(key) AND state = 'pending' RETURNING 1
        )
        UPDATE jobs SET payload = '', updated_at = now() WHERE id = \(jobID) AND payload <> ''
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
