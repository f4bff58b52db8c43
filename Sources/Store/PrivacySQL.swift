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
    /// The export is `alfred_export` (migration 0022), which records an operator's read first.
    static func export(userID: UUID) -> PostgresQuery {
        "SELECT alfred_export(\(userID))"
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
