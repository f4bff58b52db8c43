import AlfredCore
import AlfredTestCluster
import Foundation
import PostgresNIO
import Privacy
import Store
import StandIns
import Testing
@testable import Assistant
@testable import Delivery
@testable import Sealing

/// The whole assistant on a real database, a real worker and the Google stand-in over a socket.
@Suite(.serialized, .timeLimit(.minutes(5))) struct AssistantScenarioTests {
    /// Personal strings of the scenario: none may reach a table or a log line.
    static let personal = [
        "Board sync Project Falcon", "Room 4.12 Babbage wing", "Dentist Dr Molar", "Offsite Lisbon",
        "Standup Crocodile", "One-on-one Grace", "production database down", "Weekly pastry digest",
        "grace.hopper@navy.example", "digest@pastry.example", "ada.lovelace@example.com", "abc-defg-hij",
        "Replica lag forty minutes",  // a snippet: read by the urgency rules in memory, never kept
    ]

    /// The scenario with the board meeting `minutes` from now.
    static func scenario(boardStartsIn minutes: Double) -> String {
        scenario(boardStart: boardStart(in: minutes))
    }

    /// `minutes` from now, in whole seconds (as the scenario writes it).
    static func boardStart(in minutes: Double) -> Date {
        Date(timeIntervalSince1970: (Date().timeIntervalSince1970 + minutes * 60).rounded(.down))
    }

    /// The scenario with the board meeting at `boardStart` (an absolute time, so a test can compare
    /// what the assistant derives from it with the event's own start).
    static func scenario(boardStart: Date) -> String {
        """
        { "users": [{ "subject": "\(AssistantWorld.subject)", "email": "\(AssistantWorld.email)", "timeZone": "\(AssistantWorld.middayZone)",
            "events": [
              { "id": "evt-board", "summary": "Board sync Project Falcon", "location": "Room 4.12 Babbage wing",
                "start": "\(boardStart.ISO8601Format())", "durationMinutes": 30, "selfResponse": "accepted" },
              { "id": "evt-dentist", "summary": "Dentist Dr Molar", "startInMinutes": 40, "selfResponse": "declined" },
              { "id": "evt-offsite", "summary": "Offsite Lisbon", "allDay": true, "date": "\(Self.today())" },
              { "id": "evt-standup", "summary": "Standup Crocodile", "startInMinutes": 90, "selfResponse": "accepted" },
              { "id": "evt-grace", "summary": "One-on-one Grace", "startInMinutes": 120,
                "hangoutLink": "https://meet.google.com/abc-defg-hij", "selfResponse": "accepted" }
            ],
            "messages": [
              { "id": "m-old", "from": "Grace Hopper <grace.hopper@navy.example>", "to": "\(AssistantWorld.email)",
                "subject": "URGENT old news before connecting", "labelIds": ["INBOX", "IMPORTANT"], "arrivedMinutesAgo": 30 }
            ] }] }
        """
    }

    static func today() -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: AssistantWorld.middayZone)!
        let c = calendar.dateComponents([.year, .month, .day], from: Date())
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    @Test func remindersFollowTheCalendarUrgentMailAlertsAndNothingPersonalIsStoredOrLogged() async throws {
        // The board meeting starts 15 min + 3 s from now: its reminder is due in about 3 s.
        let boardStart = Self.boardStart(in: 15.05)
        try await AssistantWorld().run(scenario: Self.scenario(boardStart: boardStart)) { world in
            #expect(try await world.plan() == 3, "calendar.sync, mail.check and morning.brief for the user")
            #expect(try await world.plan() == 0, "planning is idempotent")

            // Sync: one reminder per upcoming meeting; declined, all-day and far-away ones get none.
            #expect(try await eventually {
                try await world.jobs(kind: "meeting.reminder").count == 3
            })
            let planned = try await world.jobs(kind: "meeting.reminder")
            #expect(Set(planned.compactMap(\.uniqueKey)) == Set(["evt-board", "evt-standup", "evt-grace"].map(world.reminderKey)))

            // The standup is cancelled and the 1:1 moves an hour later: the next sync follows.
            let grace = try #require(planned.first { $0.uniqueKey == world.reminderKey("evt-grace") })
            try world.google.cancelEvent(id: "evt-standup", forUser: AssistantWorld.email)
            _ = try world.google.upsertEvent(GoogleStandIn.SeedEvent(
                id: "evt-grace", summary: "One-on-one Grace", startInMinutes: 180,
                selfResponse: "accepted", hangoutLink: "https://meet.google.com/abc-defg-hij"), forUser: AssistantWorld.email)
            #expect(try await eventually {
                let jobs = try await world.jobs(kind: "meeting.reminder")
                let standup = jobs.first { $0.uniqueKey == world.reminderKey("evt-standup") }
                let moved = jobs.first { $0.uniqueKey == world.reminderKey("evt-grace") }
                return standup?.state == "cancelled" && (moved.map { $0.dueAt.timeIntervalSince(grace.dueAt) > 3500 } ?? false)
            })

            // The board reminder fires at its minute: re-fetched, composed, handed to delivery.
            #expect(try await eventually {
                try await world.pushes().contains { $0.content.kind == "meeting.reminder" }
            })
            let reminder = try #require(try await world.pushes().first { $0.content.kind == "meeting.reminder" })
            // "in N min" counts the minutes left when the reminder is composed: 15 when it runs at its
            // minute (as here, unless the machine is starved). Never more; never fewer than were left
            // when its push row was written, just after composing (an order of events, not a speed).
            let composedBy = try #require(try await world.owner.query(
                "SELECT created_at FROM jobs WHERE kind = 'push.deliver' AND unique_key = \(reminder.key)",
                logger: TestDatabase.quietLogger).collect().first?.decode(Date.self))
            let fewest = Int((boardStart.timeIntervalSince(composedBy) / 60).rounded(.up))
            let minutes = try #require(reminder.content.title.wholeMatch(of: /Board sync Project Falcon in (\d+) min/).flatMap { Int($0.1) },
                                       "\(reminder.content.title)")
            #expect((min(fewest, 15)...15).contains(minutes), "\(reminder.content.title); at least \(fewest) min were left")
            #expect(reminder.content.body == "Room 4.12 Babbage wing")
            let deadline = try #require(reminder.deadline)
            #expect(abs(deadline.timeIntervalSince(boardStart)) < 0.001, "the deadline is the meeting start: \(deadline) vs \(boardStart)")
            #expect(try await eventually {  // completions are batched: the row follows the push shortly
                try await world.jobs(kind: "meeting.reminder").first { $0.uniqueKey == world.reminderKey("evt-board") }?.state
                    == "completed"
            })

            // Mail: the old message predates the connection and is not news; a new urgent one alerts,
            // a newsletter does not.
            _ = try world.google.deliverMessage(GoogleStandIn.SeedMessage(
                id: "m-urgent", from: "Grace Hopper <grace.hopper@navy.example>", to: AssistantWorld.email,
                subject: "URGENT: production database down", labelIds: ["INBOX", "UNREAD", "IMPORTANT"],
                snippet: "Replica lag forty minutes and failover blocked, can you join the bridge"), toUser: AssistantWorld.email)
            _ = try world.google.deliverMessage(GoogleStandIn.SeedMessage(
                id: "m-news", from: "Pastry News <digest@pastry.example>", to: AssistantWorld.email,
                subject: "Weekly pastry digest", labelIds: ["INBOX", "UNREAD", "CATEGORY_PROMOTIONS"],
                headers: ["List-Unsubscribe": "<mailto:leave@pastry.example>", "Precedence": "bulk"]), toUser: AssistantWorld.email)
            #expect(try await eventually {
                try await world.pushes().contains { $0.content.kind == "mail.urgent" }
            })
            // More checks run; the same mail must not alert again.
            #expect(try await world.untilMailChecksRan(2), "two more whole mail checks")
            let mail = try await world.pushes().filter { $0.content.kind == "mail.urgent" }
            #expect(mail.count == 1)
            #expect(mail.first?.content.title == "Urgent: Grace Hopper")
            #expect(mail.first?.content.body == "URGENT: production database down")

            // The brief, brought forward: today's remaining meetings and the urgent mail.
            try await world.runNow(kind: "morning.brief")
            #expect(try await eventually { try await world.pushes().contains { $0.content.kind == "morning.brief" } })
            let brief = try #require(try await world.pushes().first { $0.content.kind == "morning.brief" })
            #expect(brief.content.body.contains("Board sync Project Falcon"), "\(brief.content.body)")
            #expect(brief.content.body.contains("1 urgent email: Grace Hopper (URGENT: production database down)"), "\(brief.content.body)")
            // The next brief is the next local day's (it is about midday there, past the brief time).
            let local = {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = TimeZone(identifier: AssistantWorld.middayZone)!
                return calendar
            }()
            let tomorrow = local.date(byAdding: .day, value: 1, to: local.startOfDay(for: brief.content.scheduledAt))
            #expect(try await eventually {  // completions are batched: the row follows the push shortly
                guard let briefJob = try await world.jobs(kind: "morning.brief").first else { return false }
                return briefJob.state == "queued" && local.startOfDay(for: briefJob.dueAt) == tomorrow
            }, "next brief tomorrow")

            // Data minimization: no table holds a title, place, subject or address; no log line either.
            for needle in Self.personal {
                #expect(try await plaintextHits(of: needle, in: world.owner) == [], "\(needle) stored in plaintext")
            }
            // The audit trail: every Google fetch is there, redacted, and the chain verifies. Successful
            // fetches are tallied and folded into the chain once a day; fold them now.
            _ = try await PostgresAuditStore(client: world.owner, logger: TestDatabase.quietLogger).fold(before: .distantFuture, limit: 1000)
            let trail = try await world.owner.query("""
                SELECT event_type || ' ' || coalesce(connector, '-') || ' ' || result || ' ' || redacted_metadata::text
                FROM audit_events WHERE user_id = \(world.userID) ORDER BY seq
                """, logger: TestDatabase.quietLogger).collect().map { try $0.decode(String.self) }
            for (source, operation) in [("calendar", "sync"), ("calendar", "event"), ("calendar", "events"),
                                        ("gmail", "profile"), ("gmail", "history"), ("gmail", "metadata")] {
                #expect(trail.contains { $0.hasPrefix("CONNECTOR_FETCH google SUCCESS") && $0.contains("\"source\": \"\(source)\"")
                            && $0.contains("\"operation\": \"\(operation)\"") && $0.contains("\"count\": ") }, "\(source) \(operation): \(trail)")
            }
            for needle in Self.personal + [AssistantWorld.subject, "m-urgent", "evt-board"] {
                #expect(!trail.contains { $0.localizedCaseInsensitiveContains(needle) }, "\(needle) reached the audit trail")
            }
            let verified = try await AuditChain.verify(userID: world.userID, store: PostgresAuditStore(client: world.owner, logger: TestDatabase.quietLogger))
            // The worker keeps syncing, so the chain may have grown since the trail was read.
            #expect(verified.intact && verified.events >= trail.count, "\(verified)")

            let logs = world.logs.all
            #expect(logs.count > 20, "the worker logged as it worked")
            for needle in Self.personal {
                #expect(!logs.contains { $0.localizedCaseInsensitiveContains(needle) }, "\(needle) reached a log line")
            }
            // And what we asked Google for was the minimum: metadata only, never `q`, never a body.
            let requests = world.google.recordedRequests().filter { $0.path.contains("/gmail/") }
            #expect(!requests.isEmpty)
            #expect(requests.allSatisfy { r in !r.query.contains { $0.name == "q" } })
            #expect(requests.filter { $0.path.contains("/messages/") }.allSatisfy { r in
                r.query.contains { $0.name == "format" && $0.value == "metadata" } })
        }
    }
}

extension AssistantWorld.Running {
    /// Gmail history reads the stand-in has answered: one per mail check after the first (the
    /// scenarios' few messages fit one page).
    var historyReads: Int { google.recordedRequests().filter { $0.path.hasSuffix("/history") }.count }

    /// Returns (true) once `count` mail checks have begun and ended since the call: a positive sign that
    /// the worker moved past a point, instead of a sleep. A user's checks run one after another, so
    /// the read `k + 1` after the call comes from a check that began after check `k` ended; only the
    /// first check to read after the call may have begun before it.
    func untilMailChecksRan(_ count: Int) async throws -> Bool {
        let start = historyReads
        return try await eventually { historyReads >= start + count + 2 }
    }
}
