import Foundation
import Testing
@testable import Assistant
@testable import Delivery
@testable import Sealing

/// The morning brief's wall-clock arithmetic, on real zones and real DST change days.
@Suite(.timeLimit(.minutes(5))) struct LocalScheduleTests {
    func schedule(_ zone: String) -> LocalSchedule { LocalSchedule(timeZone: TimeZone(identifier: zone)!) }
    func utc(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
    func at(_ text: String) -> LocalTime { LocalTime(text)! }

    @Test func anOrdinaryDayIsTheLocalTimeInTheZone() {
        let kolkata = schedule("Asia/Kolkata")  // +05:30, no DST
        #expect(kolkata.nextOccurrence(of: at("08:00"), after: utc("2026-11-20T12:00:00Z")) == utc("2026-11-21T02:30:00Z"))
        let zurich = schedule("Europe/Zurich")
        #expect(zurich.nextOccurrence(of: at("07:30"), after: utc("2026-11-21T05:00:00Z")) == utc("2026-11-21T06:30:00Z"))
        #expect(zurich.nextOccurrence(of: at("07:30"), after: utc("2026-11-21T06:30:00Z")) == utc("2026-11-22T06:30:00Z"),
                "strictly after: a brief that just fired is planned for tomorrow")
    }

    @Test func aTimeThatDoesNotExistMovesForwardByTheGap() {
        // Europe/Zurich, 2026-03-29: 02:00 CET jumps to 03:00 CEST.
        let zurich = schedule("Europe/Zurich")
        #expect(zurich.nextOccurrence(of: at("02:30"), after: utc("2026-03-28T23:00:00Z")) == utc("2026-03-29T01:30:00Z"),
                "02:30 does not exist; it fires at 03:30 CEST")
        #expect(zurich.nextOccurrence(of: at("02:30"), after: utc("2026-03-29T01:30:00Z")) == utc("2026-03-30T00:30:00Z"),
                "and the next day is 02:30 CEST again")
        // America/New_York, 2026-03-08: 02:00 EST jumps to 03:00 EDT.
        let newYork = schedule("America/New_York")
        #expect(newYork.nextOccurrence(of: at("02:15"), after: utc("2026-03-08T05:00:00Z")) == utc("2026-03-08T07:15:00Z"))
    }

    @Test func aTimeThatExistsTwiceFiresOnceAtItsFirstOccurrence() {
        // Europe/Zurich, 2026-10-25: 03:00 CEST falls back to 02:00 CET; 02:30 happens twice.
        let zurich = schedule("Europe/Zurich")
        let first = zurich.nextOccurrence(of: at("02:30"), after: utc("2026-10-24T22:00:00Z"))
        #expect(first == utc("2026-10-25T00:30:00Z"), "the first 02:30 (CEST)")
        #expect(zurich.nextOccurrence(of: at("02:30"), after: first) == utc("2026-10-26T01:30:00Z"),
                "not the second 02:30 (CET) an hour later: the next one is tomorrow's")
        #expect(zurich.nextOccurrence(of: at("02:30"), after: utc("2026-10-25T01:00:00Z")) == utc("2026-10-26T01:30:00Z"),
                "a run late past the first occurrence still does not fire again that day")
        // America/New_York, 2026-11-01: 02:00 EDT falls back to 01:00 EST.
        let newYork = schedule("America/New_York")
        #expect(newYork.nextOccurrence(of: at("01:30"), after: utc("2026-11-01T04:00:00Z")) == utc("2026-11-01T05:30:00Z"))
    }

    @Test func dayBoundsFollowTheZoneIncludingShortAndLongDays() {
        let zurich = schedule("Europe/Zurich")
        let spring = zurich.dayBounds(of: utc("2026-03-29T12:00:00Z"))
        #expect(spring.end.timeIntervalSince(spring.start) == 23 * 3600)
        let autumn = zurich.dayBounds(of: utc("2026-10-25T12:00:00Z"))
        #expect(autumn.end.timeIntervalSince(autumn.start) == 25 * 3600)
        #expect(autumn.start == utc("2026-10-24T22:00:00Z"))
    }

    @Test func quietHoursWrapMidnightAndTheBriefWaitsForTheirEnd() {
        let zurich = schedule("Europe/Zurich")
        let quiet = QuietHours(start: "22:00", end: "07:00")!
        #expect(quiet.contains(utc("2026-11-21T22:30:00Z"), in: zurich))   // 23:30 local
        #expect(quiet.contains(utc("2026-11-21T05:59:00Z"), in: zurich))   // 06:59 local
        #expect(!quiet.contains(utc("2026-11-21T06:00:00Z"), in: zurich))  // 07:00 local: over
        #expect(!quiet.contains(utc("2026-11-21T12:00:00Z"), in: zurich))
        #expect(QuietHours(start: "22:00", end: "22:00") == nil, "an empty range means no quiet hours")
        #expect(QuietHours(start: nil, end: "07:00") == nil)

        let daytime = QuietHours(start: "12:00", end: "13:00")!
        #expect(daytime.contains(utc("2026-11-21T11:30:00Z"), in: zurich))  // 12:30 local
        #expect(!daytime.contains(utc("2026-11-21T10:30:00Z"), in: zurich))

        // A brief at 06:30 inside quiet hours ending 07:00 goes out at 07:00.
        let at0630 = zurich.nextOccurrence(of: at("06:30"), after: utc("2026-11-21T00:00:00Z"))
        #expect(quiet.end(after: at0630, in: zurich) == utc("2026-11-21T06:00:00Z"))
        #expect(quiet.end(after: utc("2026-11-21T12:00:00Z"), in: zurich) == utc("2026-11-21T12:00:00Z"))
    }

    @Test func localTimesParseTheApiAndPostgresShapes() {
        #expect(LocalTime("08:00") == LocalTime(hour: 8, minute: 0))
        #expect(LocalTime("07:30:00") == LocalTime(hour: 7, minute: 30))
        #expect(LocalTime("24:00") == nil)
        #expect(LocalTime("7h30") == nil)
        #expect(LocalTime("") == nil)
    }
}
