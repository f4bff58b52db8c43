import Foundation
import Logging
import PostgresNIO

/// Rows tests arrange directly (as the owner), for what no API of ours creates on its own.
public enum Seed {
    /// A user with a Google connector (`connectorStatus`, a placeholder token ciphertext) and, unless
    /// `preferences` is false, preferences in Zurich with 10-minute reminders and a 07:30 brief.
    /// Returns (user, connector).
    public static func user(_ client: PostgresClient, logger: Logger = TestDatabase.quietLogger, connectorStatus: String = "ACTIVE",
                            preferences: Bool = true) async throws -> (UUID, UUID) {
        let user = UUID(), connector = UUID()
        _ = try await client.query("INSERT INTO users (id) VALUES (\(user))", logger: logger).collect()
        _ = try await client.query("""
            INSERT INTO connectors (id, user_id, provider, scopes, refresh_token_ciphertext, token_key_id, status)
            VALUES (\(connector), \(user), 'google', '{calendar.readonly}', '\\x01', 'kek-main', \(connectorStatus))
            """, logger: logger).collect()
        if preferences {
            _ = try await client.query("""
                INSERT INTO preferences (user_id, time_zone, meeting_reminder_minutes, morning_brief_local_time)
                VALUES (\(user), 'Europe/Zurich', 10, '07:30')
                """, logger: logger).collect()
        }
        return (user, connector)
    }
}
