import AlfredCore
import AlfredTestCluster
@testable import API
import Assistant
@testable import Delivery
@testable import Sealing
import AsyncHTTPClient
import Foundation
import NIOCore
import PostgresNIO
import StandIns
import Testing

/// Gmail push (RFC §14 Q4): Pub/Sub's pushes, authenticated by Google's OIDC token, bring the
/// mailbox owner's mail check forward; anything unverified, unknown or malformed enqueues nothing.
@Suite(.timeLimit(.minutes(5))) struct PushTests {
    /// A connected user whose mailbox the worker watches (the row `gmail.watch` writes), with the
    /// mail check the connect queued moved an hour out, so a push visibly brings it forward.
    static func watchedUser(_ w: APIWorld.Running) async throws -> (session: APIWorld.Session, user: UUID) {
        let s = try await w.signIn()
        let connected = try await ConnectTests.connect(w, s, redirect: GoogleSide.iosRedirect)
        let connector = try #require(UUID(uuidString: connected.json["connector_id"] as? String ?? ""))
        let user = w.userID(s)
        _ = try await w.owner.query("""
            INSERT INTO gmail_watches (connector_id, user_id, address_hash, expires_at)
            VALUES (\(connector), \(user), \(GmailWatchHandler.mailboxHash(GoogleSide.email, w.sealer)), now() + interval '7 days')
            """, logger: TestDatabase.quietLogger).collect()
        _ = try await w.owner.query("UPDATE jobs SET due_at = now() + interval '1 hour' WHERE kind = 'mail.check'",
                                    logger: TestDatabase.quietLogger).collect()
        return (s, user)
    }

    static func mailChecks(_ w: APIWorld.Running) async throws -> [Double] {
        try await w.owner.query("SELECT extract(epoch FROM due_at - now())::float8 FROM jobs WHERE kind = 'mail.check' AND state = 'queued'",
                                logger: TestDatabase.quietLogger).collect().map { try $0.decode(Double.self) }
    }

    static func push(_ w: APIWorld.Running, token: String?, email: String = GoogleSide.email, historyId: UInt64 = 4_811_203,
                     data: String? = nil) async throws -> APIWorld.Reply {
        var body = GoogleStandIn.pushBody(email: email, historyId: historyId, messageID: "11893302771641024", publishTime: Date(),
                                          subscription: "projects/alfred-test/subscriptions/gmail-push")
        if let data { body = Array(#"{"message": {"data": "\#(data)"}, "subscription": "projects/p/subscriptions/s"}"#.utf8) }
        return try await w.call(.POST, "/v1/google/pubsub/push", json: String(decoding: body, as: UTF8.self),
                                headers: token.map { [("Authorization", "Bearer \($0)")] } ?? [])
    }

    @Test func aVerifiedPushBringsTheMailCheckForwardOnceHoweverManyArrive() async throws {
        try await APIWorld(google: GoogleSide()).run { w in
            _ = try await Self.watchedUser(w)
            #expect(try await Self.mailChecks(w).allSatisfy { $0 > 3000 })
            let token = try w.google.google.pushToken(audience: GoogleSide.pushAudience, serviceAccount: GoogleSide.pushAccount)
            for historyId in [4_811_203, 4_811_203, 4_811_210] as [UInt64] {  // a duplicate, then a later change
                let reply = try await Self.push(w, token: token, email: GoogleSide.email.uppercased(), historyId: historyId)
                #expect(reply.status == 202, "\(reply.body)")
            }
            let checks = try await Self.mailChecks(w)
            #expect(checks.count == 1 && checks[0] < 5, "one mail check, due now: \(checks)")
            #expect(w.metrics.count(MetricName.gmailPushes, [("result", "accepted")]) == 3)
        }
    }

    /// Pushes arrive from Google's few addresses at the rate mail arrives: they are not held to the
    /// per-address budget that guards sign-in (their token is their guard).
    @Test func pushesAreNotHeldToThePerAddressBudget() async throws {
        var world = APIWorld(google: GoogleSide())
        world.addressLimit = .init(burst: 3, perSecond: 0.01)
        try await world.run { w in
            let s = try await w.signIn()
            _ = try await ConnectTests.connect(w, s, redirect: GoogleSide.iosRedirect)
            let token = try w.google.google.pushToken(audience: GoogleSide.pushAudience, serviceAccount: GoogleSide.pushAccount)
            for _ in 0..<10 {
                let reply = try await Self.push(w, token: token, email: "nobody@example.com")
                #expect(reply.status == 404, "\(reply.body)")
            }
            #expect(try await w.call(.GET, "/healthz").status == 429, "the budget still holds everywhere else")
        }
    }

    /// Google's signing keys cannot be fetched: a push cannot be verified, so it is answered 503
    /// (Pub/Sub delivers it again later) and enqueues nothing.
    @Test func aPushThatCannotBeVerifiedForWantOfKeysIs503AndEnqueuesNothing() async throws {
        try await APIWorld(google: GoogleSide(pushKeysURL: "http://127.0.0.1:9/oauth2/v3/certs")).run { w in
            _ = try await Self.watchedUser(w)
            let token = try w.google.google.pushToken(audience: GoogleSide.pushAudience, serviceAccount: GoogleSide.pushAccount)
            let reply = try await Self.push(w, token: token)
            #expect(reply.status == 503 && reply.headers.first(name: "Retry-After") != nil, "\(reply.body)")
            #expect(try await Self.mailChecks(w).allSatisfy { $0 > 3000 })
        }
    }

    /// Each way a push token can be wrong is refused with 401, counted by reason, and changes nothing.
    @Test func anUnverifiedPushIsRefusedAndCountedAndEnqueuesNothing() async throws {
        try await APIWorld(google: GoogleSide()).run { w in
            _ = try await Self.watchedUser(w)
            let google = w.google.google
            let audience = GoogleSide.pushAudience, account = GoogleSide.pushAccount
            let cases: [(String, String?)] = [
                ("refused_no_token", nil),
                ("refused_bad_signature", try google.pushToken(audience: audience, serviceAccount: account, foreignKey: true)),
                ("refused_wrong_audience", try google.pushToken(audience: "https://elsewhere.example/push", serviceAccount: account)),
                ("refused_wrong_account", try google.pushToken(audience: audience, serviceAccount: "someone@evil.iam.gserviceaccount.com")),
                ("refused_unverified_account", try google.pushToken(audience: audience, serviceAccount: account, emailVerified: false)),
                ("refused_expired", try google.pushToken(audience: audience, serviceAccount: account, issuedAt: Date().addingTimeInterval(-7200))),
                ("refused_wrong_issuer", try google.pushToken(audience: audience, serviceAccount: account, issuer: "https://accounts.example.com")),
                ("refused_malformed", "not-a-jwt"),
            ]
            for (result, token) in cases {
                let reply = try await Self.push(w, token: token)
                #expect(reply.status == 401, "\(result): \(reply.body)")
                #expect(w.metrics.count(MetricName.gmailPushes, [("result", result)]) == 1, "\(result)")
            }
            let good = try google.pushToken(audience: audience, serviceAccount: account)
            let unknown = try await Self.push(w, token: good, email: "someone.else@example.com")
            #expect(unknown.status == 404 && unknown.code == "not_found")
            #expect(w.metrics.count(MetricName.gmailPushes, [("result", "unknown_address")]) == 1)
            let malformed = try await Self.push(w, token: good, data: "bm90IGpzb24")  // "not json"
            #expect(malformed.status == 400 && malformed.message?.hasPrefix("message.data") == true, "\(malformed.body)")
            #expect(try await Self.mailChecks(w).allSatisfy { $0 > 3000 }, "nothing was brought forward")
            #expect(w.metrics.count(MetricName.gmailPushes, [("result", "accepted")]) == 0)
        }
    }

    /// The whole path on real sockets: mail arrives in the watched mailbox at the Google stand-in,
    /// which pushes through Pub/Sub (a signed token) to the API, which brings the check forward.
    @Test func mailArrivingInAWatchedMailboxIsPushedToTheAPI() async throws {
        try await APIWorld(google: GoogleSide()).run { w in
            _ = try await Self.watchedUser(w)
            let google = w.google.google
            // Watch the mailbox at the stand-in as the worker's gmail.watch does.
            let token = try google.mintAccessToken(forUser: GoogleSide.email, scopes: [GoogleScope.gmailMetadata])
            var request = HTTPClientRequest(url: try await google.gmailBaseURL() + "/users/me/watch")
            request.method = .POST
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: #"{"topicName": "projects/alfred-test/topics/gmail-events", "labelIds": ["INBOX"]}"#))
            #expect(try await w.http.execute(request, timeout: .seconds(60)).status == .ok)
            google.pushGmailChanges(to: .init(endpoint: w.base + "/v1/google/pubsub/push", audience: GoogleSide.pushAudience,
                                              serviceAccount: GoogleSide.pushAccount))
            _ = try google.deliverMessage(.init(from: "Grace <grace@example.com>", subject: "Prod is down",
                                                labelIds: ["INBOX", "UNREAD"]), toUser: GoogleSide.email)
            #expect(try await eventually(timeout: .seconds(60)) { google.sentPushes().contains { $0.status == 202 } },
                    "\(google.sentPushes())")
            #expect(try await Self.mailChecks(w).allSatisfy { $0 < 5 })
            #expect(google.sentPushes().count == 1, "one message, one push")
        }
    }
}
