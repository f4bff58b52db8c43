import Foundation

/// The JSON bodies Alfred sends (external-apis §4.4). Only what the notification shows, plus a kind
/// for the app; no event ids, addresses or message ids go to Apple.
public enum APNsPayload {
    /// A user-visible alert. Title and body are shortened (on character boundaries, with "…") until
    /// the payload fits `limit`, so a long meeting title never costs the reminder.
    public static func alert(title: String, body: String, threadID: String, kind: String,
                             timeSensitive: Bool, limit: Int = APNsClient.maxPayloadBytes) -> [UInt8] {
        var title = Substring.UnicodeScalarView(title.unicodeScalars), body = Substring.UnicodeScalarView(body.unicodeScalars)
        var titleCut = false, bodyCut = false
        while true {
            let shownTitle = String(title) + (titleCut ? "…" : ""), shownBody = String(body) + (bodyCut ? "…" : "")
            let bytes = encode(Alert(aps: .init(alert: .init(title: shownTitle, body: shownBody), sound: "default", threadID: threadID,
                                                interruptionLevel: timeSensitive ? "time-sensitive" : "active"),
                                     alfred: .init(kind: kind)))
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

    private struct Alfred: Encodable { var kind: String }
    private struct Alert: Encodable {
        struct APS: Encodable {
            struct Text: Encodable { var title: String; var body: String }
            var alert: Text
            var sound: String
            var threadID: String
            var interruptionLevel: String
            enum CodingKeys: String, CodingKey {
                case alert, sound, threadID = "thread-id", interruptionLevel = "interruption-level"
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
