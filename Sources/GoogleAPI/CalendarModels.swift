import AlfredCore
import Foundation

/// A calendar event as reminders need it. Decoded tolerantly: unknown fields are ignored, odd values
/// become nil, and only `id` is required (a deleted event in an incremental sync carries little else).
///
/// Titles, places and meeting links are personal: they are `Redacted`, and `description` prints ids,
/// status and times only.
public struct CalendarEvent: Sendable, Equatable, Decodable, CustomStringConvertible, CustomDebugStringConvertible {
    public enum Status: Sendable, Hashable {
        case confirmed, tentative, cancelled
        case other(String)

        init(_ raw: String?) {
            switch raw {
            case nil, "confirmed": self = .confirmed  // Google's default when absent
            case "tentative": self = .tentative
            case "cancelled": self = .cancelled
            case let raw?: self = .other(raw)
            }
        }
    }

    /// The user's own answer (their attendee entry with `self: true`).
    public enum ResponseStatus: Sendable, Hashable {
        case needsAction, declined, tentative, accepted
        case other(String)

        init?(_ raw: String?) {
            switch raw {
            case nil: return nil
            case "needsAction": self = .needsAction
            case "declined": self = .declined
            case "tentative": self = .tentative
            case "accepted": self = .accepted
            case let raw?: self = .other(raw)
            }
        }
    }

    /// Unique within its calendar; the key for reminders (not `iCalUID`, which cancelled events may lack).
    public var id: String
    public var status: Status
    public var summary: Redacted<String>?
    public var location: Redacted<String>?
    public var start: EventTime?
    /// Exclusive; for all-day events the day after the last one.
    public var end: EventTime?
    public var selfResponse: ResponseStatus?
    /// The video entry point of `conferenceData`, else `hangoutLink`; http(s) only.
    public var meetingLink: Redacted<String>?
    /// `default`, `outOfOffice`, `focusTime`, `workingLocation`, ...; nil when Google left it out (= default).
    public var eventType: String?
    /// `opaque` (busy, the default) or `transparent` (free).
    public var transparency: String?
    /// Set on instances of a recurring series.
    public var recurringEventId: String?
    public var originalStartTime: EventTime?
    public var updated: Date?

    public init(id: String, status: Status = .confirmed, summary: String? = nil, location: String? = nil,
                start: EventTime? = nil, end: EventTime? = nil, selfResponse: ResponseStatus? = nil,
                meetingLink: String? = nil, eventType: String? = nil, transparency: String? = nil,
                recurringEventId: String? = nil, originalStartTime: EventTime? = nil, updated: Date? = nil) {
        self.id = id
        self.status = status
        self.summary = summary.map(Redacted.init)
        self.location = location.map(Redacted.init)
        self.start = start
        self.end = end
        self.selfResponse = selfResponse
        self.meetingLink = meetingLink.map(Redacted.init)
        self.eventType = eventType
        self.transparency = transparency
        self.recurringEventId = recurringEventId
        self.originalStartTime = originalStartTime
        self.updated = updated
    }

    public var isCancelled: Bool { status == .cancelled }
    public var isAllDay: Bool { start?.isAllDay ?? false }
    public var isDeclined: Bool { selfResponse == .declined }
    /// A plain meeting, not out-of-office, focus time or a working location.
    public var isDefaultType: Bool { eventType == nil || eventType == "default" }

    public var description: String {
        var text = "CalendarEvent(id: \(id), status: \(status)"
        if let start { text += ", start: \(start)" }
        if let end { text += ", end: \(end)" }
        if let recurringEventId { text += ", recurringEventId: \(recurringEventId)" }
        return text + ")"
    }

    public var debugDescription: String { description }

    // MARK: Decoding

    private enum CodingKeys: String, CodingKey {
        case id, status, summary, location, start, end, attendees, hangoutLink, conferenceData, eventType
        case transparency, recurringEventId, originalStartTime, updated
    }

    private struct Attendee: Decodable {
        var isSelf: Bool?
        var responseStatus: String?
        enum CodingKeys: String, CodingKey { case isSelf = "self", responseStatus }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            isSelf = container.lenient(Bool.self, .isSelf)
            responseStatus = container.lenient(String.self, .responseStatus)
        }
    }

    private struct ConferenceData: Decodable {
        struct EntryPoint: Decodable {
            var entryPointType: String?
            var uri: String?
        }
        var entryPoints: LenientArray<EntryPoint>?
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard let id = container.lenient(String.self, .id), !id.isEmpty else {
            throw DecodingError.dataCorruptedError(forKey: .id, in: container, debugDescription: "event without an id")
        }
        let attendees = container.lenient(LenientArray<Attendee>.self, .attendees)?.elements ?? []
        let video = container.lenient(ConferenceData.self, .conferenceData)?.entryPoints?.elements
            .first { $0.entryPointType == "video" }?.uri
        let link = [video, container.lenient(String.self, .hangoutLink)].lazy.compactMap { $0 }.first(where: Self.isWebLink)
        self.init(
            id: id,
            status: Status(container.lenient(String.self, .status)),
            summary: container.lenient(String.self, .summary),
            location: container.lenient(String.self, .location),
            start: container.lenient(EventTime.self, .start),
            end: container.lenient(EventTime.self, .end),
            selfResponse: ResponseStatus(attendees.first { $0.isSelf == true }?.responseStatus),
            meetingLink: link,
            eventType: container.lenient(String.self, .eventType),
            transparency: container.lenient(String.self, .transparency),
            recurringEventId: container.lenient(String.self, .recurringEventId),
            originalStartTime: container.lenient(EventTime.self, .originalStartTime),
            updated: container.lenient(String.self, .updated).flatMap { WireDate.parseDateTime($0)?.date() })
    }

    private static func isWebLink(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("https://") || lower.hasPrefix("http://")
    }
}

