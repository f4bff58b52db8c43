import AlfredCore
import AlfredTestKit
import AsyncHTTPClient
import Foundation
@testable import GoogleAPI
import Testing

/// The pure decisions and parsers under the clients: no sockets here. Everything that talks HTTP is
/// tested against the Google stand-in in the other files.
@Suite(.timeLimit(.minutes(5))) struct WireFormatTests {
    // MARK: Dates

    @Test(arguments: [
        ("2026-03-02T09:30:00Z", 1_772_443_800.0),
        ("2026-03-02T10:30:00+01:00", 1_772_443_800.0),
        ("2026-03-02T04:00:00-05:30", 1_772_443_800.0),
        ("2026-03-02T09:30:00.250Z", 1_772_443_800.25),
        ("2026-03-02t09:30:00.5z", 1_772_443_800.5),
        ("2024-02-29T00:00:00Z", 1_709_164_800.0),
        ("1969-12-31T23:59:59Z", -1.0),
    ])
    func parsesRFC3339(text: String, epoch: Double) throws {
        let date = try #require(WireDate.parseDateTime(text)?.date())
        #expect(abs(date.timeIntervalSince1970 - epoch) < 0.0001)
    }

    @Test(arguments: ["2026-03-02", "2026-02-30T09:30:00Z", "2026-03-02T24:00:00Z", "2026-03-02T09:30:00+1:00",
                      "2026-03-02T09:30:00.Z", "2026-03-02T09:30:00Zjunk", "", "yesterday"])
    func rejectsMalformedDateTimes(text: String) {
        #expect(WireDate.parseDateTime(text)?.date() == nil)
    }

    @Test func dateTimeWithoutOffsetIsReadInItsZone() throws {
        let fields = try #require(WireDate.parseDateTime("2026-07-01T09:00:00"))
        #expect(fields.date() == nil)
        let zurich = try #require(TimeZone(identifier: "Europe/Zurich"))
        #expect(fields.date(in: zurich) == WireDate.parseDateTime("2026-07-01T07:00:00Z")?.date())
    }

    @Test func formatsUTCWholeSeconds() throws {
        #expect(WireDate.format(Date(timeIntervalSince1970: 1_772_443_800.75)) == "2026-03-02T09:30:00Z")
        #expect(WireDate.format(Date(timeIntervalSince1970: -1)) == "1969-12-31T23:59:59Z")
        // Round trip over a spread of days, leap years included.
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<500 {
            let seconds = Double(Int64.random(in: 0...4_102_444_800, using: &generator))
            let text = WireDate.format(Date(timeIntervalSince1970: seconds))
            #expect(WireDate.parseDateTime(text)?.date() == Date(timeIntervalSince1970: seconds))
        }
    }

    @Test func calendarDays() throws {
        #expect(CalendarDay("2026-03-02")?.description == "2026-03-02")
        #expect(CalendarDay("2026-02-29") == nil)
        #expect(CalendarDay("2026-3-2") == nil)
        let day = try #require(CalendarDay("2026-03-29"))
        let zurich = try #require(TimeZone(identifier: "Europe/Zurich"))
        #expect(day.start(in: zurich) == WireDate.parseDateTime("2026-03-28T23:00:00Z")?.date())
        #expect(try #require(CalendarDay("2026-03-02")) < day)
    }

    // MARK: Retry-After

    @Test func retryAfterSecondsOrHTTPDate() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(RetryAfter.parse("7", responseDate: nil, now: now) == .seconds(7))
        #expect(RetryAfter.parse(" 0 ", responseDate: nil, now: now) == .zero)
        #expect(RetryAfter.parse("-3", responseDate: nil, now: now) == nil)
        #expect(RetryAfter.parse("soon", responseDate: nil, now: now) == nil)
        #expect(RetryAfter.parse(nil, responseDate: nil, now: now) == nil)
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:50:07 GMT", responseDate: nil, now: now) == .seconds(30))
        // The server's own Date header is the reference when present: our clock's skew does not matter.
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:50:07 GMT", responseDate: "Sun, 06 Nov 1994 08:49:57 GMT",
                                 now: now.addingTimeInterval(-3_600)) == .seconds(10))
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:40:00 GMT", responseDate: nil, now: now) == .zero)
    }

    // MARK: Google's error body and what a status means

    @Test func parsesGoogleErrorBodiesTolerantly() {
        let full = #"{"error":{"code":403,"message":"Rate Limit Exceeded","errors":[{"domain":"usageLimits","reason":"rateLimitExceeded","message":"Rate Limit Exceeded"}],"status":"PERMISSION_DENIED"}}"#
        #expect(GoogleErrorBody(Array(full.utf8)) == GoogleErrorBody(code: 403, reason: "rateLimitExceeded", status: "PERMISSION_DENIED"))
        let noStatus = #"{"error":{"code":410,"errors":[{"reason":"fullSyncRequired"}]}}"#
        #expect(GoogleErrorBody(Array(noStatus.utf8)) == GoogleErrorBody(code: 410, reason: "fullSyncRequired"))
        let details = #"{"error":{"code":429,"status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RATE_LIMIT_EXCEEDED"}]}}"#
        #expect(GoogleErrorBody(Array(details.utf8))?.reason == "RATE_LIMIT_EXCEEDED")
        // A reason that is not an identifier (here an address) is dropped, not echoed into errors and logs.
        let leaky = #"{"error":{"code":400,"errors":[{"reason":"ada@example.com"}],"status":"Board sync"}}"#
        #expect(GoogleErrorBody(Array(leaky.utf8)) == GoogleErrorBody(code: 400))
        #expect(GoogleErrorBody(Array(#"{"error":"invalid_grant"}"#.utf8)) == nil)
        #expect(GoogleErrorBody(Array("<html>502</html>".utf8)) == nil)
        #expect(GoogleErrorBody([UInt8]()) == nil)
    }

    @Test(arguments: [
        (200, nil, ResponseClass.success), (204, nil, .success),
        (401, "authError", .unauthorized),
        (408, nil, .transient(.unavailable)), (500, "backendError", .transient(.unavailable)),
        (502, nil, .transient(.unavailable)), (503, nil, .transient(.unavailable)), (504, nil, .transient(.unavailable)),
        (429, "rateLimitExceeded", .transient(.rateLimited)), (429, nil, .transient(.rateLimited)),
        (403, "rateLimitExceeded", .transient(.rateLimited)), (403, "userRateLimitExceeded", .transient(.rateLimited)),
        (403, "dailyLimitExceeded", .permanent(.quotaExceeded)), (403, "quotaExceeded", .permanent(.quotaExceeded)),
        (403, "forbidden", .permanent(.forbidden)), (403, nil, .permanent(.forbidden)),
        (400, "badRequest", .permanent(.badRequest)), (400, "timeRangeEmpty", .permanent(.badRequest)),
        (404, "notFound", .permanent(.notFound)), (410, "fullSyncRequired", .permanent(.gone)),
        (501, nil, .permanent(.unavailable)), (302, nil, .permanent(.invalidResponse)),
    ] as [(Int, String?, ResponseClass)])
    func classifiesStatuses(status: Int, reason: String?, expected: ResponseClass) {
        #expect(ResponseClass(status: status, reason: reason) == expected)
    }

    // MARK: Retry budget

    @Test func budgetStopsAtAttemptsTimeOrALongRetryAfter() {
        var generator = SeededGenerator(seed: 1)
        let budget = RetryBudget(maxAttempts: 3, maxTotalDelay: .seconds(5),
                                 backoff: RetryPolicy(base: .seconds(1), cap: .seconds(30)))
        for _ in 0..<200 {
            let first = budget.delay(afterAttempt: 1, alreadySlept: .zero, retryAfter: nil, using: &generator)
            #expect(first.map { $0 >= .zero && $0 <= .seconds(1) } == true)
        }
        #expect(budget.delay(afterAttempt: 3, alreadySlept: .zero, retryAfter: nil, using: &generator) == nil)
        #expect(budget.delay(afterAttempt: 1, alreadySlept: .seconds(5), retryAfter: nil, using: &generator) == nil)
        // Retry-After is a floor, and a Retry-After beyond what is left ends the call instead.
        #expect(budget.delay(afterAttempt: 1, alreadySlept: .zero, retryAfter: .seconds(4), using: &generator)! >= .seconds(4))
        #expect(budget.delay(afterAttempt: 1, alreadySlept: .seconds(2), retryAfter: .seconds(4), using: &generator) == nil)
        #expect(budget.delay(afterAttempt: 1, alreadySlept: .zero, retryAfter: .seconds(60), using: &generator) == nil)
        // A jittered delay never overshoots what is left.
        for _ in 0..<200 {
            let delay = budget.delay(afterAttempt: 2, alreadySlept: .milliseconds(4_500), retryAfter: nil, using: &generator)
            #expect(delay.map { $0 <= .milliseconds(500) } == true)
        }
        #expect(RetryBudget.none.delay(afterAttempt: 1, alreadySlept: .zero, retryAfter: nil, using: &generator) == nil)
    }

    @Test func percentEncodesEverythingButUnreserved() {
        #expect(GoogleHTTP.percentEncoded("ada@example.com") == "ada%40example.com")
        #expect(GoogleHTTP.percentEncoded("en.usa#holiday/x") == "en.usa%23holiday%2Fx")
        #expect(GoogleHTTP.percentEncoded("items(id,start)") == "items%28id%2Cstart%29")
        #expect(GoogleHTTP.percentEncoded("+01:00 é") == "%2B01%3A00%20%C3%A9")
        #expect(GoogleHTTP.percentEncoded("AZaz09-._~") == "AZaz09-._~")
    }

    // MARK: Event decoding (shapes from external-apis §2.2, §2.3, §2.6)

    @Test func decodesATimedEventWithEverythingRemindersUse() throws {
        let json = """
            {"kind":"calendar#event","id":"7k2j1m9q0v3c8r5tq6f4n1b2aa","status":"confirmed","summary":"Board sync",
             "location":"Room 4.12",
             "start":{"dateTime":"2026-03-02T09:30:00Z","timeZone":"Europe/London"},
             "end":{"dateTime":"2026-03-02T10:00:00.000+00:00","timeZone":"Europe/London"},
             "attendees":[{"email":"charles@example.com","organizer":true,"responseStatus":"accepted"},
                          {"email":"ada@example.com","self":true,"responseStatus":"needsAction"}],
             "hangoutLink":"https://meet.google.com/abc-defg-hij",
             "conferenceData":{"entryPoints":[{"entryPointType":"phone","uri":"tel:+41-44-000"},
                                              {"entryPointType":"video","uri":"https://zoom.example/j/1"}]},
             "reminders":{"useDefault":true},"updated":"2026-03-01T17:58:40.113Z","someFutureField":{"x":1}}
            """
        let event = try JSONDecoder().decode(CalendarEvent.self, from: Data(json.utf8))
        #expect(event.id == "7k2j1m9q0v3c8r5tq6f4n1b2aa")
        #expect(event.status == .confirmed && !event.isCancelled && !event.isAllDay && event.isDefaultType)
        #expect(event.summary?.unsafeValue == "Board sync" && event.location?.unsafeValue == "Room 4.12")
        #expect(event.start == .instant(Date(timeIntervalSince1970: 1_772_443_800), timeZone: "Europe/London"))
        #expect(event.end?.instant == Date(timeIntervalSince1970: 1_772_445_600))
        #expect(event.selfResponse == .needsAction)
        // The video entry point wins over the legacy hangoutLink.
        #expect(event.meetingLink?.unsafeValue == "https://zoom.example/j/1")
        #expect(event.updated.map { abs($0.timeIntervalSince1970 - 1_772_387_920.113) < 0.001 } == true)
    }

    @Test func decodesAllDayDeclinedCancelledAndOddEvents() throws {
        let page = """
            [{"id":"allday","start":{"date":"2026-03-02"},"end":{"date":"2026-03-03"},"eventType":"outOfOffice"},
             {"status":"confirmed","summary":"no id"}, 42, [1, {"id":"nested"}], null,
             {"id":"declined","start":{"dateTime":"2026-03-02T09:00:00+01:00"},"attendees":[{"self":true,"responseStatus":"declined"}],
              "hangoutLink":"https://meet.google.com/x"},
             {"id":"deleted","status":"cancelled"},
             {"id":"exception","status":"cancelled","recurringEventId":"series","originalStartTime":{"dateTime":"2026-03-03T09:00:00Z"}},
             {"id":"odd","status":"somethingNew","start":{"dateTime":"not a date"},"attendees":"nope","summary":42,
              "conferenceData":{"entryPoints":[{"entryPointType":"video","uri":"javascript:alert(1)"}]}},
             {"status":"confirmed"}]
            """
        let events = try JSONDecoder().decode(LenientArray<CalendarEvent>.self, from: Data(page.utf8))
        #expect(events.elements.map(\.id) == ["allday", "declined", "deleted", "exception", "odd"])
        #expect(events.skipped == 5)
        let byID = Dictionary(uniqueKeysWithValues: events.elements.map { ($0.id, $0) })
        #expect(byID["allday"]?.isAllDay == true && byID["allday"]?.start == .allDay(CalendarDay("2026-03-02")!))
        #expect(byID["allday"]?.isDefaultType == false)
        #expect(byID["declined"]?.isDeclined == true && byID["declined"]?.meetingLink?.unsafeValue == "https://meet.google.com/x")
        #expect(byID["deleted"]?.isCancelled == true && byID["deleted"]?.start == nil)
        #expect(byID["exception"]?.recurringEventId == "series" && byID["exception"]?.originalStartTime?.instant != nil)
        #expect(byID["odd"]?.status == .other("somethingNew") && byID["odd"]?.start == nil)
        #expect(byID["odd"]?.summary == nil && byID["odd"]?.selfResponse == nil && byID["odd"]?.meetingLink == nil)
    }

    @Test func eventDescriptionsKeepPersonalFieldsOut() throws {
        let event = CalendarEvent(id: "e1", summary: "Divorce lawyer", location: "12 Secret Lane",
                                  start: .instant(Date(timeIntervalSince1970: 0), timeZone: nil),
                                  meetingLink: "https://meet.google.com/private")
        for text in [String(describing: event), String(reflecting: event), "\(event)", String(describing: [event])] {
            #expect(text.contains("e1"))
            #expect(!text.contains("Divorce") && !text.contains("Secret") && !text.contains("meet.google"))
        }
    }
}

@Suite(.timeLimit(.minutes(5))) struct HTTPClientErrorNamingTests {
    @Test func errorCodesAreNamedWithoutTheirValues() {
        let leaky = HTTPClientError.invalidHeaderFieldValues(["Bearer ya29.secret\n"])
        #expect(!GoogleHTTP.codeName(leaky).contains("ya29"))
        #expect(GoogleHTTP.codeName(.connectTimeout).contains("connectTimeout"))
    }
}
