import Foundation

/// What the assistant jobs read about a user: preferences as stored, and the Google connector.
/// Times of day are `HH:MM[:SS]` strings in the user's zone; the sealed parts stay sealed here.
public struct UserProfile: Sendable, Equatable {
    public let userID: UUID
    public let timeZone: String
    public let meetingReminderMinutes: Int
    public let morningBriefLocalTime: String
    public let quietHoursStart: String?
    public let quietHoursEnd: String?
    /// Sealed VIP senders and keywords (`HostSealer.Purpose.preferences`), if the user set any.
    public let urgencySealed: [UInt8]?
    /// The user's ACTIVE Google connector, if any.
    public let googleConnector: UUID?
    /// When that connector's Gmail watch expires, if it has one whose last renewal did not fail.
    public let gmailWatchUntil: Date?

    public init(userID: UUID, timeZone: String = "UTC", meetingReminderMinutes: Int = 15,
                morningBriefLocalTime: String = "08:00", quietHoursStart: String? = "22:00",
                quietHoursEnd: String? = "07:00", urgencySealed: [UInt8]? = nil, googleConnector: UUID? = nil,
                gmailWatchUntil: Date? = nil) {
        self.userID = userID; self.timeZone = timeZone; self.meetingReminderMinutes = meetingReminderMinutes
        self.morningBriefLocalTime = morningBriefLocalTime; self.quietHoursStart = quietHoursStart
        self.quietHoursEnd = quietHoursEnd; self.urgencySealed = urgencySealed; self.googleConnector = googleConnector
        self.gmailWatchUntil = gmailWatchUntil
    }
}

/// A notification handed to delivery: a `push.deliver` job plus its row in the notification ledger,
/// written together so one idempotency key yields one user-visible notification, ever.
public struct OutboundNotification: Sendable {
    public let userID: UUID
    /// `meeting.reminder`, `morning.brief`, `mail.urgent`: a small fixed set (it becomes a metric label).
    public let kind: String
    /// Opaque (a keyed hash): stored in plaintext, so it must reveal nothing.
    public let idempotencyKey: String
    /// The push job (its payload is sealed by the caller).
    public let job: NewJob
    /// When the notification stops being useful (`apns-expiration`). Kept in the ledger, not on the
    /// job: delivery itself records a notification that ran out of time as `expired` (an SLO event),
    /// which a queue-side expiry would skip.
    public let deadline: Date?
    /// When the user should have had it; delivery's lateness is measured from here.
    public let scheduledAt: Date?
    /// An urgent-mail alert's rules, kept on its ledger row so the user's verdict is counted by rule.
    public var urgency: AlertRules?

    public init(userID: UUID, kind: String, idempotencyKey: String, job: NewJob, deadline: Date?, scheduledAt: Date? = nil) {
        self.userID = userID; self.kind = kind; self.idempotencyKey = idempotencyKey; self.job = job; self.deadline = deadline
        self.scheduledAt = scheduledAt
    }
}

/// The urgency rules behind an urgent-mail alert: the ids of the rules that pushed it over the bar
/// (positive weight; sorted, without duplicates) and the rule-set version. Ids and a version only,
/// never message data: they become metric labels when the user says whether the alert was urgent.
public struct AlertRules: Sendable, Equatable {
    public let ids: [String]
    public let ruleSet: String
    public init(ids: [String], ruleSet: String) { self.ids = ids; self.ruleSet = ruleSet }
}

/// Mail judged urgent: alerted at once, or held (quiet hours) for the morning brief.
public struct MailAlert: Sendable, Equatable {
    public enum Disposition: String, Sendable { case alerted, held }
    /// Keyed hash of the Gmail message id.
    public let messageKey: String
    /// The Gmail message id, sealed.
    public let messageSealed: [UInt8]
    public let disposition: Disposition
    public let score: Int
    public init(messageKey: String, messageSealed: [UInt8], disposition: Disposition, score: Int) {
        self.messageKey = messageKey; self.messageSealed = messageSealed; self.disposition = disposition; self.score = score
    }
}

/// Writes that must land together (a mail check's alerts, its push and its cursor).
public protocol AssistantTransaction: Sendable {
    /// Records alerts; returns the message keys that were new (already-known ones are dedupe hits).
    func recordMailAlerts(_ alerts: [MailAlert], userID: UUID) async throws -> Set<String>
    /// Enqueues the push unless its key was used before. True if it was enqueued now.
    func notify(_ notification: OutboundNotification) async throws -> Bool
    func saveCursor(connectorID: UUID, userID: UUID, kind: String, sealed: [UInt8]) async throws
}

/// The assistant's storage: preferences, cursors, the notification ledger and mail dedupe.
public protocol AssistantStore: Sendable {
    func profile(_ userID: UUID) async throws -> UserProfile?
    /// The planner's sweep: up to `limit` users with an ACTIVE Google connector, ordered by id after
    /// `after`, each with the recurring kinds (of `kinds`) that have no live job keyed `<kind>:<user>`.
    func recurringJobGaps(kinds: [String], after: UUID?, limit: Int) async throws -> [(user: UUID, missing: [String])]
    func cursor(connectorID: UUID, kind: String) async throws -> [UInt8]?
    /// When the Gmail watch of the user's relayed mailbox lapses; nil when none is relayed.
    func relayWatchExpiry(userID: UUID) async throws -> Date?
    /// Records a Gmail watch that Google accepted until `expiresAt` (and clears a failure).
    func saveGmailWatch(connectorID: UUID, userID: UUID, addressHash: String, expiresAt: Date) async throws
    /// Records that renewing the connector's watch failed: its mail is polled at the short interval.
    func gmailWatchFailed(connectorID: UUID) async throws
    /// One statement, outside any transaction (the common case: nothing else to write).
    func saveCursor(connectorID: UUID, userID: UUID, kind: String, sealed: [UInt8]) async throws
    /// Which of these idempotency keys were already used.
    func usedNotificationKeys(_ keys: [String]) async throws -> Set<String>
    /// Cancels queued jobs with these unique keys (a cancelled or declined meeting's reminder).
    func cancelQueuedJobs(uniqueKeys: [String]) async throws -> Int
    /// Urgent mail recorded since `since`, newest first, at most `limit`.
    func mailAlerts(userID: UUID, since: Date, limit: Int) async throws -> [MailAlert]
    func transaction<T: Sendable>(_ body: @escaping @Sendable (any AssistantTransaction) async throws -> T) async throws -> T
    /// Enqueues the push unless its key was used before, in a transaction of its own. True if it was
    /// enqueued now.
    func notify(_ notification: OutboundNotification) async throws -> Bool
    /// Records the user's verdict on an urgent-mail notification and returns the rule ids stored with
    /// it (empty for an alert that has none); nil if there is no such notification of this user or it
    /// already has a verdict (so a verdict is counted once).
    func recordFeedback(userID: UUID, idempotencyKey: String, verdict: String) async throws -> [String]?
    /// Finishes notifications whose push job ended without delivery finishing them; returns
    /// (kind, final state) for each, so they are counted.
    func finishAbandonedNotifications() async throws -> [(kind: String, state: String)]
    /// Forgets ledger rows and mail dedupe older than the retention (a duplicate that late is moot).
    func prune(notificationsOlderThan: Duration, mailAlertsOlderThan: Duration) async throws -> Int
}

extension AssistantStore {
    public func notify(_ notification: OutboundNotification) async throws -> Bool {
        try await transaction { try await $0.notify(notification) }
    }
}
