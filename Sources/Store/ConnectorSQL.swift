import Foundation
import NIOCore
import PostgresNIO

/// Every query on `connectors` (and on connectors parked for revocation), in one place.
enum ConnectorSQL {
    static func insert(id: UUID, userID: UUID, provider: String, scopes: [String], ciphertext: ByteBuffer, keyID: String,
                       keyVersion: Int, oauthClient: String) -> PostgresQuery {
        """
        INSERT INTO connectors (id, user_id, provider, scopes, refresh_token_ciphertext, token_key_id, token_version,
                                token_rotated_at, status, created_at, oauth_client)
        VALUES (\(id), \(userID), \(provider), \(scopes), \(ciphertext), \(keyID), \(Int32(keyVersion)), now(), 'ACTIVE', now(),
                \(oauthClient))
        """
    }

    /// A live connector, or else one parked for revocation after its user was deleted.
    static func secret(id: UUID) -> PostgresQuery {
        """
        SELECT user_id, status, token_key_id, token_version, refresh_token_ciphertext, oauth_client FROM (
            SELECT 0 AS rank, user_id, status, token_key_id, token_version, refresh_token_ciphertext, oauth_client
            FROM connectors WHERE id = \(id)
            UNION ALL
            -- A parked connector is only ever revoked, which needs no client credentials.
            SELECT 1, user_id, 'REVOCATION_PENDING', token_key_id, token_version, refresh_token_ciphertext, 'web'
            FROM connector_revocations WHERE connector_id = \(id)
        ) found ORDER BY rank LIMIT 1
        """
    }

    /// A live connector's status, or REVOCATION_PENDING for one parked after its user was deleted.
    static func status(id: UUID) -> PostgresQuery {
        """
        SELECT status FROM (
            SELECT 0 AS rank, status FROM connectors WHERE id = \(id)
            UNION ALL
            SELECT 1, 'REVOCATION_PENDING' FROM connector_revocations WHERE connector_id = \(id)
        ) found ORDER BY rank LIMIT 1
        """
    }

    /// Google confirmed the revocation: nothing of a parked connector remains.
    static func forgetParked(id: UUID) -> PostgresQuery {
        "DELETE FROM connector_revocations WHERE connector_id = \(id)"
    }

    static func setStatus(id: UUID, status: String) -> PostgresQuery {
        """
        UPDATE connectors SET status = \(status),
               revoked_at = CASE WHEN \(status) = 'REVOKED' THEN coalesce(revoked_at, now()) ELSE revoked_at END
        WHERE id = \(id)
        """
    }

    static func rewrapped(id: UUID, fromVersion: Int, toVersion: Int, ciphertext: ByteBuffer) -> PostgresQuery {
        """
        UPDATE connectors SET refresh_token_ciphertext = \(ciphertext), token_version = \(Int32(toVersion)), token_rotated_at = now()
        WHERE id = \(id) AND token_version = \(Int32(fromVersion))
        RETURNING id
        """
    }

    /// Keyset-paginated by id, so a sweep moves forward even while rows are being rewrapped.
    static func needingRewrap(keyID: String, activeVersion: Int, after: UUID?, limit: Int) -> PostgresQuery {
        """
        SELECT id FROM connectors
        WHERE token_key_id = \(keyID) AND token_version <> \(Int32(activeVersion)) AND status <> 'REVOKED'
          AND (\(after)::uuid IS NULL OR id > \(after))
        ORDER BY id LIMIT \(limit)
        """
    }

    /// Live connectors and grants parked for revocation after a delete-all: both are decrypted again.
    /// (The owner's role reads both tables; the worker's reads neither version column of the parked ones.)
    static let keyVersionUsage: PostgresQuery = """
        SELECT token_key_id, token_version, count(*)::int FROM (
            SELECT token_key_id, token_version FROM connectors WHERE status <> 'REVOKED'
            UNION ALL SELECT token_key_id, token_version FROM connector_revocations
        ) used GROUP BY 1, 2 ORDER BY 1, 2
        """
}
