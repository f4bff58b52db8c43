import Foundation

/// An APNs failure reason (external-apis §4.5). Known reasons are kept as Apple spells them; any
/// other string maps to `other` where it becomes a metric label.
public struct APNsReason: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    public static let known: Set<String> = [
        "BadCollapseId", "BadDeviceToken", "BadExpirationDate", "BadMessageId", "BadPriority", "BadTopic",
        "DeviceTokenNotForTopic", "DuplicateHeaders", "IdleTimeout", "InvalidPushType", "MissingDeviceToken",
        "MissingTopic", "PayloadEmpty", "TopicDisallowed", "BadCertificate", "BadCertificateEnvironment",
        "ExpiredProviderToken", "Forbidden", "InvalidProviderToken", "MissingProviderToken",
        "BadEnvironmentKeyInToken", "UnrelatedKeyIdInToken", "BadPath", "MethodNotAllowed", "ExpiredToken",
        "Unregistered", "PayloadTooLarge", "TooManyProviderTokenUpdates", "TooManyRequests",
        "InternalServerError", "ServiceUnavailable", "Shutdown",
    ]

    /// A bounded label value.
    public var metricLabel: String { Self.known.contains(rawValue) ? rawValue : "other" }
}

/// What APNs answered to one push.
public enum APNsResponse: Sendable, Equatable {
    /// HTTP 200: APNs accepted the notification (it stores and forwards it until `apns-expiration`).
    case accepted(apnsID: String)
    /// Any other status, with Apple's reason; `timestamp` comes with 410, `retryAfter` if a header said so.
    case rejected(status: Int, reason: APNsReason, timestamp: Date?, retryAfter: Duration?)

    /// What the sender should do, per Apple's table (external-apis §4.5).
    public var disposition: APNsDisposition {
        switch self {
        case .accepted: return .delivered
        case .rejected(let status, let reason, let timestamp, let retryAfter):
            switch (status, reason.rawValue) {
            // Any 410 means the token is gone (`Unregistered`, `ExpiredToken`, or a reason newer than this code).
            case (410, "ExpiredToken"): return .retireDevice(reason: reason, unregisteredAt: timestamp)
            case (410, _): return .retireDevice(reason: APNsReason(rawValue: "Unregistered"), unregisteredAt: timestamp)
            case (400, "BadDeviceToken"), (400, "DeviceTokenNotForTopic"):
                return .retireDevice(reason: reason, unregisteredAt: nil)
            case (403, "ExpiredProviderToken"): return .renewProviderToken
            case (400, "IdleTimeout"), (429, _), (500...599, _): return .retry(after: retryAfter)
            // Configuration (wrong key, team, topic or environment): operators are alerted; the
            // notification keeps trying until its deadline, so fixing the config saves it.
            case (403, _), (400, "TopicDisallowed"): return .retry(after: retryAfter)
            // Malformed requests (a bug here) and anything unknown: retrying as-is cannot help.
            default: return .permanent(reason: reason)
            }
        }
    }
}

public enum APNsDisposition: Sendable, Equatable {
    case delivered
    /// Stop using this device token (`unregisteredAt`: Apple's last confirmation, for 410). `reason`
    /// is one of `Unregistered`, `ExpiredToken`, `BadDeviceToken`, `DeviceTokenNotForTopic`.
    case retireDevice(reason: APNsReason, unregisteredAt: Date?)
    /// Mint a new provider token (if allowed) and retry once.
    case renewProviderToken
    case retry(after: Duration?)
    case permanent(reason: APNsReason)
}

/// Failures before or instead of an APNs answer.
public enum APNsClientError: Error, CustomStringConvertible, Equatable {
    /// Refused locally: APNs would answer 413 (limit 4096 bytes for alert and background pushes).
    case payloadTooLarge(bytes: Int)
    /// Not sent: the device token is not hex.
    case malformedDeviceToken
    /// The request never reached APNs (connect, TLS, a connection found closed): safe to send again.
    case network(String)
    /// The request may have reached APNs (a reset stream, a dropped connection, a timeout). Delivery
    /// sends it again only under the push's collapse id, so a device that got both shows it once, and
    /// records it unconfirmed if its deadline passes first (`PushDeliveryHandler`).
    case inDoubt(String)

    public var description: String {
        switch self {
        case .payloadTooLarge(let n): "APNs payload of \(n) bytes is over the 4096-byte limit; not sent"
        case .malformedDeviceToken: "device token is not a hex string; not sent"
        case .network(let what): "APNs unreachable: \(what)"
        case .inDoubt(let what): "APNs exchange broke off after the request was sent: \(what)"
        }
    }
}
