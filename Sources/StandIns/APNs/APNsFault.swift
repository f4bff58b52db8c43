/// A misbehaviour of Apple's for the next `count` `/3/device` requests that would otherwise be
/// accepted (optionally only for one device token). Faults are used first added, first served.
///
/// What happens, in order: wait `latency` (if any); then `resetConnection` closes the connection
/// without an answer (after delivering the push to the device when `acceptBeforeReset`: Apple had it,
/// the answer was lost), else a `status` other than 200 answers `{"reason": reason}` (with
/// `retry-after` when set), else the push is accepted as usual (a latency-only fault).
/// `goAway` instead ends the HTTP/2 connection as a server going away does: GOAWAY with the highest
/// stream id it processed on that connection; this push and every later stream on the connection
/// are not processed (this one is, if a later stream already was). The connection closes 2 s later.
///
/// Control-plane JSON (`POST /_fake/faults`), every key optional except as noted:
/// `{"status": 503, "reason": "ServiceUnavailable", "count": 1, "device_token": "…",
///   "retry_after_seconds": 5, "latency_ms": 250, "reset_connection": false, "accept_before_reset": false,
///   "go_away": false}`
/// (`status` defaults to 200, `reason` to "", `count` to 1).
public struct APNsFault: Sendable, Codable, Equatable {
    public var status: Int
    public var reason: String
    public var count: Int
    public var deviceToken: String?
    public var retryAfterSeconds: Int?
    public var latency: Duration?
    /// Close the connection (the whole HTTP/2 connection, like a network reset) without answering.
    public var resetConnection: Bool
    /// With `resetConnection`: the push reaches the device first, so only the answer is lost.
    public var acceptBeforeReset: Bool
    /// GOAWAY on this push's connection (see above).
    public var goAway: Bool

    public init(status: Int = 200, reason: String = "", count: Int = 1, deviceToken: String? = nil,
                retryAfterSeconds: Int? = nil, latency: Duration? = nil, resetConnection: Bool = false,
                acceptBeforeReset: Bool = false, goAway: Bool = false) {
        self.status = status
        self.reason = reason
        self.count = count
        self.deviceToken = deviceToken
        self.retryAfterSeconds = retryAfterSeconds
        self.latency = latency
        self.resetConnection = resetConnection
        self.acceptBeforeReset = acceptBeforeReset
        self.goAway = goAway
    }

    /// Apple's error answer, e.g. `.reason("ServiceUnavailable", status: 503)`,
    /// `.reason("TooManyRequests", status: 429, retryAfterSeconds: 2)`.
    public static func reason(_ reason: String, status: Int, count: Int = 1, deviceToken: String? = nil,
                              retryAfterSeconds: Int? = nil) -> APNsFault {
        APNsFault(status: status, reason: reason, count: count, deviceToken: deviceToken,
                  retryAfterSeconds: retryAfterSeconds)
    }

    /// A slow but successful answer.
    public static func latency(_ latency: Duration, count: Int = 1, deviceToken: String? = nil) -> APNsFault {
        APNsFault(count: count, deviceToken: deviceToken, latency: latency)
    }

    /// The connection drops mid-request.
    public static func reset(count: Int = 1, deviceToken: String? = nil) -> APNsFault {
        APNsFault(count: count, deviceToken: deviceToken, resetConnection: true)
    }

    /// The server goes away on this push's connection: GOAWAY, and the streams above its last stream
    /// id are not processed.
    public static func goAway(count: Int = 1, deviceToken: String? = nil) -> APNsFault {
        APNsFault(count: count, deviceToken: deviceToken, goAway: true)
    }

    /// Apple accepts the push (the device shows it), then the connection drops before the answer:
    /// the sender cannot know it was delivered.
    public static func acceptThenReset(count: Int = 1, deviceToken: String? = nil) -> APNsFault {
        APNsFault(count: count, deviceToken: deviceToken, resetConnection: true, acceptBeforeReset: true)
    }

    /// Why this fault cannot be used, or nil.
    var problem: String? {
        if count < 1 { return "count must be at least 1" }
        if !(200...599).contains(status) { return "status must be 200...599" }
        if status != 200 && reason.isEmpty && !resetConnection { return "an error status needs a reason" }
        if status == 200 && latency == nil && !resetConnection && !goAway {
            return "a fault needs a status, latency_ms, reset_connection or go_away"
        }
        if goAway && (resetConnection || status != 200) { return "go_away goes alone (no status, no reset_connection)" }
        if let latency, latency < .zero { return "latency must not be negative" }
        if acceptBeforeReset && !resetConnection { return "accept_before_reset needs reset_connection" }
        return nil
    }

    enum CodingKeys: String, CodingKey {
        case status, reason, count, deviceToken = "device_token", retryAfterSeconds = "retry_after_seconds"
        case latency = "latency_ms", resetConnection = "reset_connection", acceptBeforeReset = "accept_before_reset"
        case goAway = "go_away"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(status: try c.decodeIfPresent(Int.self, forKey: .status) ?? 200,
                  reason: try c.decodeIfPresent(String.self, forKey: .reason) ?? "",
                  count: try c.decodeIfPresent(Int.self, forKey: .count) ?? 1,
                  deviceToken: try c.decodeIfPresent(String.self, forKey: .deviceToken),
                  retryAfterSeconds: try c.decodeIfPresent(Int.self, forKey: .retryAfterSeconds),
                  latency: try c.decodeIfPresent(Double.self, forKey: .latency).map { .milliseconds($0) },
                  resetConnection: try c.decodeIfPresent(Bool.self, forKey: .resetConnection) ?? false,
                  acceptBeforeReset: try c.decodeIfPresent(Bool.self, forKey: .acceptBeforeReset) ?? false,
                  goAway: try c.decodeIfPresent(Bool.self, forKey: .goAway) ?? false)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(status, forKey: .status)
        try c.encode(reason, forKey: .reason)
        try c.encode(count, forKey: .count)
        try c.encodeIfPresent(deviceToken, forKey: .deviceToken)
        try c.encodeIfPresent(retryAfterSeconds, forKey: .retryAfterSeconds)
        try c.encodeIfPresent(latency.map { $0.timeInterval * 1000 }, forKey: .latency)
        try c.encode(resetConnection, forKey: .resetConnection)
        try c.encode(acceptBeforeReset, forKey: .acceptBeforeReset)
        try c.encode(goAway, forKey: .goAway)
    }
}
