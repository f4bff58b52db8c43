import AlfredCore
import Delivery
import Foundation
import Sealing

/// The words of each notification. Short enough for one push: APNs allows 4 KB, a lock screen
/// shows about two lines, so bodies are capped at `bodyLimit` characters.
public struct Composer: Sendable {
    public static let bodyLimit = 180

    public init() {}

    /// "Board sync in 15 min", body "Room 4.12" or the meeting link.
    public func reminder(_ event: MeetingEvent, start: Date, now: Date) -> (title: String, body: String) {
        let minutes = max(0, Int((start.timeIntervalSince(now) / 60).rounded(.up)))
        let name = Self.clean(event.title?.unsafeValue) ?? "Meeting"
        let when = minutes == 0 ? "now" : "in \(minutes) min"
        let body = Self.clean(event.place?.unsafeValue) ?? Self.clean(event.meetingLink?.unsafeValue) ?? ""
        return (Self.cap("\(name) \(when)", 100), Self.cap(body, Self.bodyLimit))
    }

    /// One push for one or several urgent messages.
    public func urgentMail(_ messages: [GmailMessage]) -> (title: String, body: String) {
        guard let first = messages.first else { return ("Urgent email", "") }
        if messages.count == 1 {
            let subject = Self.clean(first.header("Subject")) ?? "(no subject)"
            return ("Urgent: \(Self.senderName(first.header("From")))", Self.cap(subject, Self.bodyLimit))
        }
        let names = Self.distinct(messages.map { Self.senderName($0.header("From")) })
        let listed = names.prefix(2).joined(separator: ", ")
        let more = names.count > 2 ? " and \(names.count - 2) more" : ""
        return ("\(messages.count) urgent emails", Self.cap("From \(listed)\(more)", Self.bodyLimit))
    }

    /// "3 meetings today, first 09:30 Board sync. 2 urgent emails: Grace Hopper (Server down)".
    public func brief(meetings: [MeetingEvent], urgent: [GmailMessage], urgentCount: Int,
                      schedule: LocalSchedule) -> (title: String, body: String) {
        var parts: [String] = []
        let timed = meetings.filter { $0.start != nil }.sorted { $0.start! < $1.start! }
        if let first = timed.first, let start = first.start {
            let count = timed.count == 1 ? "1 meeting today" : "\(timed.count) meetings today"
            parts.append("\(count), first \(schedule.localTime(of: start)) \(Self.clean(first.title?.unsafeValue) ?? "Meeting").")
        } else {
            parts.append("No meetings today.")
        }
        if urgentCount > 0 {
            let noun = urgentCount == 1 ? "1 urgent email" : "\(urgentCount) urgent emails"
            let named = urgent.prefix(2).map { message in
                "\(Self.senderName(message.header("From"))) (\(Self.clean(message.header("Subject")) ?? "no subject"))"
            }
            parts.append(named.isEmpty ? "\(noun)." : "\(noun): \(named.joined(separator: "; ")).")
        }
        return ("Good morning", Self.cap(parts.joined(separator: " "), Self.bodyLimit))
    }

    /// `"Grace Hopper" <grace@navy.example>` -> `Grace Hopper`; a bare address -> its local part.
    static func senderName(_ from: String?) -> String {
        guard let from = clean(from) else { return "Unknown sender" }
        if let open = from.firstIndex(of: "<") {
            let name = from[..<open].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            if !name.isEmpty { return cap(name, 40) }
            let address = from[from.index(after: open)...].prefix { $0 != ">" }
            return cap(String(address.prefix { $0 != "@" }), 40)
        }
        return cap(String(from.prefix { $0 != "@" }), 40)
    }

    static func clean(_ text: String?) -> String? {
        guard let text else { return nil }
        let collapsed = text.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
        return collapsed.isEmpty ? nil : collapsed
    }

    static func cap(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }

    private static func distinct(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }
}
