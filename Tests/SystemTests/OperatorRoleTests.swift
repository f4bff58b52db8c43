import AlfredCore
import AlfredTestCluster
import Foundation
import PostgresNIO
import Store
import Testing

/// Operators (issue #32, RFC §10): a login role of their own, member of `alfred_operator`, that runs
/// the operator commands, reads nothing sealed and no user table directly, and whose every read of a
/// user's data is appended to the operators' audit chain under the person's role name.
@Suite(.timeLimit(.minutes(10))) struct OperatorRoleTests {
    func alfred(_ arguments: [String], _ url: DatabaseURL) async throws -> (code: Int32, output: String) {
        try await run(AlfredBinary.path, arguments, environment: ["ALFRED_DATABASE_URL": url.secretString.unsafeValue])
    }

    @Test func anOperatorsReadsAreRecordedUnderTheirNameAndSealedColumnsStayClosed() async throws {
        let url = try await TestDatabase.fresh()
        let logger = TestDatabase.quietLogger
        let user = UUID()
        // One person's login role (roles are cluster-wide: a name of its own per run).
        let person = "op_" + UUID().uuidString.prefix(8).lowercased()
        try await TestDatabase.withClient(url) { owner in
            _ = try await owner.query(PostgresQuery(unsafeSQL: "CREATE ROLE \(person) LOGIN IN ROLE alfred_operator"), logger: logger).collect()
            _ = try await owner.query("INSERT INTO users (id) VALUES (\(user))", logger: logger).collect()
            _ = try await owner.query("""
                INSERT INTO devices (id, user_id, device_ref, apns_token_ciphertext, environment, token_key)
                VALUES (gen_random_uuid(), \(user), 'ref', '\\x0102', 'sandbox', '\\x03')
                """, logger: logger).collect()
            _ = try await owner.query("SELECT alfred_audit_append(\(user), 'SIGN_IN', NULL, 'SUCCESS', '{}')", logger: logger).collect()
        }
        var operatorURL = url
        operatorURL.username = person

        let listed = try await alfred(["audit", "list", "--user", user.uuidString], operatorURL)
        #expect(listed.code == 0 && listed.output.contains("SIGN_IN"), "\(listed.output)")
        let exported = try await alfred(["privacy", "export", "--user", user.uuidString], operatorURL)
        #expect(exported.code == 0 && exported.output.contains("\"devices\""), "\(exported.output)")
        let jobs = try await alfred(["jobs", "list"], operatorURL)
        #expect(jobs.code == 0, "\(jobs.output)")
        // The steering commands run as the operator too.
        let enqueued = try await alfred(["jobs", "enqueue", "--due-in", "3600"], operatorURL)
        #expect(enqueued.code == 0, "\(enqueued.output)")
        let jobID = try #require(enqueued.output.firstMatch(of: /[0-9a-fA-F-]{36}/).map { String($0.output) }, "\(enqueued.output)")
        for arguments in [["jobs", "cancel", jobID], ["jobs", "retry", jobID], ["jobs", "pause", "default", "--reason", "drill"],
                          ["jobs", "resume", "default"], ["jobs", "stats"], ["signups", "show"],
                          ["signups", "policy", "--mode", "invite", "--cap", "50"]] {
            let result = try await alfred(arguments, operatorURL)
            #expect(result.code == 0, "\(arguments): \(result.output)")
        }
        let deleteAll = try await alfred(["privacy", "delete-all", "--user", user.uuidString], operatorURL)
        let requestID = try #require(deleteAll.output.firstMatch(of: /request_id: ([0-9a-f-]{36})/).map { String($0.output.1) },
                                     "\(deleteAll.output)")
        let status = try await alfred(["privacy", "status", requestID], operatorURL)
        #expect(status.code == 0, "\(status.output)")
        // What the role may not do is said so, with the role and the server's reason.
        let prune = try await alfred(["audit", "prune", "--older-than-days", "400"], operatorURL)
        #expect(prune.code != 0 && prune.output.contains("the database role \(person) may not do this")
                && prune.output.contains("alfred_audit_prune"), "\(prune.output)")

        // Around the functions, nothing: sealed columns and the tables that describe a user.
        try await TestDatabase.withClient(operatorURL) { client in
            for statement in ["SELECT * FROM audit_events", "SELECT apns_token_ciphertext FROM devices", "SELECT payload FROM jobs",
                              "SELECT urgency_ciphertext FROM preferences", "SELECT refresh_token_ciphertext FROM connectors",
                              "SELECT * FROM notifications", "SELECT * FROM users",
                              "SELECT alfred_audit_append('\(user)', 'OPERATOR_READ', NULL, 'SUCCESS', '{}')"] {
                let refused = await #expect(throws: PSQLError.self, "\(statement)") {
                    _ = try await client.query(PostgresQuery(unsafeSQL: statement), logger: logger).collect()
                }
                #expect(refused?.serverInfo?[.sqlState] == "42501", "\(statement): \(refused?.serverInfo?[.message] ?? "")")
            }
        }

        // The operators' chain (user 0) holds one record per read, naming the person and the subject.
        try await TestDatabase.withClient(url) { owner in
            let rows = try await owner.query("""
                SELECT redacted_metadata->>'command', redacted_metadata->>'operator', redacted_metadata->>'subject'
                FROM audit_events WHERE user_id = '00000000-0000-0000-0000-000000000000' AND event_type = 'OPERATOR_READ' ORDER BY seq
                """, logger: logger).collect().map { try $0.decode((String, String, String?).self) }
            #expect(rows.map(\.0) == ["audit.read", "privacy.export", "jobs.list"], "\(rows)")
            #expect(rows.allSatisfy { $0.1 == person }, "\(rows)")
            #expect(rows.prefix(2).allSatisfy { $0.2 == user.uuidString.lowercased() } && rows[2].2 == nil, "\(rows)")
            // The chain still verifies, and the same reads by the owner (break-glass) record nothing here.
            _ = try await owner.query("SELECT alfred_export(\(user))", logger: logger).collect()
            let count = try await owner.query("""
                SELECT count(*)::int FROM audit_events
                WHERE user_id = '00000000-0000-0000-0000-000000000000' AND event_type = 'OPERATOR_READ'
                """, logger: logger).collect().first?.decode(Int.self)
            #expect(count == 3)
        }
        let verified = try await alfred(["audit", "verify", "--user", "00000000-0000-0000-0000-000000000000"], url)
        #expect(verified.code == 0, "\(verified.output)")
    }
}
