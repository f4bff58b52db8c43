import AlfredCore
import AlfredTestCluster
import Foundation
import PostgresNIO
import Store
import Testing

/// What `alfred keys kek-usage` counts before a key version is retired: live connectors and grants
/// parked for revocation (both are decrypted again), never revoked connectors.
@Suite(.timeLimit(.minutes(5))) struct KeyVersionUsageTests {
    @Test func liveConnectorsAndParkedRevocationsCountRevokedOnesDoNot() async throws {
        let url = try await TestDatabase.fresh()
        let logger = TestDatabase.quietLogger
        let user = UUID(), request = UUID()
        let usage = try await TestDatabase.withClient(url) { client in
            _ = try await client.query("INSERT INTO users (id) VALUES (\(user))", logger: logger).collect()
            for (version, status) in [(1, "ACTIVE"), (2, "ACTIVE"), (2, "NEEDS_RECONSENT"), (1, "REVOKED")] {
                _ = try await client.query("""
                    INSERT INTO connectors (id, user_id, provider, scopes, refresh_token_ciphertext, token_key_id, token_version, status)
                    VALUES (\(UUID()), \(user), 'google', '{calendar.readonly}', '\\x01', 'kek-main', \(Int32(version)), \(status))
                    """, logger: logger).collect()
            }
            _ = try await client.query("INSERT INTO privacy_requests (id, kind, user_id) VALUES (\(request), 'delete_all', \(user))",
                                       logger: logger).collect()
            _ = try await client.query("""
                INSERT INTO connector_revocations (connector_id, request_id, user_id, provider, token_key_id, token_version,
                                                  refresh_token_ciphertext)
                VALUES (\(UUID()), \(request), \(user), 'google', 'kek-old', 3, '\\x01')
                """, logger: logger).collect()
            return try await PostgresConnectorStore(client: client, logger: logger).keyVersionUsage()
        }
        #expect(usage == [KeyVersionUsage(keyID: "kek-main", version: 1, connectors: 1),
                          KeyVersionUsage(keyID: "kek-main", version: 2, connectors: 2),
                          KeyVersionUsage(keyID: "kek-old", version: 3, connectors: 1)])
    }
}
