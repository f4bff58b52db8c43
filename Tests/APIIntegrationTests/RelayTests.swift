import AlfredCore
import AlfredTestCluster
@testable import API
import Assistant
@testable import Delivery
@testable import Sealing
import Foundation
import PostgresNIO
import StandIns
import Testing

/// Relay mode through the API: the app registers the mailbox it watches itself, and a Gmail push for
/// it queues one wake-up for the user, nothing else. Only a keyed hash of the address is kept.
@Suite(.timeLimit(.minutes(5))) struct RelayTests {
    static let address = "relay.user@example.com"

    /// `PUT /v1/relay/mailbox` with a Google ID token for `address` (the proof the app has), or `token`.
    static func register(_ w: APIWorld.Running, _ s: APIWorld.Session, _ address: String = address, token: String? = nil,
                         extra: String = "") async throws -> APIWorld.Reply {
        let proof = try token ?? w.google.google.mailboxIDToken(email: address, audience: GoogleSide.iosClientID)
        return try await w.call(.PUT, "/v1/relay/mailbox", token: s.access,
                                json: #"{"email_address": "\#(address)", "google_id_token": "\#(proof)"\#(extra)}"#)
    }

    static func wakeJobs(_ w: APIWorld.Running) async throws -> [UUID?] {
        try await w.owner.query("SELECT user_id FROM jobs WHERE kind = 'relay.wake' AND state = 'queued'",
                                logger: TestDatabase.quietLogger).collect().map { try $0.decode(UUID?.self) }
    }

    @Test func aPushForARelayedMailboxQueuesOneWakeUpAndStoresNoAddress() async throws {
        try await APIWorld(google: GoogleSide()).run { w in
            let s = try await w.signIn()
            let registered = try await Self.register(w, s)
            #expect(registered.status == 200 && registered.json["topic_name"] as? String == GoogleSide.topic, "\(registered.body)")
            let token = try w.google.google.pushToken(audience: GoogleSide.pushAudience, serviceAccount: GoogleSide.pushAccount)
            for historyId in [100, 103, 110] as [UInt64] {
                let reply = try await PushTests.push(w, token: token, email: Self.address, historyId: historyId)
                #expect(reply.status == 202, "\(reply.body)")
            }
            #expect(try await Self.wakeJobs(w) == [w.userID(s)], "a burst is one wake-up")
            #expect(w.metrics.count(MetricName.gmailPushes, [("result", "relayed")]) == 3)
            // No mail check for a relay user: nothing here reads their mail.
            #expect(try await w.owner.query("SELECT count(*)::int8 FROM jobs WHERE kind = 'mail.check'", logger: TestDatabase.quietLogger)
                .collect().first?.decode(Int.self) == 0)
            let dump = try await w.owner.query("""
                SELECT string_agg(t, ' ') FROM (SELECT row_to_json(r)::text AS t FROM relay_mailboxes r
                UNION ALL SELECT row_to_json(a)::text FROM audit_events a UNION ALL SELECT row_to_json(j)::text FROM jobs j) rows
                """, logger: TestDatabase.quietLogger).collect().first?.decode(String?.self) ?? ""
            #expect(!dump.lowercased().contains("relay.user"), "the address is kept only as a keyed hash")
            #expect(!(w.logs.all.joined()).contains("relay.user"))
            let export = try await w.call(.GET, "/v1/privacy/export", token: s.access)
            #expect(export.status == 200 && (export.json["relay_mailbox"] as? [String: Any])?["address"] as? String == "kept only as a keyed hash",
                    "\(export.body)")
            #expect(!export.body.contains("relay.user"))

            // Another registration replaces it; deleting stops the relay.
            #expect(try await Self.register(w, s, "other@example.com").status == 200)
            #expect(try await PushTests.push(w, token: token, email: Self.address).status == 404)
            #expect(try await w.call(.DELETE, "/v1/relay/mailbox", token: s.access).status == 200)
            #expect(try await w.call(.DELETE, "/v1/relay/mailbox", token: s.access).status == 404)
            #expect(try await PushTests.push(w, token: token, email: "other@example.com").status == 404)
            let bad = try await w.call(.PUT, "/v1/relay/mailbox", token: s.access, json: #"{"email_address": "no at sign", "google_id_token": "x"}"#)
            #expect(bad.status == 400, "\(bad.body)")
        }
    }

    /// Anyone could relay anyone's mailbox before (and learn when its mail changed): now only with a
    /// Google ID token for that address, issued to one of our apps, verified and fresh. Each refusal
    /// is a 403 naming the check, and nothing is stored or woken for it.
    @Test func aRelayMailboxNeedsAGoogleIDTokenForThatAddress() async throws {
        try await APIWorld(google: GoogleSide()).run { w in
            let attacker = try await w.signIn(subject: "001842.mallory")
            let google = w.google.google
            let victim = "victim@example.com"
            let refusals: [(String, String)] = [
                (try google.mailboxIDToken(email: "mallory@example.com", audience: GoogleSide.iosClientID), "for another address"),
                (try google.mailboxIDToken(email: victim, audience: "someone-elses-app.apps.googleusercontent.com"), "issued to another app"),
                (try google.mailboxIDToken(email: victim, audience: GoogleSide.iosClientID, emailVerified: false), "not verified"),
                (try google.mailboxIDToken(email: victim, audience: GoogleSide.iosClientID, issuedAt: Date().addingTimeInterval(-7200)), "expired"),
                (try google.mailboxIDToken(email: victim, audience: GoogleSide.iosClientID, foreignKey: true), "signature"),
                (try google.mailboxIDToken(email: victim, audience: GoogleSide.iosClientID, issuer: "https://evil.example.com"), "not issued by Google"),
                (try google.pushToken(audience: GoogleSide.iosClientID, serviceAccount: GoogleSide.pushAccount), "for another address"),
                ("not-a-jwt", "not a JWT"),
            ]
            for (token, check) in refusals {
                let reply = try await Self.register(w, attacker, victim, token: token)
                #expect(reply.status == 403 && reply.code == "not_your_mailbox", "\(check): \(reply.body)")
                #expect(reply.message?.contains(check) == true, "\(check): \(reply.body)")
                #expect(!reply.body.contains(token) && !reply.body.contains(victim))
            }
            let missing = try await w.call(.PUT, "/v1/relay/mailbox", token: attacker.access, json: #"{"email_address": "\#(victim)"}"#)
            #expect(missing.status == 400, "\(missing.body)")
            #expect(try await w.owner.query("SELECT count(*)::int8 FROM relay_mailboxes", logger: TestDatabase.quietLogger)
                .collect().first?.decode(Int.self) == 0)
            let push = try google.pushToken(audience: GoogleSide.pushAudience, serviceAccount: GoogleSide.pushAccount)
            #expect(try await PushTests.push(w, token: push, email: victim).status == 404, "nobody relays the victim's mailbox")
            #expect(try await Self.wakeJobs(w).isEmpty)

            // The victim, with their own token (any case of the address), registers fine.
            let owner = try await w.signIn(subject: "001842.victim")
            #expect(try await Self.register(w, owner, victim, token: try google.mailboxIDToken(email: "Victim@Example.com",
                                                                                                audience: GoogleSide.iosClientID)).status == 200)
        }
    }

    /// Google's keys cannot be fetched: the proof cannot be checked, so the registration is 503 (the
    /// app tries again) and nothing is stored.
    @Test func aProofThatCannotBeCheckedForWantOfKeysIs503AndStoresNothing() async throws {
        try await APIWorld(google: GoogleSide(pushKeysURL: "http://127.0.0.1:9/oauth2/v3/certs")).run { w in
            let s = try await w.signIn()
            let reply = try await Self.register(w, s)
            #expect(reply.status == 503 && reply.headers.first(name: "Retry-After") != nil, "\(reply.body)")
            #expect(try await w.owner.query("SELECT count(*)::int8 FROM relay_mailboxes", logger: TestDatabase.quietLogger)
                .collect().first?.decode(Int.self) == 0)
        }
    }

    /// Gmail's watch lapses after 7 days: the app is asked to renew it (a `relay.renew` job) a day
    /// before the expiry it registered; registering a renewed watch moves the request.
    @Test func theAppIsAskedToRenewItsWatchADayBeforeItLapses() async throws {
        try await APIWorld(google: GoogleSide()).run { w in
            let s = try await w.signIn()
            func renewDue() async throws -> Date? {
                try await w.owner.query("SELECT due_at FROM jobs WHERE kind = 'relay.renew' AND state = 'queued' AND user_id = \(w.userID(s))",
                                        logger: TestDatabase.quietLogger).collect().first?.decode(Date.self)
            }
            let expiry = Date().addingTimeInterval(5 * 86_400).rounded(toSeconds: 1)
            #expect(try await Self.register(w, s, extra: #", "watch_expiration": \#(Int64(expiry.timeIntervalSince1970 * 1000))"#).status == 200)
            #expect(try await renewDue() == expiry.addingTimeInterval(-86_400))
            let renewed = expiry.addingTimeInterval(86_400)
            #expect(try await Self.register(w, s, extra: #", "watch_expiration": \#(Int64(renewed.timeIntervalSince1970 * 1000))"#).status == 200)
            #expect(try await renewDue() == renewed.addingTimeInterval(-86_400))
        }
    }

    /// Delete-all covers relay users: their relayed mailbox goes with them.
    @Test func deleteAllRemovesTheRelayedMailbox() async throws {
        try await APIWorld(google: GoogleSide()).run { w in
            let s = try await w.signIn()
            #expect(try await Self.register(w, s).status == 200)
            // What the delete-all job runs at its end (the worker's role holds it; the owner may too).
            let request = try #require(try await w.call(.POST, "/v1/privacy/delete-all", token: s.access).json["request_id"] as? String)
            _ = try await w.owner.query("SELECT * FROM alfred_delete_user(\(UUID(uuidString: request)!))", logger: TestDatabase.quietLogger).collect()
            #expect(try await w.owner.query("SELECT count(*)::int8 FROM relay_mailboxes", logger: TestDatabase.quietLogger)
                .collect().first?.decode(Int.self) == 0)
        }
    }
}
