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

    static func wakeJobs(_ w: APIWorld.Running) async throws -> [UUID?] {
        try await w.owner.query("SELECT user_id FROM jobs WHERE kind = 'relay.wake' AND state = 'queued'",
                                logger: TestDatabase.quietLogger).collect().map { try $0.decode(UUID?.self) }
    }

    @Test func aPushForARelayedMailboxQueuesOneWakeUpAndStoresNoAddress() async throws {
        try await APIWorld(google: GoogleSide()).run { w in
            let s = try await w.signIn()
            let registered = try await w.call(.PUT, "/v1/relay/mailbox", token: s.access, json: #"{"email_address": "\#(Self.address)"}"#)
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
            #expect(try await w.call(.PUT, "/v1/relay/mailbox", token: s.access, json: #"{"email_address": "other@example.com"}"#).status == 200)
            #expect(try await PushTests.push(w, token: token, email: Self.address).status == 404)
            #expect(try await w.call(.DELETE, "/v1/relay/mailbox", token: s.access).status == 200)
            #expect(try await w.call(.DELETE, "/v1/relay/mailbox", token: s.access).status == 404)
            #expect(try await PushTests.push(w, token: token, email: "other@example.com").status == 404)
            let bad = try await w.call(.PUT, "/v1/relay/mailbox", token: s.access, json: #"{"email_address": "no at sign"}"#)
            #expect(bad.status == 400, "\(bad.body)")
        }
    }

    /// Delete-all covers relay users: their relayed mailbox goes with them.
    @Test func deleteAllRemovesTheRelayedMailbox() async throws {
        try await APIWorld(google: GoogleSide()).run { w in
            let s = try await w.signIn()
            #expect(try await w.call(.PUT, "/v1/relay/mailbox", token: s.access, json: #"{"email_address": "\#(Self.address)"}"#).status == 200)
            // What the delete-all job runs at its end (the worker's role holds it; the owner may too).
            let request = try #require(try await w.call(.POST, "/v1/privacy/delete-all", token: s.access).json["request_id"] as? String)
            _ = try await w.owner.query("SELECT * FROM alfred_delete_user(\(UUID(uuidString: request)!))", logger: TestDatabase.quietLogger).collect()
            #expect(try await w.owner.query("SELECT count(*)::int8 FROM relay_mailboxes", logger: TestDatabase.quietLogger)
                .collect().first?.decode(Int.self) == 0)
        }
    }
}
