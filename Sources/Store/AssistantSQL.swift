import Foundation
import NIOCore
import PostgresNIO

/// Every query on the assistant's tables (`preferences` reads, `sync_cursors`, `notifications`,
/// `mail_alerts`), in one place.
enum AssistantSQL {
    /// Preferences default when the user never saved any (the RFC's defaults live in the table's
    /// column defaults; this mirrors them for users without a row). Prepared: every reminder, brief
    /// and mail check reads it, and unprepared its planning cost more than its execution (5.9 of 7.3 s
    /// for 20,000 reads in the 10,000-user burst with briefs).
    struct Profile: PostgresPreparedStatement {
        static let sql = """
        SELECT coalesce(p.time_zone, 'UTC'), coalesce(p.meeting_reminder_minutes, 15),
               to_char(coalesce(p.morning_brief_local_time, '08:00'::time), 'HH24:MI'),
               to_char(CASE WHEN p.user_id IS NULL THEN '22:00'::time ELSE p.quiet_hours_start END, 'HH24:MI'),
               to_char(CASE WHEN p.user_id IS NULL THEN '07:00'::time ELSE p.quiet_hours_end END, 'HH24:MI'),
               p.urgency_ciphertext, c.id, w.expires_at
        FROM users u LEFT JOIN preferences p ON p.user_id = u.id
        LEFT JOIN LATERAL (SELECT c.id FROM connectors c
                            WHERE c.user_id = u.id AND c.provider = 'google' AND c.status = 'ACTIVE'
                            ORDER BY c.created_at DESC LIMIT 1) c ON true
        LEFT JOIN gmail_watches w ON w.connector_id = c.id AND w.failed_at IS NULL
        WHERE u.id = $1 AND u.status = 'ACTIVE'
        """
        typealias Row = (String, Int32, String, String?, String?, ByteBuffer?, UUID?, Date?)
        let userID: UUID

