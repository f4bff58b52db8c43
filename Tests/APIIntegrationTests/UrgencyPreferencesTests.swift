import AlfredCore
import AlfredTestCluster
import Foundation
import JobQueue
import PostgresNIO
import Sealing
import Store
import Testing
import Urgency

/// VIP senders and keywords through the API (issue #30): before, the scorer and the sealed column
/// had them but no operation set them (these routes answered 404).
@Suite(.timeLimit(.minutes(5))) struct UrgencyPreferencesTests {
    @Test func aUserSetsVIPSendersAndKeywordsWhichTheMailCheckReadsSealedAndTheExportShows() async throws {
        try await APIWorld().run { w in
            let s = try await w.signIn()
            let empty = try await w.call(.GET, "/v1/preferences/urgency", token: s.access)
            #expect(empty.status == 200 && empty.json["vip_senders"] as? [String] == [] && empty.json["keywords"] as? [String] == [],
                    "\(empty.body)")
            let put = try await w.call(.PUT, "/v1/preferences/urgency", token: s.access, json: """
                {"vip_senders": ["Dr.Rossi@Ospedale.example.it", "@scuola.example.it", "dr.rossi@ospedale.example.it"],
                 "keywords": ["fermo linea", "Fermo Linea", "cliente bloccato"]}
                """)
            #expect(put.status == 200, "\(put.body)")
            let got = try await w.call(.GET, "/v1/preferences/urgency", token: s.access)
            #expect(got.json["vip_senders"] as? [String] == ["dr.rossi@ospedale.example.it", "@scuola.example.it"], "\(got.body)")
            #expect(got.json["keywords"] as? [String] == ["fermo linea", "cliente bloccato"], "\(got.body)")

            // At rest only sealed; the assistant's own read (the mail check's profile) opens them.
            for secret in ["rossi", "scuola", "fermo linea", "cliente bloccato"] {
                #expect(try await plaintextHits(of: secret, in: w.owner) == [], "\(secret) stored in plaintext")
            }
            let worker = PostgresAssistantStore(client: w.owner, jobs: PostgresJobStore(client: w.owner, logger: TestDatabase.quietLogger),
                                                logger: TestDatabase.quietLogger)
            let sealed = try #require(try await worker.profile(w.userID(s))?.urgencySealed)
            let opened = try JSONDecoder().decode(UrgencyPreferences.self,
                                                  from: Data(w.sealer.open(sealed, purpose: .preferences, userID: w.userID(s))))
            #expect(opened.vipSenders == ["dr.rossi@ospedale.example.it", "@scuola.example.it"])
            #expect(opened.keywords == ["fermo linea", "cliente bloccato"])

            // The export shows them to their owner; other preferences are untouched.
            let export = try await w.call(.GET, "/v1/privacy/export", token: s.access)
            let urgency = export.json["urgency_preferences"] as? [String: Any]
            #expect(urgency?["keywords"] as? [String] == ["fermo linea", "cliente bloccato"], "\(export.body)")
            #expect(try await w.call(.GET, "/v1/preferences", token: s.access).json["meeting_reminder_minutes"] as? Int == 15)
            // Replacing with empty lists clears them.
            #expect(try await w.call(.PUT, "/v1/preferences/urgency", token: s.access,
                                     json: #"{"vip_senders": [], "keywords": []}"#).status == 200)
            #expect(try await w.call(.GET, "/v1/preferences/urgency", token: s.access).json["keywords"] as? [String] == [])
        }
    }

    /// Each bad value is a 400 naming the entry; nothing of a refused request is stored.
    @Test(arguments: [
        (#"{"vip_senders": ["not an address"], "keywords": []}"#, "vip_senders[0]"),
        (#"{"vip_senders": ["boss@localhost"], "keywords": []}"#, "vip_senders[0]"),
        (#"{"vip_senders": ["ok@example.com", "a@b@example.com"], "keywords": []}"#, "vip_senders[1]"),
        (#"{"vip_senders": [], "keywords": ["x"]}"#, "keywords[0]"),
        (#"{"vip_senders": [], "keywords": ["ok", "tab\there"]}"#, "keywords[1]"),
        (#"{"vip_senders": [" padded@example.com"], "keywords": []}"#, "vip_senders[0]"),
        (#"{"vip_senders": [], "keywords": ["bell\u0007"]}"#, "keywords[0]"),
        (#"{"vip_senders": [], "keywords": [\#((0..<51).map { "\"k\($0)\"" }.joined(separator: ","))]}"#, "keywords"),
        (#"{"vip_senders": []}"#, "keywords"),
    ])
    func badUrgencyPreferencesAreRefusedByName(body: String, field: String) async throws {
        try await APIWorld().run { w in
            let s = try await w.signIn()
            let reply = try await w.call(.PUT, "/v1/preferences/urgency", token: s.access, json: body)
            #expect(reply.status == 400, "\(reply.body)")
            #expect(reply.message?.contains(field) == true, "\(reply.body)")
            #expect(try await w.call(.GET, "/v1/preferences/urgency", token: s.access).json["vip_senders"] as? [String] == [])
        }
    }
}
