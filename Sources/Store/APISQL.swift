import Foundation
import NIOCore
import PostgresNIO

/// The API's queries: users, sessions, devices, preferences (role `alfred_api`).
enum APISQL {
    /// The user with this Apple account hash (created when new) gets a new session. Returns
    /// `(user_id, created)`; no row when another sign-in created the same user at this moment
    /// (the caller tries once more and finds it).
    static func signIn(subjectHash: String, newUserID: UUID, session: UUID, refreshHash: ByteBuffer, expiresAt: Date) -> PostgresQuery {
        """
        WITH existing AS (
            SELECT id FROM users WHERE apple_subject_hash = \(subjectHash)
        ), created AS (
            INSERT INTO users (id, apple_subject_hash)
            SELECT \(newUserID), \(subjectHash) WHERE NOT EXISTS (SELECT 1 FROM existing)
            ON CONFLICT (apple_subject_hash) WHERE apple_subject_hash IS NOT NULL DO NOTHING
            RETURNING id
        ), chosen AS (
            SELECT id, false AS created FROM existing UNION ALL SELECT id, true FROM created
        )
        INSERT INTO sessions (id, user_id, refresh_hash, expires_at)
        SELECT \(session), id, \(refreshHash), \(expiresAt) FROM chosen
        RETURNING user_id, (SELECT created FROM chosen)
        """
    }

    /// Rotates a current refresh token, or, for one that was already used, revokes its session.
    /// Returns `('rotated', session, user)` or `('reused', session, NULL)`; no row for an unknown,
    /// expired or revoked token.
    static func refresh(old: ByteBuffer, new: ByteBuffer, expiresAt: Date) -> PostgresQuery {
        """
        WITH current AS (
            UPDATE sessions SET refresh_hash = \(new), generation = generation + 1, refreshed_at = now(),
                                expires_at = \(expiresAt)
            WHERE refresh_hash = \(old) AND revoked_at IS NULL AND expires_at > now()
            RETURNING id, user_id
        ), used AS (  -- runs although nothing reads it: data-modifying CTEs always do
            INSERT INTO session_used_tokens (refresh_hash, session_id) SELECT \(old), id FROM current
            RETURNING session_id
        ), replayed AS (
            UPDATE sessions s SET revoked_at = coalesce(s.revoked_at, now()),
                                  revoked_reason = coalesce(s.revoked_reason, 'refresh_token_reused')
            FROM session_used_tokens t
            WHERE t.refresh_hash = \(old) AND s.id = t.session_id AND NOT EXISTS (SELECT 1 FROM current)
            RETURNING s.id
        )
        SELECT 'rotated', id, user_id FROM current
        UNION ALL SELECT 'reused', id, NULL::uuid FROM replayed
        """
    }

    static func sessionIsActive(id: UUID, userID: UUID) -> PostgresQuery {
        "SELECT 1::int4 FROM sessions WHERE id = \(id) AND user_id = \(userID) AND revoked_at IS NULL"
    }

    static func endSession(id: UUID, userID: UUID) -> PostgresQuery {
        """
        UPDATE sessions SET revoked_at = now(), revoked_reason = 'logout'
        WHERE id = \(id) AND user_id = \(userID) AND revoked_at IS NULL
        """
    }

    /// A device that had this APNs token under another device id is replaced by this registration.
    static func dropOtherDevicesWithToken(userID: UUID, tokenKey: String, deviceRef: String) -> PostgresQuery {
        """
        DELETE FROM devices WHERE user_id = \(userID) AND token_key = \(tokenKey) AND device_ref IS DISTINCT FROM \(deviceRef)
        """
    }

    static func upsertDevice(id: UUID, userID: UUID, deviceRef: String, tokenKey: String, sealed: ByteBuffer,
                             environment: String) -> PostgresQuery {
        """
        INSERT INTO devices (id, user_id, device_ref, apns_token_ciphertext, environment, token_key)
        VALUES (\(id), \(userID), \(deviceRef), \(sealed), \(environment), \(tokenKey))
        ON CONFLICT (user_id, device_ref) WHERE device_ref IS NOT NULL DO UPDATE
            SET apns_token_ciphertext = EXCLUDED.apns_token_ciphertext, environment = EXCLUDED.environment,
                token_key = EXCLUDED.token_key, retired_at = NULL, retired_reason = NULL, updated_at = now()
        """
    }

    static func deleteDevice(userID: UUID, deviceRef: String) -> PostgresQuery {
        "DELETE FROM devices WHERE user_id = \(userID) AND device_ref = \(deviceRef) RETURNING id"
    }

