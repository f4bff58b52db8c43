import AlfredCore
import Delivery
import Foundation
import Sealing

/// A calendar event as the assistant needs it. The free-text fields are personal data: they are
/// used to compose one notification and never stored, logged or printed (`Redacted`).
public struct MeetingEvent: Sendable, Equatable {
    public let id: String
    public let cancelled: Bool
    /// nil for all-day events (they have a date, not a time).
    public let start: Date?
    public let allDay: Bool
    /// The user declined (their attendee entry has `self: true`, `responseStatus: declined`).
    public let declined: Bool
    /// `default` for meetings; `outOfOffice`, `focusTime`, `workingLocation` get no reminder.
    public let eventType: String
    public let title: Redacted<String>?
    public let place: Redacted<String>?
    public let meetingLink: Redacted<String>?

    public init(id: String, cancelled: Bool = false, start: Date?, allDay: Bool = false, declined: Bool = false,
                eventType: String = "default", title: String? = nil, place: String? = nil, meetingLink: String? = nil) {
        self.id = id; self.cancelled = cancelled; self.start = start; self.allDay = allDay; self.declined = declined
        self.eventType = eventType; self.title = title.map(Redacted.init); self.place = place.map(Redacted.init)
        self.meetingLink = meetingLink.map(Redacted.init)
    }

    /// Whether this event should have a reminder at all.
    public var wantsReminder: Bool {
        !cancelled && !declined && !allDay && start != nil && eventType == "default"
    }
}

/// Calendar incremental-sync state, kept sealed in `sync_cursors`.
public struct CalendarCursor: Sendable, Codable, Equatable {
    public var syncToken: String?
    /// The window the last full sync covered; incremental syncs cannot move it (Google forbids
    /// timeMin/timeMax with a sync token), so a full sync slides it daily.
    public var windowStart: Date
    public var windowEnd: Date

    public init(syncToken: String?, windowStart: Date, windowEnd: Date) {
        self.syncToken = syncToken; self.windowStart = windowStart; self.windowEnd = windowEnd
    }
}

/// What one calendar sync brought back.
public struct CalendarChanges: Sendable {
    public enum Mode: String, Sendable { case full, incremental, resync }
    /// Full sync: every event in the window. Incremental: changed events only (cancelled included).
    public let events: [MeetingEvent]
    public let cursor: CalendarCursor
    public let mode: Mode
    public init(events: [MeetingEvent], cursor: CalendarCursor, mode: Mode) {
        self.events = events; self.cursor = cursor; self.mode = mode
    }
}

/// Reads one user's primary calendar (the Calendar v3 client behind a seam the jobs can use).
public protocol CalendarReader: Sendable {
    /// Incremental with the cursor's token when `window` is nil and a token exists; otherwise a full
    /// sync of `window`. A 410 from Google falls back to a full sync (mode `.resync`).
    func sync(cursor: CalendarCursor?, fullSyncWindow window: DateInterval?) async throws -> CalendarChanges
    /// The event as it is now; nil if it was deleted.
    func event(id: String) async throws -> MeetingEvent?
    /// Events overlapping `window`, expanded (`singleEvents`), for the brief.
    func events(in window: DateInterval) async throws -> [MeetingEvent]
}

/// Gmail incremental-sync state, kept sealed in `sync_cursors`.
public struct MailCursor: Sendable, Codable, Equatable {
    public var historyID: String
    /// The user's own address (Gmail profile), for "addressed to me" rules.
    public var address: String?
    /// Threads the user wrote in (learned from SENT messages), newest last, bounded.
    public var ownThreads: [String]
    public var checkedAt: Date

    public init(historyID: String, address: String?, ownThreads: [String] = [], checkedAt: Date) {
        self.historyID = historyID; self.address = address; self.ownThreads = ownThreads; self.checkedAt = checkedAt
    }
}

/// New mail since a history id.
public struct MailChanges: Sendable {
    public let messageIDs: [String]
    public let historyID: String
    /// The history id was too old (404): ids come from the recent inbox instead.
    public let fellBack: Bool
    public init(messageIDs: [String], historyID: String, fellBack: Bool) {
        self.messageIDs = messageIDs; self.historyID = historyID; self.fellBack = fellBack
    }
}

/// Reads one user's Gmail metadata (the Gmail v1 client behind a seam the jobs can use).
public protocol MailReader: Sendable {
    /// A starting point: the current history id and the user's address.
    func start() async throws -> (historyID: String, address: String?)
    /// Added messages since `historyID`; on 404 falls back to the recent inbox.
    func changes(since historyID: String) async throws -> MailChanges
    /// Metadata of these messages (missing ones are skipped), in order.
    func messages(ids: [String]) async throws -> [GmailMessage]
    /// Watches the mailbox's inbox (Pub/Sub `topicName`); returns Gmail's expiration and the address.
    func watch(topicName: String) async throws -> (expiration: Date, address: String?)
}

/// Makes readers for a connector (with the broker's access tokens behind them).
public protocol GoogleReaders: Sendable {
    func calendar(connector: UUID) -> any CalendarReader
    func mail(connector: UUID) -> any MailReader
}
