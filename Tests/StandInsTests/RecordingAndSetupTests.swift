import Foundation
import Logging
import ServiceLifecycle
import StandIns
import Testing

@Suite(.timeLimit(.minutes(5))) struct RecordingAndSetupTests {
    @Test func recordingsNeverHoldTokensOrSecrets() async throws {
        try await H.with { google in
            let code = try await google.code()
            let tokens = try await google.exchange(code).json
            let access = try #require(tokens["access_token"] as? String)
            let refresh = try #require(tokens["refresh_token"] as? String)
            _ = try await google.refresh(refresh)
            let basic = Data("\(H.clientID):\(H.clientSecret)".utf8).base64EncodedString()
            _ = try await google.postForm("/token", [("grant_type", "refresh_token"), ("refresh_token", refresh)],
                                          headers: ["Authorization": "Basic \(basic)"])
            _ = try await google.send(.POST, "/revoke?token=\(access)")
            _ = try await google.postForm("/revoke", [("token", refresh)])

            let raw = try await google.send(.GET, "/_fake/requests")
            #expect(raw.status == 200)
            for secret in [H.clientSecret, basic, H.verifier, code, access, refresh] {
                #expect(!raw.body.contains(secret), "a recording leaked a secret")
                #expect(!raw.body.contains(H.formEncode([("x", secret)]).dropFirst(2)), "a recording leaked an encoded secret")
            }
            #expect(raw.body.contains("<redacted>"))

            let recorded = google.standIn.recordedRequests()
            #expect(recorded.map(\.path) == ["/o/oauth2/v2/auth", "/token", "/token", "/token", "/revoke", "/revoke"])
            #expect(recorded.map(\.status) == [302, 200, 200, 200, 200, 400])
            #expect(recorded[0].queryValue("code_challenge") == H.challenge)
            #expect(recorded[0].queryValue("client_id") == H.clientID)
            #expect(recorded[1].formValue("grant_type") == "authorization_code")
            #expect(recorded[1].formValue("code") == "<redacted>")
            #expect(recorded[1].formValue("client_secret") == "<redacted>")
            #expect(recorded[1].formValue("code_verifier") == "<redacted>")
            #expect(recorded[3].header("authorization") == "<redacted>")
            #expect(recorded[4].queryValue("token") == "<redacted>")
        }
    }

    @Test func scenarioFileSeedsTheStandIn() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("google-scenario-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("""
            { "clients": [{ "id": "file-client", "secret": "file-secret", "redirectURIs": ["http://localhost:1/cb"] }],
              "users": [{ "subject": "42", "email": "lin@example.com", "grantedScopes": ["\(H.calendar)"] }],
              "oauth": { "accessTokenLifetimeSeconds": 60, "consent": "approve" } }
            """.utf8).write(to: URL(fileURLWithPath: path))
        let configuration = try GoogleStandIn.Configuration(scenarioFile: path)
        #expect(configuration.clients.first?.id == "file-client")
        #expect(configuration.users.first?.grantedScopes == [H.calendar])
        #expect(configuration.oauth.accessTokenLifetimeSeconds == 60)
        #expect(configuration.oauth.codeLifetimeSeconds == 600)  // absent keys keep Google's defaults
        #expect(configuration.host == "127.0.0.1" && configuration.port == 0)

        let error = #expect(throws: StandInError.self) {
            try GoogleStandIn.Configuration(scenarioFile: path + ".missing")
        }
        #expect(error?.code == .invalidScenario)
    }

    @Test func controlPlaneReplacesTheScenario() async throws {
        try await H.with { google in
            let scenario = """
                {"clients": [{"id": "other", "secret": "s", "redirectURIs": ["http://127.0.0.1:2/cb"]}],
                 "users": [{"subject": "7", "email": "x@example.com"}]}
                """
            #expect(try await google.postJSON("/_fake/state", scenario).status == 204)
            #expect(try await google.authorize().status == 400)  // the old client is gone
            let reply = try await google.authorize(clientID: "other", redirectURI: "http://127.0.0.1:2/cb")
            #expect(reply.status == 302 && reply.redirectQuery["code"] != nil)
            let malformed = try await google.postJSON("/_fake/state", #"{"clients": 3}"#)
            #expect(malformed.status == 400)
            #expect(malformed.error?.contains("not a valid Configuration") == true)
        }
    }

    /// The control plane tells "no such user" (404) from a bad change (400) by the error's code.
    @Test func unknownUsersAreTheirOwnErrorCode() async throws {
        try await H.with { google in
            let standIn = google.standIn
            let calls: [(String, () throws(StandInError) -> Void)] = [
                ("upsertEvent", { () throws(StandInError) in _ = try standIn.upsertEvent(.init(startInMinutes: 1), forUser: "nobody@example.com") }),
                ("cancelEvent", { () throws(StandInError) in try standIn.cancelEvent(id: "x", forUser: "nobody@example.com") }),
                ("deliverMessage", { () throws(StandInError) in _ = try standIn.deliverMessage(.init(), toUser: "0") }),
                ("deleteMessage", { () throws(StandInError) in try standIn.deleteMessage(id: "x", forUser: "nobody@example.com") }),
                ("mintAccessToken", { () throws(StandInError) in _ = try standIn.mintAccessToken(forUser: "nobody@example.com", scopes: []) }),
                ("currentHistoryId", { () throws(StandInError) in _ = try standIn.currentHistoryId(forUser: "nobody@example.com") }),
            ]
            for (name, call) in calls {
                let error = #expect(throws: StandInError.self, "\(name)") { try call() }
                #expect(error?.code == .unknownUser, "\(name)")
            }
            // A known user with a bad change is a different error, whatever its message says.
            let bad = #expect(throws: StandInError.self) { try standIn.cancelEvent(id: "no user here", forUser: H.email) }
            #expect(bad?.code == .invalidScenario)

            let removal = #"{"user": "nobody@example.com", "id": "x"}"#
            for path in ["/_fake/state/events/cancel", "/_fake/state/messages/delete"] {
                #expect(try await google.postJSON(path, removal).status == 404, "\(path)")
            }
            #expect(try await google.postJSON("/_fake/tokens", #"{"user": "nobody@example.com", "scopes": []}"#).status == 404)
            let known = try await google.postJSON("/_fake/state/events/cancel", #"{"user": "\#(H.email)", "id": "no user here"}"#)
            #expect(known.status == 400)
        }
    }
}