        func makeBindings() throws -> PostgresBindings {
            var bindings = PostgresBindings()
            bindings.append(userID)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// Probes the live unique-key index once per user and kind (`<kind>:<user id>`).
    static func recurringJobGaps(kinds: [String], after: UUID?, limit: Int) -> PostgresQuery {
        """
        SELECT u.id, ARRAY(
            SELECT k FROM unnest(\(kinds)::text[]) AS k
            WHERE NOT EXISTS (SELECT 1 FROM jobs j WHERE j.unique_key = k || ':' || u.id::text
                                                    AND j.state IN ('queued', 'running')))
        FROM users u
        WHERE u.status = 'ACTIVE' AND (\(after)::uuid IS NULL OR u.id > \(after)::uuid)
          AND EXISTS (SELECT 1 FROM connectors c WHERE c.user_id = u.id AND c.provider = 'google' AND c.status = 'ACTIVE')
        ORDER BY u.id LIMIT \(Int32(limit))
        """
    }

    static func saveGmailWatch(connectorID: UUID, userID: UUID, addressHash: String, expiresAt: Date) -> PostgresQuery {
        """
        INSERT INTO gmail_watches (connector_id, user_id, address_hash, expires_at, renewed_at, failed_at)
        VALUES (\(connectorID), \(userID), \(addressHash), \(expiresAt), now(), NULL)
        ON CONFLICT (connector_id) DO UPDATE
        SET address_hash = EXCLUDED.address_hash, expires_at = EXCLUDED.expires_at, renewed_at = now(), failed_at = NULL
        """
    }

    static func gmailWatchFailed(connectorID: UUID) -> PostgresQuery {
        "UPDATE gmail_watches SET failed_at = now() WHERE connector_id = \(connectorID)"
    }

    static func cursor(connectorID: UUID, kind: String) -> PostgresQuery {
        "SELECT state_ciphertext FROM sync_cursors WHERE connector_id = \(connectorID) AND kind = \(kind)"
    }

    static func saveCursor(connectorID: UUID, userID: UUID, kind: String, sealed: ByteBuffer) -> PostgresQuery {
        """
        INSERT INTO sync_cursors (connector_id, user_id, kind, state_ciphertext, updated_at)
        VALUES (\(connectorID), \(userID), \(kind), \(sealed), now())
        ON CONFLICT (connector_id, kind) DO UPDATE SET state_ciphertext = EXCLUDED.state_ciphertext, updated_at = now()
        """
    }

    static func usedNotificationKeys(_ keys: [String]) -> PostgresQuery {
        "SELECT idempotency_key FROM notifications WHERE idempotency_key = ANY(\(keys)::text[])"
    }

    /// Claims many notifications' keys in one statement; the caller enqueues the pushes of the keys
    /// that come back. Per-row values are parallel arrays; no deadline or time is `JobSQL.noInstant`,
    /// and no urgency rules is '' (otherwise a JSON array of rule ids) with '' for its rule set.
    struct ClaimNotificationKeys: PostgresPreparedStatement {
        static let sql = """
            INSERT INTO notifications (idempotency_key, user_id, kind, job_id, deadline_at, scheduled_at, urgency_rules, urgency_rule_set)
            SELECT key, user_id, kind, job_id, NULLIF(deadline, $9::timestamptz), NULLIF(scheduled, $9::timestamptz),
                   CASE WHEN rules = '' THEN NULL ELSE ARRAY(SELECT jsonb_array_elements_text(rules::jsonb)) END,
                   NULLIF(rule_set, '')
            FROM unnest($1::text[], $2::uuid[], $3::text[], $4::uuid[], $5::timestamptz[], $6::timestamptz[], $7::text[], $8::text[])
                AS n(key, user_id, kind, job_id, deadline, scheduled, rules, rule_set)
            ON CONFLICT (idempotency_key) DO NOTHING
            RETURNING idempotency_key
            """
        typealias Row = String
        var keys: [String] = [], users: [UUID] = [], kinds: [String] = [], jobIDs: [UUID] = []
        var deadlines: [Date] = [], scheduled: [Date] = [], rules: [String] = [], ruleSets: [String] = []

        func makeBindings() throws -> PostgresBindings {
            var b = PostgresBindings()
            b.append(keys); b.append(users); b.append(kinds); b.append(jobIDs)
            b.append(deadlines); b.append(scheduled); b.append(rules); b.append(ruleSets); b.append(JobSQL.noInstant)
            return b
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(String.self) }
    }

    static func recordMailAlerts(userID: UUID, keys: [String], sealed: [ByteBuffer], dispositions: [String],
                                 scores: [Int32]) -> PostgresQuery {
        """
        INSERT INTO mail_alerts (user_id, message_key, message_ciphertext, disposition, score)
        SELECT \(userID), k, m, d, s FROM unnest(\(keys)::text[], \(sealed)::bytea[], \(dispositions)::text[], \(scores)::int4[])
            AS t(k, m, d, s)
        ON CONFLICT (user_id, message_key) DO NOTHING
        RETURNING message_key
        """
    }

    static func mailAlerts(userID: UUID, since: Date, limit: Int) -> PostgresQuery {
        """
        SELECT message_key, message_ciphertext, disposition, score FROM mail_alerts
        WHERE user_id = \(userID) AND created_at >= \(since)
        ORDER BY score DESC, created_at DESC LIMIT \(Int32(limit))
        """
    }

    static func prune(notificationSeconds: Double, mailSeconds: Double) -> PostgresQuery {
        """
        WITH n AS (
            DELETE FROM notifications
            WHERE coalesce(deadline_at, created_at) < now() - make_interval(secs => \(notificationSeconds))
            RETURNING 1
        ), m AS (
            DELETE FROM mail_alerts WHERE created_at < now() - make_interval(secs => \(mailSeconds)) RETURNING 1
        )
        SELECT (SELECT count(*) FROM n) + (SELECT count(*) FROM m)
        """
    }

    static func relayWatchExpiry(userID: UUID) -> PostgresQuery {
        "SELECT watch_expires_at FROM relay_mailboxes WHERE user_id = \(userID)"
    }

    /// Returns the alert's rule ids (empty when it has none) only when the verdict is recorded now.
    /// The app names the alert by the `notification_id` its push carried: the collapse id, which is the
    /// last 32 characters of the idempotency key (the whole key is accepted too).
    static func recordFeedback(userID: UUID, key: String, verdict: String) -> PostgresQuery {
        """
        UPDATE notifications SET feedback = \(verdict)
        WHERE user_id = \(userID) AND (idempotency_key = \(key) OR right(idempotency_key, 32) = \(key))
          AND kind = 'mail.urgent' AND feedback IS NULL
        RETURNING coalesce(urgency_rules, '{}'::text[])
        """
    }

    /// Notifications whose push job ended without delivery finishing them (discarded by the queue at
    /// its attempt limit, or given up on while the database was away): `expired` past their deadline,
    /// else `failed`, with the job's sealed text deleted. Returns each one's kind, for the metrics.
    static func finishAbandonedNotifications() -> PostgresQuery {
        """
        WITH abandoned AS (
            UPDATE notifications n
            SET state = CASE WHEN n.deadline_at IS NOT NULL AND n.deadline_at <= now() THEN 'expired' ELSE 'failed' END,
                finished_at = now()
            WHERE n.state = 'pending'
              AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.id = n.job_id AND j.state IN ('queued', 'running'))
            RETURNING n.job_id, n.kind, n.state
        ), cleared AS (
            UPDATE jobs j SET payload = '', updated_at = now() FROM abandoned a WHERE j.id = a.job_id AND j.payload <> ''
            RETURNING 1
        )
        SELECT kind, state FROM abandoned
        """
    }
}
