import AlfredCore
import AlfredTestCluster
import Assistant
import Foundation
import PostgresNIO
import StandIns
import Store
import Synchronization
import Testing
@testable import Assistant
@testable import Delivery
@testable import Sealing

/// The planner, the morning brief and meeting reminders across the real 2026 DST changes of
/// `America/Los_Angeles` (2026-03-08 02:00 -> 03:00, 2026-11-01 02:00 -> 01:00) and `Europe/Berlin`
/// (2026-03-29 02:00 -> 03:00, 2026-10-25 03:00 -> 02:00), end to end: a real database and job store,
/// the real worker and handlers, the Google stand-in over a socket.
///
/// Time is pinned, never waited for: one instant is the assistant's `now`, the stand-in's clock and
/// Postgres's `now()` (which decides what is due, so the real worker claims a job exactly when the
/// pinned time reaches its `due_at`). Tests move that instant forward and check the job rows.
///
/// Every expected instant below is written out by hand in UTC and was checked against the tz database
/// (`zdump`, Python's `zoneinfo`), not computed with the code under test.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct DSTEndToEndTests {
    // MARK: The morning brief

    /// A brief at 07:00 local, and the meetings around the change day.
    struct DailyBrief: Sendable, CustomTestStringConvertible {
        let zone: String
        let change: String
        /// Where the test's time starts: the day before the change, before the brief.
        let start: String
        /// Due times of the brief: the day before, the change day, the day after (07:00 local each).
        let runs: [String]
        /// Meetings on the day before (one), the change day (two, the second late in the evening) and
        /// just after midnight following it (one, which belongs to the next day).
        let events: [GoogleStandIn.SeedEvent]
        /// The end of the change day (local midnight), the brief's deadline.
        let changeDayEnd: String
        var testDescription: String { "\(zone) \(change)" }
    }

    static let dailyBriefs = [
        // Spring forward: a 23-hour day. 07:00 PST = 15:00Z, 07:00 PDT = 14:00Z. A "24 h from local
        // midnight" window would reach 01:00 the next day and count the 00:30 call.
        DailyBrief(zone: "America/Los_Angeles", change: "spring forward", start: "2026-03-07T13:00:00Z",
                   runs: ["2026-03-07T15:00:00Z", "2026-03-08T14:00:00Z", "2026-03-09T14:00:00Z"],
                   events: meetings("2026-03-07T10:00:00-08:00", "2026-03-08T09:00:00-07:00", "2026-03-08T22:30:00-07:00",
                                    "2026-03-09T00:30:00-07:00"),
                   changeDayEnd: "2026-03-09T07:00:00Z"),
        // Fall back: a 25-hour day. 07:00 PDT = 14:00Z, 07:00 PST = 15:00Z. A 24 h window from local
        // midnight would end at 23:00 and miss the 23:30 review.
        DailyBrief(zone: "America/Los_Angeles", change: "fall back", start: "2026-10-31T12:00:00Z",
                   runs: ["2026-10-31T14:00:00Z", "2026-11-01T15:00:00Z", "2026-11-02T15:00:00Z"],
                   events: meetings("2026-10-31T10:00:00-07:00", "2026-11-01T09:00:00-08:00", "2026-11-01T23:30:00-08:00",
                                    "2026-11-02T00:30:00-08:00"),
                   changeDayEnd: "2026-11-02T08:00:00Z"),
        // 07:00 CET = 06:00Z, 07:00 CEST = 05:00Z.
        DailyBrief(zone: "Europe/Berlin", change: "spring forward", start: "2026-03-28T04:00:00Z",
                   runs: ["2026-03-28T06:00:00Z", "2026-03-29T05:00:00Z", "2026-03-30T05:00:00Z"],
                   events: meetings("2026-03-28T10:00:00+01:00", "2026-03-29T09:00:00+02:00", "2026-03-29T22:30:00+02:00",
                                    "2026-03-30T00:30:00+02:00"),
                   changeDayEnd: "2026-03-29T22:00:00Z"),
        DailyBrief(zone: "Europe/Berlin", change: "fall back", start: "2026-10-24T03:00:00Z",
                   runs: ["2026-10-24T05:00:00Z", "2026-10-25T06:00:00Z", "2026-10-26T06:00:00Z"],
                   events: meetings("2026-10-24T10:00:00+02:00", "2026-10-25T09:00:00+01:00", "2026-10-25T23:30:00+01:00",
                                    "2026-10-26T00:30:00+01:00"),
                   changeDayEnd: "2026-10-25T23:00:00Z"),
    ]

    static func meetings(_ dayBefore: String, _ changeMorning: String, _ changeEvening: String, _ nextNight: String)
        -> [GoogleStandIn.SeedEvent] {
        [("evt-planning", "Planning", dayBefore), ("evt-standup", "Standup", changeMorning),
         ("evt-review", "Late review", changeEvening), ("evt-call", "Early call", nextNight)].map {
            GoogleStandIn.SeedEvent(id: $0.0, summary: $0.1, start: $0.2, durationMinutes: 20, selfResponse: "accepted")
        }
    }

    @Test(arguments: dailyBriefs)
    func aBriefKeepsItsLocalTimeOnTheChangeDayAndListsThatDaysMeetings(_ brief: DailyBrief) async throws {
        try await Self.run(zone: brief.zone, briefAt: "07:00", from: brief.start, events: brief.events) { world, clock in
            #expect(try await world.plan() == 3, "calendar.sync, mail.check and morning.brief")
            let runs = brief.runs.map(Self.utc)
            try await Self.followBrief(world, clock, through: runs)

            let briefs = try await Self.deliveries(world).filter { $0.content.kind == "morning.brief" }
            try #require(briefs.count == 2, "one brief the day before and one on the change day")
            #expect(briefs[0].content.body == "1 meeting today, first 10:00 Planning.")
            // The change day's brief lists exactly that local day's meetings (23 or 25 hours long),
            // shows their local wall time, and is useless after that day's local midnight.
            #expect(briefs[1].content.body == "2 meetings today, first 09:00 Standup.")
            #expect(briefs[1].content.scheduledAt == runs[1])
            #expect(briefs[1].deadline == Self.utc(brief.changeDayEnd))
            #expect(briefs.map(\.dueAt) == [runs[0], runs[1]], "handed to delivery at once")
        }
    }

    /// The brief is composed `composeAhead` before its time (calendar and mail read then), so at the
    /// brief time only the send remains: at the job's due time the push is already queued, for the
    /// brief time itself, with its lateness counted from it.
    @Test func aBriefIsComposedAheadAndItsPushWaitsForTheBriefTime() async throws {
        let brief = Self.dailyBriefs[0]
        try await Self.run(zone: brief.zone, briefAt: "07:00", from: brief.start, events: brief.events) { world, clock in
            #expect(try await world.plan() == 3)
            let at = Self.utc(brief.runs[0])
            try await Self.advance(world, clock, to: BriefSchedule.jobDue(for: at))
            #expect(try await eventually {
                try await Self.deliveries(world).contains { $0.content.kind == "morning.brief" }
            }, "composed before the brief time")
            let push = try #require(try await Self.deliveries(world).first { $0.content.kind == "morning.brief" })
            #expect(push.dueAt == at && push.content.scheduledAt == at, "the push waits for \(at): \(push.dueAt)")
            #expect(push.content.body == "1 meeting today, first 10:00 Planning.")
            let row = try #require(try await Self.rows(world, kind: "morning.brief").first)
            #expect(row.dueAt == BriefSchedule.jobDue(for: Self.utc(brief.runs[1])), "next: the day after's, ahead again: \(row)")
        }
    }

    /// A brief job that runs more than a day after its brief time (a worker fleet down overnight):
    /// its day is over, so it lists nothing, its push is already past its deadline, and the job moves
    /// on to the next brief. (Its meeting window once ran from now back to the end of its day, an
    /// interval Foundation refuses with a crash of the worker; and an empty one is Google's 400
    /// `timeRangeEmpty`, which discarded the user's recurring brief.)
    @Test func aBriefRunMoreThanADayLateSendsNothingStaleAndMovesOn() async throws {
        let brief = Self.dailyBriefs[0]
        try await Self.run(zone: brief.zone, briefAt: "07:00", from: brief.start, events: brief.events) { world, clock in
            #expect(try await world.plan() == 3)
            let late = Self.utc(brief.runs[0]).addingTimeInterval(30 * 3600)
            try await Self.advance(world, clock, to: late)
            try await Self.settle(world)
            let row = try #require(try await Self.rows(world, kind: "morning.brief").first)
            #expect(row.state == "queued" && row.dueAt > late, "the next brief is planned: \(row)")
            let stale = try await Self.deliveries(world).filter { $0.content.kind == "morning.brief" }
            #expect(stale.allSatisfy { ($0.deadline ?? .distantFuture) <= late }, "nothing of the missed day can still go out: \(stale)")
        }
    }

    /// A brief time that does not exist on the spring-forward day.
    struct MissingHour: Sendable, CustomTestStringConvertible {
        let zone: String
        let start: String
        let runs: [String]
        var testDescription: String { zone }
    }

    static let missingHours = [
        // 02:30 PST = 10:30Z; on 2026-03-08 there is no 02:30: 03:30 PDT = 10:30Z; then 02:30 PDT = 09:30Z.
        MissingHour(zone: "America/Los_Angeles", start: "2026-03-07T08:00:00Z",
                    runs: ["2026-03-07T10:30:00Z", "2026-03-08T10:30:00Z", "2026-03-09T09:30:00Z"]),
        // 02:30 CET = 01:30Z; on 2026-03-29 03:30 CEST = 01:30Z; then 02:30 CEST = 00:30Z.
        MissingHour(zone: "Europe/Berlin", start: "2026-03-27T23:00:00Z",
                    runs: ["2026-03-28T01:30:00Z", "2026-03-29T01:30:00Z", "2026-03-30T00:30:00Z"]),
    ]

    @Test(arguments: missingHours)
    func aBriefTimeInTheMissingHourMovesForwardByTheGap(_ brief: MissingHour) async throws {
        try await Self.run(zone: brief.zone, briefAt: "02:30", from: brief.start, events: []) { world, clock in
            #expect(try await world.plan() == 3)
            let runs = brief.runs.map(Self.utc)
            try await Self.followBrief(world, clock, through: runs)
            let briefs = try await Self.deliveries(world).filter { $0.content.kind == "morning.brief" }
            #expect(briefs.map(\.content.scheduledAt) == [runs[0], runs[1]], "one brief a day, the change day's at 03:30")
            #expect(briefs.allSatisfy { $0.content.body == "No meetings today." })
        }
    }

    /// A brief time that happens twice on the fall-back day.
    struct RepeatedHour: Sendable, CustomTestStringConvertible {
        let zone: String
        let briefAt: String
        let start: String
        let runs: [String]
        /// The second time the wall clock shows the brief time on the change day.
        let secondOccurrence: String
        var testDescription: String { "\(zone) \(briefAt)" }
    }

    static let repeatedHours = [
        // 01:30 PDT = 08:30Z on both days; 2026-11-01 shows 01:30 again at 09:30Z (PST); then 09:30Z.
        RepeatedHour(zone: "America/Los_Angeles", briefAt: "01:30", start: "2026-10-31T07:00:00Z",
                     runs: ["2026-10-31T08:30:00Z", "2026-11-01T08:30:00Z", "2026-11-02T09:30:00Z"],
                     secondOccurrence: "2026-11-01T09:30:00Z"),
        // 02:30 CEST = 00:30Z; 2026-10-25 shows 02:30 again at 01:30Z (CET); then 01:30Z.
        RepeatedHour(zone: "Europe/Berlin", briefAt: "02:30", start: "2026-10-23T22:00:00Z",
                     runs: ["2026-10-24T00:30:00Z", "2026-10-25T00:30:00Z", "2026-10-26T01:30:00Z"],
                     secondOccurrence: "2026-10-25T01:30:00Z"),
    ]

    @Test(arguments: repeatedHours)
    func aBriefTimeInTheRepeatedHourRunsOnceThatDay(_ brief: RepeatedHour) async throws {
        try await Self.run(zone: brief.zone, briefAt: brief.briefAt, from: brief.start, events: []) { world, clock in
            #expect(try await world.plan() == 3)
            let runs = brief.runs.map(Self.utc)
            try await Self.followBrief(world, clock, through: runs)

            // The wall clock shows the brief time a second time: the worker moves past it (the
            // calendar sync runs there and plans its next run after it), the brief does not run.
            let second = Self.utc(brief.secondOccurrence)
            try await Self.advance(world, clock, to: second.addingTimeInterval(60))
            #expect(try await eventually {
                try await Self.rows(world, kind: "calendar.sync").first.map { $0.state == "queued" && $0.dueAt > second } == true
            }, "the worker ran past the second occurrence")
            try await Self.settle(world)
            let row = try #require(try await Self.rows(world, kind: "morning.brief").first)
            #expect(row.state == "queued" && row.dueAt == BriefSchedule.jobDue(for: runs[2]), "still planned for tomorrow: \(row)")
            #expect(row.lastRunAt == runs[1], "last claimed at the first occurrence, not again at the second")
            let briefs = try await Self.deliveries(world).filter { $0.content.kind == "morning.brief" }
            #expect(briefs.map(\.content.scheduledAt) == [runs[0], runs[1]])
        }
    }

    /// A brief time inside quiet hours (22:00-07:30): the brief waits for their local end.
    struct QuietMorning: Sendable, CustomTestStringConvertible {
        let zone: String
        let change: String
        let start: String
        /// 07:30 local on the day before, the change day and the day after.
        let runs: [String]
        var testDescription: String { "\(zone) \(change)" }
    }

    static let quietMornings = [
        // 07:30 PST = 15:30Z, 07:30 PDT = 14:30Z.
        QuietMorning(zone: "America/Los_Angeles", change: "spring forward", start: "2026-03-07T13:00:00Z",
                     runs: ["2026-03-07T15:30:00Z", "2026-03-08T14:30:00Z", "2026-03-09T14:30:00Z"]),
        // 07:30 CEST = 05:30Z, 07:30 CET = 06:30Z.
        QuietMorning(zone: "Europe/Berlin", change: "fall back", start: "2026-10-24T03:00:00Z",
                     runs: ["2026-10-24T05:30:00Z", "2026-10-25T06:30:00Z", "2026-10-26T06:30:00Z"]),
    ]

    @Test(arguments: quietMornings)
    func aBriefInsideQuietHoursWaitsForTheirLocalEndOnTheChangeDay(_ brief: QuietMorning) async throws {
        try await Self.run(zone: brief.zone, briefAt: "07:00", quiet: ("22:00", "07:30"), from: brief.start,
                           events: []) { world, clock in
            #expect(try await world.plan() == 3)
            let runs = brief.runs.map(Self.utc)
            try await Self.followBrief(world, clock, through: runs)
            let briefs = try await Self.deliveries(world).filter { $0.content.kind == "morning.brief" }
            #expect(briefs.map(\.content.scheduledAt) == [runs[0], runs[1]])
        }
    }

    // MARK: Meeting reminders

    struct Reminders: Sendable, CustomTestStringConvertible {
        let zone: String
        let change: String
        /// The day before the change, 20:00 local: the change day is inside the reminder horizon.
        let start: String
        /// Meetings with their start in local time (with that moment's offset) and, hand-computed,
        /// when their reminder must go out: start - 15 min, in absolute time.
        let meetings: [(event: GoogleStandIn.SeedEvent, remindAt: String)]
        var testDescription: String { "\(zone) \(change)" }
    }

    static func meeting(_ id: String, _ title: String, _ start: String, end: String? = nil, remindAt: String)
        -> (event: GoogleStandIn.SeedEvent, remindAt: String) {
        (GoogleStandIn.SeedEvent(id: id, summary: title, start: start, end: end, durationMinutes: end == nil ? 30 : nil,
                                 selfResponse: "accepted"), remindAt)
    }

    static let reminders = [
        // 2026-03-08: 02:00 PST (10:00Z) becomes 03:00 PDT.
        Reminders(zone: "America/Los_Angeles", change: "spring forward", start: "2026-03-08T04:00:00Z", meetings: [
            // Spans the change: 01:30 PST to 04:30 PDT.
            meeting("evt-night", "Night shift", "2026-03-08T01:30:00-08:00", end: "2026-03-08T04:30:00-07:00",
                    remindAt: "2026-03-08T09:15:00Z"),
            // 03:10 PDT: the reminder is at 01:55 PST, before the jump (wall clocks differ by 1 h 15 min).
            meeting("evt-early", "Early sync", "2026-03-08T03:10:00-07:00", remindAt: "2026-03-08T09:55:00Z"),
            meeting("evt-nine", "Nine o'clock", "2026-03-08T09:00:00-07:00", remindAt: "2026-03-08T15:45:00Z"),
        ]),
        // 2026-11-01: 02:00 PDT (09:00Z) becomes 01:00 PST.
        Reminders(zone: "America/Los_Angeles", change: "fall back", start: "2026-11-01T03:00:00Z", meetings: [
            meeting("evt-night", "Night shift", "2026-11-01T00:30:00-07:00", end: "2026-11-01T03:00:00-08:00",
                    remindAt: "2026-11-01T07:15:00Z"),
            // Two meetings at 01:30 on the wall clock, an hour apart.
            meeting("evt-first", "First half", "2026-11-01T01:30:00-07:00", remindAt: "2026-11-01T08:15:00Z"),
            meeting("evt-second", "Second half", "2026-11-01T01:30:00-08:00", remindAt: "2026-11-01T09:15:00Z"),
            // 01:10 PST: the reminder is at 01:55 PDT, before the change; on the wall clock it reads
            // 45 min *later* than the meeting.
            meeting("evt-early", "Early sync", "2026-11-01T01:10:00-08:00", remindAt: "2026-11-01T08:55:00Z"),
            meeting("evt-nine", "Nine o'clock", "2026-11-01T09:00:00-08:00", remindAt: "2026-11-01T16:45:00Z"),
        ]),
        // 2026-03-29: 02:00 CET (01:00Z) becomes 03:00 CEST.
        Reminders(zone: "Europe/Berlin", change: "spring forward", start: "2026-03-28T19:00:00Z", meetings: [
            meeting("evt-night", "Night shift", "2026-03-29T01:30:00+01:00", end: "2026-03-29T03:30:00+02:00",
                    remindAt: "2026-03-29T00:15:00Z"),
            meeting("evt-early", "Early sync", "2026-03-29T03:10:00+02:00", remindAt: "2026-03-29T00:55:00Z"),
            meeting("evt-nine", "Nine o'clock", "2026-03-29T09:00:00+02:00", remindAt: "2026-03-29T06:45:00Z"),
        ]),
        // 2026-10-25: 03:00 CEST (01:00Z) becomes 02:00 CET.
        Reminders(zone: "Europe/Berlin", change: "fall back", start: "2026-10-24T18:00:00Z", meetings: [
            meeting("evt-night", "Night shift", "2026-10-25T01:30:00+02:00", end: "2026-10-25T03:30:00+01:00",
                    remindAt: "2026-10-24T23:15:00Z"),
            meeting("evt-first", "First half", "2026-10-25T02:30:00+02:00", remindAt: "2026-10-25T00:15:00Z"),
            meeting("evt-second", "Second half", "2026-10-25T02:30:00+01:00", remindAt: "2026-10-25T01:15:00Z"),
            meeting("evt-early", "Early sync", "2026-10-25T02:10:00+01:00", remindAt: "2026-10-25T00:55:00Z"),
            meeting("evt-nine", "Nine o'clock", "2026-10-25T09:00:00+01:00", remindAt: "2026-10-25T07:45:00Z"),
        ]),
    ]

    @Test(arguments: reminders)
    func remindersOnTheChangeDayFireAtStartMinusLeadInAbsoluteTime(_ plan: Reminders) async throws {
        let events = plan.meetings.map(\.event)
        // The RFC's default quiet hours (22:00-07:00) cover the night: reminders are not held by them.
        try await Self.run(zone: plan.zone, briefAt: "08:00", quiet: ("22:00", "07:00"), from: plan.start,
                           events: events) { world, clock in
            #expect(try await world.plan() == 3)
            // The calendar sync (due now) plans one reminder job per meeting, `reminderLead` before
            // the reminder time.
            let lead = world.environment.intervals.reminderLead.seconds
            #expect(try await eventually { try await Self.rows(world, kind: "meeting.reminder").count == events.count })
            let planned = try await Self.rows(world, kind: "meeting.reminder")
            for (event, remindAt) in plan.meetings {
                let job = planned.first { $0.uniqueKey == world.reminderKey(event.id!) }
                #expect(job?.state == "queued" && job?.dueAt == Self.utc(remindAt).addingTimeInterval(-lead),
                        "\(event.id!): \(String(describing: job)), want \(remindAt) - \(lead) s")
            }

            // Time moves to each reminder job in turn: the job re-reads the event and hands delivery
            // a push due at exactly start - 15 min, saying "in 15 min".
            for (event, remindAt) in plan.meetings.sorted(by: { $0.remindAt < $1.remindAt }) {
                let at = Self.utc(remindAt), start = try #require(event.start.map(Self.utc))
                let key = ReminderKeys.delivery(world.sealer, user: world.userID, eventID: event.id!, start: start)
                try await Self.advance(world, clock, to: at.addingTimeInterval(-lead))
                if try await !eventually({ try await Self.deliveries(world).contains { $0.key == key } }) {
                    Issue.record("\(event.id!): no push; reminder jobs: \(try await Self.rows(world, kind: "meeting.reminder"))")
                }
                let push = try #require(try await Self.deliveries(world).first { $0.key == key })
                #expect(push.dueAt == at, "\(event.id!): push due \(push.dueAt), want \(remindAt)")
                #expect(push.content.scheduledAt == at)
                #expect(push.deadline == start, "useless once the meeting started")
                #expect(push.content.title == "\(event.summary!) in 15 min")
            }
            try await Self.settle(world)
            let finished = try await Self.rows(world, kind: "meeting.reminder")
            #expect(finished.count == events.count && finished.allSatisfy { $0.state == "completed" }, "\(finished)")
            let pushed = try await Self.deliveries(world).filter { $0.content.kind == "meeting.reminder" }
            #expect(pushed.count == events.count, "one push per meeting")
        }
    }

    // MARK: The world at a pinned time

    static func utc(_ text: String) -> Date {
        guard let date = ISO8601DateFormatter().date(from: text) else { fatalError("not RFC 3339: \(text)") }
        return date
    }

    /// Runs `body` in an assistant world whose user lives in `zone`, with every clock pinned at `start`.
    /// `quiet`: quiet hours as local times, none when nil.
    static func run(zone: String, briefAt: String, quiet: (start: String, end: String)? = nil, from start: String,
                    events: [GoogleStandIn.SeedEvent],
                    _ body: @Sendable (AssistantWorld.Running, PinnedClock) async throws -> Void) async throws {
        let clock = PinnedClock(utc(start))
        var world = AssistantWorld()
        world.now = { clock.now() }
        world.prepareDatabase = { try await clock.pin($0) }
        let quietHours = quiet.map { "quiet_hours_start = '\($0.start)', quiet_hours_end = '\($0.end)'" }
            ?? "quiet_hours_start = NULL, quiet_hours_end = NULL"
        world.preferences = "time_zone = '\(zone)', morning_brief_local_time = '\(briefAt)', meeting_reminder_minutes = 15, "
            + quietHours
        let users = [GoogleStandIn.User(subject: AssistantWorld.subject, email: AssistantWorld.email, timeZone: zone, events: events)]
        let scenario = String(decoding: try JSONEncoder().encode(GoogleStandIn.Configuration(users: users)), as: UTF8.self)
        try await world.run(scenario: scenario) { running in try await body(running, clock) }
    }

    /// Moves time to each brief run but the last: the worker runs the brief there, and its row is
    /// queued again for the next run (`due_at` and `next_run_at`), claimed at the run before.
    static func followBrief(_ world: AssistantWorld.Running, _ clock: PinnedClock, through runs: [Date]) async throws {
        // The brief's job runs `composeAhead` before each brief time; the test's clock jumps to the
        // brief time itself, where the job (due before it) runs and hands the push over at once.
        let first = try #require(try await rows(world, kind: "morning.brief").first)
        #expect(first.dueAt == BriefSchedule.jobDue(for: runs[0]), "the planner's first brief: \(first)")
        for (ran, next) in zip(runs, runs.dropFirst()) {
            try await advance(world, clock, to: ran)
            let job = BriefSchedule.jobDue(for: next)
            #expect(try await eventually {
                try await rows(world, kind: "morning.brief").first.map { $0.state == "queued" && $0.dueAt == job } == true
            })
            let row = try #require(try await rows(world, kind: "morning.brief").first)
            #expect(row.dueAt == job && row.nextRunAt == job && row.lastRunAt == ran, "after the run at \(ran): \(row), want \(job)")
        }
    }

    /// Moves the whole world to `date`, once everything due before has run.
    static func advance(_ world: AssistantWorld.Running, _ clock: PinnedClock, to date: Date) async throws {
        try await settle(world)
        try await clock.move(to: date, owner: world.owner)
    }

    /// Waits until no job of the worker's queue is running or due at the pinned time.
    static func settle(_ world: AssistantWorld.Running) async throws {
        #expect(try await eventually {
            try await world.owner.query("""
                SELECT count(*)::int8 FROM jobs
                WHERE queue = 'default' AND (state = 'running' OR (state = 'queued' AND due_at <= now()))
                """, logger: TestDatabase.quietLogger).collect().first?.decode(Int.self) == 0
        }, "every job due at the pinned time has run")
    }

    struct Row: Sendable, CustomStringConvertible {
        let state: String, dueAt: Date, nextRunAt: Date?, lastRunAt: Date?, uniqueKey: String?, lastError: String?
        var description: String {
            "\(state) due \(dueAt) next \(nextRunAt.map { "\($0)" } ?? "-") last run \(lastRunAt.map { "\($0)" } ?? "-")"
                + (lastError.map { " error \($0)" } ?? "")
        }
    }

    static func rows(_ world: AssistantWorld.Running, kind: String) async throws -> [Row] {
        try await world.owner.query("""
            SELECT state, due_at, next_run_at, last_run_at, unique_key, last_error FROM jobs WHERE kind = \(kind) ORDER BY due_at
            """, logger: TestDatabase.quietLogger).collect().map {
            let (state, due, next, last, key, error) = try $0.decode((String, Date, Date?, Date?, String?, String?).self)
            return Row(state: state, dueAt: due, nextRunAt: next, lastRunAt: last, uniqueKey: key, lastError: error)
        }
    }

    /// Pushes handed to delivery, opened, with the `due_at` of their `push.deliver` job.
    static func deliveries(_ world: AssistantWorld.Running) async throws
        -> [(content: PushContent, key: String, dueAt: Date, deadline: Date?)] {
        var found: [(content: PushContent, key: String, dueAt: Date, deadline: Date?)] = []
        let rows = try await world.owner.query("""
            SELECT j.payload, j.unique_key, j.due_at, n.deadline_at, j.user_id FROM jobs j
            JOIN notifications n ON n.job_id = j.id WHERE j.kind = 'push.deliver' ORDER BY j.due_at
            """, logger: TestDatabase.quietLogger)
        for try await (payload, key, due, deadline, user) in rows.decode((ByteBuffer, String, Date, Date?, UUID).self) {
            let content = try JSONDecoder().decode(SealedPayload.self, from: Data(buffer: payload))
                .open(PushContent.self, sealer: world.sealer, userID: user, purpose: .notification)
            found.append((content, key, due, deadline))
        }
        return found
    }
}

