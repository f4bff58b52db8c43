import AlfredCore
import AlfredTestCluster
@testable import API
import Foundation
import PostgresNIO
import StandIns
import Testing

/// Google connect through the API (RFC §7.3), end to end over HTTP: the API, the token broker on its
/// socket, the key service, and the Google stand-in playing consent page and token endpoint.
@Suite(.timeLimit(.minutes(5))) struct ConnectTests {
    static let scopes = GoogleScope.required

    /// Start, consent at Google, callback: as the iOS app does it with the iOS client (PKCE, no
    /// client secret anywhere), and the assistant's first jobs are queued at once.
    @Test func theAppConnectsGoogleThroughTheAPIWithTheIOSClient() async throws {
        try await APIWorld(google: GoogleSide()).run { w in
            let s = try await w.signIn()
            let started = try await w.call(.POST, "/v1/connectors/google/start", token: s.access,
                                           json: #"{"redirect_uri": "\#(GoogleSide.iosRedirect)"}"#)
            #expect(started.status == 200, "\(started.body)")
            let authURL = try #require(started.json["auth_url"] as? String)
            let state = try #require(started.json["state"] as? String)
            #expect(started.json["expires_in"] as? Int == 600)
            let query = Dictionary(uniqueKeysWithValues: (URLComponents(string: authURL)?.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            #expect(query["client_id"] == GoogleSide.iosClientID && query["redirect_uri"] == GoogleSide.iosRedirect)
            #expect(query["code_challenge_method"] == "S256" && (query["code_challenge"]?.count ?? 0) == 43)
            #expect(query["access_type"] == "offline" && query["state"] == state && query["response_type"] == "code")
            #expect(Set((query["scope"] ?? "").split(separator: " ").map(String.init)) == Set(Self.scopes))

            let redirect = try await ConsentBrowser.open(authURL)
            #expect(redirect.location.hasPrefix(GoogleSide.iosRedirect + "?"), "Google sends the browser back into the app")
            #expect(redirect.state == state)
            let connected = try await w.call(.POST, "/v1/connectors/google/callback", token: s.access,
                                             json: #"{"code": "\#(try #require(redirect.code))", "state": "\#(state)"}"#)
            #expect(connected.status == 200, "\(connected.body)")
            #expect(connected.json["status"] as? String == "ACTIVE" && connected.json["provider"] as? String == "google")
            #expect(Set(connected.json["granted_scopes"] as? [String] ?? []) == Set(Self.scopes))
            let connectorID = try #require(connected.json["connector_id"] as? String)

            // The exchange went out as the iOS client: its id, the verifier, and no secret at all.
            let exchange = try #require(w.google.tokenRequests(grantType: "authorization_code").last)
            let form = Dictionary(uniqueKeysWithValues: (exchange.form ?? []).map { ($0.name, $0.value) })
            #expect(form["client_id"] == GoogleSide.iosClientID && form["redirect_uri"] == GoogleSide.iosRedirect)
            #expect(form["code_verifier"] != nil && form["client_secret"] == nil, "\(form.keys.sorted())")

            let listed = try await w.call(.GET, "/v1/connectors", token: s.access)
            let items = listed.json["items"] as? [[String: Any]] ?? []
            #expect(items.count == 1 && items.first?["connector_id"] as? String == connectorID && items.first?["status"] as? String == "ACTIVE")

            let row = try await w.owner.query("""
                SELECT oauth_client, status, (SELECT count(*) FROM connect_states)::int8 FROM connectors WHERE id = \(UUID(uuidString: connectorID)!)
                """, logger: TestDatabase.quietLogger).collect().first?.decode((String, String, Int).self)
            #expect(row?.0 == "ios" && row?.1 == "ACTIVE" && row?.2 == 0, "the pending connect is gone once used")
            let user = w.userID(s).uuidString.lowercased()
            let queued = try await w.owner.query("SELECT unique_key FROM jobs WHERE user_id = \(w.userID(s)) AND state = 'queued' ORDER BY 1",
                                                 logger: TestDatabase.quietLogger).collect().map { try $0.decode(String.self) }
            #expect(queued == ["calendar.sync:\(user)", "gmail.watch:\(user)", "mail.check:\(user)"], "the assistant starts at once")

            // An hour on, the connector refreshes as the client that obtained it: again no secret.
            w.google.brokerClock.advance(by: .seconds(3600))
            let token = try await w.google.broker.accessToken(connectorID: connectorID)
            #expect(!token.token.unsafeValue.isEmpty)
            let refresh = try #require(w.google.tokenRequests(grantType: "refresh_token").last)
            #expect(refresh.form?.contains { $0.name == "client_secret" } == false)
            #expect(refresh.form?.contains { $0.name == "client_id" && $0.value == GoogleSide.iosClientID } == true)
            #expect(w.metrics.count(MetricName.apiConnects, [("result", "connected")]) == 1)
        }
    }

    /// The web client (an https redirect) is the same flow with the client secret, which only the
    /// broker holds.
    @Test func theWebClientExchangesWithItsSecret() async throws {
        try await APIWorld(google: GoogleSide()).run { w in
            let s = try await w.signIn()
            let connected = try await Self.connect(w, s, redirect: GoogleSide.webRedirect)
            #expect(connected.status == 200, "\(connected.body)")
            let exchange = try #require(w.google.tokenRequests(grantType: "authorization_code").last)
            #expect(exchange.form?.contains { $0.name == "client_id" && $0.value == GoogleSide.webClientID } == true)
            #expect(exchange.form?.contains { $0.name == "client_secret" } == true)
            // A redirect URI no client is registered with is refused before Google is involved.
            let foreign = try await w.call(.POST, "/v1/connectors/google/start", token: s.access,
                                           json: #"{"redirect_uri": "https://evil.example/callback"}"#)
            #expect(foreign.status == 400 && foreign.code == "invalid_field" && foreign.message?.hasPrefix("redirect_uri") == true)
        }
    }

    /// `state` works once, only for the session that started it, and only within its lifetime.
    @Test func aReplayedForeignOrExpiredStateIsRefused() async throws {
        let clock = ManualClock(start: Date())
        try await APIWorld(google: GoogleSide(), clock: clock).run { w in
            let alice = try await w.signIn(subject: "001842.alice")
            let aliceTablet = try await w.signIn(subject: "001842.alice")
            let bob = try await w.signIn(subject: "001842.bob")
            let (state, code) = try await Self.consent(w, alice)
            let body = #"{"code": "\#(code)", "state": "\#(state)"}"#
            for foreign in [bob, aliceTablet] {
                let refused = try await w.call(.POST, "/v1/connectors/google/callback", token: foreign.access, json: body)
                #expect(refused.status == 403 && refused.code == "invalid_state", "\(refused.body)")
            }
            #expect(w.google.tokenRequests(grantType: "authorization_code").isEmpty, "no foreign attempt reached Google")
            // The foreign attempts did not burn Alice's state: her own session finishes.
            #expect(try await w.call(.POST, "/v1/connectors/google/callback", token: alice.access, json: body).status == 200)
            let replay = try await w.call(.POST, "/v1/connectors/google/callback", token: alice.access, json: body)
            #expect(replay.status == 403 && replay.code == "invalid_state")

            // Google's page left open past the state's lifetime.
            let (late, lateCode) = try await Self.consent(w, alice)
            clock.advance(by: .seconds(601))
            let fresh = try await w.call(.POST, "/v1/auth/refresh", json: #"{"refresh_token": "\#(alice.refresh)"}"#)
            let access = try #require(fresh.json["access_token"] as? String)
            let expired = try await w.call(.POST, "/v1/connectors/google/callback", token: access,
                                           json: #"{"code": "\#(lateCode)", "state": "\#(late)"}"#)
            #expect(expired.status == 403 && expired.code == "invalid_state", "\(expired.body)")
            #expect(w.metrics.count(MetricName.apiConnects, [("result", "invalid_state")]) == 4)
        }
    }

    /// Granular consent: the user unticked mail. The grant is revoked at Google and refused, with
    /// the missing scope named; nothing is stored.
    @Test func aGrantMissingARequiredScopeIsRevokedAndRefused() async throws {
        try await APIWorld(google: GoogleSide(grantedScopes: [GoogleScope.calendarReadonly])).run { w in
            let s = try await w.signIn()
            let refused = try await Self.connect(w, s, redirect: GoogleSide.iosRedirect)
            #expect(refused.status == 403 && refused.code == "missing_scopes", "\(refused.body)")
            #expect(refused.message?.contains(GoogleScope.gmailMetadata) == true)
            #expect(w.google.issuedRefreshTokens.count == 1 && w.google.liveRefreshTokens.isEmpty, "revoked at Google")
            #expect(w.google.revokeRequests().count == 1)
            #expect((try await w.call(.GET, "/v1/connectors", token: s.access)).json["items"] as? [Any] != nil)
            #expect(((try await w.call(.GET, "/v1/connectors", token: s.access)).json["items"] as? [Any])?.isEmpty == true)
            #expect(try await Self.count(w, "connectors") == 0)
        }
    }

    /// Google issued a refresh token, then the broker could not store it (the key service refused its
    /// attestation): the token is revoked at Google, not dropped, and the app is told to retry later.
    @Test func aGrantTheBrokerCannotStoreIsRevokedAtGoogle() async throws {
        try await APIWorld(google: GoogleSide(denyAttestation: true)).run { w in
            let s = try await w.signIn()
            let failed = try await Self.connect(w, s, redirect: GoogleSide.iosRedirect)
            #expect(failed.status == 503 && failed.code == "connect_failed", "\(failed.body)")
            #expect(failed.headers.first(name: "Retry-After") != nil)
            #expect(w.google.issuedRefreshTokens.count == 1 && w.google.liveRefreshTokens.isEmpty)
            #expect(try await Self.count(w, "connectors") == 0)
            let audit = try await w.owner.query("""
                SELECT redacted_metadata->>'grant' FROM audit_events WHERE event_type = 'CONNECT' AND result = 'FAILURE'
                """, logger: TestDatabase.quietLogger).collect().map { try $0.decode(String.self) }
            #expect(audit == ["revoked"])
        }
    }

    /// The app came back after Google's code expired (about 10 minutes): Google refuses it, the app
    /// is told to start again, and nothing is stored.
    @Test func aCodeGoogleRefusesIsReportedAsSuch() async throws {
        try await APIWorld(google: GoogleSide()).run { w in
            let s = try await w.signIn()
            let (state, code) = try await Self.consent(w, s)
            w.google.google.advanceClock(bySeconds: 601)
            let refused = try await w.call(.POST, "/v1/connectors/google/callback", token: s.access,
                                           json: #"{"code": "\#(code)", "state": "\#(state)"}"#)
            #expect(refused.status == 403 && refused.code == "code_refused", "\(refused.body)")
            #expect(refused.message?.contains("start connecting again") == true)
            #expect(try await Self.count(w, "connectors") == 0)
            #expect(w.google.issuedRefreshTokens.isEmpty)
        }
    }

    /// Google's token endpoint is down (503 on every attempt the broker makes): the app is told to
    /// retry shortly, nothing is stored, and no grant was issued that could be left behind.
    @Test func googleUnavailableAtTheExchangeAnswers503AndStoresNothing() async throws {
        try await APIWorld(google: GoogleSide()).run { w in
            let s = try await w.signIn()
            let (state, code) = try await Self.consent(w, s)
            _ = try w.google.google.injectFault(FaultRule(match: .init(method: "POST", path: OAuthEndpoints.tokenPath),
                                                          response: CannedResponse(status: 503, body: #"{"error": "temporarily_unavailable"}"#),
                                                          times: nil))
            let reply = try await w.call(.POST, "/v1/connectors/google/callback", token: s.access,
                                         json: #"{"code": "\#(code)", "state": "\#(state)"}"#)
            #expect(reply.status == 503 && reply.code == "unavailable" && reply.headers.first(name: "Retry-After") != nil, "\(reply.body)")
            #expect(w.google.tokenRequests(grantType: "authorization_code").count >= 2, "the broker retried before giving up")
            #expect(try await Self.count(w, "connectors") == 0)
            #expect(w.google.issuedRefreshTokens.isEmpty)
            #expect(w.metrics.count(MetricName.apiConnects, [("result", "unavailable")]) == 1)
        }
    }

    /// The consent page was declined: the app forwards Google's error and the pending connect ends.
    @Test func aDeclinedConsentEndsThePendingConnect() async throws {
        try await APIWorld(google: GoogleSide()).run { w in
            let s = try await w.signIn()
            w.google.google.setConsent(.deny)
            let started = try await w.call(.POST, "/v1/connectors/google/start", token: s.access,
                                           json: #"{"redirect_uri": "\#(GoogleSide.iosRedirect)"}"#)
            let redirect = try await ConsentBrowser.open(try #require(started.json["auth_url"] as? String))
            #expect(redirect.error == "access_denied" && redirect.code == nil)
            let state = try #require(redirect.state)
            let declined = try await w.call(.POST, "/v1/connectors/google/callback", token: s.access,
                                            json: #"{"error": "access_denied", "state": "\#(state)"}"#)
            #expect(declined.status == 403 && declined.code == "access_denied", "\(declined.body)")
            #expect(try await Self.count(w, "connect_states") == 0)
            let both = try await w.call(.POST, "/v1/connectors/google/callback", token: s.access,
                                        json: #"{"code": "c", "error": "access_denied", "state": "\#(state)"}"#)
            #expect(both.status == 403 && both.code == "invalid_state", "the state was used up by the first answer")
        }
    }

    /// Disconnect revokes at Google, is idempotent, and reaches only the caller's own connectors.
    /// Connecting again replaces the earlier connector (revoked), so one grant is alive per user.
    @Test func deleteRevokesAtGoogleAndReconnectReplaces() async throws {
        try await APIWorld(google: GoogleSide()).run { w in
            let s = try await w.signIn(), bob = try await w.signIn(subject: "001842.bob")
            let first = try #require(try await Self.connect(w, s, redirect: GoogleSide.iosRedirect).json["connector_id"] as? String)
            let second = try #require(try await Self.connect(w, s, redirect: GoogleSide.iosRedirect).json["connector_id"] as? String)
            #expect(w.google.liveRefreshTokens.count == 1, "the earlier grant was revoked when the new one arrived")
            let items = try await w.call(.GET, "/v1/connectors", token: s.access).json["items"] as? [[String: Any]] ?? []
            #expect(items.map { $0["connector_id"] as? String } == [second])

            let bobs = try await w.call(.DELETE, "/v1/connectors/\(second)", token: bob.access)
            #expect(bobs.status == 404 && bobs.code == "not_found")
            #expect(w.google.liveRefreshTokens.count == 1)
            let deleted = try await w.call(.DELETE, "/v1/connectors/\(second)", token: s.access)
            #expect(deleted.status == 200 && deleted.json["status"] as? String == "REVOKED", "\(deleted.body)")
            #expect(w.google.liveRefreshTokens.isEmpty)
            #expect(try await w.call(.DELETE, "/v1/connectors/\(second)", token: s.access).status == 200, "idempotent")
            #expect(try await w.call(.DELETE, "/v1/connectors/\(first)", token: s.access).status == 200)
            #expect(try await w.call(.DELETE, "/v1/connectors/\(UUID())", token: s.access).status == 404)
            #expect(try await w.call(.DELETE, "/v1/connectors/not-a-uuid", token: s.access).status == 400)
            #expect((try await w.call(.GET, "/v1/connectors", token: s.access)).json["items"] as? [Any] != nil)
            let revokes = try await w.owner.query("""
                SELECT count(*)::int8 FROM audit_events WHERE event_type = 'REVOKE' AND result = 'SUCCESS'
                """, logger: TestDatabase.quietLogger).collect().first?.decode(Int.self)
            #expect(revokes == 2)
        }
    }

    /// Nothing of the flow's secrets reaches a log or the database in plaintext: not the state, the
    /// code, the PKCE verifier, nor the refresh token Google issued.
    @Test func noCodeStateVerifierOrTokenIsLoggedOrStored() async throws {
        try await APIWorld(google: GoogleSide()).run { w in
            let s = try await w.signIn()
            let started = try await w.call(.POST, "/v1/connectors/google/start", token: s.access,
                                           json: #"{"redirect_uri": "\#(GoogleSide.iosRedirect)"}"#)
            let authURL = try #require(started.json["auth_url"] as? String)
            let challenge = try #require(URLComponents(string: authURL)?.queryItems?.first { $0.name == "code_challenge" }?.value)
            let state = try #require(started.json["state"] as? String)
            let stored = try await w.owner.query("SELECT state_hash, encode(verifier_sealed, 'escape') FROM connect_states",
                                                 logger: TestDatabase.quietLogger).collect().first?.decode((String, String).self)
            #expect(stored != nil && stored?.0 != state && stored?.0.contains(state) == false)
            let redirect = try await ConsentBrowser.open(authURL)
            let code = try #require(redirect.code)
            let connected = try await w.call(.POST, "/v1/connectors/google/callback", token: s.access,
                                             json: #"{"code": "\#(code)", "state": "\#(state)"}"#)
            #expect(connected.status == 200)
            let refreshToken = try #require(w.google.issuedRefreshTokens.first)
            let verifier = try #require(w.google.tokenRequests(grantType: "authorization_code").last?.form?.first { $0.name == "code_verifier" }?.value)
            let canaries = [state, code, refreshToken, challenge] + (verifier == "<redacted>" ? [] : [verifier])
            let logs = (w.logs.all + w.google.logs.all).joined(separator: "\n")
            let dump = try await w.owner.query("""
                SELECT string_agg(t::text, ' ') FROM (
                    SELECT row_to_json(c)::text AS t FROM connectors c UNION ALL SELECT row_to_json(a)::text FROM audit_events a
                    UNION ALL SELECT row_to_json(j)::text FROM jobs j) rows
                """, logger: TestDatabase.quietLogger).collect().first?.decode(String?.self) ?? ""
            for canary in canaries {
                #expect(!logs.contains(canary), "a secret of the connect flow was logged")
                #expect(!dump.contains(canary), "a secret of the connect flow was stored in plaintext")
            }
        }
    }

    /// An API started without Google connect says so, instead of failing obscurely.
    @Test func anAPIWithoutGoogleConnectAnswers503() async throws {
        try await APIWorld().run { w in
            let s = try await w.signIn()
            let reply = try await w.call(.POST, "/v1/connectors/google/start", token: s.access,
                                         json: #"{"redirect_uri": "\#(GoogleSide.iosRedirect)"}"#)
            #expect(reply.status == 503 && reply.code == "unavailable" && reply.message?.contains("not configured") == true)
        }
    }

    // MARK: Helpers

    /// Start and consent; returns the state and the code the redirect carried.
    /// Keep only what is needed (issue #30): disconnecting empties the connector's ciphertext and
    /// deletes its sync cursors and Gmail watch at once, not at delete-all; the row stays as history.
    @Test func disconnectingForgetsTheTokenCursorsAndWatch() async throws {
        try await APIWorld(google: GoogleSide()).run { w in
            let s = try await w.signIn()
            let connectorID = try #require(try await Self.connect(w, s, redirect: GoogleSide.iosRedirect).json["connector_id"] as? String)
            let id = try #require(UUID(uuidString: connectorID))
            // What the worker keeps for a live connector: cursors and a watch.
            _ = try await w.owner.query("""
                INSERT INTO sync_cursors (connector_id, user_id, kind, state_ciphertext) VALUES (\(id), \(w.userID(s)), 'calendar', '\\x01'),
                    (\(id), \(w.userID(s)), 'gmail', '\\x02')
                """, logger: TestDatabase.quietLogger).collect()
            _ = try await w.owner.query("""
                INSERT INTO gmail_watches (connector_id, user_id, address_hash, expires_at) VALUES (\(id), \(w.userID(s)), 'h', now() + interval '7 days')
                """, logger: TestDatabase.quietLogger).collect()
            #expect(try await w.call(.DELETE, "/v1/connectors/\(connectorID)", token: s.access).status == 200)
            let ciphertext = try await w.owner.query("SELECT octet_length(refresh_token_ciphertext)::int8, status FROM connectors WHERE id = \(id)",
                                                     logger: TestDatabase.quietLogger).collect().first?.decode((Int, String).self)
            #expect(ciphertext?.0 == 0 && ciphertext?.1 == "REVOKED", "\(String(describing: ciphertext))")
            #expect(try await Self.count(w, "sync_cursors") == 0)
            #expect(try await Self.count(w, "gmail_watches") == 0)
        }
    }

    static func consent(_ w: APIWorld.Running, _ s: APIWorld.Session,
                        redirect: String = GoogleSide.iosRedirect) async throws -> (state: String, code: String) {
        let started = try await w.call(.POST, "/v1/connectors/google/start", token: s.access, json: #"{"redirect_uri": "\#(redirect)"}"#)
        let back = try await ConsentBrowser.open(try #require(started.json["auth_url"] as? String))
        return (try #require(back.state), try #require(back.code))
    }

    static func connect(_ w: APIWorld.Running, _ s: APIWorld.Session, redirect: String) async throws -> APIWorld.Reply {
        let (state, code) = try await consent(w, s, redirect: redirect)
        return try await w.call(.POST, "/v1/connectors/google/callback", token: s.access, json: #"{"code": "\#(code)", "state": "\#(state)"}"#)
    }

    static func count(_ w: APIWorld.Running, _ table: String) async throws -> Int {
        try await w.owner.query(PostgresQuery(unsafeSQL: "SELECT count(*)::int8 FROM \(table)"), logger: TestDatabase.quietLogger)
            .collect().first?.decode(Int.self) ?? -1
    }
}
