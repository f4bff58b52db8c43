import Foundation

/// The JSON bodies Alfred sends (external-apis §4.4). Only what the notification shows, plus what
/// the app needs to act on it (a kind, a category, our own notification id and deep link, a
/// reminder's video link); no Google event ids, addresses or message ids go to Apple.
public enum APNsPayload {
    /// A user-visible alert. Title and body are shortened (on character boundaries, with "…") until
    /// the payload fits `limit`, so a long meeting title never costs the reminder.
    /// What the app acts on besides the text (docs/api.md, "Notifications"): the notification
    /// category that picks its actions, the id the "Not urgent" action posts back, a deep link naming
    /// what to open (ids only), and a reminder's video link for "Join".
    public struct AppFields: Sendable, Equatable {
        public var category: String?
        public var notificationID: String?
        public var link: String?
        public var joinURL: String?
        public init(category: String? = nil, notificationID: String? = nil, link: String? = nil, joinURL: String? = nil) {
            self.category = category; self.notificationID = notificationID; self.link = link; self.joinURL = joinURL
        }
    }

    public static func alert(title: String, body: String, threadID: String, kind: String,
                             timeSensitive: Bool, app: AppFields = .init(), limit: Int = APNsClient.maxPayloadBytes) -> [UInt8] {
        var title = Substring.UnicodeScalarView(title.unicodeScalars), body = Substring.UnicodeScalarView(body.unicodeScalars)
        var titleCut = false, bodyCut = false
        while true {
            let shownTitle = String(title) + (titleCut ? "…" : ""), shownBody = String(body) + (bodyCut ? "…" : "")
            let bytes = encode(Alert(aps: .init(alert: .init(title: shownTitle, body: shownBody), sound: "default", threadID: threadID,
                                                interruptionLevel: timeSensitive ? "time-sensitive" : "active", category: app.category),
                                     alfred: .init(kind: kind, notificationID: app.notificationID, link: app.link, joinURL: app.joinURL)))
            let excess = bytes.count - limit
            // Shorten the body first, then the title, by whole Unicode scalars (a "character" can be
            // thousands of bytes of combining marks); each round removes at least the excess.
            if excess <= 0 || (body.isEmpty && title.isEmpty) { return bytes }
            if !body.isEmpty { body = shortened(body, by: excess); bodyCut = true } else { title = shortened(title, by: excess); titleCut = true }
        }
    }

    /// A silent push that wakes the app to fetch for itself (relay mode): no alert, sound or badge.
    public static func background(kind: String) -> [UInt8] {
        encode(Background(aps: .init(contentAvailable: 1), alfred: .init(kind: kind)))
    }

    /// Drops scalars from the end until at least `bytes` UTF-8 bytes are gone.
    static func shortened(_ text: Substring.UnicodeScalarView, by bytes: Int) -> Substring.UnicodeScalarView {
        var kept = text, removed = 0
        while removed < bytes, let last = kept.popLast() { removed += String(last).utf8.count }
        return kept
    }

    private static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(value)) ?? Data())
    }

    private struct Alfred: Encodable {
        var kind: String
        var notificationID: String? = nil
        var link: String? = nil
        var joinURL: String? = nil
        enum CodingKeys: String, CodingKey { case kind, notificationID = "notification_id", link, joinURL = "join_url" }
    }
    private struct Alert: Encodable {
        struct APS: Encodable {
            struct Text: Encodable { var title: String; var body: String }
            var alert: Text
            var sound: String
            var threadID: String
            var interruptionLevel: String
            var category: String?
            enum CodingKeys: String, CodingKey {
                case alert, sound, threadID = "thread-id", interruptionLevel = "interruption-level", category
            }
        }
        var aps: APS
        var alfred: Alfred
    }
    private struct Background: Encodable {
        struct APS: Encodable {
            var contentAvailable: Int
            enum CodingKeys: String, CodingKey { case contentAvailable = "content-available" }
        }
        var aps: APS
        var alfred: Alfred
    }
}
