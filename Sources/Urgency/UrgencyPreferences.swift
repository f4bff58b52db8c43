import Foundation

/// What the urgency rules know about one user. JSON keys are snake_case; every key is optional:
/// ```json
/// { "vip_senders": ["boss@example.com", "@school.example.org"], "keywords": ["outage"],
///   "threshold": 55, "quiet_hours_threshold": 95,
///   "user_addresses": ["ada@example.com"], "own_thread_ids": ["18c2f0a9d1e4b7c3"],
///   "own_message_ids": ["<CAF=abc@mail.example.com>"],
///   "time_zone": "Europe/Amsterdam", "now": "2026-11-21T09:40:00+01:00" }
/// ```
/// These are personal data: they feed the rules and never appear in a decision.
public struct UrgencyPreferences: Sendable, Equatable, Codable {
    /// Addresses (`boss@example.com`) or whole domains (`@example.org`, that exact domain only).
    public var vipSenders: [String]
    /// Words or phrases that make a subject urgent for this user, matched like the urgency words.
    public var keywords: [String]
    /// Replaces the rule set's threshold for this user.
    public var threshold: Int?
    /// Replaces the rule set's quiet-hours threshold. Without it, an overridden `threshold` keeps
    /// the rule set's gap to the quiet-hours bar, so quiet hours always ask for more.
    public var quietHoursThreshold: Int?
    /// The user's own addresses, for direct-to-me versus Cc-only versus not addressed at all.
    public var userAddresses: [String]
    /// Threads the user wrote in (Gmail `threadId`s of SENT messages).
    public var ownThreadIds: [String]
    /// `Message-ID`s of mail the user sent, matched against `In-Reply-To` and `References`.
    public var ownMessageIds: [String]
    /// The user's zone, for "an invitation for today". Default UTC.
    public var timeZone: TimeZone
    /// A fixed "now" for evaluations (RFC 3339). The library never reads the clock; only the CLI
    /// falls back to the real time when this is absent.
    public var now: Date?

    public init(vipSenders: [String] = [], keywords: [String] = [], threshold: Int? = nil,
                quietHoursThreshold: Int? = nil, userAddresses: [String] = [], ownThreadIds: [String] = [],
                ownMessageIds: [String] = [], timeZone: TimeZone = TimeZone(identifier: "UTC")!, now: Date? = nil) {
        self.vipSenders = vipSenders; self.keywords = keywords; self.threshold = threshold
        self.quietHoursThreshold = quietHoursThreshold; self.userAddresses = userAddresses
        self.ownThreadIds = ownThreadIds; self.ownMessageIds = ownMessageIds; self.timeZone = timeZone; self.now = now
    }

    enum CodingKeys: String, CodingKey {
        case keywords, threshold, now
        case vipSenders = "vip_senders"
        case quietHoursThreshold = "quiet_hours_threshold"
        case userAddresses = "user_addresses"
        case ownThreadIds = "own_thread_ids"
        case ownMessageIds = "own_message_ids"
        case timeZone = "time_zone"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            vipSenders: try container.decodeIfPresent([String].self, forKey: .vipSenders) ?? [],
            keywords: try container.decodeIfPresent([String].self, forKey: .keywords) ?? [],
            threshold: try container.decodeIfPresent(Int.self, forKey: .threshold),
            quietHoursThreshold: try container.decodeIfPresent(Int.self, forKey: .quietHoursThreshold),
            userAddresses: try container.decodeIfPresent([String].self, forKey: .userAddresses) ?? [],
            ownThreadIds: try container.decodeIfPresent([String].self, forKey: .ownThreadIds) ?? [],
            ownMessageIds: try container.decodeIfPresent([String].self, forKey: .ownMessageIds) ?? [])
        for (key, value) in [(CodingKeys.threshold, threshold), (.quietHoursThreshold, quietHoursThreshold)]
        where value.map({ !RuleSet.bounds.contains($0) }) ?? false {
            throw DecodingError.dataCorruptedError(forKey: key, in: container,
                                                   debugDescription: "must lie in \(RuleSet.bounds)")
        }
        if let identifier = try container.decodeIfPresent(String.self, forKey: .timeZone) {
            guard let zone = TimeZone(identifier: identifier) else {
                throw DecodingError.dataCorruptedError(forKey: .timeZone, in: container,
                                                       debugDescription: "'\(identifier)' is not an IANA time zone")
            }
            timeZone = zone
        }
        if let text = try container.decodeIfPresent(String.self, forKey: .now) {
            guard let date = Self.parseRFC3339(text) else {
                throw DecodingError.dataCorruptedError(forKey: .now, in: container,
                                                       debugDescription: "'\(text)' is not an RFC 3339 date-time")
            }
            now = date
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(vipSenders, forKey: .vipSenders)
        try container.encode(keywords, forKey: .keywords)
        try container.encodeIfPresent(threshold, forKey: .threshold)
        try container.encodeIfPresent(quietHoursThreshold, forKey: .quietHoursThreshold)
        try container.encode(userAddresses, forKey: .userAddresses)
        try container.encode(ownThreadIds, forKey: .ownThreadIds)
        try container.encode(ownMessageIds, forKey: .ownMessageIds)
        try container.encode(timeZone.identifier, forKey: .timeZone)
        if let now {
            try container.encode(ISO8601DateFormatter().string(from: now), forKey: .now)
        }
    }

    /// Reads a preferences JSON file.
    public init(contentsOfFile path: String) throws {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw PreferencesError(detail: "cannot read \(path)")
        }
        do { self = try JSONDecoder().decode(Self.self, from: data) } catch let error as DecodingError {
            throw PreferencesError(detail: "\(path): \(DecodingFailure.describe(error))")
        }
    }

    /// RFC 3339 with or without fractional seconds ("2026-11-21T09:40:00+01:00", "…T08:40:00.250Z").
    static func parseRFC3339(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }
}

extension UrgencyPreferences: CustomStringConvertible, CustomDebugStringConvertible {
    /// Counts and the zone only: addresses and keywords are personal and must not reach a log by accident.
    public var description: String {
        "UrgencyPreferences(vip_senders: \(vipSenders.count), keywords: \(keywords.count), user_addresses: \(userAddresses.count), "
            + "own_threads: \(ownThreadIds.count), own_messages: \(ownMessageIds.count), time_zone: \(timeZone.identifier))"
    }
    public var debugDescription: String { description }
}

/// A preferences file that cannot be used; names the file and the field, never a value from it.
public struct PreferencesError: Error, CustomStringConvertible, Equatable {
    public let detail: String
    public var description: String { "preferences: \(detail)" }
}
