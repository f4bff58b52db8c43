import Foundation
import PostgresNIO

/// Every query for delete-all and export, in one place. The deletion itself is
/// `alfred_delete_user` (migration 0005): one transaction, so it has happened entirely or not at all.
enum PrivacySQL {
    /// Opens a request, or finds the open one (the partial unique index allows one per user).
    static func openDeleteAll(id: UUID, userID: UUID) -> PostgresQuery {
        """
        WITH inserted AS (
            INSERT INTO privacy_requests (id, kind, user_id) VALUES (\(id), 'delete_all', \(userID))
            ON CONFLICT (user_id) WHERE state <> 'COMPLETED' DO NOTHING
            RETURNING id
        )
        SELECT id, true FROM inserted
        UNION ALL
        SELECT id, false FROM privacy_requests WHERE user_id = \(userID) AND state <> 'COMPLETED'
            AND NOT EXISTS (SELECT 1 FROM inserted)
        """
    }

    /// One request; with `userID`, only if it is that user's (a completed request names no user).
    static func request(id: UUID, userID: UUID? = nil) -> PostgresQuery {
        """
        SELECT state, requested_at, started_at, completed_at, connectors_revoked, revocations_pending,
               rows_deleted::text, outcome
        FROM privacy_requests WHERE id = \(id) AND (\(userID)::uuid IS NULL OR user_id = \(userID))
        """
    }

    static func start(id: UUID) -> PostgresQuery {
        """
        UPDATE privacy_requests SET state = 'RUNNING', started_at = coalesce(started_at, now())
        WHERE id = \(id) AND state <> 'COMPLETED'
        RETURNING user_id
        """
    }

    static func connectorsToRevoke(userID: UUID) -> PostgresQuery {
        """
        SELECT c.id FROM connectors c
        WHERE c.user_id = \(userID) AND c.status <> 'REVOKED'
          AND NOT EXISTS (SELECT 1 FROM connector_revocations r WHERE r.connector_id = c.id)
        ORDER BY c.id
        """
    }

    static func countRevoked(id: UUID) -> PostgresQuery {
        "UPDATE privacy_requests SET connectors_revoked = connectors_revoked + 1 WHERE id = \(id) AND state <> 'COMPLETED'"
    }

    static func park(connector: UUID, request: UUID) -> PostgresQuery {
        "SELECT alfred_park_revocation(\(connector), \(request))"
    }

    static func deleteUser(request: UUID) -> PostgresQuery {
        "SELECT outcome FROM alfred_delete_user(\(request))"
    }

    static func revocationSettled(request: UUID) -> PostgresQuery {
        """
        UPDATE privacy_requests
        SET revocations_pending = (SELECT count(*) FROM connector_revocations WHERE request_id = \(request))
        WHERE id = \(request)
        """
    }

    /// Everything stored about a user, as one JSON document. Sealed columns (tokens, cursors, sealed
    /// preferences, message ids) are named but not included: `alfred privacy export` opens what the
    /// user can use with the host data key.
    static func export(userID: UUID) -> PostgresQuery {
        """
        SELECT jsonb_build_object(
            'user', (SELECT jsonb_build_object('id', u.id, 'created_at', u.created_at, 'status', u.status) FROM users u WHERE u.id = \(userID)),
            'preferences', (SELECT to_jsonb(p) - 'urgency_ciphertext' - 'user_id'
                                   || jsonb_build_object('urgency_preferences_sealed', p.urgency_ciphertext IS NOT NULL)
                            FROM preferences p WHERE p.user_id = \(userID)),
            'devices', (SELECT coalesce(jsonb_agg(to_jsonb(d) - 'apns_token_ciphertext' - 'token_key' - 'device_ref' - 'user_id' ORDER BY d.created_at), '[]')
                        FROM devices d WHERE d.user_id = \(userID)),
            'connectors', (SELECT coalesce(jsonb_agg(jsonb_build_object('id', c.id, 'provider', c.provider, 'scopes', c.scopes,
                                          'status', c.status, 'created_at', c.created_at, 'revoked_at', c.revoked_at,
                                          'refresh_token', 'stored encrypted; never exported') ORDER BY c.created_at), '[]')
                           FROM connectors c WHERE c.user_id = \(userID)),
            'gmail_watches', (SELECT coalesce(jsonb_agg(jsonb_build_object('connector_id', w.connector_id, 'expires_at', w.expires_at,
                                             'address', 'kept only as a keyed hash') ORDER BY w.connector_id), '[]')
                              FROM gmail_watches w WHERE w.user_id = \(userID)),
            'relay_mailbox', (SELECT jsonb_build_object('created_at', r.created_at, 'address', 'kept only as a keyed hash')
                              FROM relay_mailboxes r WHERE r.user_id = \(userID)),
            'sync_cursors', (SELECT coalesce(jsonb_agg(jsonb_build_object('connector_id', s.connector_id, 'kind', s.kind,
                                            'updated_at', s.updated_at) ORDER BY s.kind), '[]')
                             FROM sync_cursors s WHERE s.user_id = \(userID)),
            'notifications', (SELECT coalesce(jsonb_agg(to_jsonb(n) - 'user_id' - 'idempotency_key' - 'job_id' ORDER BY n.created_at), '[]')
                              FROM notifications n WHERE n.user_id = \(userID)),
            'push_sends', (SELECT coalesce(jsonb_agg(jsonb_build_object('device_id', ps.device_id, 'state', ps.state,
                                          'reason', ps.reason, 'started_at', ps.started_at, 'finished_at', ps.finished_at)
                                          ORDER BY ps.started_at), '[]')
                           FROM push_sends ps WHERE ps.user_id = \(userID)),
            'mail_alerts', (SELECT coalesce(jsonb_agg(jsonb_build_object('disposition', m.disposition, 'score', m.score,
                                           'created_at', m.created_at) ORDER BY m.created_at), '[]')
                            FROM mail_alerts m WHERE m.user_id = \(userID)),
            'jobs', (SELECT coalesce(jsonb_agg(jsonb_build_object('id', j.id, 'kind', j.kind, 'state', j.state, 'due_at', j.due_at,
                                    'attempts', j.attempts, 'created_at', j.created_at) ORDER BY j.due_at), '[]')
                     FROM jobs j WHERE j.user_id = \(userID)),
            'audit_events', (SELECT coalesce(jsonb_agg(jsonb_build_object('id', e.id, 'seq', e.seq, 'timestamp', e.created_at,
                                            'event_type', e.event_type, 'connector', e.connector, 'result', e.result,
                                            'metadata', e.redacted_metadata) ORDER BY e.seq), '[]')
                             FROM audit_events e WHERE e.user_id = \(userID)),
            'privacy_requests', (SELECT coalesce(jsonb_agg(jsonb_build_object('request_id', r.id, 'kind', r.kind, 'state', r.state,
                                                'requested_at', r.requested_at) ORDER BY r.requested_at), '[]')
                                 FROM privacy_requests r WHERE r.user_id = \(userID))
        )::text
        """
    }

    /// What the privacy alerts watch: how long the oldest open request and parked revocation have waited.
    static let backlogAges: PostgresQuery = """
        SELECT (SELECT extract(epoch FROM now() - min(requested_at))::float8 FROM privacy_requests WHERE state <> 'COMPLETED'),
               (SELECT extract(epoch FROM now() - min(parked_at))::float8 FROM connector_revocations)
        """

    /// Revocations parked by delete-all that Google has not confirmed yet (ids only).
    static let parkedRevocations: PostgresQuery =
        "SELECT connector_id, request_id, parked_at FROM connector_revocations ORDER BY parked_at"
}
