import AlfredCore
import Delivery
import Foundation
import Sealing
import Logging
import Metrics
import Urgency

/// What every assistant job shares: storage, Google readers, the host sealer, the clock and the
/// intervals. One value, built once per worker.
public struct AssistantEnvironment: Sendable {
    public struct Intervals: Sendable {
        /// Calendar incremental sync (one request when nothing changed).
        public var calendarSync: Duration = .seconds(600)
        /// Gmail polling without a working watch; Gmail push hints bring a check forward.
        public var mailCheck: Duration = .seconds(300)
        /// Gmail polling while the mailbox's watch is alive: a slow safety net, since pushes bring
        /// the check forward (and Gmail may drop a notification).
        public var mailSafetyNet: Duration = .seconds(3600)
        /// How often a watch is renewed (Gmail's lasts 7 days; Google recommends daily).
        public var gmailWatchRenewal: Duration = .seconds(24 * 3600)
        /// The planner's sweep for connected users without their recurring jobs.
        public var plan: Duration = .seconds(300)
        /// How far ahead reminders are scheduled, and the full-sync window (slid daily).
        public var reminderHorizon: Duration = .seconds(36 * 3600)
        public var fullSyncWindow: Duration = .seconds(48 * 3600)
        /// A full sync happens when the frozen window has less than this left beyond now.
        public var slideWhenLessThan: Duration = .seconds(24 * 3600)
        /// Reminder jobs run this long before the reminder time: Google's round trip happens then, and
        /// the push is queued for the reminder time itself, so a top-of-the-hour burst is delivery
        /// work only. (A change in these last seconds is not seen; the sync interval is 10 minutes.)
        public var reminderLead: Duration = .seconds(30)
        /// How long an urgent-mail push stays useful.
        public var urgentMailDeadline: Duration = .seconds(6 * 3600)
        /// Ledger rows are kept this long past their notification's deadline (a duplicate that late is moot).
        public var notificationRetention: Duration = .seconds(2 * 24 * 3600)
        /// Mail dedupe: longer than any history fallback window and the brief's 24 hours.
        public var mailAlertRetention: Duration = .seconds(8 * 24 * 3600)
        public init() {}
    }

    public let store: any AssistantStore
    public let jobs: any JobStore
    public let readers: any GoogleReaders
    public let sealer: HostSealer
    public let ruleSet: RuleSet
    public let intervals: Intervals
    /// The Pub/Sub topic Gmail watches publish to (`projects/P/topics/T`); nil polls only.
    public let gmailTopic: String?
    public let now: @Sendable () -> Date
    /// Where connector fetches are audited (nil: not audited, for tools that only read).
    public let audit: (any AuditRecorder)?
    /// Where the per-rule urgency counters go (tests pass their own; the worker's is the process-wide one).
    public let metrics: any MetricsFactory
    let logger: Logger
    let outbox: Outbox
    let composer = Composer()
    let counters: AssistantMetrics
    let deliveryMetrics: DeliveryMetrics

    public init(store: any AssistantStore, jobs: any JobStore, readers: any GoogleReaders, sealer: HostSealer,
                ruleSet: RuleSet = .standard, intervals: Intervals = Intervals(), gmailTopic: String? = nil,
                audit: (any AuditRecorder)? = nil,
                logger: Logger = Logger(label: "alfred.assistant"), now: @escaping @Sendable () -> Date = Date.init,
                metrics: any MetricsFactory = MetricsSystem.factory) {
        self.store = store; self.jobs = jobs; self.readers = readers; self.sealer = sealer; self.ruleSet = ruleSet
        self.intervals = intervals; self.gmailTopic = gmailTopic; self.audit = audit; self.logger = logger; self.now = now; self.metrics = metrics
        outbox = Outbox(sealer: sealer)
        counters = AssistantMetrics(factory: metrics)
        deliveryMetrics = DeliveryMetrics(factory: metrics)
    }

    /// The user's settings, or nil when the user is gone or has no active Google connection: the
    /// recurring job then ends (the planner brings it back when the user reconnects).
    func settings(_ userID: UUID?) async throws -> UserSettings? {
        guard let userID, let profile = try await store.profile(userID), let connector = profile.googleConnector else {
            return nil
        }
        return UserSettings(profile: profile, connector: connector, sealer: sealer)
    }
}

/// A user's preferences, parsed.
struct UserSettings: Sendable {
    let userID: UUID
    let connector: UUID
    let schedule: LocalSchedule
    let reminderMinutes: Int
    let briefTime: LocalTime
    let quietHours: QuietHours?
    let urgency: UrgencyPreferences
    /// Expiry of the mailbox's working Gmail watch, if there is one.
    let gmailWatchUntil: Date?

    init(profile: UserProfile, connector: UUID, sealer: HostSealer) {
        userID = profile.userID
        gmailWatchUntil = profile.gmailWatchUntil
        self.connector = connector
        // A zone Foundation does not know falls back to UTC rather than failing every job.
        schedule = LocalSchedule(timeZone: TimeZone(identifier: profile.timeZone) ?? TimeZone(identifier: "UTC")!)
        reminderMinutes = profile.meetingReminderMinutes
        briefTime = LocalTime(profile.morningBriefLocalTime) ?? LocalTime(hour: 8, minute: 0)!
        quietHours = QuietHours(start: profile.quietHoursStart, end: profile.quietHoursEnd)
        urgency = profile.urgencySealed.flatMap {
            try? sealer.open(json: UrgencyPreferences.self, from: $0, purpose: .preferences, userID: profile.userID)
        } ?? UrgencyPreferences()
    }

    func isQuiet(_ date: Date) -> Bool { quietHours?.contains(date, in: schedule) ?? false }

    /// The next brief: the user's local brief time, moved to the end of quiet hours if it falls
    /// inside them (the brief waits; it is not urgent).
    func nextBrief(after date: Date) -> Date {
        BriefSchedule.next(after: date, in: schedule, at: briefTime, quietHours: quietHours)
    }
}
