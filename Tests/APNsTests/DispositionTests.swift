import APNs
import NIOCore
import NIOHTTP2
import Foundation
import Testing

/// Apple's response table (external-apis §4.5), reason by reason, as the sender acts on it.
@Suite(.timeLimit(.minutes(5))) struct DispositionTests {
    static func rejected(_ status: Int, _ reason: String, timestamp: Date? = nil, retryAfter: Duration? = nil) -> APNsResponse {
        .rejected(status: status, reason: APNsReason(rawValue: reason), timestamp: timestamp, retryAfter: retryAfter)
    }

    @Test func acceptedIsDelivered() {
        #expect(APNsResponse.accepted(apnsID: "x").disposition == .delivered)
    }

    @Test(arguments: [(410, "Unregistered"), (410, "ExpiredToken"), (400, "BadDeviceToken"), (400, "DeviceTokenNotForTopic")])
    func deadTokensRetireTheDevice(status: Int, reason: String) {
        let at = Date(timeIntervalSince1970: 1_772_441_112)
        #expect(Self.rejected(status, reason, timestamp: at).disposition
                == .retireDevice(reason: APNsReason(rawValue: reason), unregisteredAt: status == 410 ? at : nil),
                "only a 410 carries Apple's timestamp")
    }

    @Test func anExpiredProviderTokenRenewsIt() {
        #expect(Self.rejected(403, "ExpiredProviderToken").disposition == .renewProviderToken)
    }

    @Test(arguments: [(429, "TooManyRequests"), (429, "TooManyProviderTokenUpdates"), (500, "InternalServerError"),
                      (503, "ServiceUnavailable"), (503, "Shutdown"), (400, "IdleTimeout"),
                      (403, "InvalidProviderToken"), (403, "MissingProviderToken"), (403, "Forbidden"),
                      (403, "BadEnvironmentKeyInToken"), (403, "UnrelatedKeyIdInToken"), (400, "TopicDisallowed")])
    func transientAndConfigurationAnswersAreRetriedUntilTheDeadline(status: Int, reason: String) {
        #expect(Self.rejected(status, reason, retryAfter: .seconds(7)).disposition == .retry(after: .seconds(7)))
    }

    @Test(arguments: [(400, "BadCollapseId"), (400, "BadExpirationDate"), (400, "BadMessageId"), (400, "BadPriority"),
                      (400, "BadTopic"), (400, "DuplicateHeaders"), (400, "InvalidPushType"), (400, "MissingDeviceToken"),
                      (400, "MissingTopic"), (400, "PayloadEmpty"), (404, "BadPath"), (405, "MethodNotAllowed"),
                      (413, "PayloadTooLarge")])
    func malformedRequestsAreNotRetried(status: Int, reason: String) {
        #expect(Self.rejected(status, reason).disposition == .permanent(reason: APNsReason(rawValue: reason)))
    }

    @Test func anUnknownReasonIsBoundedInMetricsAndNotRetried() {
        let odd = APNsReason(rawValue: "SomethingNew\u{1F4A5}")
        #expect(odd.metricLabel == "other")
        #expect(APNsReason(rawValue: "Unregistered").metricLabel == "Unregistered")
        #expect(Self.rejected(400, odd.rawValue).disposition == .permanent(reason: odd))
    }
}
