import Foundation

/// The time formats Calendar and Gmail speak, parsed and printed by hand so the stand-in's answers do
/// not depend on the platform's `DateFormatter` locale and caching rules.
enum GoogleTime {
    private static let gregorianUTC: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!  // UTC always exists
        return calendar
    }()

    /// RFC 3339 with a mandatory offset (`2026-11-21T09:30:00Z`, `...T10:30:00.250+01:00`), as Calendar
    /// demands for `timeMin`/`timeMax`/`updatedMin`. Fractional seconds are accepted and dropped.
    static func parseRFC3339(_ text: String) -> Date? {
        let pattern = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/
        guard let match = text.wholeMatch(of: pattern),
              let year = Int(match.1), let month = Int(match.2), let day = Int(match.3),
              let hour = Int(match.4), let minute = Int(match.5), let second = Int(match.6),
              (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var offset = 0
        if match.7 == nil {
            guard let sign = match.8, let offsetHours = match.9.flatMap({ Int($0) }),
                  let offsetMinutes = match.10.flatMap({ Int($0) }), offsetHours < 24, offsetMinutes < 60
            else { return nil }
            offset = (offsetHours * 3600 + offsetMinutes * 60) * (sign == "-" ? -1 : 1)
        }
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute,
                                         second: min(second, 59))
        guard components.isValidDate(in: gregorianUTC), let utc = gregorianUTC.date(from: components) else { return nil }
        return utc.addingTimeInterval(TimeInterval(-offset))
    }

    /// `2026-11-21T10:30:00+01:00` (or `Z` in UTC): the local wall time in `zone` with its offset,
    /// the way Calendar prints `start.dateTime`.
    static func rfc3339(_ date: Date, in zone: TimeZone) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let whole = Date(timeIntervalSince1970: TimeInterval(seconds))
        var calendar = gregorianUTC
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: whole)
        let offset = zone.secondsFromGMT(for: whole)
        let sign = offset < 0 ? "-" : "+"
        let suffix = offset == 0 ? "Z" : "\(sign)\(pad(abs(offset) / 3600)):\(pad(abs(offset) % 3600 / 60))"
        return "\(pad(parts.year ?? 0, 4))-\(pad(parts.month ?? 0))-\(pad(parts.day ?? 0))T"
            + "\(pad(parts.hour ?? 0)):\(pad(parts.minute ?? 0)):\(pad(parts.second ?? 0))\(suffix)"
    }

    /// `2026-03-01T17:58:40.113Z`: how Calendar prints `updated` and `created`.
    static func rfc3339UTCMillis(_ date: Date) -> String {
        let millis = Int((date.timeIntervalSince1970 * 1000).rounded(.down))
        let base = rfc3339(Date(timeIntervalSince1970: TimeInterval(millis.floorDiv(1000))), in: gregorianUTC.timeZone)
        return base.dropLast() + ".\(pad(millis.floorMod(1000), 3))Z"
    }

    /// `20261121T090000Z`: the UTC stamp in a recurring event's instance id.
    static func compactUTC(_ date: Date) -> String {
        rfc3339(date, in: gregorianUTC.timeZone).replacingOccurrences(of: "-", with: "")
            .replacingOccurrences(of: ":", with: "")
    }

    /// `Sat, 21 Nov 2026 10:30:00 +0100`: an RFC 5322 `Date` header.
    static func rfc5322(_ date: Date, in zone: TimeZone) -> String {
        var calendar = gregorianUTC
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second, .weekday], from: date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let offset = zone.secondsFromGMT(for: date)
        let sign = offset < 0 ? "-" : "+"
        return "\(days[((parts.weekday ?? 1) - 1) % 7]), \(parts.day ?? 1) \(months[((parts.month ?? 1) - 1) % 12]) "
            + "\(parts.year ?? 1970) \(pad(parts.hour ?? 0)):\(pad(parts.minute ?? 0)):\(pad(parts.second ?? 0)) "
            + "\(sign)\(pad(abs(offset) / 3600))\(pad(abs(offset) % 3600 / 60))"
    }

    static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    fileprivate static func pad(_ value: Int, _ width: Int = 2) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

/// A calendar date without a time (`start.date` of an all-day event). The day it names begins at
/// midnight in the calendar's time zone, which is how all-day events meet `timeMin`/`timeMax`.
struct CalendarDay: Sendable, Hashable, Comparable {
    var year: Int
    var month: Int
    var day: Int

    init?(_ text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        self.init(year: year, month: month, day: day)
        guard DateComponents(year: year, month: month, day: day).isValidDate(in: Calendar(identifier: .gregorian))
        else { return nil }
    }

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The day `date` falls on in `zone`.
    init(containing date: Date, in zone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        self.init(year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1)
    }

    var text: String { "\(GoogleTime.pad(year, 4))-\(GoogleTime.pad(month))-\(GoogleTime.pad(day))" }
    var compact: String { text.replacingOccurrences(of: "-", with: "") }

    func midnight(in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        return calendar.date(from: DateComponents(year: year, month: month, day: day)) ?? .distantPast
    }

    func adding(days: Int) -> CalendarDay {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!  // UTC always exists
        let moved = calendar.date(byAdding: .day, value: days, to: midnight(in: calendar.timeZone)) ?? .distantPast
        return CalendarDay(containing: moved, in: calendar.timeZone)
    }

    static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

private extension Int {
    func floorDiv(_ divisor: Int) -> Int { Int((Double(self) / Double(divisor)).rounded(.down)) }
    func floorMod(_ divisor: Int) -> Int { self - floorDiv(divisor) * divisor }
}
