import AlfredCore
import AlfredTestCluster
import Foundation
import PostgresNIO
import Store
import Testing

/// The audit trail as an operator sees it: `alfred audit list|verify|prune` on a real database, events
/// appended by the worker's role, and rows tampered with by someone holding the owner's role.
@Suite(.timeLimit(.minutes(10))) struct AuditCLITests {
    func alfred(_ arguments: [String], _ url: DatabaseURL) async throws -> (code: Int32, output: String) {
        try await run(AlfredBinary.path, arguments, environment: ["ALFRED_DATABASE_URL": url.secretString.unsafeValue])
    }

    /// A fresh database with one user and `count` events appended as `alfred_worker`.
    func trail(_ count: Int) async throws -> (url: DatabaseURL, user: UUID) {
        let url = try await TestDatabase.fresh()
        let user = UUID()
        try await TestDatabase.withClient(url) { owner in
            _ = try await owner.query("INSERT INTO users (id) VALUES (\(user))", logger: TestDatabase.quietLogger).collect()
        }
        var worker = url
        worker.username = "alfred_worker"
        try await TestDatabase.withClient(worker) { client in
            let store = PostgresAuditStore(client: client, logger: TestDatabase.quietLogger)
            for n in 1...count {
                try await store.record(AuditEvent(userID: user, type: "CONNECTOR_FETCH", result: "SUCCESS",
                                                  metadata: ["source": n % 2 == 0 ? "gmail" : "calendar", "items": "\(n)"]))
            }
        }
        return (url, user)
    }

    func sql(_ url: DatabaseURL, _ text: String) async throws {
        try await TestDatabase.withClient(url) { owner in
            _ = try await owner.query(PostgresQuery(unsafeSQL: text), logger: TestDatabase.quietLogger).collect()
        }
    }

    @Test func verifyPassesOnAnIntactChainAndNamesTheEventWhoseByteWasChanged() async throws {
        let (url, user) = try await trail(5)
        let intact = try await alfred(["audit", "verify", "--user", user.uuidString], url)
        #expect(intact.code == 0, "\(intact.output)")
        #expect(intact.output.contains("audit chain intact: 5 event(s), seq 1–5"), "\(intact.output)")

        // One byte of one row's metadata: "calendar" becomes "calendas".
        try await sql(url, """
            UPDATE audit_events SET redacted_metadata = jsonb_set(redacted_metadata, '{source}', '"calendas"')
            WHERE user_id = '\(user)' AND seq = 3
            """)
        let tampered = try await alfred(["audit", "verify", "--user", user.uuidString], url)
        #expect(tampered.code == 1)
        #expect(tampered.output.contains("audit chain BROKEN: seq 3 was altered"), "\(tampered.output)")
    }

    @Test(arguments: [
        ("one bit of a stored hash", "UPDATE audit_events SET hash = set_byte(hash, 0, get_byte(hash, 0) # 1) WHERE user_id = '$U' AND seq = 2", "seq 2"),
        ("the result text", "UPDATE audit_events SET result = 'SUCCESZ' WHERE user_id = '$U' AND seq = 4", "seq 4 was altered"),
        ("a row in the middle removed", "DELETE FROM audit_events WHERE user_id = '$U' AND seq = 3", "seq 3–3 missing"),
        ("the newest row removed", "DELETE FROM audit_events WHERE user_id = '$U' AND seq = 5", "events after seq 4 are missing"),
        ("a row rewritten with a recomputed hash", """
            UPDATE audit_events SET result = 'FAILURE',
                   hash = alfred_audit_hash(prev_hash, id, user_id, seq, event_type, connector, 'FAILURE', redacted_metadata, created_at)
            WHERE user_id = '$U' AND seq = 2
            """, "seq 3 does not link"),
    ])
    func verifyDetectsEachKindOfTampering(_ what: String, _ statement: String, _ expected: String) async throws {
        let (url, user) = try await trail(5)
        try await sql(url, statement.replacingOccurrences(of: "$U", with: user.uuidString.lowercased()))
        let result = try await alfred(["audit", "verify", "--user", user.uuidString], url)
        #expect(result.code == 1, "\(what): \(result.output)")
        #expect(result.output.contains(expected), "\(what): \(result.output)")
    }

    @Test func listPagesThroughTheTrailWithACursorInTheRFCShape() async throws {
        let (url, user) = try await trail(5)
        var cursor: String?
        var seqs: [Int] = []
        var pages = 0
        repeat {
            let page = try await alfred(["audit", "list", "--user", user.uuidString, "--limit", "2"] + (cursor.map { ["--cursor", $0] } ?? []), url)
            #expect(page.code == 0, "\(page.output)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(page.output.utf8)) as? [String: Any])
            let items = try #require(json["items"] as? [[String: Any]])
            for item in items {
                #expect(Set(item.keys) == ["id", "seq", "timestamp", "event_type", "connector", "result", "metadata"])
                #expect((item["id"] as? String)?.hasPrefix("ae_") == true)
                #expect(item["event_type"] as? String == "CONNECTOR_FETCH")
                #expect(item["connector"] as? String == "google")
                seqs.append(item["seq"] as! Int)
            }
            cursor = json["next_cursor"] as? String
            pages += 1
        } while cursor != nil && pages < 10
        #expect(seqs == [1, 2, 3, 4, 5])
        #expect(pages == 3)

        let bad = try await alfred(["audit", "list", "--user", user.uuidString, "--cursor", "not-a-cursor"], url)
        #expect(bad.code != 0)
        #expect(bad.output.contains("the cursor is not one this command returned"), "\(bad.output)")
    }

    @Test func pruningKeepsTheRestVerifiableAndATamperedRestStillFails() async throws {
        let (url, user) = try await trail(5)
        // Make the first three events old (created_at is hashed, so re-hash them the way the writer would).
        try await sql(url, """
            DO $$
            DECLARE r record; v_prev bytea := '\\x0000000000000000000000000000000000000000000000000000000000000000';
            BEGIN
                FOR r IN SELECT * FROM audit_events WHERE user_id = '\(user)' ORDER BY seq LOOP
                    UPDATE audit_events SET prev_hash = v_prev,
                        created_at = CASE WHEN r.seq <= 3 THEN now() - interval '500 days' ELSE r.created_at END
                    WHERE id = r.id;
                    UPDATE audit_events SET hash = alfred_audit_hash(prev_hash, id, user_id, seq, event_type, connector, result,
                                                                     redacted_metadata, created_at)
                    WHERE id = r.id RETURNING hash INTO v_prev;
                END LOOP;
                UPDATE audit_heads SET hash = v_prev WHERE user_id = '\(user)';
            END $$
            """)
        #expect(try await alfred(["audit", "verify", "--user", user.uuidString], url).code == 0)

        let pruned = try await alfred(["audit", "prune", "--older-than-days", "400"], url)
        #expect(pruned.code == 0 && pruned.output.contains("pruned 3 audit event(s)"), "\(pruned.output)")
        let verified = try await alfred(["audit", "verify", "--user", user.uuidString], url)
        #expect(verified.code == 0, "\(verified.output)")
        #expect(verified.output.contains("2 event(s), seq 4–5, anchored after seq 3"), "\(verified.output)")
        // Recent history cannot be pruned, whatever the caller asks.
        #expect(try await alfred(["audit", "prune", "--older-than-days", "1"], url).code != 0)
        try await TestDatabase.withClient(url) { owner in
            let removed = try await owner.query("SELECT alfred_audit_prune(now() + interval '1 day', 100)", logger: TestDatabase.quietLogger)
                .collect().first?.decode(Int64.self)
            #expect(removed == 0)
        }

        // The anchor is checked: the oldest kept event must link to it.
        try await sql(url, "UPDATE audit_events SET prev_hash = set_byte(prev_hash, 5, 7) WHERE user_id = '\(user)' AND seq = 4")
        let broken = try await alfred(["audit", "verify", "--user", user.uuidString], url)
        #expect(broken.code == 1 && broken.output.contains("seq 4 does not link"), "\(broken.output)")
    }

    @Test func appRolesCanOnlyAppendAndNothingIsWrittenForAUserWhoDoesNotExist() async throws {
        let (url, user) = try await trail(1)
        for role in ["alfred_worker", "alfred_broker"] {
            var roleURL = url
            roleURL.username = role
            try await TestDatabase.withClient(roleURL) { client in
                for statement in ["UPDATE audit_events SET result = 'X'", "DELETE FROM audit_events",
                                  "INSERT INTO audit_events (id, user_id, event_type, result, seq, prev_hash, hash) VALUES (gen_random_uuid(), '\(user)', 'X', 'X', 9, '', '')"] {
                    // Refused for lack of privilege (SQLSTATE 42501), not for some other reason.
                    let error = await #expect(throws: PSQLError.self, "\(role): \(statement)") {
                        _ = try await client.query(PostgresQuery(unsafeSQL: statement), logger: TestDatabase.quietLogger).collect()
                    }
                    #expect(error?.serverInfo?[.sqlState] == "42501",
                            "\(role): \(statement): \(error?.serverInfo?[.message] ?? String(reflecting: error))")
                }
                // A user deleted meanwhile (or never created): the append writes nothing.
                // (Each role with an event type of its own: migration 0021.)
                try await PostgresAuditStore(client: client, logger: TestDatabase.quietLogger)
                    .record(AuditEvent(userID: UUID(), type: role == "alfred_worker" ? "DELIVERY" : "TOKEN_REFRESH", result: "DELIVERED"))
            }
        }
        try await TestDatabase.withClient(url) { owner in
            let count = try await owner.query("SELECT count(*)::int8 FROM audit_events", logger: TestDatabase.quietLogger)
                .collect().first?.decode(Int64.self)
            #expect(count == 1)
        }
    }

    @Test func aPausedQueueIsNotClaimedFromUntilResumed() async throws {
        let url = try await TestDatabase.fresh()
        let paused = try await alfred(["jobs", "pause", "default", "--reason", "migration window"], url)
        #expect(paused.code == 0 && paused.output.contains("queue default paused"), "\(paused.output)")
        #expect(try await alfred(["jobs", "enqueue", "--kind", "noop"], url).code == 0)
        let stats = try await alfred(["jobs", "stats"], url)
        #expect(stats.output.contains("queue default is PAUSED since"), "\(stats.output)")
        #expect(stats.output.contains("migration window"))
        var worker = url
        worker.username = "alfred_worker"
        try await TestDatabase.withClient(worker) { client in
            let store = PostgresJobStore(client: client, logger: TestDatabase.quietLogger)
            let claimed = try await store.claim(queue: "default", limit: 10, owner: "t", lease: .seconds(30))
            #expect(claimed.isEmpty)
            let due = try await store.secondsUntilNextDue(queue: "default")
            #expect(due == nil, "a paused queue sets no due-time timer")
            // What the workers' gauges export (alfred_queue_paused), which the backlog alerts ignore.
            let ready = try #require(try await store.ready().first { $0.queue == "default" })
            #expect(ready.paused && ready.depth == 1)
        }
        let resumed = try await alfred(["jobs", "resume", "default"], url)
        #expect(resumed.code == 0 && resumed.output.contains("queue default resumed"), "\(resumed.output)")
        #expect(try await alfred(["jobs", "resume", "default"], url).output.contains("was not paused"))
        try await TestDatabase.withClient(worker) { client in
            let store = PostgresJobStore(client: client, logger: TestDatabase.quietLogger)
            #expect(try await store.ready().first { $0.queue == "default" }?.paused == false)
            let claimed = try await store.claim(queue: "default", limit: 10, owner: "t", lease: .seconds(30))
            #expect(claimed.count == 1)
        }
    }
}
