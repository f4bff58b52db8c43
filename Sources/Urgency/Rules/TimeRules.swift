import Foundation

extension RuleID {
    public static let deadlineSoon = RuleID("deadline_soon")
    public static let todayMention = RuleID("today_mention")
    public static let deadlineLater = RuleID("deadline_later")
    public static let deadlinePassed = RuleID("deadline_passed")
}

/// Deadlines and time windows, read in the user's zone against now (`TimeReader`). One reading per
/// message, so at most one of these fires.
enum TimeRules {
    static let all: [Rule] = [
        Rule(.deadlineSoon, .time, "a deadline still ahead today or within hours") { message in
            message.reading.verdict == .soon ? Evidence(why: message.why(message.explainSoon())) : nil
        },
        Rule(.todayMention, .time, "names today") { message in
            message.reading.verdict == .today ? Evidence(why: message.why("names today, and the writer's today is the user's today")) : nil
        },
        Rule(.deadlineLater, .time, "the time named is days away") { message in
            message.reading.verdict == .later ? Evidence(why: message.why(message.explainDays(passed: false))) : nil
        },
        // A past time in a report of an event says when it happened, not a deadline that was missed.
        Rule(.deadlinePassed, .time, "the time named has passed") { message in
            message.reading.verdict == .passed && !message.reportsAnEvent ? Evidence(why: message.why(message.explainDays(passed: true))) : nil
        },
    ]
}

extension MessageFeatures {
    func explainSoon() -> String {
        guard let instant = reading.instant else { return "a deadline still ahead today" }
        let parts = calendar.dateComponents([.hour, .minute], from: instant)
        let minutes = Int(instant.timeIntervalSince(now) / 60)
        let day = calendar.isDate(instant, inSameDayAs: now) ? "today" : "tomorrow"
        return String(format: "deadline %02d:%02d %@ (%@), %dh%02dm ahead", parts.hour ?? 0, parts.minute ?? 0, day,
                      calendar.timeZone.identifier, minutes / 60, minutes % 60)
    }

    func explainDays(passed: Bool) -> String {
        if let instant = reading.instant {
            let minutes = Int(abs(instant.timeIntervalSince(now)) / 60)
            return passed ? "the time named passed \(minutes / 60)h\(String(format: "%02d", minutes % 60))m ago"
                : "the time named is \(minutes / 1440) day(s) \(minutes % 1440 / 60)h ahead"
        }
        let days = abs(reading.dayDistance ?? 0)
        return passed ? "the day named was \(days) day(s) ago" : "the day named is \(days) day(s) away"
    }
}