/// An event's start or end: an instant, or a whole day.
public enum EventTime: Sendable, Hashable, Decodable, CustomStringConvertible {
    /// A timed value, and the IANA zone Google attached (if any).
    case instant(Date, timeZone: String?)
    /// An all-day value (`date`), which belongs to no zone.
    case allDay(CalendarDay)

    public var isAllDay: Bool {
        if case .allDay = self { return true }
        return false
    }

    /// The instant of a timed value; nil for all-day ones (use `date(in:)`).
    public var instant: Date? {
        if case .instant(let date, _) = self { return date }
        return nil
    }

    /// The instant, with all-day values taken at the start of their day in `zone` (the calendar's).
    public func date(in zone: TimeZone) -> Date? {
        switch self {
        case .instant(let date, _): date
        case .allDay(let day): day.start(in: zone)
        }
    }

    public var description: String {
        switch self {
        case .instant(let date, _): WireDate.format(date)
        case .allDay(let day): day.description
        }
    }

    private enum CodingKeys: String, CodingKey { case date, dateTime, timeZone }

    /// `{dateTime, timeZone?}` or `{date}`. A `dateTime` without an offset is read in its `timeZone`;
    /// with neither it cannot be placed and decoding fails (the event keeps a nil start).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let zone = container.lenient(String.self, .timeZone)
        if let text = container.lenient(String.self, .dateTime), let fields = WireDate.parseDateTime(text),
           let date = fields.date() ?? zone.flatMap(TimeZone.init(identifier:)).flatMap(fields.date(in:)) {
            self = .instant(date, timeZone: zone)
        } else if let text = container.lenient(String.self, .date), let day = CalendarDay(text) {
            self = .allDay(day)
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "neither a valid dateTime nor a date"))
        }
    }
}

/// A date without a time or zone (`2026-03-02`), as all-day events use.
public struct CalendarDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    public init?(year: Int, month: Int, day: Int) {
        guard WireDate.isValid(year: year, month: month, day: day) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// `yyyy-mm-dd`.
    public init?(_ text: String) {
        guard let (year, month, day) = WireDate.parseDay(text) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Local midnight of this day in `zone` (or the first instant after a midnight that does not exist).
    public func start(in zone: TimeZone) -> Date? {
        WireDate.Fields(year: year, month: month, day: day, hour: 0, minute: 0, second: 0, fraction: 0, offset: nil)
            .date(in: zone)
    }

    public var description: String { String(format: "%04d-%02d-%02d", year, month, day) }

    public static func < (lhs: CalendarDay, rhs: CalendarDay) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }
}

/// The result of paging one `events.list` to its end.
public struct CalendarSyncPage: Sendable {
    /// Every event of every page, in Google's order. Full syncs hold live events in the window;
    /// incremental syncs hold changes, cancellations included (`isCancelled`).
    public var events: [CalendarEvent]
    /// Store it for the next incremental sync. Google sends it on the last page only; nil means none
    /// was sent, so the next sync must be a full one.
    public var nextSyncToken: String?
    /// The calendar's IANA zone (for all-day events and the morning brief).
    public var timeZone: String?
    /// Requests it took, for the "Google requests per user per day" budget.
    public var pageCount: Int
    /// Items Google sent that could not be read (no id); counted, not silently lost.
    public var skippedItems: Int

    public init(events: [CalendarEvent], nextSyncToken: String?, timeZone: String?, pageCount: Int, skippedItems: Int = 0) {
        self.events = events
        self.nextSyncToken = nextSyncToken
        self.timeZone = timeZone
        self.pageCount = pageCount
        self.skippedItems = skippedItems
    }
}

/// What `CalendarClient.sync` did.
public struct CalendarSync: Sendable {
    public enum Kind: Sendable, Equatable {
        /// Changes since the sync token: apply them (cancelled = delete) to the stored events.
        case incremental
        /// No token was held: `page.events` is the whole window; replace the stored events.
        case full
        /// The token had expired (410): the full window, as for `.full`; drop what was stored first.
        case fullAfterExpiredToken
    }

    public var kind: Kind
    public var page: CalendarSyncPage
}
