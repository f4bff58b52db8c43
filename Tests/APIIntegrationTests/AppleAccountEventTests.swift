import AlfredCore
import AlfredTestCluster
import Foundation
import PostgresNIO
import StandIns
import Testing

/// Sign in with Apple's server-to-server notifications, sent by the Apple stand-in as Apple sends
/// them (issue #30). Before, the endpoint did not exist: a person who stopped using their Apple ID
/// with Alfred, or deleted it, kept live sessions and devices receiving their reminders.
@Suite(.timeLimit(.minutes(5))) struct AppleAccountEventTests {
    static let subject = "001842.ada"

    static func endpoint(_ w: APIWorld.Running) -> String { w.base + "/v1/auth/apple/notifications" }

    static func count(_ w: APIWorld.Running, _ sql: String) async throws -> Int {
        try await w.owner.query(PostgresQuery(unsafeSQL: sql), logger: TestDatabase.quietLogger).collect().first?.decode(Int.self) ?? -1
    }

    static func signInWithDevice(_ w: APIWorld.Running, _ device: String, _ byte: String) async throws -> APIWorld.Session {
        let s = try await w.signIn(subject: subject)
        #expect(try await w.call(.POST, "/v1/devices/apns", token: s.access, json: """
            {"device_id": "\(device)", "apns_token": "\(String(repeating: byte, count: 32))", "environment": "sandbox"}
            """).status == 200)
        return s
    }

    @Test func consentRevokedEndsEverySessionAndRetiresEveryDevice() async throws {
        try await APIWorld().run { w in
            let phone = try await Self.signInWithDevice(w, "phone", "8a"), ipad = try await Self.signInWithDevice(w, "ipad", "8b")
            let other = try await w.signIn(subject: "001842.grace")
            #expect(try await w.apple.sendAccountEvent(.consentRevoked, subject: Self.subject, to: Self.endpoint(w),
                                                       audience: APIWorld.bundleID) == 200)
            for s in [phone, ipad] { #expect(try await w.call(.GET, "/v1/preferences", token: s.access).status == 401) }
            #expect(try await w.call(.POST, "/v1/auth/refresh", json: #"{"refresh_token": "\#(phone.refresh)"}"#).status == 401)
            #expect(try await Self.count(w, "SELECT count(*)::int8 FROM devices WHERE retired_at IS NULL") == 0)
            #expect(try await Self.count(w, "SELECT count(*)::int8 FROM sessions WHERE revoked_reason = 'apple_consent_revoked'") == 2)
            #expect(try await w.call(.GET, "/v1/preferences", token: other.access).status == 200, "another account goes on")
            let audit = try await w.call(.GET, "/v1/audit-events?limit=200", token: try await w.signIn(subject: Self.subject).access)
            #expect(audit.body.contains("APPLE_ACCOUNT") && audit.body.contains("consent-revoked"), "\(audit.body)")
            #expect(!w.logs.all.joined().contains(Self.subject), "the Apple account id is never logged")
        }
    }

    @Test func accountDeleteRunsDeleteAllAndEndsTheSessionsAtOnce() async throws {
        try await APIWorld().run { w in
            let s = try await Self.signInWithDevice(w, "phone", "9a")
            let user = w.userID(s)
            #expect(try await w.apple.sendAccountEvent(.accountDelete, subject: Self.subject, to: Self.endpoint(w),
                                                       audience: APIWorld.bundleID) == 200)
            #expect(try await w.call(.GET, "/v1/preferences", token: s.access).status == 401)
            #expect(try await Self.count(w, "SELECT count(*)::int8 FROM privacy_requests WHERE user_id = '\(user)' AND kind = 'delete_all'") == 1)
            #expect(try await Self.count(w, "SELECT count(*)::int8 FROM jobs WHERE kind = 'privacy.delete_all' AND state = 'queued'") == 1)
            // Apple may deliver an event twice: still one request.
            #expect(try await w.apple.sendAccountEvent(.accountDelete, subject: Self.subject, to: Self.endpoint(w),
                                                       audience: APIWorld.bundleID) == 200)
            #expect(try await Self.count(w, "SELECT count(*)::int8 FROM privacy_requests WHERE user_id = '\(user)'") == 1)
        }
    }

    /// Email relay changes touch nothing (no address is kept); an account Alfred does not know is
    /// answered 200 and nothing is stored about it.
    @Test func emailEventsAndUnknownAccountsChangeNothing() async throws {
        try await APIWorld().run { w in
            let s = try await w.signIn(subject: Self.subject)
            for event in [AppleStandIn.AccountEvent.emailDisabled, .emailEnabled] {
                #expect(try await w.apple.sendAccountEvent(event, subject: Self.subject, to: Self.endpoint(w), audience: APIWorld.bundleID) == 200)
            }
            #expect(try await w.call(.GET, "/v1/preferences", token: s.access).status == 200)
            let before = try await Self.count(w, "SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM audit_events)")
            for event in AppleStandIn.AccountEvent.allCases {
                #expect(try await w.apple.sendAccountEvent(event, subject: "001842.stranger", to: Self.endpoint(w),
                                                           audience: APIWorld.bundleID) == 200)
            }
            #expect(try await Self.count(w, "SELECT (SELECT count(*) FROM users) + (SELECT count(*) FROM audit_events)") == before)
        }
    }

    /// Apple's keys cannot be fetched: the event cannot be checked, so it is answered 503 with
    /// Retry-After (Apple delivers it again), not 401 (which would say it was not Apple's).
    @Test func anEventThatCannotBeCheckedForWantOfKeysIs503() async throws {
        try await APIWorld().run { w in
            let fault = try w.apple.injectFault(FaultRule(match: .init(method: "GET", path: "/auth/keys"),
                                                          response: CannedResponse(status: 503), times: nil))
            let token = try w.apple.accountEventToken(.consentRevoked, subject: Self.subject, audience: APIWorld.bundleID)
            let reply = try await w.call(.POST, "/v1/auth/apple/notifications", json: #"{"payload": "\#(token)"}"#)
            #expect(reply.status == 503 && reply.headers.first(name: "Retry-After") != nil, "\(reply.body)")
            #expect(reply.code == "unavailable" && !reply.body.contains(token))
            #expect(w.apple.removeFault(id: fault))
        }
    }

    /// What is not Apple's, or not for this app, or stale, is refused and changes nothing.
    @Test func aForgedOrForeignOrStaleNotificationIsRefused() async throws {
        try await APIWorld().run { w in
            let s = try await w.signIn(subject: Self.subject)
            let forged: [(String, String)] = [
                (try w.apple.accountEventToken(.consentRevoked, subject: Self.subject, audience: APIWorld.bundleID, foreignKey: true), "signature"),
                (try w.apple.accountEventToken(.consentRevoked, subject: Self.subject, audience: "com.example.another-app"), "another app"),
                (try w.apple.accountEventToken(.consentRevoked, subject: Self.subject, audience: APIWorld.bundleID,
                                               issuedAt: Date().addingTimeInterval(-3 * 86_400)), "too long ago"),
                (try w.apple.accountEventToken(.consentRevoked, subject: Self.subject, audience: APIWorld.bundleID,
                                               issuer: "https://appleid.example.com"), "not issued by Apple"),
                ("not-a-jws", "not a JWS"),
            ]
            for (token, check) in forged {
                let reply = try await w.call(.POST, "/v1/auth/apple/notifications", json: #"{"payload": "\#(token)"}"#)
                #expect(reply.status == 401 && reply.message?.contains(check) == true, "\(check): \(reply.body)")
            }
            #expect(try await w.call(.GET, "/v1/preferences", token: s.access).status == 200)
        }
    }
}
