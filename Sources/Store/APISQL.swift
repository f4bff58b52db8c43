import Foundation
import NIOCore
import PostgresNIO

/// The API's queries: users, sessions, devices, preferences (role `alfred_api`).
enum APISQL {
    /// The user with this Apple account hash, if there is one, gets a new session (returns its id).
    static func signInExisting(subjectHash: String, session: UUID, refreshHash: ByteBuffer, expiresAt: Date) -> PostgresQuery {
        """
        INSERT INTO sessions (id, user_id, refresh_hash, expires_at)
        SELECT \(session), id, \(refreshHash), \(expiresAt) FROM users WHERE apple_subject_hash = \(subjectHash)
        RETURNING user_id
        """
    }

    /// First sign-ins take turns, so the cap and single-use invitations hold under concurrency.
    static let lockSignups: PostgresQuery = "SELECT pg_advisory_xact_lock(hashtextextended('alfred-signups', 0))"

    /// `(mode, cap, accounts, allow-listed)`; accounts are the ones made by signing in, counted only
    /// under a cap (a scan of `users` at a million accounts is not paid for by every first sign-in).
    static func signupGate(identityHashes: [String]) -> PostgresQuery {
        """
        SELECT p.mode, p.user_cap,
               CASE WHEN p.user_cap IS NULL THEN 0 ELSE (SELECT count(*) FROM users WHERE apple_subject_hash IS NOT NULL) END,
               EXISTS (SELECT 1 FROM signup_allowed WHERE identity_hash = ANY(\(identityHashes)))
        FROM signup_policy p
        """
    }

    /// Uses an invitation: one row when it existed, was unused and had not expired.
    static func takeInvite(codeHash: ByteBuffer) -> PostgresQuery {
        """
        UPDATE signup_invites SET used_at = now() WHERE code_hash = \(codeHash) AND used_at IS NULL AND expires_at > now()
        RETURNING 1::int4
        """
    }

    /// A new account with its first session; no row when another sign-in created it a moment ago.
    static func createAccount(userID: UUID, subjectHash: String, session: UUID, refreshHash: ByteBuffer, expiresAt: Date) -> PostgresQuery {
        """
        WITH created AS (
            INSERT INTO users (id, apple_subject_hash) VALUES (\(userID), \(subjectHash))
            ON CONFLICT (apple_subject_hash) WHERE apple_subject_hash IS NOT NULL DO NOTHING
            RETURNING id
        )
        INSERT INTO sessions (id, user_id, refresh_hash, expires_at)
        SELECT \(session), id, \(refreshHash), \(expiresAt) FROM created
        RETURNING user_id
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
        ), retired AS (  -- the devices the ended session registered stop receiving at once
            \(unescaped: retiringDevices(ofSessionsIn: "replayed", reason: "session_revoked"))
        )
        SELECT 'rotated', id, user_id FROM current
        UNION ALL SELECT 'reused', id, NULL::uuid FROM replayed
        """
    }

    /// Every authenticated request asks this first: prepared once per connection, so Postgres does
    /// not parse and plan it each time.
    struct SessionIsActive: PostgresPreparedStatement {
        static let sql = "SELECT 1::int4 FROM sessions WHERE id = $1 AND user_id = $2 AND revoked_at IS NULL"
        typealias Row = Int32
        let id: UUID
        let userID: UUID

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(id)
            bindings.append(userID)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// Logout: the session ends and the devices it registered are retired, in one statement.
    static func endSession(id: UUID, userID: UUID) -> PostgresQuery {
        """
        WITH ended AS (
            UPDATE sessions SET revoked_at = now(), revoked_reason = 'logout'
            WHERE id = \(id) AND user_id = \(userID) AND revoked_at IS NULL
            RETURNING id
        ), retired AS (
            \(unescaped: retiringDevices(ofSessionsIn: "ended", reason: "logout"))
        )
        SELECT count(*) FROM retired
        """
    }

    /// The statement (for a CTE) that retires the live devices registered by the sessions a CTE
    /// named `sessions` returns: they stop receiving at once.
    private static func retiringDevices(ofSessionsIn sessions: String, reason: String) -> String {
        """
        UPDATE devices d SET retired_at = now(), retired_reason = '\(reason)', updated_at = now()
            WHERE d.session_id IN (SELECT id FROM \(sessions)) AND d.retired_at IS NULL
            RETURNING d.id
        """
    }

    /// One sweep of sign-in state, each part bounded by `limit` rows: sessions past their expiry end
    /// and retire their devices; sessions ended over `retention` ago are deleted (used tokens and
    /// pending connects cascade); used refresh tokens older than `usedTokenWindow` and devices retired
    /// over `retention` ago are deleted. Answers the four counts.
    static func sweepSessions(usedTokenWindow: Double, retention: Double, limit: Int32) -> PostgresQuery {
        """
        WITH expired AS (
            UPDATE sessions SET revoked_at = now(), revoked_reason = 'expired'
            WHERE id IN (SELECT id FROM sessions WHERE revoked_at IS NULL AND expires_at < now() LIMIT \(limit))
            RETURNING id
        ), retired AS (
            \(unescaped: retiringDevices(ofSessionsIn: "expired", reason: "session_expired"))
        ), ended AS (
            DELETE FROM sessions
            WHERE id IN (SELECT id FROM sessions WHERE revoked_at < now() - make_interval(secs => \(retention)) LIMIT \(limit))
            RETURNING id
        ), used AS (
            DELETE FROM session_used_tokens
            WHERE refresh_hash IN (SELECT refresh_hash FROM session_used_tokens
                                   WHERE used_at < now() - make_interval(secs => \(usedTokenWindow)) LIMIT \(limit))
            RETURNING 1
        ), gone AS (
            DELETE FROM devices
            WHERE id IN (SELECT id FROM devices WHERE retired_at < now() - make_interval(secs => \(retention)) LIMIT \(limit))
            RETURNING 1
        )
        SELECT (SELECT count(*) FROM expired), (SELECT count(*) FROM ended), (SELECT count(*) FROM used), (SELECT count(*) FROM gone)
        """
    }

