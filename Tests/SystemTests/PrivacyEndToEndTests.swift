import AlfredCore
import AlfredTestCluster
import Foundation
import NIOCore
import PostgresNIO
@testable import Privacy
import StandIns
import Store
import Testing
@testable import BrokerClient
import Attestation
import KeyServiceClient
import LocalIPC
import TokenBroker
#if canImport(Glibc)
import Glibc
#endif

/// Delete-all end to end: the real broker and key service, the Google stand-in, real `alfred worker`
/// processes (role `alfred_worker`) and the operator's `alfred privacy …` commands.
@Suite(.timeLimit(.minutes(10))) struct PrivacyEndToEndTests {
    static let revokePath = OAuthEndpoints.revokePath

    func worker(_ w: BrokerWorld.Running) throws -> ChildProcess {
        var url = w.world.ownerURL
        url.username = "alfred_worker"
        return try ChildProcess(AlfredBinary.path, [
            "worker", "--queue", "default", "--broker-socket", w.world.brokerSocket, "--lease-seconds", "2",
            "--rescue-seconds", "1", "--poll-seconds", "1", "--no-metrics",
        ], environment: ["ALFRED_DATABASE_URL": url.secretString.unsafeValue, "ALFRED_LOG_LEVEL": "info"])
    }

    func alfred(_ w: BrokerWorld.Running, _ arguments: [String]) async throws -> (code: Int32, output: String) {
        try await run(AlfredBinary.path, arguments, environment: ["ALFRED_DATABASE_URL": w.world.ownerURL.secretString.unsafeValue])
    }

    func owner<T: Sendable>(_ w: BrokerWorld.Running, _ body: @Sendable (PostgresClient) async throws -> T) async throws -> T {
        try await TestDatabase.withClient(w.world.ownerURL, body)
    }

    /// Rows of every kind a user accumulates, written as the services would (sealed values are opaque
    /// bytes here). `unique_key` spells the user id, as some job keys do.
    static func seedRows(_ client: PostgresClient, user: UUID, connector: UUID) async throws {
        let device = UUID(), key = "reminder:\(UUID().uuidString.lowercased())"
        let statements: [PostgresQuery] = [
            "INSERT INTO users (id) VALUES (\(user)) ON CONFLICT DO NOTHING",
            "INSERT INTO preferences (user_id, time_zone) VALUES (\(user), 'Europe/Berlin')",
            "INSERT INTO devices (id, user_id, apns_token_ciphertext, environment, token_key) VALUES (\(device), \(user), '\\x0102', 'sandbox', \(UUID().uuidString))",
            "INSERT INTO sync_cursors (connector_id, user_id, kind, state_ciphertext) VALUES (\(connector), \(user), 'calendar', '\\x03')",
            "INSERT INTO notifications (idempotency_key, user_id, kind, state) VALUES (\(key), \(user), 'meeting.reminder', 'delivered')",
            "INSERT INTO push_sends (idempotency_key, device_id, user_id, state, apns_id) VALUES (\(key), \(device), \(user), 'accepted', \(UUID()))",
            "INSERT INTO mail_alerts (user_id, message_key, message_ciphertext, disposition, score) VALUES (\(user), 'mk', '\\x04', 'alerted', 90)",
            "INSERT INTO jobs (id, user_id, kind, due_at, max_attempts, unique_key) VALUES (\(UUID()), \(user), 'mail.check', now() + interval '1 hour', 5, \("mail.check:" + user.uuidString.lowercased()))",
            // A job some worker is running right now (its lease is someone else's).
            """
            INSERT INTO jobs (id, user_id, kind, state, due_at, max_attempts, attempts, lease_owner, lease_token, leased_until)
            VALUES (\(UUID()), \(user), 'calendar.sync', 'running', now(), 5, 1, 'elsewhere', \(UUID()), now() + interval '1 hour')
            """,
        ]
        for statement in statements { _ = try await client.query(statement, logger: TestDatabase.quietLogger).collect() }
    }

    static func requestID(in output: String) -> String? {
        output.firstMatch(of: /request_id: ([0-9a-f-]{36})/).map { String($0.1) }
    }

    func revokeCalls(_ w: BrokerWorld.Running) -> [RecordedRequest] {
        w.google.recordedRequests().filter { $0.path == Self.revokePath && $0.method == "POST" }
    }

    /// The world's user, connected to Google once and with rows of every kind.
    func connectAndSeed(_ w: BrokerWorld.Running) async throws {
        let connector = try await w.connect()
        try await owner(w) { try await Self.seedRows($0, user: w.world.userID, connector: connector) }
    }

    /// Google answers every revocation 503 until the returned fault is removed.
    func revokeOutage(_ w: BrokerWorld.Running) throws -> String {
        try w.google.injectFault(FaultRule(match: .init(method: "POST", path: Self.revokePath), response: .unavailable(), times: nil))
    }

    /// Google holds the first revocation for `delay`; returns the fault's id (see `untilHeldAtGoogle`).
    @discardableResult
    func holdFirstRevocation(_ w: BrokerWorld.Running, for delay: Int) throws -> String {
        try w.google.injectFault(FaultRule(match: .init(method: "POST", path: Self.revokePath), response: nil,
                                           delayMilliseconds: delay, times: 1))
    }

    /// Returns once the revocation held by `fault` has reached Google (the rule is used up as it
    /// arrives; Google records the request only when it answers).
    func untilHeldAtGoogle(_ w: BrokerWorld.Running, fault: String, worker: ChildProcess) async throws {
        try #require(try await eventually { !w.google.activeFaultIDs().contains(fault) }, "\(worker.output)")
        #expect(revokeCalls(w).isEmpty, "held, not yet answered")
    }

    /// Polls the request as `alfred privacy status` shows it, read straight from the database (polling
    /// the CLI would start a debug binary per poll), until `condition` holds. A database that is not
    /// back yet counts as "not yet".
    func requestEventually(_ w: BrokerWorld.Running, _ request: String, timeout: Duration = .seconds(60),
                           _ condition: @escaping @Sendable (PrivacyRequest) -> Bool) async throws -> Bool {
        let id = try #require(UUID(uuidString: request))
        return try await owner(w) { client in
            let store = PostgresPrivacyStore(client: client, logger: TestDatabase.quietLogger)
            return try await eventually(timeout: timeout) {
                guard let current = try? await store.request(id) else { return false }
                return condition(current)
            }
        }
    }

    /// Queues a delete-all for the world's user and returns its request id once `worker` is running it.
    func deleteAllUntilRunning(_ w: BrokerWorld.Running, worker: ChildProcess) async throws -> String {
        let queued = try await alfred(w, ["privacy", "delete-all", "--user", w.world.userID.uuidString])
        let request = try #require(Self.requestID(in: queued.output), "\(queued.output)")
        #expect(try await requestEventually(w, request) { $0.state == .running }, "\(worker.output)")
        return request
    }

    /// What a finished delete-all leaves: the final audit record alone, on a chain that verifies, and
    /// every grant of the user dead at Google.
    func expectOnlyTheFinalRecordAndRevokedGrants(_ w: BrokerWorld.Running) async throws {
        #expect(try await owner(w) { try await userReferences(to: w.world.userID, in: $0) } == ["audit_events.user_id": 1])
        for refresh in w.google.issuedRefreshTokens(subject: BrokerWorld.subject) {
            #expect(!w.google.revokeRefreshToken(refresh), "revoked at Google")
        }
        let verified = try await alfred(w, ["audit", "verify", "--user", w.world.userID.uuidString])
        #expect(verified.code == 0 && verified.output.contains("intact: 1 event(s)"), "\(verified.output)")
    }

    @Test func deleteAllRevokesAtGoogleAndLeavesOnlyTheFinalAuditRecord() async throws {
        let world = try await BrokerWorld.make()
        defer { world.remove() }
        try await world.run { w in
            let first = try await w.connect(), second = try await w.connect()
            // A forced refresh within 5 s of the last mint reuses it (AccessTokenCache): move the broker's clock past that.
            w.world.clock.advance(by: .seconds(6))
            let token = try await w.broker.accessToken(connectorID: first.uuidString, forceRefresh: true)
            let other = UUID(), otherConnector = UUID()
            try await owner(w) { client in
                try await Self.seedRows(client, user: w.world.userID, connector: first)
                _ = try await client.query("INSERT INTO users (id) VALUES (\(other))", logger: TestDatabase.quietLogger).collect()
                _ = try await client.query("""
                    INSERT INTO connectors (id, user_id, provider, scopes, refresh_token_ciphertext, token_key_id, status)
                    VALUES (\(otherConnector), \(other), 'google', '{}', '\\x01', 'kek-main', 'ACTIVE')
                    """, logger: TestDatabase.quietLogger).collect()
                try await Self.seedRows(client, user: other, connector: otherConnector)
            }
            // The trail so far holds no token, address or Google account id.
            let secrets = [token.token.unsafeValue, "ada@example.com", BrokerWorld.subject] + w.google.issuedRefreshTokens(subject: BrokerWorld.subject)
            let trail = try await owner(w) { client in
                // Routine successes (the refresh, the broker's decision) are tallied and folded daily: fold them now.
                _ = try await PostgresAuditStore(client: client, logger: TestDatabase.quietLogger).fold(before: .distantFuture, limit: 1000)
                return try await client.query("SELECT event_type || ' ' || coalesce(connector, '') || ' ' || result || ' ' || redacted_metadata::text FROM audit_events",
                                       logger: TestDatabase.quietLogger).collect().map { try $0.decode(String.self) }
            }
            #expect(trail.contains { $0.hasPrefix("CONNECT google SUCCESS") } && trail.contains { $0.hasPrefix("TOKEN_REFRESH google SUCCESS") }
                    && trail.contains { $0.hasPrefix("BROKER_DECISION google PERMITTED") }, "\(trail)")
            for secret in secrets { #expect(!trail.joined().contains(secret)) }
            let otherBefore = try await owner(w) { try await userReferences(to: other, in: $0) }

            let worker = try worker(w)
            defer { worker.signal(SIGKILL) }
            let deleted = try await alfred(w, ["privacy", "delete-all", "--user", w.world.userID.uuidString, "--wait", "--timeout", "60"])
            #expect(deleted.code == 0, "\(deleted.output)\n\(worker.output)")
            #expect(deleted.output.contains("state: COMPLETED") && deleted.output.contains("outcome: DELETED"), "\(deleted.output)")
            #expect(deleted.output.contains("connectors_revoked: 2") && deleted.output.contains("revocations_pending: 0"), "\(deleted.output)")
            // How long it took is reported (the benchmark judges it, not this test).
            #expect(deleted.output.firstMatch(of: /duration_seconds: [0-9.]+/) != nil, "\(deleted.output)")

            // Google saw one revocation per connector, and both grants are dead.
            #expect(revokeCalls(w).map(\.status) == [200, 200])
            for refresh in w.google.issuedRefreshTokens(subject: BrokerWorld.subject) {
                #expect(!w.google.revokeRefreshToken(refresh), "already revoked")
            }
            // Nothing anywhere holds the user's id but the one final audit record; the other user is untouched.
            let left = try await owner(w) { try await userReferences(to: w.world.userID, in: $0) }
            #expect(left == ["audit_events.user_id": 1], "\(left)")
            #expect(try await owner(w) { try await userReferences(to: other, in: $0) } == otherBefore)
            let final = try await owner(w) { client in
                try await client.query("SELECT event_type, result, redacted_metadata::text, seq FROM audit_events WHERE user_id = \(w.world.userID)",
                                       logger: TestDatabase.quietLogger).collect().map { try $0.decode((String, String, String, Int64).self) }
            }
            #expect(final.count == 1 && final[0].0 == "DELETE_ALL" && final[0].1 == "SUCCESS", "\(final)")
            #expect(final[0].2.contains("\"connectors_revoked\": 2") && final[0].3 > 1, "continues the erased chain: \(final)")
            let verified = try await alfred(w, ["audit", "verify", "--user", w.world.userID.uuidString])
            #expect(verified.code == 0 && verified.output.contains("intact: 1 event(s)"), "\(verified.output)")
            // A worker still asking for the user's token gets nothing: the connector no longer exists.
            let gone = await #expect(throws: BrokerError.self) { _ = try await w.broker.accessToken(connectorID: first.uuidString) }
            #expect(gone?.code == .notFound && gone?.retryable == false, "\(String(describing: gone))")

            // Again, for the same user: nothing left to delete, nothing more written, no call to Google.
            let again = try await alfred(w, ["privacy", "delete-all", "--user", w.world.userID.uuidString, "--wait", "--timeout", "60"])
            #expect(again.output.contains("outcome: NOTHING_TO_DELETE"), "\(again.output)")
            #expect(try await owner(w) { try await userReferences(to: w.world.userID, in: $0) } == ["audit_events.user_id": 1])
            #expect(revokeCalls(w).count == 2)
            // And the first request's status is unchanged.
            let status = try await alfred(w, ["privacy", "status", try #require(Self.requestID(in: deleted.output)), "--json"])
            let json = try #require(try JSONSerialization.jsonObject(with: Data(status.output.utf8)) as? [String: Any])
            #expect(json["state"] as? String == "COMPLETED" && json["connectors_revoked"] as? Int == 2, "\(status.output)")
            #expect(json["user_id"] == nil)
            _ = second
        }
    }

    @Test func aWorkerKilledInTheMiddleOfDeleteAllIsReplacedAndTheOutcomeIsTheSame() async throws {
        let world = try await BrokerWorld.make()
        defer { world.remove() }
        try await world.run { w in
            try await connectAndSeed(w)
            // Google takes 30 s to answer the first revocation: the worker is killed once it is there.
            let held = try holdFirstRevocation(w, for: 30_000)
            let doomed = try worker(w)
            let request = try await deleteAllUntilRunning(w, worker: doomed)
            try await untilHeldAtGoogle(w, fault: held, worker: doomed)
            doomed.signal(SIGKILL)
            _ = await doomed.exitCode()
            #expect(try await owner(w) { try await userReferences(to: w.world.userID, in: $0) }["users.id"] == 1, "nothing deleted yet")

            // The operator repeats the command: same request; a new worker rescues the job and finishes it.
            let rescuer = try worker(w)
            defer { rescuer.signal(SIGKILL) }
            let waited = try await alfred(w, ["privacy", "delete-all", "--user", w.world.userID.uuidString, "--wait", "--timeout", "60"])
            #expect(waited.output.contains("request_id: \(request) (already open for this user)"), "\(waited.output)")
            #expect(waited.output.contains("outcome: DELETED") && waited.output.contains("revocations_pending: 0"),
                    "\(waited.output)\n\(rescuer.output)")
            try await expectOnlyTheFinalRecordAndRevokedGrants(w)
        }
    }

    /// The user finishes connecting Google while delete-all is revoking the grants it listed: the new
    /// connector was not in its list, but it is parked as its user is deleted and revoked at Google
    /// like the others (before migration 0008 it was deleted with the user and its grant lived on).
    @Test func aConnectorCreatedDuringDeleteAllIsRevokedAtGoogleToo() async throws {
        let world = try await BrokerWorld.make()
        defer { world.remove() }
        try await world.run { w in
            try await connectAndSeed(w)
            let held = try holdFirstRevocation(w, for: 5_000)
            let worker = try worker(w)
            defer { worker.signal(SIGKILL) }
            let request = try await deleteAllUntilRunning(w, worker: worker)
            try await untilHeldAtGoogle(w, fault: held, worker: worker)
            // Listed already; this one is new.
            let late = try await w.connect()
            #expect(try await requestEventually(w, request) { $0.outcome == .deleted }, "\(worker.output)")
            // Parked by the deletion itself, then revoked by its privacy.revoke job.
            #expect(try await requestEventually(w, request) { $0.revocationsPending == 0 }, "\(worker.output)")
            #expect(revokeCalls(w).filter { $0.status == 200 }.count == 2, "the listed grant and the late one")
            #expect(try await owner(w) { client in
                try await client.query("SELECT count(*)::int FROM connector_revocations WHERE connector_id = \(late)",
                                       logger: TestDatabase.quietLogger).collect().first?.decode(Int.self)
            } == 0, "settled once Google confirmed")
            try await expectOnlyTheFinalRecordAndRevokedGrants(w)
        }
    }

    /// Postgres is down while a delete-all's revocation is at Google, from before Google answers until
    /// after: the broker cannot record Google's answer, the worker cannot heartbeat, and after the
    /// restart the deletion ends as it would have.
    @Test func postgresRestartingInTheMiddleOfDeleteAllChangesNothingInTheOutcome() async throws {
        // Its own cluster, shut down and removed without blocking a thread however the test ends.
        try await EmbeddedPostgres.with(options: .init(durable: false)) { cluster in
            let database = try await cluster.createDatabase("privacy_restart", logger: TestDatabase.quietLogger)
            try await TestDatabase.migrate(database, logger: TestDatabase.quietLogger)
            let world = try await BrokerWorld.make(database: database)
            defer { world.remove() }
            try await world.run { w in
                try await connectAndSeed(w)
                // Google answers the first revocation 6 s after it arrives (within the broker's 10 s
                // timeout); Postgres goes down once it is there and comes back once Google has answered.
                let held = try holdFirstRevocation(w, for: 6_000)
                let worker = try worker(w)
                defer { worker.signal(SIGKILL) }
                let request = try await deleteAllUntilRunning(w, worker: worker)
                try await untilHeldAtGoogle(w, fault: held, worker: worker)
                try await cluster.stopServer()
                #expect(revokeCalls(w).isEmpty, "Postgres was down before Google answered")
                #expect(try await eventually { !revokeCalls(w).isEmpty }, "Google answered the held revocation")
                try await cluster.startServer()

                #expect(try await requestEventually(w, request, timeout: .seconds(90)) {
                    $0.outcome == .deleted && $0.revocationsPending == 0
                }, "\(worker.output.suffix(3000))")
                let status = try await alfred(w, ["privacy", "status", request]).output
                #expect(status.contains("outcome: DELETED") && status.contains("revocations_pending: 0"), "\(status)")
                try await expectOnlyTheFinalRecordAndRevokedGrants(w)
            }
        }
    }

    @Test func whenGoogleKeepsRefusingTheDataIsDeletedAnywayAndTheRevocationIsRetriedLater() async throws {
        let world = try await BrokerWorld.make()
        defer { world.remove() }
        try await world.run { w in
            try await connectAndSeed(w)
            let outage = try revokeOutage(w)
            let worker = try worker(w)
            defer { worker.signal(SIGKILL) }
            let deleted = try await alfred(w, ["privacy", "delete-all", "--user", w.world.userID.uuidString, "--wait", "--timeout", "60"])
            #expect(deleted.output.contains("outcome: DELETED") && deleted.output.contains("connectors_revoked: 0"), "\(deleted.output)")
            #expect(deleted.output.contains("revocations_pending: 1"), "\(deleted.output)")
            #expect(revokeCalls(w).count >= 3 && revokeCalls(w).allSatisfy { $0.status == 503 })
            // Everything is gone but the final record and what the revocation needs (the sealed token).
            let left = try await owner(w) { try await userReferences(to: w.world.userID, in: $0) }
            #expect(left == ["audit_events.user_id": 1, "connector_revocations.user_id": 1], "\(left)")
            let result = try await owner(w) { client in
                try await client.query("SELECT result FROM audit_events WHERE user_id = \(w.world.userID)", logger: TestDatabase.quietLogger)
                    .collect().first?.decode(String.self)
            }
            #expect(result == "REVOCATION_PENDING")

            // Google is back; the operator runs the pending revocation now instead of waiting for its backoff.
            _ = w.google.removeFault(id: outage)
            let retried = try await alfred(w, ["privacy", "retry-revocations"])
            #expect(retried.code == 0 && retried.output.contains("1 revocation(s) queued"), "\(retried.output)")
            let request = try #require(Self.requestID(in: deleted.output))
            #expect(try await requestEventually(w, request) { $0.revocationsPending == 0 }, "\(worker.output)")
            let status = try await alfred(w, ["privacy", "status", request]).output
            #expect(status.contains("revocations_pending: 0"), "\(status)")
            #expect(revokeCalls(w).last?.status == 200)
            #expect(try await owner(w) { try await userReferences(to: w.world.userID, in: $0) } == ["audit_events.user_id": 1])
        }
    }

    /// A parked revocation whose retry job ran out of attempts (Google refused for over a week) is
    /// not forgotten: the next worker to start (and every worker daily) gives it a new job.
    @Test func aRevocationWhoseRetriesRanOutStartsAgainWithoutAnOperator() async throws {
        let world = try await BrokerWorld.make()
        defer { world.remove() }
        try await world.run { w in
            try await connectAndSeed(w)
            let outage = try revokeOutage(w)
            let first = try worker(w)
            defer { first.signal(SIGKILL) }
            let deleted = try await alfred(w, ["privacy", "delete-all", "--user", w.world.userID.uuidString, "--wait", "--timeout", "60"])
            #expect(deleted.output.contains("revocations_pending: 1"), "\(deleted.output)")
            let request = try #require(Self.requestID(in: deleted.output))
            first.signal(SIGKILL)
            _ = await first.exitCode()
            // Its retries ran out while Google was down.
            try await owner(w) { client in
                _ = try await client.query("""
                    UPDATE jobs SET state = 'discarded', finished_at = now(), lease_owner = NULL, lease_token = NULL,
                           leased_until = NULL, last_error = 'revocation still failing (upstream_unavailable)'
                    WHERE kind = 'privacy.revoke'
                    """, logger: TestDatabase.quietLogger).collect()
            }
            _ = w.google.removeFault(id: outage)
            let next = try worker(w)
            defer { next.signal(SIGKILL) }
            #expect(try await requestEventually(w, request) { $0.revocationsPending == 0 }, "\(next.output)")
            let status = try await alfred(w, ["privacy", "status", request]).output
            #expect(status.contains("revocations_pending: 0"), "\(status)")
            #expect(revokeCalls(w).last?.status == 200)
            #expect(try await owner(w) { try await userReferences(to: w.world.userID, in: $0) } == ["audit_events.user_id": 1])
        }
    }

    @Test func parkedRevocationsAreRetriedForAboutAWeek() {
        let delays = (1...PrivacyKind.revoke.maxAttempts).map { RevokeParkedHandler.delay(attempt: $0) }
        #expect(Array(delays.prefix(4)) == [.seconds(60), .seconds(120), .seconds(240), .seconds(480)])
        #expect(delays.max() == .seconds(6 * 3600))
        let total = delays.dropLast().reduce(Duration.zero, +)
        #expect(total > .seconds(6 * 86_400) && total < .seconds(9 * 86_400), "\(total)")
    }
}
