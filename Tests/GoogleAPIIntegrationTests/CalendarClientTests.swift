import AlfredCore
import Foundation
@testable import GoogleAPI
import StandIns
import Testing

/// `CalendarClient` against the Google stand-in's Calendar v3 routes over a loopback socket.
@Suite(.timeLimit(.minutes(5))) struct CalendarClientTests {
    typealias H = GoogleAPIHarness
    typealias Seed = GoogleStandIn.SeedEvent

    static func user(_ events: [Seed], timeZone: String = "Europe/Zurich") -> GoogleStandIn.User {
        GoogleStandIn.User(subject: H.subject, email: H.email, timeZone: timeZone, events: events)
    }

    /// Now minus a day to now plus a week: the window a calendar sync uses.
    static var window: Range<Date> { Date().addingTimeInterval(-86_400)..<Date().addingTimeInterval(7 * 86_400) }

    @Test func fullSyncPagesToTheEndAndAsksOnlyForWhatRemindersNeed() async throws {
        let seeds = (1...7).map { Seed(id: "ev\($0)", summary: "Meeting \($0)", startInMinutes: Double($0 * 90)) }
        try await H.with(Self.user(seeds)) { google in
            let calendar = google.calendar { $0.calendarPageSize = 3 }
            let page = try await calendar.fullSync(timeMin: Self.window.lowerBound, timeMax: Self.window.upperBound)

            #expect(page.events.map(\.id) == (1...7).map { "ev\($0)" })
            #expect(page.pageCount == 3)
            #expect(page.nextSyncToken?.isEmpty == false)
            #expect(page.timeZone == "Europe/Zurich")
            #expect(page.skippedItems == 0)
            #expect(page.events.allSatisfy { $0.start?.instant != nil && $0.end?.instant != nil })

            let requests = google.requests(under: "/calendar/v3")
            #expect(requests.count == 3)
            for (index, request) in requests.enumerated() {
                #expect(request.method == "GET" && request.path == "/calendar/v3/calendars/primary/events")
                #expect(request.status == 200)
                #expect(request.queryValue("singleEvents") == "true")
                #expect(request.queryValue("showDeleted") == "false")
                #expect(request.queryValue("maxResults") == "3")
                #expect(request.queryValue("fields") == PartialResponse.eventsPage)
                // RFC 3339 in UTC, and still RFC 3339 after the `+`/`:` percent-encoding round trip.
                for bound in ["timeMin", "timeMax"] {
                    #expect(request.queryValue(bound).flatMap { WireDate.parseDateTime($0)?.offset } == 0)
                }
                #expect(request.queryValue("syncToken") == nil && request.queryValue("orderBy") == nil)
                #expect((request.queryValue("pageToken") != nil) == (index > 0))
                #expect(request.header("authorization") != nil)
            }
        }
    }

    @Test func decodesAllDayDeclinedRecurringAndConferenceEvents() async throws {
        let seeds = [
            Seed(id: "standup", summary: "Standup", startInMinutes: 60, durationMinutes: 15, recurrence: "daily",
                 recurrenceCount: 3),
            Seed(id: "holiday", summary: "Holiday", allDay: true, date: Self.day(in: 2)),
            Seed(id: "declined", summary: "Optional review", startInMinutes: 120, selfResponse: "declined"),
            Seed(id: "accepted", summary: "Board sync", location: "Room 4.12", startInMinutes: 180,
                 selfResponse: "accepted", hangoutLink: "https://meet.google.com/abc-defg-hij"),
            Seed(id: "ooo", summary: "Away", startInMinutes: 240, eventType: "outOfOffice"),
            Seed(id: "free", summary: "Lunch", startInMinutes: 300, transparency: "transparent"),
            Seed(id: "maybe", summary: "Maybe", startInMinutes: 360, status: "tentative"),
        ]
        try await H.with(Self.user(seeds)) { google in
            let page = try await google.calendar().fullSync(timeMin: Self.window.lowerBound, timeMax: Self.window.upperBound)
            let byID = Dictionary(page.events.map { ($0.id, $0) }) { first, _ in first }

            let standups = page.events.filter { $0.recurringEventId == "standup" }
            #expect(standups.count == 3)
            #expect(standups.allSatisfy { $0.originalStartTime != nil && $0.id.hasPrefix("standup_") })

            let holiday = try #require(byID["holiday"])
            let (first, after) = (try #require(CalendarDay(Self.day(in: 2))), try #require(CalendarDay(Self.day(in: 3))))
            #expect(holiday.isAllDay && holiday.start == .allDay(first))
            #expect(holiday.end == .allDay(after))

            #expect(byID["declined"]?.isDeclined == true)
            let accepted = try #require(byID["accepted"])
            #expect(accepted.selfResponse == .accepted && !accepted.isDeclined)
            #expect(accepted.summary?.unsafeValue == "Board sync" && accepted.location?.unsafeValue == "Room 4.12")
            #expect(accepted.meetingLink?.unsafeValue == "https://meet.google.com/abc-defg-hij")
            #expect(byID["ooo"]?.isDefaultType == false && byID["ooo"]?.eventType == "outOfOffice")
            #expect(byID["free"]?.transparency == "transparent")
            #expect(byID["maybe"]?.status == .tentative)
            #expect(page.events.allSatisfy { !$0.isCancelled })
        }
    }

    @Test func incrementalSyncReportsAMoveAndACancellation() async throws {
        let seeds = [Seed(id: "move-me", summary: "1:1", startInMinutes: 60),
                     Seed(id: "cancel-me", summary: "Retro", startInMinutes: 120),
                     Seed(id: "untouched", summary: "Planning", startInMinutes: 180)]
        try await H.with(Self.user(seeds)) { google in
            let calendar = google.calendar()
            let full = try await calendar.fullSync(timeMin: Self.window.lowerBound, timeMax: Self.window.upperBound)
            let token = try #require(full.nextSyncToken)
            let before = try #require(full.events.first { $0.id == "move-me" }?.start?.instant)

            try google.standIn.upsertEvent(Seed(id: "move-me", summary: "1:1", startInMinutes: 240), forUser: H.email)
            try google.standIn.cancelEvent(id: "cancel-me", forUser: H.email)
            google.standIn.clearRecordedRequests()

            let changes = try await calendar.incrementalSync(syncToken: token)
            #expect(Set(changes.events.map(\.id)) == ["move-me", "cancel-me"])
            let moved = try #require(changes.events.first { $0.id == "move-me" })
            #expect(try #require(moved.start?.instant).timeIntervalSince(before) > 170 * 60)
            #expect(changes.events.first { $0.id == "cancel-me" }?.isCancelled == true)
            #expect(changes.nextSyncToken != nil && changes.nextSyncToken != token)

            let request = try #require(google.requests(under: "/calendar/v3").last)
            #expect(request.queryValue("syncToken") != nil)
            #expect(request.queryValue("singleEvents") == "true")
            #expect(request.queryValue("fields") == PartialResponse.eventsPage)
            for forbidden in ["timeMin", "timeMax", "orderBy", "showDeleted", "updatedMin", "q"] {
                #expect(request.queryValue(forbidden) == nil, "incremental sync sent \(forbidden)")
            }

            // Nothing changed since: an empty delta and yet another token.
            let quiet = try await calendar.incrementalSync(syncToken: try #require(changes.nextSyncToken))
            #expect(quiet.events.isEmpty && quiet.nextSyncToken != nil)
        }
    }

    @Test func expiredSyncTokenMeansAFullSync() async throws {
        try await H.with(Self.user([Seed(id: "a", startInMinutes: 30), Seed(id: "b", startInMinutes: 90)])) { google in
            let calendar = google.calendar()

            let first = try await calendar.sync(syncToken: nil, window: Self.window)
            #expect(first.kind == .full && first.page.events.count == 2)
            let token = try #require(first.page.nextSyncToken)

            let second = try await calendar.sync(syncToken: token, window: Self.window)
            #expect(second.kind == .incremental && second.page.events.isEmpty)

            google.standIn.expireSyncTokens()
            let expired = try await #require(throws: GoogleAPIError.self) {
                try await calendar.incrementalSync(syncToken: try #require(second.page.nextSyncToken))
            }
            #expect(expired.code == .syncTokenExpired && expired.status == 410 && expired.reason == "fullSyncRequired")
            #expect(expired.attempts == 1 && google.clock.sleeps.isEmpty)

            let third = try await calendar.sync(syncToken: token, window: Self.window)
            #expect(third.kind == .fullAfterExpiredToken)
            #expect(Set(third.page.events.map(\.id)) == ["a", "b"] && third.page.nextSyncToken != nil)
        }
    }

    @Test func eventGetSeesMovesAndDeletions() async throws {
        let seeds = [Seed(id: "moving", summary: "Dentist", startInMinutes: 60),
                     Seed(id: "doomed", summary: "Offsite", startInMinutes: 90),
                     Seed(id: "series", summary: "Standup", startInMinutes: 30, recurrence: "daily", recurrenceCount: 2)]
        try await H.with(Self.user(seeds)) { google in
            let calendar = google.calendar()
            let original = try #require(try await calendar.event(eventID: "moving"))
            #expect(original.summary?.unsafeValue == "Dentist")

            // Moved by exactly 90 minutes (absolute times: a relative seed would be read against the
            // stand-in's clock at upsert time, which a starved test process reaches late).
            let originalStart = try #require(original.start?.instant)
            let later = originalStart.addingTimeInterval(90 * 60)
            try google.standIn.upsertEvent(Seed(id: "moving", summary: "Dentist", start: later.formatted(.iso8601),
                                                end: later.addingTimeInterval(3600).formatted(.iso8601)), forUser: H.email)
            let moved = try #require(try await calendar.event(eventID: "moving"))
            #expect(moved.start?.instant == later)

            try google.standIn.cancelEvent(id: "doomed", forUser: H.email)
            #expect(try await calendar.event(eventID: "doomed") == nil)
            #expect(try await calendar.event(eventID: "never-existed") == nil)

            // An occurrence of a series, by its instance id; cancelling just that one hides it.
            let page = try await calendar.fullSync(timeMin: Self.window.lowerBound, timeMax: Self.window.upperBound)
            let occurrence = try #require(page.events.first { $0.recurringEventId == "series" })
            #expect(try await calendar.event(eventID: occurrence.id)?.recurringEventId == "series")
            try google.standIn.cancelEvent(id: occurrence.id, forUser: H.email)
            #expect(try await calendar.event(eventID: occurrence.id) == nil)

            let gets = google.requests(under: "/calendar/v3/calendars/primary/events/")
            #expect(gets.allSatisfy { $0.queryValue("fields") == PartialResponse.event })
            #expect(gets.contains { $0.path == "/calendar/v3/calendars/primary/events/never-existed" && $0.status == 404 })
        }
    }

    @Test func calendarIDsAndEventIDsArePercentEncoded() async throws {
        try await H.with(Self.user([Seed(id: "x1", startInMinutes: 30)])) { google in
            // The user's own address names the primary calendar too; `@` must arrive as `%40`.
            let page = try await google.calendar().fullSync(calendarID: H.email, timeMin: Self.window.lowerBound,
                                                            timeMax: Self.window.upperBound)
            #expect(page.events.map(\.id) == ["x1"])
            #expect(try await google.calendar().event(calendarID: H.email, eventID: "x1")?.id == "x1")
        }
    }

    @Test func timeZoneSetting() async throws {
        try await H.with(Self.user([], timeZone: "America/Sao_Paulo")) { google in
            #expect(try await google.calendar().timeZone() == "America/Sao_Paulo")
            let request = try #require(google.requests(under: "/calendar/v3").last)
            #expect(request.path == "/calendar/v3/users/me/settings/timezone")
            #expect(request.queryValue("fields") == "value")
        }
    }

    /// `yyyy-mm-dd` of the day `days` from today in Zurich (the seeded users' zone).
    static func day(in days: Int) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Zurich")!
        let date = calendar.date(byAdding: .day, value: days, to: Date())!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }
}
