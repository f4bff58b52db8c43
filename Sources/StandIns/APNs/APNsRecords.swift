import Foundation

// The control plane's JSON (`/_fake/...`) is snake_case throughout; times are milliseconds since
// 1970 (a number, fractions kept) and payloads base64. Codable here writes exactly that whatever
// the encoder's strategies, so any process can read it with a plain `JSONDecoder`.

/// A push the stand-in accepted (answered 200), as the device would receive it.
public struct APNsDelivery: Sendable, Codable, Equatable {
    public let deviceToken: String
    /// The `apns-id` of the answer (the request's, lowercased, or a generated one).
    public let apnsID: String
    /// `apns-push-type`; `alert` when the header was absent.
    public let pushType: String
    /// `apns-priority`; 10 when absent.
    public let priority: Int
    /// `apns-expiration` (UNIX seconds); 0 when absent.
    public let expiration: Int
    public let collapseID: String?
    public let topic: String
    /// The JSON body exactly as sent (base64 in the control plane's JSON).
    public let payload: Data
    /// When the request arrived, by the stand-in's clock.
    public let receivedAt: Date

    enum CodingKeys: String, CodingKey {
        case deviceToken = "device_token", apnsID = "apns_id", pushType = "push_type", priority, expiration
        case collapseID = "collapse_id", topic, payload, receivedAt = "received_at_ms"
    }

    init(deviceToken: String, apnsID: String, pushType: String, priority: Int, expiration: Int,
         collapseID: String?, topic: String, payload: Data, receivedAt: Date) {
        self.deviceToken = deviceToken
        self.apnsID = apnsID
        self.pushType = pushType
        self.priority = priority
        self.expiration = expiration
        self.collapseID = collapseID
        self.topic = topic
        self.payload = payload
        self.receivedAt = receivedAt
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        deviceToken = try c.decode(String.self, forKey: .deviceToken)
        apnsID = try c.decode(String.self, forKey: .apnsID)
        pushType = try c.decode(String.self, forKey: .pushType)
        priority = try c.decode(Int.self, forKey: .priority)
        expiration = try c.decode(Int.self, forKey: .expiration)
        collapseID = try c.decodeIfPresent(String.self, forKey: .collapseID)
        topic = try c.decode(String.self, forKey: .topic)
        let base64 = try c.decode(String.self, forKey: .payload)
        guard let payload = Data(base64Encoded: base64) else {
            throw DecodingError.dataCorruptedError(forKey: .payload, in: c, debugDescription: "payload is not base64")
        }
        self.payload = payload
        receivedAt = Date(millisecondsSince1970: try c.decode(Double.self, forKey: .receivedAt))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(deviceToken, forKey: .deviceToken)
        try c.encode(apnsID, forKey: .apnsID)
        try c.encode(pushType, forKey: .pushType)
        try c.encode(priority, forKey: .priority)
        try c.encode(expiration, forKey: .expiration)
        try c.encodeIfPresent(collapseID, forKey: .collapseID)
        try c.encode(topic, forKey: .topic)
        try c.encode(payload.base64EncodedString(), forKey: .payload)
        try c.encode(receivedAt.millisecondsSince1970, forKey: .receivedAt)
    }
}

extension APNsDelivery {
    /// What iOS reads from the payload to offer actions and open the app: `aps.category`, and the
    /// app's own fields (`alfred.notification_id`, `alfred.link`, `alfred.join_url`).
    public var category: String? { (object["aps"] as? [String: Any])?["category"] as? String }
    public var notificationID: String? { (object["alfred"] as? [String: Any])?["notification_id"] as? String }
    public var link: String? { (object["alfred"] as? [String: Any])?["link"] as? String }
    public var joinURL: String? { (object["alfred"] as? [String: Any])?["join_url"] as? String }
    /// The alert's title and body as the lock screen shows them.
    public var alertText: (title: String, body: String)? {
        guard let alert = (object["aps"] as? [String: Any])?["alert"] as? [String: Any] else { return nil }
        return (alert["title"] as? String ?? "", alert["body"] as? String ?? "")
    }

    private var object: [String: Any] { (try? JSONSerialization.jsonObject(with: payload)) as? [String: Any] ?? [:] }

    /// What a device shows of these accepted pushes, in arrival order: an alert with an
    /// `apns-collapse-id` replaces the earlier one with the same id (Apple: "displayed to the user as
    /// a single notification"), so a resend under the same id is seen once; background pushes show
    /// nothing.
    public static func shownOnDevice(_ deliveries: [APNsDelivery]) -> [APNsDelivery] {
        var shown: [APNsDelivery] = []
        var position: [String: Int] = [:]
        for delivery in deliveries where delivery.pushType == "alert" {
            if let id = delivery.collapseID, let at = position[id] {
                shown[at] = delivery
            } else {
                if let id = delivery.collapseID { position[id] = shown.count }
                shown.append(delivery)
            }
        }
        return shown
    }
}

/// One request to the APNs paths (everything but `/_fake/`) and how it was answered.
public struct APNsRequestRecord: Sendable, Codable, Equatable {
    /// Empty when the path named none.
    public let deviceToken: String
    /// The HTTP status; 0 when an injected reset closed the connection without an answer.
    public let status: Int
    /// Apple's `reason`; nil for 200 and resets.
    public let reason: String?
    public let apnsID: String
    public let receivedAt: Date

    enum CodingKeys: String, CodingKey {
        case deviceToken = "device_token", status, reason, apnsID = "apns_id", receivedAt = "received_at_ms"
    }

    init(deviceToken: String, status: Int, reason: String?, apnsID: String, receivedAt: Date) {
        self.deviceToken = deviceToken
        self.status = status
        self.reason = reason
        self.apnsID = apnsID
        self.receivedAt = receivedAt
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        deviceToken = try c.decode(String.self, forKey: .deviceToken)
        status = try c.decode(Int.self, forKey: .status)
        reason = try c.decodeIfPresent(String.self, forKey: .reason)
        apnsID = try c.decode(String.self, forKey: .apnsID)
        receivedAt = Date(millisecondsSince1970: try c.decode(Double.self, forKey: .receivedAt))
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(deviceToken, forKey: .deviceToken)
        try c.encode(status, forKey: .status)
        try c.encodeIfPresent(reason, forKey: .reason)
        try c.encode(apnsID, forKey: .apnsID)
        try c.encode(receivedAt.millisecondsSince1970, forKey: .receivedAt)
    }
}

/// Keeps the newest `capacity` elements. Trims in batches so appending at capacity stays cheap.
struct BoundedLog<Element: Sendable>: Sendable {
    private var storage: [Element] = []
    let capacity: Int

    init(capacity: Int) { self.capacity = max(1, capacity) }

    mutating func append(_ element: Element) {
        storage.append(element)
        if storage.count >= capacity + max(1, capacity / 4) { storage.removeFirst(storage.count - capacity) }
    }

    var elements: [Element] { Array(storage.suffix(capacity)) }

    mutating func removeAll() { storage.removeAll() }
}

extension Date {
    init(millisecondsSince1970 milliseconds: Double) { self.init(timeIntervalSince1970: milliseconds / 1000) }
    var millisecondsSince1970: Double { timeIntervalSince1970 * 1000 }
}

extension Duration {
    var timeInterval: TimeInterval {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
