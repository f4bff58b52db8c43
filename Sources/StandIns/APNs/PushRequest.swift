import Foundation
import Hummingbird

/// An error answer as Apple sends it: a status and `{"reason": …}` (plus `timestamp` for 410).
struct APNsRejection: Error, Equatable, Sendable {
    var status: Int
    var reason: String
    /// Milliseconds since 1970; only `Unregistered` carries one.
    var timestamp: Int64?
    var retryAfterSeconds: Int?

    init(status: Int, reason: String, timestamp: Int64? = nil, retryAfterSeconds: Int? = nil) {
        self.status = status
        self.reason = reason
        self.timestamp = timestamp
        self.retryAfterSeconds = retryAfterSeconds
    }

    static func badRequest(_ reason: String) -> Self { Self(status: 400, reason: reason) }
    static func forbidden(_ reason: String) -> Self { Self(status: 403, reason: reason) }
}

extension HTTPFields.Element.Name {
    static let apnsID = Self("apns-id")!
    static let apnsTopic = Self("apns-topic")!
    static let apnsPushType = Self("apns-push-type")!
    static let apnsPriority = Self("apns-priority")!
    static let apnsExpiration = Self("apns-expiration")!
    static let apnsCollapseID = Self("apns-collapse-id")!
}

/// The pure checks of one `/3/device` request, in Apple's order: path and method, then (after the
/// provider token) headers, then payload. Each throws the answer Apple would give.
enum PushRequest {
    static let devicePath = "/3/device"

    /// Push types Apple lists, with the suffix each needs on the bundle id in `apns-topic`.
    static let topicSuffixes: [String: String] = [
        "alert": "", "background": "", "mdm": "", "voip": ".voip", "location": ".location-query",
        "complication": ".complication", "fileprovider": ".pushkit.fileprovider",
        "liveactivity": ".push-type.liveactivity", "pushtotalk": ".voip-ptt", "widgets": ".push-type.widgets",
    ]

    /// The device token named by `POST /3/device/<token>`.
    static func deviceToken(method: HTTPRequest.Method, path: String) throws(APNsRejection) -> String {
        guard path == devicePath || path.hasPrefix(devicePath + "/") else { throw APNsRejection(status: 404, reason: "BadPath") }
        let token = path.dropFirst(min(path.count, devicePath.count + 1))
        guard !token.contains("/") else { throw APNsRejection(status: 404, reason: "BadPath") }
        guard method == .post else { throw APNsRejection(status: 405, reason: "MethodNotAllowed") }
        guard !token.isEmpty else { throw .badRequest("MissingDeviceToken") }
        return String(token)
    }

    /// The request's `apns-id` lowercased, if it is a canonical UUID (8-4-4-4-12 hex digits).
    static func validAPNsID(_ value: String?) -> String? {
        guard let value, value.utf8.count == 36, UUID(uuidString: value) != nil else { return nil }
        return value.lowercased()
    }

    /// The `apns-*` headers, validated against the app's topic.
    struct Headers: Equatable {
        var topic: String
        var pushType: String
        var priority: Int
        var expiration: Int
        var collapseID: String?

        init(_ fields: HTTPFields, appTopic: String) throws(APNsRejection) {
            var seen = Set<String>()
            for field in fields where field.name.canonicalName.hasPrefix("apns-") {
                guard seen.insert(field.name.canonicalName).inserted else { throw .badRequest("DuplicateHeaders") }
            }
            guard let topic = fields[.apnsTopic], !topic.isEmpty else { throw .badRequest("MissingTopic") }
            pushType = fields[.apnsPushType] ?? "alert"
            guard let suffix = PushRequest.topicSuffixes[pushType] else { throw .badRequest("InvalidPushType") }
            guard topic == appTopic + suffix else { throw .badRequest("BadTopic") }
            self.topic = topic

            guard let priority = Int(fields[.apnsPriority] ?? "10"), [1, 5, 10].contains(priority)
            else { throw .badRequest("BadPriority") }
            if pushType == "background" && priority != 5 { throw .badRequest("BadPriority") }
            self.priority = priority

            guard let expiration = Int(fields[.apnsExpiration] ?? "0"), expiration >= 0
            else { throw .badRequest("BadExpirationDate") }
            self.expiration = expiration

            collapseID = fields[.apnsCollapseID]
            if let collapseID, collapseID.utf8.count > 64 { throw .badRequest("BadCollapseId") }

            if let id = fields[.apnsID], PushRequest.validAPNsID(id) == nil { throw .badRequest("BadMessageId") }
        }
    }

    /// A non-empty JSON object within Apple's size limit that matches the push type.
    static func checkPayload(_ payload: Data, headers: Headers) throws(APNsRejection) {
        guard !payload.isEmpty else { throw .badRequest("PayloadEmpty") }
        let limit = headers.pushType == "voip" ? 5120 : 4096
        guard payload.count <= limit else { throw APNsRejection(status: 413, reason: "PayloadTooLarge") }
        guard let object = (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any]
        else { throw .badRequest("PayloadEmpty") }
        if headers.pushType == "background" {
            // Apple: a background push carries `content-available: 1` and nothing user-visible.
            let aps = object["aps"] as? [String: Any] ?? [:]
            let silent = (aps["content-available"] as? Int) == 1
                && aps["alert"] == nil && aps["sound"] == nil && aps["badge"] == nil
            guard silent else { throw .badRequest("InvalidPushType") }
        }
    }
}