    /// Apple said the account stopped using Alfred: every session of the user with this Apple
    /// account hash ends (`reason`) and every device of theirs is retired, in one statement. Returns
    /// the user (no row: Alfred does not know the account).
    static func endAccountSessions(appleSubjectHash: String, reason: String) -> PostgresQuery {
        """
        WITH u AS (
            SELECT id FROM users WHERE apple_subject_hash = \(appleSubjectHash)
        ), ended AS (
            UPDATE sessions SET revoked_at = now(), revoked_reason = \(reason)
            WHERE user_id IN (SELECT id FROM u) AND revoked_at IS NULL
            RETURNING id
        ), retired AS (
            UPDATE devices SET retired_at = now(), retired_reason = 'session_revoked', updated_at = now()
            WHERE user_id IN (SELECT id FROM u) AND retired_at IS NULL
            RETURNING id
        )
        SELECT id, (SELECT count(*) FROM ended), (SELECT count(*) FROM retired) FROM u
        """
    }

    /// Registers a device (migration 0025: the token's lock, retiring it under another account,
    /// dropping this account's other rows holding it, the upsert), in one call.
    static func registerDevice(id: UUID, userID: UUID, sessionID: UUID, deviceRef: String, tokenKey: String, sealed: ByteBuffer,
                               environment: String) -> PostgresQuery {
        """
        SELECT alfred_register_device(\(id), \(userID), \(sessionID), \(deviceRef), \(tokenKey), \(sealed), \(environment))
        """
    }

    static func deleteDevice(userID: UUID, deviceRef: String) -> PostgresQuery {
        "DELETE FROM devices WHERE user_id = \(userID) AND device_ref = \(deviceRef) RETURNING id"
    }

    static func deleteDevice(userID: UUID, id: UUID) -> PostgresQuery {
        "DELETE FROM devices WHERE user_id = \(userID) AND id = \(id) RETURNING id"
    }

    /// The user's live devices, oldest first: `(id, environment, created, updated, registered by this session)`.
    static func devices(userID: UUID, sessionID: UUID) -> PostgresQuery {
        """
        SELECT id, environment, created_at, updated_at, coalesce(session_id = \(sessionID), false) FROM devices
        WHERE user_id = \(userID) AND retired_at IS NULL
        ORDER BY created_at, id
        """
    }

    /// `(minutes, brief, quiet start, quiet end, high risk, zone)`; times as `HH:MM`. Up to the user's id.
    private static let preferencesOfUser = """
        SELECT meeting_reminder_minutes, to_char(morning_brief_local_time, 'HH24:MI'), to_char(quiet_hours_start, 'HH24:MI'),
               to_char(quiet_hours_end, 'HH24:MI'), high_risk_requires_confirm, time_zone
        FROM preferences WHERE user_id =
        """

    /// The user's preferences, for `GET /v1/preferences` (prepared).
    struct Preferences: PostgresPreparedStatement {
        static let sql = preferencesOfUser + " $1"
        typealias Row = (Int32, String, String?, String?, Bool, String)
        let userID: UUID

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(userID)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// The user's preferences, locked for their update.
    static func preferencesForUpdate(userID: UUID) -> PostgresQuery {
        "\(unescaped: preferencesOfUser) \(userID) FOR UPDATE"
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

    static func urgencyPreferences(userID: UUID) -> PostgresQuery {
        "SELECT urgency_ciphertext FROM preferences WHERE user_id = \(userID) AND urgency_ciphertext IS NOT NULL"
    }

    /// The user's sealed VIP senders and keywords (the other preferences keep their values or defaults).
    static func saveUrgencyPreferences(userID: UUID, sealed: ByteBuffer) -> PostgresQuery {
        """
        INSERT INTO preferences (user_id, urgency_ciphertext) VALUES (\(userID), \(sealed))
        ON CONFLICT (user_id) DO UPDATE SET urgency_ciphertext = EXCLUDED.urgency_ciphertext, updated_at = now()
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

    static func setRelayMailbox(userID: UUID, addressHash: String, watchExpiresAt: Date) -> PostgresQuery {
        """
        INSERT INTO relay_mailboxes (user_id, address_hash, watch_expires_at) VALUES (\(userID), \(addressHash), \(watchExpiresAt))
        ON CONFLICT (user_id) DO UPDATE SET address_hash = EXCLUDED.address_hash, watch_expires_at = EXCLUDED.watch_expires_at,
                                            created_at = now()
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
