import Delivery
import Foundation
import Sealing

/// A wall-clock time of day (`08:00`) in some time zone.
public struct LocalTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let hour: Int
    public let minute: Int

    public init?(hour: Int, minute: Int) {
        guard (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        self.hour = hour
        self.minute = minute
    }

    /// `HH:MM` or `HH:MM:SS` (seconds are ignored), as the API and Postgres `time` print it.
    public init?(_ text: String) {
        let parts = text.split(separator: ":")
        guard parts.count == 2 || parts.count == 3, let h = Int(parts[0]), let m = Int(parts[1]) else { return nil }
        self.init(hour: h, minute: m)
    }

    public var minuteOfDay: Int { hour * 60 + minute }
    public var description: String { String(format: "%02d:%02d", hour, minute) }
    public static func < (a: LocalTime, b: LocalTime) -> Bool { a.minuteOfDay < b.minuteOfDay }
}

/// Wall-clock arithmetic in a user's zone, correct on DST change days:
/// - a local time that does not exist that day (spring forward) moves forward by the gap
///   (02:30 on a day that jumps from 02:00 to 03:00 becomes 03:30);
/// - a local time that exists twice (fall back) means its first occurrence, and a daily schedule
///   fires once per local day, never at both.
public struct LocalSchedule: Sendable {
    public let timeZone: TimeZone
    private var calendar: Calendar

    public init(timeZone: TimeZone) {
        self.timeZone = timeZone
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// The local calendar day of an instant.
    public func day(of date: Date) -> DateComponents {
        calendar.dateComponents([.year, .month, .day], from: date)
    }

    /// The wall time of an instant, to the minute.
    public func localTime(of date: Date) -> LocalTime {
        let c = calendar.dateComponents([.hour, .minute], from: date)
        return LocalTime(hour: c.hour ?? 0, minute: c.minute ?? 0)!
    }

    /// The instant a local day shows `time`, following the DST rules above.
    public func instant(on day: DateComponents, at time: LocalTime) -> Date {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        // The wall time read as if it were UTC; the zone's offset then says how far it really is.
        let naive = utc.date(from: DateComponents(year: day.year, month: day.month, day: day.day,
                                                  hour: time.hour, minute: time.minute))!
        let offsetBefore = TimeInterval(timeZone.secondsFromGMT(for: naive.addingTimeInterval(-14 * 3600)))
        let offsetAfter = TimeInterval(timeZone.secondsFromGMT(for: naive.addingTimeInterval(14 * 3600)))
        let candidates = [naive.addingTimeInterval(-offsetBefore), naive.addingTimeInterval(-offsetAfter)]
            .filter { TimeInterval(timeZone.secondsFromGMT(for: $0)) == naive.timeIntervalSince($0) }
        // Both valid: the time exists twice; take the first. None: it falls in the gap; reading it
        // with the offset from before the change lands the same distance past the jump.
        return candidates.min() ?? naive.addingTimeInterval(-offsetBefore)
    }

    /// The first day (the local day of `after`, or later) whose occurrence of `time` is after `after`.
    public func nextOccurrence(of time: LocalTime, after: Date) -> Date {
        var day = self.day(of: after)
        for _ in 0..<3 {
            let candidate = instant(on: day, at: time)
            if candidate > after { return candidate }
            day = nextDay(day)
        }
        return instant(on: day, at: time)
    }

    /// The start of the local day containing `date`, and of the next one (a day is 23, 24 or 25 h).
    public func dayBounds(of date: Date) -> (start: Date, end: Date) {
        let start = calendar.startOfDay(for: date)
        let end = calendar.date(byAdding: .day, value: 1, to: start) ?? start.addingTimeInterval(86_400)
        return (start, end)
    }

    private func nextDay(_ day: DateComponents) -> DateComponents {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let noon = utc.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12))!
        return utc.dateComponents([.year, .month, .day], from: noon.addingTimeInterval(86_400))
    }
}

/// The user's quiet hours, `[start, end)` in local wall time; they may wrap midnight (22:00-07:00).
public struct QuietHours: Sendable, Equatable {
    public let start: LocalTime
    public let end: LocalTime

    public init(start: LocalTime, end: LocalTime) {
        self.start = start
        self.end = end
    }

    /// nil when unset or empty (start == end): no quiet hours.
    public init?(start: String?, end: String?) {
        guard let s = start.flatMap(LocalTime.init), let e = end.flatMap(LocalTime.init), s != e else { return nil }
        self.init(start: s, end: e)
    }

    public func contains(_ date: Date, in schedule: LocalSchedule) -> Bool {
        let m = schedule.localTime(of: date).minuteOfDay
        return start < end ? (m >= start.minuteOfDay && m < end.minuteOfDay)
                           : (m >= start.minuteOfDay || m < end.minuteOfDay)
    }

    /// When the quiet period containing `date` ends (or `date` itself when it is not quiet).
    public func end(after date: Date, in schedule: LocalSchedule) -> Date {
        contains(date, in: schedule) ? schedule.nextOccurrence(of: end, after: date) : date
    }
}
