import AlfredCore
import AlfredTestCluster
import Assistant
import Foundation
import PostgresNIO
import StandIns
import Testing
@testable import Assistant
@testable import Delivery
@testable import Sealing

/// Quiet hours, coalescing and dedupe, on the real worker and the Google stand-in.
@Suite(.serialized, .timeLimit(.minutes(5))) struct AssistantPolicyTests {
    static let quietScenario = """
        { "users": [{ "subject": "\(AssistantWorld.subject)", "email": "\(AssistantWorld.email)", "timeZone": "Europe/Zurich",
            "events": [ { "id": "evt-late", "summary": "Late call", "startInMinutes": 15.05, "selfResponse": "accepted" } ] }] }
        """

    /// Quiet hours that contain `now` whatever the time of the test run: from an hour before to an hour
    /// after (to the minute; `quietEnd(from:)` is when they end).
    static func quietNow(_ now: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Zurich")!
        func local(_ offset: TimeInterval) -> String {
            let c = calendar.dateComponents([.hour, .minute], from: now.addingTimeInterval(offset))
            return String(format: "%02d:%02d", c.hour!, c.minute!)
        }
        return "time_zone = 'Europe/Zurich', meeting_reminder_minutes = 15, quiet_hours_start = '\(local(-3600))', "
            + "quiet_hours_end = '\(local(3600))'"
    }

    /// The end of `quietNow(now)`: the start of the minute an hour after `now` (Zurich's offset is whole hours).
    static func quietEnd(from now: Date) -> Date {
        Date(timeIntervalSince1970: ((now.timeIntervalSince1970 + 3600) / 60).rounded(.down) * 60)
    }

    @Test func quietHoursHoldOrdinaryUrgentMailLetTheVeryUrgentThroughAndKeepReminders() async throws {
        var world = AssistantWorld()
        let setUp = Date()
        world.preferences = Self.quietNow(setUp)
        world.urgency = .init(vipSenders: ["boss@corp.example"])
        try await world.run(scenario: Self.quietScenario) { world in
            _ = try await world.plan()
            // Let the first mail check take its starting point before mail arrives.
            #expect(try await eventually {
                try await world.owner.query("SELECT count(*) FROM sync_cursors WHERE kind = 'gmail'", logger: TestDatabase.quietLogger)
                    .collect().first?.decode(Int.self) == 1
            })
            // Urgent by the normal bar (important, urgent word, addressed to the user) but not the quiet one.
            _ = try world.google.deliverMessage(GoogleStandIn.SeedMessage(
                id: "m-ordinary", from: "Colleague <colleague@corp.example>", to: AssistantWorld.email,
                subject: "Urgent: please review the draft", labelIds: ["INBOX", "UNREAD", "IMPORTANT"]), toUser: AssistantWorld.email)
            #expect(try await eventually {
                try await world.owner.query("SELECT count(*) FROM mail_alerts WHERE disposition = 'held'", logger: TestDatabase.quietLogger)
                    .collect().first?.decode(Int.self) == 1
            })
            #expect(try await world.pushes().filter { $0.content.kind == "mail.urgent" }.isEmpty, "held, not pushed")

            // A VIP's starred, important, urgent mail clears the quiet-hours bar.
            _ = try world.google.deliverMessage(GoogleStandIn.SeedMessage(
                id: "m-vip", from: "The Boss <boss@corp.example>", to: AssistantWorld.email,
                subject: "URGENT: call me now, the client is leaving", labelIds: ["INBOX", "UNREAD", "IMPORTANT", "STARRED"]),
                toUser: AssistantWorld.email)
            #expect(try await eventually { try await world.pushes().contains { $0.content.kind == "mail.urgent" } })
            #expect(try await world.pushes().first { $0.content.kind == "mail.urgent" }?.content.title == "Urgent: The Boss")

            // The meeting reminder goes out in quiet hours too.
            #expect(try await eventually {
                try await world.pushes().contains { $0.content.kind == "meeting.reminder" }
            })

            // The brief waits for the end of quiet hours (or a later brief time), not sent now: its
            // job runs `composeAhead` before then and the push waits for the time itself.
            try await world.runNow(kind: "morning.brief")
            let quietEnd = Self.quietEnd(from: setUp)
            #expect(try await eventually {
                let brief = try await world.jobs(kind: "morning.brief").first
                return brief?.state == "queued" && (brief.map { $0.dueAt >= BriefSchedule.jobDue(for: quietEnd) } ?? false)
            }, "due at or after \(quietEnd), less the compose lead")
            #expect(try await !world.pushes().contains { $0.content.kind == "morning.brief" })
        }
    }

    @Test func severalUrgentMessagesAtOnceAreOnePushAndNeverAlertTwice() async throws {
        try await AssistantWorld().run(scenario: Self.quietScenario) { world in
            _ = try await world.plan()
            #expect(try await eventually {
                try await world.owner.query("SELECT count(*) FROM sync_cursors WHERE kind = 'gmail'", logger: TestDatabase.quietLogger)
                    .collect().first?.decode(Int.self) == 1
            })
            // Hold the checks while three urgent messages arrive, so one check sees them all (once the
            // first check's completion is recorded: a running job is not moved by the update or a hint).
            #expect(try await eventually { try await world.jobs(kind: "mail.check").first?.state == "queued" })
            _ = try await world.owner.query("UPDATE jobs SET due_at = now() + interval '1 hour' WHERE kind = 'mail.check'",
                                            logger: TestDatabase.quietLogger).collect()
            for (index, sender) in ["Grace Hopper <grace@navy.example>", "Alan Turing <alan@bletchley.example>",
                                    "Katherine Johnson <katherine@nasa.example>"].enumerated() {
                _ = try world.google.deliverMessage(GoogleStandIn.SeedMessage(
                    id: "m-\(index)", from: sender, to: AssistantWorld.email, subject: "URGENT: outage \(index)",
                    labelIds: ["INBOX", "UNREAD", "IMPORTANT"]), toUser: AssistantWorld.email)
            }
            // A Gmail push hint brings the held check forward.
            #expect(try await world.environment.mailHint(userID: world.userID))
            #expect(try await eventually { try await world.pushes().contains { $0.content.kind == "mail.urgent" } })
            let first = try await world.pushes().filter { $0.content.kind == "mail.urgent" }
            #expect(first.count == 1)
            #expect(first.first?.content.title == "3 urgent emails")
            #expect(first.first?.content.body == "From Grace Hopper, Alan Turing and 1 more")

            // Gmail's history is lost (404): the check falls back to the recent inbox, sees the same
            // three messages again, and the per-message dedupe keeps it silent.
            world.google.expireHistory()
            try await world.runNow(kind: "mail.check")
            // The fallback ran (its history read got 404) and ended: the next check has read the history
            // from the fresh starting point since (checks of one user run one after another).
            #expect(try await eventually {
                let reads = world.google.recordedRequests().filter { $0.path.hasSuffix("/history") }
                guard let fallback = reads.firstIndex(where: { $0.status == 404 }) else { return false }
                return reads[(fallback + 1)...].contains { $0.status == 200 }
            }, "the fallback check ran to its end")
            #expect(try await world.pushes().filter { $0.content.kind == "mail.urgent" }.count == 1)
            let alerts = try await world.owner.query("SELECT count(*) FROM mail_alerts", logger: TestDatabase.quietLogger)
                .collect().first?.decode(Int.self)
            #expect(alerts == 3)
        }
    }
}