/// One pinned instant for a whole test world: the assistant's `now`, the Google stand-in's clock and
/// the database's `now()`. It only moves when the test moves it.
///
/// The database side: the test database gets a `test_clock.now()` that reads the pinned instant, and
/// its `search_path` names `test_clock` before `pg_catalog`, so every unqualified `now()` in the
/// store's SQL (what is due, lateness, leases, `next_run_at`) is the pinned time. Column defaults keep
/// the real clock (they were bound to `pg_catalog.now()` by the migrations); nothing here reads them.
final class PinnedClock: Sendable {
    private let instant: Mutex<Date>

    init(_ start: Date) { instant = Mutex(start) }

    func now() -> Date { instant.withLock { $0 } }

    /// Installs the pinned `now()` in `url`'s database; call before any other session connects.
    func pin(_ url: DatabaseURL) async throws {
        let start = now()
        try await TestDatabase.withClient(url, maxConnections: 1) { client in
            let logger = TestDatabase.quietLogger
            for statement in [
                "CREATE SCHEMA test_clock",
                "CREATE TABLE test_clock.pinned (at timestamptz NOT NULL)",
                "CREATE FUNCTION test_clock.now() RETURNS timestamptz LANGUAGE sql STABLE AS 'SELECT at FROM test_clock.pinned'",
                "GRANT USAGE ON SCHEMA test_clock TO PUBLIC",
                "GRANT SELECT ON test_clock.pinned TO PUBLIC",
                "ALTER DATABASE \"\(url.database)\" SET search_path = test_clock, pg_catalog, \"$user\", public",
            ] {
                _ = try await client.query(PostgresQuery(unsafeSQL: statement), logger: logger).collect()
            }
            _ = try await client.query("INSERT INTO test_clock.pinned (at) VALUES (\(start))", logger: logger).collect()
        }
    }

    /// Moves time forward: the app first, then the database, so a job the database finds due runs
    /// with the app's clock already there.
    func move(to date: Date, owner: PostgresClient) async throws {
        precondition(date >= now(), "the pinned clock only moves forward")
        instant.withLock { $0 = date }
        _ = try await owner.query("UPDATE test_clock.pinned SET at = \(date)", logger: TestDatabase.quietLogger).collect()
    }
}
