import AlfredTesting
import Foundation
import Logging
import PostgresNIO
import Testing
@testable import Store

/// Boundary A, enforced by Postgres itself: the worker role cannot read refresh-token ciphertext.
@Suite(.timeLimit(.minutes(5))) struct RolesTests {
    func connect(_ url: DatabaseURL, as role: String) -> DatabaseURL {
        var url = url
        url.username = role
        return url
    }

    @Test func workerRoleIsDeniedTheRefreshTokenColumnAndBrokerRoleIsNot() async throws {
        let url = try await TestDatabase.fresh()
        let logger = TestDatabase.quietLogger
        try await TestDatabase.withClient(url) { owner in
            _ = try await owner.query("""
                INSERT INTO users (id) VALUES ('00000000-0000-0000-0000-00000000000a');
                """, logger: logger).collect()
            _ = try await owner.query("""
                INSERT INTO connectors (id, user_id, provider, scopes, refresh_token_ciphertext, token_key_id, status)
                VALUES ('00000000-0000-0000-0000-00000000000b', '00000000-0000-0000-0000-00000000000a', 'google',
                        '{calendar.readonly}', '\\x0102', 'kek-main', 'ACTIVE')
                """, logger: logger).collect()
        }
        try await TestDatabase.withClient(connect(url, as: "alfred_worker")) { worker in
            let status = try await worker.query("SELECT status FROM connectors", logger: logger).collect()
            #expect(status.count == 1, "the worker may see that a connector exists")
            let error = await #expect(throws: PSQLError.self) {
                _ = try await worker.query("SELECT refresh_token_ciphertext FROM connectors", logger: logger).collect()
            }
            #expect(error?.serverInfo?[.sqlState] == "42501", "insufficient_privilege")
            #expect(error?.serverInfo?[.message]?.contains("permission denied") == true)
            await #expect(throws: PSQLError.self) {
                _ = try await worker.query("SELECT * FROM connectors", logger: logger).collect()
            }
            await #expect(throws: PSQLError.self) {
                _ = try await worker.query("UPDATE connectors SET refresh_token_ciphertext = '\\x00'", logger: logger).collect()
            }
            // Least privilege (migration 0008): deleting users or connectors, or changing a connector's
            // status, is the broker's or delete-all's (a SECURITY DEFINER function), never the worker's.
            for statement: PostgresQuery in [
                "DELETE FROM users", "DELETE FROM connectors", "UPDATE connectors SET status = 'REVOKED'",
                "UPDATE connectors SET revoked_at = now()",
            ] {
                let refused = await #expect(throws: PSQLError.self) { _ = try await worker.query(statement, logger: logger).collect() }
                #expect(refused?.serverInfo?[.sqlState] == "42501", "\(statement.sql): insufficient_privilege")
            }
            let still = try await worker.query("SELECT count(*)::int FROM connectors WHERE status = 'ACTIVE'", logger: logger)
                .collect().first?.decode(Int.self)
            #expect(still == 1)
        }
        try await TestDatabase.withClient(connect(url, as: "alfred_broker")) { broker in
            let rows = try await broker.query("SELECT refresh_token_ciphertext FROM connectors", logger: logger).collect()
            #expect(rows.count == 1)
            await #expect(throws: PSQLError.self, "the broker sees no jobs") {
                _ = try await broker.query("SELECT count(*) FROM jobs", logger: logger).collect()
            }
        }
    }
}
