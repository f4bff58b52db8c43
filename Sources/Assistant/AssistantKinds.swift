import AlfredCore
import Delivery
import Foundation
import Metrics
import Sealing

/// The job kinds that turn Calendar and Gmail into notifications.
public enum AssistantKind {
    /// Recurring per user: Calendar changes -> one `meeting.reminder` per upcoming meeting.
    public static let calendarSync = JobKind("calendar.sync", maxAttempts: 10)
    /// One per meeting and start time; re-fetches the event and hands a push to delivery.
    public static let meetingReminder = JobKind("meeting.reminder", maxAttempts: 8, priority: 10)
    /// Recurring per user, at the user's local brief time.
    public static let morningBrief = JobKind("morning.brief", maxAttempts: 6, priority: 5)
    /// Recurring per user (and triggered early by a Gmail push hint): urgent-mail alerts.
    public static let mailCheck = JobKind("mail.check", maxAttempts: 10)
    /// Recurring per user when a Pub/Sub topic is configured: Gmail `watch` on the user's mailbox,
    /// renewed daily (Gmail's watch lasts 7 days), so pushes bring the mail check forward.
    public static let gmailWatch = JobKind("gmail.watch", maxAttempts: 10)
    /// Relay mode: a Gmail push for a relayed mailbox; wakes the user's app with a silent push.
    public static let relayWake = JobKind("relay.wake", maxAttempts: 5, priority: 10)
    /// Relay mode: a day before the app's Gmail watch lapses, a silent push asks the app to renew it.
    public static let relayRenew = JobKind("relay.renew", maxAttempts: 5)
    /// Recurring system job: makes sure every connected user has the three recurring jobs.
    public static let plan = JobKind("assistant.plan", maxAttempts: 5)
    /// Delivery's own queue, so slow APNs calls never starve claiming (the `Delivery` module's kind).
    public static let pushDeliver = DeliveryKind.pushDeliver

    /// The user's verdict on an urgent-mail alert (false-positive rate).
    public static let urgentFeedback = JobKind("feedback.urgent", maxAttempts: 5)

    public static let all = [calendarSync, meetingReminder, morningBrief, mailCheck, gmailWatch, relayWake, relayRenew, plan]

    static func uniqueKey(_ kind: JobKind, user: UUID) -> String { "\(kind.name):\(user.uuidString.lowercased())" }

    /// The unique key of the user's recurring morning brief (the API moves it when preferences change).
    public static func briefKey(user: UUID) -> String { uniqueKey(morningBrief, user: user) }
}

/// When a morning brief is due: the user's local brief time, moved to the end of quiet hours if it
/// falls inside them (the brief waits; it is not urgent). One rule for the brief job, the planner and
/// the API (which moves the queued brief when preferences change).
public enum BriefSchedule {
    public static func next(after date: Date, in schedule: LocalSchedule, at time: LocalTime, quietHours: QuietHours?) -> Date {
        let at = schedule.nextOccurrence(of: time, after: date)
        return quietHours?.end(after: at, in: schedule) ?? at
    }

    /// How long before the brief time its job runs: the brief is composed (calendar and mail read)
    /// ahead, so at the brief time only the send remains. At the top of the hour thousands of briefs
    /// fall due in the same second as the reminders, whose jobs run 30 s ahead: composing 10,000
    /// briefs took about a minute of this 2-core machine (the burst bench with `--with-briefs`), so
    /// 30 s ahead left half of them composing after their time. Five minutes spreads that work away
    /// from the reminders'; the brief still lists the meetings from the brief time on, and an urgent
    /// mail that arrives in those minutes is alerted on its own.
    public static let composeAhead: TimeInterval = 300

    /// When the job for the brief at `briefAt` runs.
    public static func jobDue(for briefAt: Date) -> Date { briefAt.addingTimeInterval(-composeAhead) }
}

/// An empty payload for per-user recurring jobs: the user is the job's `user_id`.
public struct NoPayload: Codable, Sendable {}

/// The assistant's counters, made from the worker's metrics factory.
struct AssistantMetrics: Sendable {
    let factory: any MetricsFactory
    let remindersScheduled: Counter
    let mailScored: Counter

    init(factory: any MetricsFactory) {
        self.factory = factory
        remindersScheduled = Counter(label: MetricName.remindersScheduled, factory: factory)
        mailScored = Counter(label: MetricName.mailMessagesScored, factory: factory)
    }

    func calendarSync(_ mode: CalendarChanges.Mode) -> Counter {
        Counter(label: MetricName.calendarSyncs, dimensions: [("mode", mode.rawValue)], factory: factory)
    }
    /// sent, cancelled, declined, missed (the meeting had started), moved.
    func reminder(_ outcome: String) -> Counter {
        Counter(label: MetricName.reminderOutcomes, dimensions: [("outcome", outcome)], factory: factory)
    }
    /// alerted, held (quiet hours), duplicate.
    func urgent(_ disposition: String) -> Counter {
        Counter(label: MetricName.urgentMail, dimensions: [("disposition", disposition)], factory: factory)
    }
    func brief(_ outcome: String) -> Counter { Counter(label: MetricName.briefs, dimensions: [("outcome", outcome)], factory: factory) }
    func enqueued(_ kind: String) -> Counter {
        Counter(label: MetricName.notificationsEnqueued, dimensions: [("kind", kind)], factory: factory)
    }
}
