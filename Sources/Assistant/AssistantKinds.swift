import AlfredCore
import Foundation
import Metrics

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
    /// Recurring system job: makes sure every connected user has the three recurring jobs.
    public static let plan = JobKind("assistant.plan", maxAttempts: 5)
    /// Delivery's own queue, so slow APNs calls never starve claiming.
    public static let pushDeliver = JobKind("push.deliver", queue: "delivery", maxAttempts: 20, priority: 10)

    /// The user's verdict on an urgent-mail alert (false-positive rate).
    public static let urgentFeedback = JobKind("feedback.urgent", maxAttempts: 5)

    public static let all = [calendarSync, meetingReminder, morningBrief, mailCheck, gmailWatch, relayWake, plan]

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
}

/// A job payload sealed with the host data key. In the row it is JSON `{"sealed":"<base64>"}` so the
/// queue's decoding (and its poison-payload handling) stays the same for every kind.
public struct SealedPayload: Codable, Sendable {
    public let sealed: Data
    public init(_ bytes: [UInt8]) { sealed = Data(bytes) }

    /// The row's payload bytes for `value`, sealed for `purpose` (a push's text is `.notification`).
    public static func make<T: Encodable>(_ value: T, sealer: HostSealer, userID: UUID?,
                                          purpose: HostSealer.Purpose = .jobPayload) throws -> [UInt8] {
        let bytes = try sealer.seal(json: value, purpose: purpose, userID: userID)
        return Array(try JSONEncoder().encode(SealedPayload(bytes)))
    }

    public func open<T: Decodable>(_ type: T.Type, sealer: HostSealer, userID: UUID?,
                                   purpose: HostSealer.Purpose = .jobPayload) throws -> T {
        try sealer.open(json: type, from: Array(sealed), purpose: purpose, userID: userID)
    }
}

/// An empty payload for per-user recurring jobs: the user is the job's `user_id`.
public struct NoPayload: Codable, Sendable {}

/// What delivery sends: composed here, sealed in the `push.deliver` payload, opened only to send.
public struct PushContent: Codable, Sendable, Equatable {
    /// `meeting.reminder`, `morning.brief`, `mail.urgent`.
    public var kind: String
    public var title: String
    public var body: String
    /// When the user should have had it (the reminder time): delivery measures lateness against it.
    public var scheduledAt: Date
    /// Collapses related pushes on the device (apns-collapse-id); opaque.
    public var collapseID: String

    public init(kind: String, title: String, body: String, scheduledAt: Date, collapseID: String) {
        self.kind = kind; self.title = title; self.body = body; self.scheduledAt = scheduledAt; self.collapseID = collapseID
    }
}

/// Hands notifications to delivery: a sealed `push.deliver` job and its ledger row, together.
public struct Outbox: Sendable {
    let sealer: HostSealer

    public init(sealer: HostSealer) { self.sealer = sealer }

    /// - Parameter at: when to send (nil: now).
    public func notification(_ content: PushContent, userID: UUID, idempotencyKey: String,
                             deadline: Date?, at: Date? = nil) throws -> OutboundNotification {
        let payload = try SealedPayload.make(content, sealer: sealer, userID: userID, purpose: .notification)
        var job = NewJob(kind: AssistantKind.pushDeliver, payload: payload, schedule: at.map { .at($0) } ?? .now,
                         uniqueKey: idempotencyKey, userID: userID)
        job.priority = content.kind == "meeting.reminder" ? 10 : 0
        return OutboundNotification(userID: userID, kind: content.kind, idempotencyKey: idempotencyKey, job: job, deadline: deadline,
                                    scheduledAt: content.scheduledAt)
    }
}

enum AssistantMetrics {
    static func calendarSync(_ mode: CalendarChanges.Mode) -> Counter {
        Counter(label: MetricName.calendarSyncs, dimensions: [("mode", mode.rawValue)])
    }
    static let remindersScheduled = Counter(label: MetricName.remindersScheduled)
    /// sent, cancelled, declined, missed (the meeting had started), moved.
    static func reminder(_ outcome: String) -> Counter {
        Counter(label: MetricName.reminderOutcomes, dimensions: [("outcome", outcome)])
    }
    static let mailScored = Counter(label: MetricName.mailMessagesScored)
    /// alerted, held (quiet hours), duplicate.
    static func urgent(_ disposition: String) -> Counter {
        Counter(label: MetricName.urgentMail, dimensions: [("disposition", disposition)])
    }
    static func brief(_ outcome: String) -> Counter { Counter(label: MetricName.briefs, dimensions: [("outcome", outcome)]) }
    static func enqueued(_ kind: String) -> Counter {
        Counter(label: MetricName.notificationsEnqueued, dimensions: [("kind", kind)])
    }
}
