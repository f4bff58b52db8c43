import AlfredCore
import AlfredTestCluster
@testable import API
import Foundation
import PostgresNIO
import Testing
import Yams

/// A user reaches only their own resources; limits answer 429; the route table covers the contract.
@Suite(.timeLimit(.minutes(5))) struct IsolationTests {
    /// Every route that names a resource by id: another user's id answers 404 (never 403 with
    /// details), and the resource is untouched. Every other authenticated route answers with the
    /// caller's own data only.
    @Test func aUserReachesOnlyTheirOwnResourcesOnEveryRoute() async throws {
        try await APIWorld(google: GoogleSide()).run { w in
            let alice = try await w.signIn(subject: "001842.alice"), bob = try await w.signIn(subject: "001842.bob")
            // Alice has one resource of every kind that has an id, and data behind every other route.
            #expect(try await w.call(.POST, "/v1/devices/apns", token: alice.access, json: """
                {"device_id": "alice-phone-1", "apns_token": "\(String(repeating: "0a", count: 32))", "environment": "sandbox"}
                """).status == 200)
            _ = try await w.call(.PUT, "/v1/preferences", token: alice.access, json: """
                {"meeting_reminder_minutes": 33, "morning_brief_local_time": "05:55", "high_risk_requires_confirm": false, "time_zone": "Asia/Tokyo"}
                """)
            #expect(try await w.call(.PUT, "/v1/preferences/urgency", token: alice.access,
                                     json: #"{"vip_senders": ["oncologist@clinic.example"], "keywords": ["biopsy"]}"#).status == 200)
            let request = try await w.call(.POST, "/v1/privacy/delete-all", token: alice.access)
            let requestID = try #require(request.json["request_id"] as? String)
            let connected = try await ConnectTests.connect(w, alice, redirect: GoogleSide.iosRedirect)
            let connectorID = try #require(connected.json["connector_id"] as? String)
            // A connect Alice started: Bob cannot finish it with her state, and she still can.
            let (state, code) = try await ConnectTests.consent(w, alice)
            let theirs = try await w.call(.POST, "/v1/connectors/google/callback", token: bob.access,
                                          json: #"{"code": "\#(code)", "state": "\#(state)"}"#)
            #expect(theirs.status == 403 && theirs.code == "invalid_state")
            let aliceDevices = try await w.call(.GET, "/v1/devices", token: alice.access).json["items"] as? [[String: Any]]
            let deviceID = try #require(aliceDevices?.first?["id"] as? String)
            let ids = ["unregisterDevice": "alice-phone-1", "deleteDevice": deviceID, "getDeleteAllStatus": requestID,
                       "deleteConnector": connectorID]

            // (A callback with a state its caller did not start is refused for anyone: checked above.)
            for route in Routes.authenticated where !["logout", "requestDeleteAll", "finishGoogleConnect"].contains(route.operationID) {
                // Bob relays his own mailbox, with his own proof of it.
                let body = route.operationID == "registerRelayMailbox"
                    ? #"{"email_address": "bob@example.com", "google_id_token": "\#(try w.google.google.mailboxIDToken(email: "bob@example.com", audience: GoogleSide.iosClientID))"}"#
                    : route.body
                let reply = try await w.call(route.method, route.path(ids[route.operationID] ?? "x"), token: bob.access, json: body)
                if route.takesID {
                    #expect(reply.status == 404 && reply.code == "not_found", "\(route): \(reply.body)")
                } else {
                    #expect(reply.status < 300, "\(route): \(reply.body)")
                    #expect(!reply.body.contains("Asia/Tokyo") && !reply.body.contains(w.userID(alice).uuidString.lowercased())
                                && !reply.body.contains("oncologist") && !reply.body.contains("biopsy"),
                            "\(route) showed Bob something of Alice's: \(reply.body)")
                }
            }
            // Alice's resources are as they were.
            #expect(try await w.call(.GET, "/v1/privacy/delete-all/\(requestID)", token: alice.access).status == 200)
            #expect(try await w.call(.GET, "/v1/preferences", token: alice.access).json["time_zone"] as? String == "Asia/Tokyo")
            let devices = try await w.owner.query("SELECT count(*)::int8 FROM devices WHERE user_id = \(w.userID(alice))",
                                                  logger: TestDatabase.quietLogger).collect().first?.decode(Int.self)
            #expect(devices == 1)
            #expect(try await w.call(.POST, "/v1/connectors/google/callback", token: alice.access,
                                     json: #"{"code": "\#(code)", "state": "\#(state)"}"#).status == 200)
            #expect(try await w.call(.GET, "/v1/connectors", token: alice.access).body.contains(connectorID) == false,
                    "her reconnect replaced the first connector")
        }
    }

    @Test func perUserAndPerAddressLimitsAnswer429WithRetryAfter() async throws {
        var world = APIWorld()
        world.userLimit = .init(burst: 3, perSecond: 0.01)
        try await world.run { w in
            let s = try await w.signIn()
            for _ in 0..<3 { #expect(try await w.call(.GET, "/v1/preferences", token: s.access).status == 200) }
            let limited = try await w.call(.GET, "/v1/preferences", token: s.access)
            #expect(limited.status == 429 && limited.code == "rate_limited", "\(limited.body)")
            #expect(Int(limited.headers.first(name: "Retry-After") ?? "") ?? 0 >= 1)
            #expect(try await w.call(.GET, "/v1/preferences", token: try await w.signIn(subject: "001842.bob").access).status == 200,
                    "another user has their own budget")
        }
        var addresses = APIWorld()
        addresses.addressLimit = .init(burst: 2, perSecond: 0.01)
        try await addresses.run { w in
            #expect(try await w.call(.GET, "/healthz").status == 200)
            #expect(try await w.call(.GET, "/healthz").status == 200)
            let limited = try await w.call(.POST, "/v1/auth/ios/session", json: #"{"apple_identity_token": "x", "device_id": "d"}"#)
            #expect(limited.status == 429 && limited.headers.first(name: "Retry-After") != nil, "\(limited.body)")
        }
    }

    /// The route table of these tests is the contract's, operation for operation.
    @Test func theRouteTableCoversEveryOperationOfTheContract() throws {
        let document = try #require(try Yams.load(yaml: String(contentsOf: Self.contract, encoding: .utf8)) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        var operations: Set<String> = []
        for (_, methods) in paths {
            for (_, operation) in methods { if let id = (operation as? [String: Any])?["operationId"] as? String { operations.insert(id) } }
        }
        #expect(operations == Set(Routes.all.map(\.operationID)))
        #expect(operations.count == 25)
    }

    static let contract = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/API/openapi.yaml")
}
