import AlfredTestCluster
import Foundation
import NIOHTTP1

/// Every operation of the contract, with a valid request, for table-driven tests. `RouteTableTests`
/// checks the table against `openapi.yaml`, so a new operation cannot be left out of them.
struct Route: CustomStringConvertible, Sendable {
    let operationID: String
    let method: HTTPMethod
    /// `{id}` is replaced by the resource id a test passes.
    let template: String
    let body: String?
    /// Names a resource of its caller by id (another user's id must answer 404).
    let takesID: Bool

    func path(_ id: String) -> String { template.replacingOccurrences(of: "{id}", with: id) }
    var description: String { "\(method.rawValue) \(template)" }
}

enum Routes {
    static let all: [Route] = [
        Route(operationID: "createSession", method: .POST, template: "/v1/auth/ios/session", body: nil, takesID: false),
        Route(operationID: "refreshSession", method: .POST, template: "/v1/auth/refresh", body: nil, takesID: false),
        Route(operationID: "health", method: .GET, template: "/healthz", body: nil, takesID: false),
        // Called by Apple with its own signed JWT, not a session (AppleAccountEventTests).
        Route(operationID: "receiveAppleAccountEvent", method: .POST, template: "/v1/auth/apple/notifications",
              body: #"{"payload": "eyJhbGciOiJSUzI1NiJ9.e30.sig"}"#, takesID: false),
        // Called by Google's Pub/Sub with its own OIDC token, not a session (PushTests).
        Route(operationID: "receiveGmailPush", method: .POST, template: "/v1/google/pubsub/push",
              body: #"{"message": {"data": "e30="}, "subscription": "projects/p/subscriptions/s"}"#, takesID: false),
    ] + authenticated

    static let authenticated: [Route] = [
        Route(operationID: "logout", method: .POST, template: "/v1/auth/logout", body: nil, takesID: false),
        Route(operationID: "registerDevice", method: .POST, template: "/v1/devices/apns",
              body: #"{"device_id": "iphone-1", "apns_token": "\#(String(repeating: "ab", count: 32))", "environment": "sandbox"}"#,
              takesID: false),
        Route(operationID: "unregisterDevice", method: .DELETE, template: "/v1/devices/apns/{id}", body: nil, takesID: true),
        Route(operationID: "listDevices", method: .GET, template: "/v1/devices", body: nil, takesID: false),
        Route(operationID: "deleteDevice", method: .DELETE, template: "/v1/devices/{id}", body: nil, takesID: true),
        Route(operationID: "startGoogleConnect", method: .POST, template: "/v1/connectors/google/start",
              body: #"{"redirect_uri": "\#(GoogleSide.iosRedirect)"}"#, takesID: false),
        Route(operationID: "finishGoogleConnect", method: .POST, template: "/v1/connectors/google/callback",
              body: #"{"code": "4/0Aexample", "state": "state-from-start"}"#, takesID: false),
        Route(operationID: "listConnectors", method: .GET, template: "/v1/connectors", body: nil, takesID: false),
        Route(operationID: "deleteConnector", method: .DELETE, template: "/v1/connectors/{id}", body: nil, takesID: true),
        // Register before delete: the route tables run in order, and delete needs something to delete.
        Route(operationID: "registerRelayMailbox", method: .PUT, template: "/v1/relay/mailbox",
              body: #"{"email_address": "relay.user@example.com", "google_id_token": "eyJhbGciOiJSUzI1NiJ9.e30.sig"}"#, takesID: false),
        Route(operationID: "deleteRelayMailbox", method: .DELETE, template: "/v1/relay/mailbox", body: nil, takesID: false),
        Route(operationID: "getPreferences", method: .GET, template: "/v1/preferences", body: nil, takesID: false),
        Route(operationID: "putPreferences", method: .PUT, template: "/v1/preferences",
              body: #"{"meeting_reminder_minutes": 10, "morning_brief_local_time": "07:30", "quiet_hours_start": "23:00", "quiet_hours_end": "06:30", "high_risk_requires_confirm": true}"#,
              takesID: false),
        Route(operationID: "getUrgencyPreferences", method: .GET, template: "/v1/preferences/urgency", body: nil, takesID: false),
        Route(operationID: "putUrgencyPreferences", method: .PUT, template: "/v1/preferences/urgency",
              body: #"{"vip_senders": ["boss@example.com", "@school.example.org"], "keywords": ["outage"]}"#, takesID: false),
        Route(operationID: "listAuditEvents", method: .GET, template: "/v1/audit-events", body: nil, takesID: false),
        Route(operationID: "requestDeleteAll", method: .POST, template: "/v1/privacy/delete-all", body: nil, takesID: false),
        Route(operationID: "getDeleteAllStatus", method: .GET, template: "/v1/privacy/delete-all/{id}", body: nil, takesID: true),
        Route(operationID: "exportData", method: .GET, template: "/v1/privacy/export", body: nil, takesID: false),
        Route(operationID: "urgentFeedback", method: .POST, template: "/v1/feedback/urgent",
              body: #"{"notification_id": "brief:2026-11-25", "verdict": "false_positive"}"#, takesID: false),
    ]
}