    /// `(minutes, brief, quiet start, quiet end, high risk, zone)`; times as `HH:MM`.
    static func preferences(userID: UUID, forUpdate: Bool = false) -> PostgresQuery {
        """
        SELECT meeting_reminder_minutes, to_char(morning_brief_local_time, 'HH24:MI'), to_char(quiet_hours_start, 'HH24:MI'),
               to_char(quiet_hours_end, 'HH24:MI'), high_risk_requires_confirm, time_zone
        FROM preferences WHERE user_id = \(userID) \(unescaped: forUpdate ? "FOR UPDATE" : "")
        """
    }

    static func savePreferences(userID: UUID, _ p: SavedPreferences) -> PostgresQuery {
        """
        INSERT INTO preferences (user_id, meeting_reminder_minutes, morning_brief_local_time, quiet_hours_start, quiet_hours_end,
                                 high_risk_requires_confirm, time_zone)
        VALUES (\(userID), \(p.minutes), \(p.brief)::time, \(p.quietStart)::time, \(p.quietEnd)::time, \(p.highRisk), \(p.timeZone))
        ON CONFLICT (user_id) DO UPDATE SET
            meeting_reminder_minutes = EXCLUDED.meeting_reminder_minutes, morning_brief_local_time = EXCLUDED.morning_brief_local_time,
            quiet_hours_start = EXCLUDED.quiet_hours_start, quiet_hours_end = EXCLUDED.quiet_hours_end,
            high_risk_requires_confirm = EXCLUDED.high_risk_requires_confirm, time_zone = EXCLUDED.time_zone, updated_at = now()
        """
    }

    // MARK: Google connect

    /// A new pending connect, in one statement: the user's expired ones go and at most `keep` stay
    /// open (the newest); anyone's expired over an hour ago go too (users who never came back from
    /// Google's page), by the expiry index.
    static func openConnect(_ c: PendingConnectRow, keep: Int) -> PostgresQuery {
        """
        WITH added AS (
            INSERT INTO connect_states (state_hash, user_id, session_id, oauth_client, redirect_uri, verifier_sealed, expires_at)
            VALUES (\(c.stateHash), \(c.userID), \(c.sessionID), \(c.client), \(c.redirectURI), \(c.verifierSealed), \(c.expiresAt))
            RETURNING state_hash
        )
        DELETE FROM connect_states s
        WHERE s.state_hash NOT IN (SELECT state_hash FROM added)
          AND (s.expires_at < now() - interval '1 hour'
               OR (s.user_id = \(c.userID) AND (s.expires_at < now() OR s.state_hash NOT IN (
                     SELECT state_hash FROM connect_states WHERE user_id = \(c.userID)
                     ORDER BY created_at DESC LIMIT \(Int32(max(0, keep - 1)))))))
        """
    }

    /// Takes a pending connect: single use, and only by the session that started it.
    static func takeConnect(stateHash: String, sessionID: UUID, userID: UUID) -> PostgresQuery {
        """
        DELETE FROM connect_states
        WHERE state_hash = \(stateHash) AND session_id = \(sessionID) AND user_id = \(userID)
        RETURNING oauth_client, redirect_uri, verifier_sealed, expires_at
        """
    }

    /// The user's Google connectors that still hold a grant (revoked ones are history, in the audit trail).
    static func connectors(userID: UUID) -> PostgresQuery {
        """
        SELECT id, provider, status, scopes, created_at FROM connectors
        WHERE user_id = \(userID) AND status <> 'REVOKED'
        ORDER BY created_at, id
        """
    }

    static func connectorStatus(id: UUID, userID: UUID) -> PostgresQuery {
        "SELECT status FROM connectors WHERE id = \(id) AND user_id = \(userID)"
    }

    static func mailboxOwners(addressHash: String) -> PostgresQuery {
        """
        SELECT DISTINCT w.user_id FROM gmail_watches w JOIN connectors c ON c.id = w.connector_id
        WHERE w.address_hash = \(addressHash) AND c.status = 'ACTIVE'
        """
    }

    static func setRelayMailbox(userID: UUID, addressHash: String) -> PostgresQuery {
        """
        INSERT INTO relay_mailboxes (user_id, address_hash) VALUES (\(userID), \(addressHash))
        ON CONFLICT (user_id) DO UPDATE SET address_hash = EXCLUDED.address_hash, created_at = now()
        """
    }

    static func deleteRelayMailbox(userID: UUID) -> PostgresQuery {
        "DELETE FROM relay_mailboxes WHERE user_id = \(userID) RETURNING user_id"
    }

    static func relayOwners(addressHash: String) -> PostgresQuery {
        "SELECT user_id FROM relay_mailboxes WHERE address_hash = \(addressHash)"
    }

    struct PendingConnectRow {
        var stateHash: String, userID: UUID, sessionID: UUID, client: String, redirectURI: String, verifierSealed: ByteBuffer
        var expiresAt: Date
    }

    /// Binds for `savePreferences`.
    struct SavedPreferences {
        var minutes: Int32, brief: String, quietStart: String?, quietEnd: String?, highRisk: Bool, timeZone: String
    }
}
