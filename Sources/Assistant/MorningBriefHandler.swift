import AlfredCore
import Delivery
import Foundation
import Sealing
import JobQueue

/// `morning.brief`, recurring per user at `morning_brief_local_time` in the user's zone (DST-correct,
/// see `LocalSchedule`): today's remaining meetings and the urgent mail since the last brief, in one
/// short push. If the brief time falls in quiet hours, the brief waits for their end.
/// One brief per local day: its idempotency key is the user and the local date.
public struct MorningBriefHandler: JobHandler {
    public let kind = AssistantKind.morningBrief
    let environment: AssistantEnvironment

    public init(environment: AssistantEnvironment) { self.environment = environment }

    public func run(_ payload: NoPayload, context: JobContext) async throws -> JobOutcome {
        let env = environment
        guard let user = try await env.settings(context.userID) else { return .done }
        let now = env.now()
        // The brief this run was planned for: the job runs `composeAhead` before it (a run planned
        // before briefs were composed ahead is due at the brief time itself; both find it).
        let planned = user.nextBrief(after: now.addingTimeInterval(-context.sinceScheduled.seconds - 1))
        // Brought forward (run at once by an operator, or planned for a time the user has since
        // moved): composed and sent now, as before.
        let early = planned.timeIntervalSince(now) > BriefSchedule.composeAhead + Self.earlyTolerance
        if early, user.isQuiet(now) {
            // Preferences changed since this run was planned: wait for quiet hours to end.
            return .runAgain(.at(BriefSchedule.jobDue(for: user.nextBrief(after: now.addingTimeInterval(-1)))))
        }
        let briefAt = early ? now : planned
        let today = user.schedule.dayBounds(of: briefAt)
        // From now (a brief run late does not list meetings already over) to the end of the brief's
        // day. A run after that day is over (more than a day late) has nothing to list: asking
        // Google for an empty range is a 400 (`timeRangeEmpty`), which discarded the user's
        // recurring brief, and a reversed one crashed the worker.
        let from = max(now, briefAt)
        let meetings = from < today.end
            ? try await env.calendar(user).events(in: DateInterval(start: from, end: today.end)).filter(\.wantsReminder)
            : []
        let alerts = try await env.store.mailAlerts(userID: user.userID, since: now.addingTimeInterval(-24 * 3600), limit: 50)
        let topIDs = alerts.prefix(2).compactMap {
            try? String(decoding: env.sealer.open($0.messageSealed, purpose: .mailID, userID: user.userID), as: UTF8.self)
        }
        let top = topIDs.isEmpty ? [] : try await env.mail(user).messages(ids: topIDs)
        let text = env.composer.brief(meetings: meetings, urgent: top, urgentCount: alerts.count, schedule: user.schedule)
        let day = user.schedule.day(of: briefAt)
        let key = "brief:" + env.sealer.keyedHash("brief", user.userID.uuidString,
                                                   "\(day.year ?? 0)-\(day.month ?? 0)-\(day.day ?? 0)")
        // The push waits for the brief time; lateness counts from it.
        let content = PushContent(kind: "morning.brief", title: text.title, body: text.body, scheduledAt: briefAt,
                                  collapseID: String(key.suffix(32)))
        let notification = try env.outbox.notification(content, userID: user.userID, idempotencyKey: key, deadline: today.end,
                                                       at: briefAt > now ? briefAt : nil)
        let sent = try await env.store.notify(notification)
        environment.counters.brief(sent ? "sent" : "duplicate").increment()
        if sent { environment.counters.enqueued("morning.brief").increment() }
        return .runAgain(.at(BriefSchedule.jobDue(for: user.nextBrief(after: max(now, briefAt)))))
    }

    /// A run this much earlier than `composeAhead` before its brief still counts as on time (the
    /// worker claims jobs a little ahead of their due time).
    static let earlyTolerance: TimeInterval = 15
}
