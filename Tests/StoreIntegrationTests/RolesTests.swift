import AlfredTestCluster
import Foundation
import AlfredCore
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

    /// Migration 0018: the worker cannot write identity columns (rebinding an account to another
    /// Apple ID), delete devices or preferences, or change preferences other than resealing their
    /// sealed column; no role creates objects in the schema. Each is refused with 42501.
    @Test func theWorkerCannotRebindAnAccountAndNoRoleCreatesObjects() async throws {
        let url = try await TestDatabase.fresh()
        let logger = TestDatabase.quietLogger
        let user = UUID(uuidString: "00000000-0000-0000-0000-00000000002a")!
        try await TestDatabase.withClient(url) { owner in
            _ = try await owner.query("INSERT INTO users (id, apple_subject_hash) VALUES (\(user), 'victims-hash')", logger: logger).collect()
            _ = try await owner.query("INSERT INTO preferences (user_id) VALUES (\(user))", logger: logger).collect()
        }
        try await TestDatabase.withClient(connect(url, as: "alfred_worker")) { worker in
            for statement: PostgresQuery in [
                "UPDATE users SET apple_subject_hash = 'attackers-hash'",
                "INSERT INTO users (id, apple_subject_hash) VALUES ('00000000-0000-0000-0000-00000000002b', 'attackers-hash')",
                "DELETE FROM devices", "DELETE FROM preferences", "UPDATE preferences SET time_zone = 'Asia/Tokyo'",
                "INSERT INTO preferences (user_id) VALUES ('00000000-0000-0000-0000-00000000002a')",
                "CREATE TABLE worker_stash (x int)",
            ] {
                let refused = await #expect(throws: PSQLError.self) { _ = try await worker.query(statement, logger: logger).collect() }
                #expect(refused?.serverInfo?[.sqlState] == "42501", "\(statement.sql): insufficient_privilege")
            }
            // What its statements do still works: resealing the urgency column.
            _ = try await worker.query("UPDATE preferences SET urgency_ciphertext = '\\x00' WHERE user_id = \(user)", logger: logger).collect()
        }
        for role in ["alfred_api", "alfred_broker"] {
            try await TestDatabase.withClient(connect(url, as: role)) { client in
                let refused = await #expect(throws: PSQLError.self) {
                    _ = try await client.query("CREATE TABLE stash (x int)", logger: logger).collect()
                }
                #expect(refused?.serverInfo?[.sqlState] == "42501", "\(role) created a table")
            }
        }
        try await TestDatabase.withClient(url) { owner in
            let hash = try await owner.query("SELECT apple_subject_hash FROM users WHERE id = \(user)", logger: logger).collect().first?
                .decode(String.self)
            #expect(hash == "victims-hash")
        }
    }

    /// Migration 0021: each role appends only the audit event types its own code writes (a forged
    /// TOKEN_REFRESH from the API, SIGN_IN from the worker or DELIVERY from the broker is refused
    /// with 42501 and leaves the chain as it was), and the owner may append any.
    /// One event, through the statement the stores use.
    static func append(_ type: String, about user: UUID, on client: PostgresClient) async throws {
        let statement = try AuditSQL.Append([AuditEvent(userID: user, type: type, connector: nil, result: "SUCCESS")])
        for try await _ in try await client.execute(statement, logger: TestDatabase.quietLogger) {}
    }

    @Test func eachRoleAppendsOnlyItsOwnAuditEvents() async throws {
        let url = try await TestDatabase.fresh()
        let logger = TestDatabase.quietLogger
        let user = UUID(uuidString: "00000000-0000-0000-0000-00000000003a")!
        try await TestDatabase.withClient(url) { owner in
            _ = try await owner.query("INSERT INTO users (id) VALUES (\(user))", logger: logger).collect()
            try await Self.append("ANY_TYPE", about: user, on: owner)
        }
        let own = ["alfred_worker": "DELIVERY", "alfred_broker": "TOKEN_REFRESH", "alfred_api": "SIGN_IN"]
        let forged = ["alfred_worker": ["SIGN_IN", "DELETE_ALL"], "alfred_broker": ["DELIVERY", "SIGN_IN"],
                      "alfred_api": ["TOKEN_REFRESH", "DELIVERY", "BROKER_DECISION"]]
        for (role, type) in own {
            try await TestDatabase.withClient(connect(url, as: role)) { client in
                try await Self.append(type, about: user, on: client)
                let unchecked = await #expect(throws: PSQLError.self, "\(role) called the unchecked append") {
                    _ = try await client.query("SELECT alfred_audit_write(\(user), 'DELIVERY', NULL, 'SUCCESS', '{}')", logger: logger).collect()
                }
                #expect(unchecked?.serverInfo?[.sqlState] == "42501")
                for type in forged[role]! {
                    let refused = await #expect(throws: PSQLError.self) {
                        try await Self.append(type, about: user, on: client)
                    }
                    #expect(refused?.serverInfo?[.sqlState] == "42501", "\(role) appended \(type)")
                }
            }
        }
        try await TestDatabase.withClient(url) { owner in
            let types = try await owner.query("SELECT event_type FROM audit_events WHERE user_id = \(user) ORDER BY seq", logger: logger)
                .collect().map { try $0.decode(String.self) }
            #expect(types.count == 4 && Set(types) == ["ANY_TYPE", "DELIVERY", "TOKEN_REFRESH", "SIGN_IN"], "\(types)")
        }
    }

    /// Migration 0021: the API enqueues its own kinds and moves the two it reschedules, through the
    /// same store code it runs; it cannot cancel or delay a delete-all, rewrite a payload, or insert
    /// a kind it never enqueues.
    @Test func theAPIEnqueuesItsKindsAndCannotTouchOtherJobs() async throws {
        let url = try await TestDatabase.fresh()
        let logger = TestDatabase.quietLogger
        let user = UUID(uuidString: "00000000-0000-0000-0000-00000000004a")!
        try await TestDatabase.withClient(url) { owner in
            _ = try await owner.query("INSERT INTO users (id) VALUES (\(user))", logger: logger).collect()
        }
        try await TestDatabase.withClient(connect(url, as: "alfred_api")) { api in
            let jobs = PostgresJobStore(client: api, logger: logger)
            let deleteAll = NewJob(kind: JobKind("privacy.delete_all", maxAttempts: 25), uniqueKey: "privacy.delete_all:\(user)", userID: user)
            let hint = NewJob(kind: JobKind("mail.check"), schedule: .now, uniqueKey: "mail.check:\(user)", userID: user)
            // Twice each: the second meets the first (kept, or moved).
            for _ in 0..<2 {
                _ = try await jobs.enqueue([deleteAll], onConflict: .keep)
                _ = try await jobs.enqueue([hint], onConflict: .replaceSchedule)
            }
            for statement: PostgresQuery in [
                "UPDATE jobs SET state = 'cancelled'", "UPDATE jobs SET payload = '\\x00'",
                "INSERT INTO jobs (id, user_id, kind, queue, priority, payload, due_at, max_attempts) VALUES (gen_random_uuid(), \(user), 'meeting.reminder', 'default', 0, '', now(), 1)",
                "UPDATE jobs SET kind = 'meeting.reminder' WHERE kind = 'mail.check'",
            ] {
                let refused = await #expect(throws: PSQLError.self) { _ = try await api.query(statement, logger: logger).collect() }
                #expect(refused?.serverInfo?[.sqlState] == "42501", "\(statement.sql): insufficient_privilege")
            }
            // Rows it may not move are not there for its UPDATE at all.
            let moved = try await api.query("""
                UPDATE jobs SET due_at = now() + interval '400 days' WHERE kind = 'privacy.delete_all' RETURNING id
                """, logger: logger).collect()
            #expect(moved.isEmpty)
        }
        try await TestDatabase.withClient(url) { owner in
            let rows = try await owner.query("""
                SELECT kind, state, due_at < now() + interval '1 day' FROM jobs WHERE user_id = \(user) ORDER BY kind
                """, logger: logger).collect().map { try $0.decode((String, String, Bool).self) }
            #expect(rows.map(\.0) == ["mail.check", "privacy.delete_all"])
            #expect(rows.allSatisfy { $0.1 == "queued" && $0.2 }, "\(rows)")
        }
    }

    /// Export runs as either role (the API's, and the worker's for `alfred privacy export`): both
    /// may read that a watched or relayed mailbox exists, and the export never shows its hash.
    @Test func exportListsWatchedAndRelayedMailboxesAsEitherRoleWithoutTheirHashes() async throws {
        let url = try await TestDatabase.fresh()
        let logger = TestDatabase.quietLogger
        let user = UUID(uuidString: "00000000-0000-0000-0000-00000000001a")!
        try await TestDatabase.withClient(url) { owner in
            _ = try await owner.query("INSERT INTO users (id) VALUES (\(user))", logger: logger).collect()
            _ = try await owner.query("""
                INSERT INTO connectors (id, user_id, provider, scopes, refresh_token_ciphertext, token_key_id, status)
                VALUES ('00000000-0000-0000-0000-00000000001b', \(user), 'google', '{gmail.metadata}', '\\x0102', 'kek-main', 'ACTIVE');
                """, logger: logger).collect()
            _ = try await owner.query("""
                INSERT INTO gmail_watches (connector_id, user_id, address_hash, expires_at)
                VALUES ('00000000-0000-0000-0000-00000000001b', \(user), 'hash-of-the-watched-address', now() + interval '7 days')
                """, logger: logger).collect()
            _ = try await owner.query("INSERT INTO relay_mailboxes (user_id, address_hash) VALUES (\(user), 'hash-of-the-relayed-address')",
                                      logger: logger).collect()
        }
        for role in ["alfred_api", "alfred_worker"] {
            let json = try await TestDatabase.withClient(connect(url, as: role)) { client in
                try await PostgresPrivacyStore(client: client, logger: logger).export(userID: user)
            }
            let export = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
            #expect((export["gmail_watches"] as? [[String: Any]])?.count == 1, "\(role): \(json)")
            #expect((export["relay_mailbox"] as? [String: Any])?["address"] as? String == "kept only as a keyed hash", "\(role)")
            #expect(!json.contains("hash-of-the"), "\(role): \(json)")
        }
    }
}
