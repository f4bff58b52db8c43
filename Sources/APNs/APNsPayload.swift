import Foundation

/// The JSON bodies Alfred sends (external-apis §4.4). Only what the notification shows, plus a kind
/// for the app; no event ids, addresses or message ids go to Apple.
public enum APNsPayload {
    /// A user-visible alert. Title and body are shortened (on character boundaries, with "…") until
    /// the payload fits `limit`, so a long meeting title never costs the reminder.
    public static func alert(title: String, body: String, threadID: String, kind: String,
                             timeSensitive: Bool, limit: Int = APNsClient.maxPayloadBytes) -> [UInt8] {
        var title = title, body = body
        while true {
            let bytes = encode(Alert(aps: .init(alert: .init(title: title, body: body), sound: "default", threadID: threadID,
                                                interruptionLevel: timeSensitive ? "time-sensitive" : "active"),
                                     alfred: .init(kind: kind)))
            if bytes.count <= limit { return bytes }
            let excess = bytes.count - limit
            // Shorten the body first, then the title; each round removes at least the excess in UTF-8 bytes.
            if body.count > 1 { body = shortened(body, by: excess) } else { title = shortened(title, by: excess) }
        }
    }

    /// A silent push that wakes the app to fetch for itself (relay mode): no alert, sound or badge.
    public static func background(kind: String) -> [UInt8] {
        encode(Background(aps: .init(contentAvailable: 1), alfred: .init(kind: kind)))
    }

    static func shortened(_ text: String, by bytes: Int) -> String {
        var kept = text
        var removed = 0
        while removed < bytes + 3, !kept.isEmpty { removed += kept.removeLast().utf8.count }
        return kept + "…"
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
