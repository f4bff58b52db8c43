import AlfredTestKit
import Foundation
import Logging
import StandIns
import Testing

/// What the stand-in writes to its logger: never a user's email, an event's title or its times.
@Suite(.timeLimit(.minutes(5))) struct LogPrivacyTests {
    static let title = "Oncology consult"
    static let badTitle = "Divorce lawyer"
    static let badTime = "2026-11-24T15:45:00"  // no offset: a seed problem
    static let subject = "Biopsy results"

    static func configuration() -> GoogleStandIn.Configuration {
        H.dataConfiguration(
            events: [GoogleStandIn.SeedEvent(id: "evt-ok", summary: title, startInMinutes: 30),
                     GoogleStandIn.SeedEvent(id: "evt-bad", summary: badTitle, start: badTime)],
            messages: [GoogleStandIn.SeedMessage(id: "m-ok", subject: subject),
                       GoogleStandIn.SeedMessage(id: "m-bad", subject: subject, arrivesInSeconds: -5)])
    }

    @Test func seedProblemsAndRequestLinesCarryNoPersonalData() async throws {
        let log = LogCapture()
        try await H.with(Self.configuration(), clock: H.pinnedClock(), logger: log.logger("alfred.standin.test")) { google in
            let calendarToken = try google.token([H.calendarReadonly])
            let gmailToken = try google.token([H.gmailMetadata])
            // The email as calendar id (encoded and not) and as Gmail userId.
            #expect(try await google.get("/calendar/v3/calendars/ada%40example.com/events", token: calendarToken).status == 200)
            #expect(try await google.get("/calendar/v3/calendars/ada@example.com/events/evt-ok", token: calendarToken).status == 200)
            #expect(try await google.get("/gmail/v1/users/ada@example.com/profile", token: gmailToken).status == 200)
            #expect(try await google.get("/gmail/v1/users/ADA%40EXAMPLE.COM/messages", token: gmailToken).status == 200)
            #expect(try await google.get("/gmail/v1/users/grace@example.com/profile", token: gmailToken).status == 403)
            google.standIn.reset()  // reports the seed problems again

            // The control plane answers the same problems to whoever sent the scenario, by position.
            let encoder = JSONEncoder()
            let scenario = String(decoding: try encoder.encode(Self.configuration()), as: UTF8.self)
            let refused = try await google.postJSON("/_fake/state", scenario)
            #expect(refused.status == 400)
            let problems = try #require(refused.error)
            #expect(problems.contains("users[0].events[1]: start is not RFC 3339"), "\(problems)")
            #expect(problems.contains("users[0].messages[1]: arrivesInSeconds"), "\(problems)")
            for secret in ["ada@example.com", Self.badTitle, Self.badTime, Self.subject, "evt-bad"] {
                #expect(!problems.contains(secret), "the problem report leaked \(secret)")
            }
        }

        let lines = log.all
        let skipped = lines.filter { $0.contains("seed skipped") }
        #expect(skipped.count == 4, "\(skipped)")  // two problems, at start and at reset
        #expect(skipped.contains { $0.contains("users[0].events[1]") } && skipped.contains { $0.contains("users[0].messages[1]") })
        let requests = lines.filter { $0.contains("stand-in request") }
        #expect(requests.count == 5)
        #expect(requests.filter { $0.contains("<redacted>") }.count == 5, "\(requests)")
        #expect(requests.contains { $0.contains("/calendar/v3/calendars/<redacted>/events/evt-ok") })
        for secret in ["ada@example.com", "ada%40example.com", "grace@example.com", Self.title, Self.badTitle,
                       Self.badTime, Self.subject] {
            let leaks = lines.filter { $0.lowercased().contains(secret.lowercased()) }
            #expect(leaks.isEmpty, "logged \(secret): \(leaks)")
        }
    }
}
