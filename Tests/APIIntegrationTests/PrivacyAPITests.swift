import AlfredCore
import AlfredTestCluster
@testable import API
import Foundation
import JobQueue
import Logging
import PostgresNIO
import Privacy
import ServiceLifecycle
import StandIns
import Store
import Testing
import WorkerProcess

/// Delete-all and export through the API, and what never reaches a log, a table or the audit trail.
@Suite(.timeLimit(.minutes(5))) struct PrivacyAPITests {
    @Test func deleteAllThroughTheAPILeavesOnlyTheFinalRecordAndEndsTheSession() async throws {
        try await APIWorld().run { w in
            let s = try await w.signIn()
            let user = w.userID(s)
            _ = try await w.call(.POST, "/v1/devices/apns", token: s.access, json: Routes.authenticated[1].body)
            _ = try await w.call(.PUT, "/v1/preferences", token: s.access, json: Routes.authenticated[4].body)
            let export = try await w.call(.GET, "/v1/privacy/export", token: s.access)
            #expect(export.status == 200 && (export.json["devices"] as? [Any])?.count == 1, "\(export.body)")
            #expect(!export.body.contains("apns_token") && !export.body.contains("device_ref"), "\(export.body)")

            let accepted = try await w.call(.POST, "/v1/privacy/delete-all", token: s.access)
            #expect(accepted.status == 202 && accepted.json["status"] as? String == "QUEUED", "\(accepted.body)")
            let request = try #require(accepted.json["request_id"] as? String)
            let again = try await w.call(.POST, "/v1/privacy/delete-all", token: s.access)
            #expect(again.json["request_id"] as? String == request, "one open request per user")
            #expect(try await w.call(.GET, "/v1/privacy/delete-all/\(request)", token: s.access).json["status"] as? String == "QUEUED")

            // A worker runs the request (no Google connection here, so nothing to revoke).
            let completed = try await Self.withWorker(w.url) {
                try await eventually {
                    try await PostgresPrivacyStore(client: w.owner, logger: TestDatabase.quietLogger)
                        .request(UUID(uuidString: request)!)?.state == .completed
                }
            }
            #expect(completed)
            #expect(try await userReferences(to: user, in: w.owner) == ["audit_events.user_id": 1], "only the final audit record")
            let after = try await w.call(.GET, "/v1/preferences", token: s.access)
            #expect(after.status == 401, "the session went with the account: \(after.body)")
            #expect(try await w.call(.POST, "/v1/auth/refresh", json: #"{"refresh_token": "\#(s.refresh)"}"#).status == 401)
        }
    }

    /// Tokens, the Apple account id, e-mail and device tokens appear in no log line, no table in
    /// plaintext, no audit record and no metric label.
    @Test func noTokenAccountIDEmailOrDeviceTokenLeaks() async throws {
        try await APIWorld().run { w in
            let subject = "001842.f00dfeedcafe"
            let session = try await w.signIn(subject: subject)
            let refreshed = try await w.call(.POST, "/v1/auth/refresh", json: #"{"refresh_token": "\#(session.refresh)"}"#)
            let device = String(repeating: "9c", count: 32)
            _ = try await w.call(.POST, "/v1/devices/apns", token: session.access,
                                 json: #"{"device_id": "secret-phone-77", "apns_token": "\#(device)", "environment": "sandbox"}"#)
            // Refused attempts log too: a replayed refresh token and a forged identity token.
            _ = try await w.call(.POST, "/v1/auth/refresh", json: #"{"refresh_token": "\#(session.refresh)"}"#)
            let forged = try w.apple.identityToken(.init(subject: subject, audience: APIWorld.bundleID, overrides: [.badSignature]))
            _ = try await w.call(.POST, "/v1/auth/ios/session", json: APIWorld.Running.sessionBody(forged))

            let secrets = [session.access, session.refresh, refreshed.json["refresh_token"] as? String ?? "?", subject,
                           AppleStandIn.Configuration().email, device, "secret-phone-77", forged]
            let logs = w.logs.all
            #expect(logs.count > 3, "the API logged as it worked")
            let audit = try await w.owner.query("SELECT event_type || ' ' || redacted_metadata::text FROM audit_events",
                                                logger: TestDatabase.quietLogger).collect().map { try $0.decode(String.self) }
            #expect(audit.contains { $0.hasPrefix("SIGN_IN") }, "\(audit)")
            // Metric labels are route patterns, methods and classes: never an id or a token.
            let metrics = w.metrics.allKeys
            #expect(metrics.contains { $0.contains("route=/v1/devices/apns") }, "\(metrics)")
            #expect(metrics.filter { $0.hasPrefix(MetricName.apiRequests) }.allSatisfy { key in
                Routes.all.contains { key.contains("route=\($0.template.replacingOccurrences(of: "{id}", with: ""))") }
                    || key.contains("route=unmatched") || key.contains("route=/openapi.json")
            }, "\(metrics)")
            for secret in secrets {
                #expect(!metrics.contains { $0.contains(secret) }, "a metric label holds \(secret.prefix(12))…")
                #expect(!logs.contains { $0.contains(secret) }, "a log line holds \(secret.prefix(12))…")
                #expect(!audit.contains { $0.contains(secret) }, "the audit trail holds \(secret.prefix(12))…")
                #expect(try await plaintextHits(of: secret, in: w.owner) == [], "a table holds \(secret.prefix(12))…")
            }
        }
    }

    /// A worker on the default queue, as `alfred worker` runs it without a broker (delete-all parks its
    /// revocations), while `body` runs.
    static func withWorker<T: Sendable>(_ url: DatabaseURL, _ body: () async throws -> T) async throws -> T {
        var workerURL = url
        workerURL.username = "alfred_worker"
        let logger = TestDatabase.quietLogger
        var configuration = WorkerConfiguration()
        configuration.pollInterval = .milliseconds(200)
        let worker = WorkerApp(database: workerURL, configuration: configuration, parts: WorkerParts(),
                               runtime: .test(clock: ContinuousClock(), logger: logger))
        return try await withRunningServices([worker], logger: logger, body)
    }
}
