import Foundation

extension GoogleStandIn {
    /// Someone on an event's guest list, as seeded.
    public struct SeedAttendee: Sendable, Codable, Equatable {
        public var email: String
        public var displayName: String?
        /// `needsAction`, `declined`, `tentative` or `accepted` (Google's default: `needsAction`).
        public var responseStatus: String?
        public var organizer: Bool?
        public var optional: Bool?

        public init(email: String, displayName: String? = nil, responseStatus: String? = nil,
                    organizer: Bool? = nil, optional: Bool? = nil) {
            self.email = email
            self.displayName = displayName
            self.responseStatus = responseStatus
            self.organizer = organizer
            self.optional = optional
        }
    }

    /// An event on a user's primary calendar, as a scenario or `upsertEvent` describes it. Every key
    /// is optional. Times are relative to the stand-in's clock (`startInMinutes`, `durationMinutes`,
    /// default 60) or absolute (`start`/`end`, RFC 3339 with an offset). `allDay: true` or a `date`
    /// (`yyyy-mm-dd`) makes an all-day event; its `end` may then be a date too (exclusive; default the
    /// next day). `selfResponse` adds the user as an attendee with `self: true`. `recurrence` is
    /// `daily` or `weekly`, with `recurrenceCount` occurrences (unbounded when absent).
    public struct SeedEvent: Sendable, Codable, Equatable {
        public var id: String?
        public var summary: String?
        public var location: String?
        public var description: String?
        public var startInMinutes: Double?
        public var durationMinutes: Double?
        public var start: String?
        public var end: String?
        public var allDay: Bool?
        public var date: String?
        /// `confirmed` (default), `tentative` or `cancelled` (seeded as already deleted).
        public var status: String?
        public var selfResponse: String?
        public var attendees: [SeedAttendee]?
        /// A Meet URL; also yields matching `conferenceData`.
        public var hangoutLink: String?
        public var eventType: String?
        public var transparency: String?
        public var recurrence: String?
        public var recurrenceCount: Int?

        public init(id: String? = nil, summary: String? = nil, location: String? = nil, description: String? = nil,
                    start: String? = nil, end: String? = nil, startInMinutes: Double? = nil,
                    durationMinutes: Double? = nil, allDay: Bool? = nil, date: String? = nil, status: String? = nil,
                    selfResponse: String? = nil, attendees: [SeedAttendee]? = nil, hangoutLink: String? = nil,
                    eventType: String? = nil, transparency: String? = nil, recurrence: String? = nil,
                    recurrenceCount: Int? = nil) {
            self.id = id
            self.summary = summary
            self.location = location
            self.description = description
            self.startInMinutes = startInMinutes
            self.durationMinutes = durationMinutes
            self.start = start
            self.end = end
            self.allDay = allDay
            self.date = date
            self.status = status
            self.selfResponse = selfResponse
            self.attendees = attendees
            self.hangoutLink = hangoutLink
            self.eventType = eventType
            self.transparency = transparency
            self.recurrence = recurrence
            self.recurrenceCount = recurrenceCount
        }
    }

    /// How long Calendar's incremental-sync state lasts, on the stand-in's clock.
    public struct CalendarSettings: Sendable, Codable, Equatable {
        /// A `nextSyncToken` older than this answers 410 `fullSyncRequired`.
        public var syncTokenLifetimeSeconds: Int = 7 * 24 * 3600
        /// An `updatedMin` further back than this answers 410 `updatedMinTooLongAgo`.
        public var updatedMinHorizonSeconds: Int = 28 * 24 * 3600

        public init() {}

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let defaults = CalendarSettings()
            syncTokenLifetimeSeconds = try container.decodeIfPresent(Int.self, forKey: .syncTokenLifetimeSeconds)
                ?? defaults.syncTokenLifetimeSeconds
            updatedMinHorizonSeconds = try container.decodeIfPresent(Int.self, forKey: .updatedMinHorizonSeconds)
                ?? defaults.updatedMinHorizonSeconds
        }
    }
}

/// When an event happens: a span of instants, or whole days (end exclusive) that begin at midnight
/// in the calendar's zone.
enum EventTiming: Sendable, Equatable {
    case timed(start: Date, end: Date)
    case allDay(start: CalendarDay, end: CalendarDay)

    func span(in zone: TimeZone) -> (start: Date, end: Date) {
        switch self {
        case .timed(let start, let end): (start, end)
        case .allDay(let start, let end): (start.midnight(in: zone), end.midnight(in: zone))
        }
    }

    /// Moved by whole days on the wall clock of `zone`, so a 09:00 daily meeting stays at 09:00 across DST.
    func shifted(days: Int, in zone: TimeZone) -> EventTiming {
        guard days != 0 else { return self }
        switch self {
        case .allDay(let start, let end): return .allDay(start: start.adding(days: days), end: end.adding(days: days))
        case .timed(let start, let end):
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            return .timed(start: calendar.date(byAdding: .day, value: days, to: start) ?? start,
                          end: calendar.date(byAdding: .day, value: days, to: end) ?? end)
        }
    }

    /// The suffix of an instance id: `20261121T090000Z`, or `20261121` for all-day series.
    var instanceStamp: String {
        switch self {
        case .timed(let start, _): GoogleTime.compactUTC(start)
        case .allDay(let start, _): start.compact
        }
    }
}

/// The part of an event a user sees and a seed sets.
struct EventDetails: Sendable, Equatable {
    var summary: String?
    var description: String?
    var location: String?
    var tentative = false
    var attendees: [GoogleStandIn.SeedAttendee] = []
    var hangoutLink: String?
    var eventType: String?
    var transparency: String?
    var timing: EventTiming
}

struct Recurrence: Sendable, Equatable {
    var everyDays: Int
    var count: Int?

    var rule: String {
        "RRULE:FREQ=\(everyDays == 7 ? "WEEKLY" : "DAILY")" + (count.map { ";COUNT=\($0)" } ?? "")
    }
}

/// A one-off event or a recurring series on the primary calendar.
struct StoredEvent: Sendable {
    /// A changed or cancelled occurrence of a series; `details` nil means cancelled.
    struct Exception: Sendable {
        var details: EventDetails?
        var updated: Date
        var sequence: Int
    }

    var id: String
    var details: EventDetails
    var recurrence: Recurrence?
    var cancelled = false
    var created: Date
    var updated: Date
    /// The calendar's change counter when this last changed: what sync tokens compare against.
    var sequence: Int
    /// By instance id (`<id>_<stamp>`).
    var exceptions: [String: Exception] = [:]
}

/// What `events.list` was asked, already parsed into types (the route answers 400 for bad syntax).
struct EventListQuery: Sendable {
    var timeMin: Date?
    var timeMax: Date?
    var singleEvents = false
    var orderBy: String?
    var maxResults = 250
    var pageToken: String?
    var syncToken: String?
    var updatedMin: Date?
    var showDeleted: Bool?
    var q: String?
    var iCalUID: String?
    var eventTypes: [String] = []
    var maxAttendees: Int?
    /// The `timeZone` parameter: the zone `dateTime`s are printed in.
    var responseZone: TimeZone?
}

struct EventPage: Sendable {
    var items: [GoogleJSON]
    var nextPageToken: String?
    var nextSyncToken: String?
}

/// One user's primary calendar: events, series with their exceptions, a change counter and the sync
/// tokens handed out. Pure state with `now` passed in; `GoogleStandIn` locks it and does the HTTP.
struct CalendarState: Sendable {
    /// One list item before rendering: a single event, a series, or an occurrence of one.
    private struct Row {
        var id: String
        var seriesID: String?
        var originalStart: EventTiming?
        var recurrence: Recurrence?
        var details: EventDetails
        var cancelled: Bool
        var created: Date
        var updated: Date
        var sequence: Int
        /// Where the row sits in time; for a series, from its first start to its last end.
        var start: Date
        var end: Date
    }

    private struct SyncTokenRecord: Sendable {
        var sequence: Int
        var issuedAt: Date
        /// The full sync's window: incremental syncs expand recurring series only inside it.
        var windowMin: Date?
        var windowMax: Date?
    }

    let ownerEmail: String
    let zone: TimeZone
    private(set) var events: [String: StoredEvent] = [:]
    private var changeCounter = 0
    private var syncTokens: [String: SyncTokenRecord] = [:]

    /// Occurrences of an unbounded series are generated this far past `now` (or the window's end).
    private static let unboundedHorizon: TimeInterval = 366 * 24 * 3600
    private static let maxOccurrences = 1000

    init(ownerEmail: String, zone: TimeZone) {
        self.ownerEmail = ownerEmail
        self.zone = zone
    }

    // MARK: Mutation

    /// Adds or replaces an event; an id of the form `<seriesId>_<stamp>` naming an occurrence changes
    /// just that occurrence. Either way `updated` moves and sync tokens see the change.
    @discardableResult
    mutating func upsert(_ seed: GoogleStandIn.SeedEvent, now: Date) throws(StandInError) -> String {
        let details = try Self.details(from: seed, now: now, zone: zone, ownerEmail: ownerEmail)
        changeCounter += 1
        if let id = seed.id, events[id] == nil, let seriesID = occurrence(instanceID: id)?.seriesID {
            let cancelled = seed.status?.lowercased() == "cancelled"
            events[seriesID]?.exceptions[id] = .init(details: cancelled ? nil : details, updated: now, sequence: changeCounter)
            return id
        }
        let id = seed.id ?? Self.newEventID()
        var recurrence: Recurrence?
        if let frequency = seed.recurrence {
            switch frequency.lowercased() {
            case "daily": recurrence = Recurrence(everyDays: 1, count: seed.recurrenceCount)
            case "weekly": recurrence = Recurrence(everyDays: 7, count: seed.recurrenceCount)
            default: throw StandInError(.invalidScenario, "recurrence must be daily or weekly")
            }
            if let count = seed.recurrenceCount, count < 1 {
                throw StandInError(.invalidScenario, "recurrenceCount must be at least 1")
            }
        }
        let existing = events[id]
        events[id] = StoredEvent(id: id, details: details, recurrence: recurrence,
                                 cancelled: seed.status?.lowercased() == "cancelled", created: existing?.created ?? now,
                                 updated: now, sequence: changeCounter, exceptions: existing?.exceptions ?? [:])
        return id
    }

    /// Deletes an event or series, or cancels one occurrence (`<seriesId>_<stamp>`).
    mutating func cancel(id: String, now: Date) throws(StandInError) {
        changeCounter += 1
        if events[id] != nil {
            events[id]?.cancelled = true
            events[id]?.updated = now
            events[id]?.sequence = changeCounter
        } else if let seriesID = occurrence(instanceID: id)?.seriesID {
            events[seriesID]?.exceptions[id] = .init(details: nil, updated: now, sequence: changeCounter)
        } else {
            changeCounter -= 1
            throw StandInError(.invalidScenario, "no event '\(id)' on \(ownerEmail)'s calendar")
        }
    }

    /// Every sync token handed out so far answers 410 from now on.
    mutating func expireSyncTokens() { syncTokens.removeAll() }

    // MARK: Reading

    /// `events.list`: validates the combination of parameters, then pages through the matching items.
    mutating func list(_ query: EventListQuery, settings: GoogleStandIn.CalendarSettings,
                       now: Date) throws(GoogleAPIError) -> EventPage {
        if let timeMin = query.timeMin, let timeMax = query.timeMax, timeMax <= timeMin {
            throw GoogleAPIError(code: 400, message: "The specified time range is empty.", reason: "timeRangeEmpty",
                                 location: "timeMax", locationType: "parameter")
        }
        if query.orderBy == "startTime" && !query.singleEvents {
            throw .badRequest("The requested ordering is not available for the particular query.", parameter: "orderBy")
        }
        var token: SyncTokenRecord?
        if let syncToken = query.syncToken {
            let restricted = [("timeMin", query.timeMin != nil), ("timeMax", query.timeMax != nil),
                              ("orderBy", query.orderBy != nil), ("q", query.q != nil),
                              ("updatedMin", query.updatedMin != nil), ("iCalUID", query.iCalUID != nil)]
            if let (name, _) = restricted.first(where: { $0.1 }) {
                throw .badRequest("Sync token cannot be used with other request restrictions (\(name)).",
                                  reason: "invalid", parameter: "syncToken")
            }
            if query.showDeleted == false {
                throw .badRequest("showDeleted=false is not allowed with a sync token: deletions are always included.",
                                  reason: "invalid", parameter: "showDeleted")
            }
            guard let record = syncTokens[syncToken],
                  now.timeIntervalSince(record.issuedAt) <= TimeInterval(settings.syncTokenLifetimeSeconds)
            else { throw .fullSyncRequired }
            token = record
        }
        if let updatedMin = query.updatedMin,
           now.timeIntervalSince(updatedMin) > TimeInterval(settings.updatedMinHorizonSeconds) {
            throw .updatedMinTooLongAgo
        }
        let order: PageCursor.Order = query.orderBy == "updated" ? .updated : .start
        let cursor = try PageCursor(query.pageToken, order: order)
        // Sync tokens cover every change since the first page.
        let sequence = cursor?.sequence ?? changeCounter

        let windowMin = token?.windowMin ?? query.timeMin
        let windowMax = token?.windowMax ?? query.timeMax
        let expandUntil = windowMax ?? now.addingTimeInterval(Self.unboundedHorizon)
        var rows = self.rows(singleEvents: query.singleEvents, expandUntil: expandUntil)
        if let token {
            // Incremental: everything changed since the token, deletions included. One-off events are
            // reported wherever they now are (a move out of the window must reach the client);
            // occurrences of changed series only inside the frozen window.
            rows = rows.filter { row in
                row.sequence > token.sequence
                    && (row.seriesID == nil || !query.singleEvents || Self.overlaps(row, windowMin, windowMax))
            }
        } else {
            let includeDeleted = query.showDeleted == true || query.updatedMin != nil
            rows = rows.filter { row in
                guard Self.overlaps(row, query.timeMin, query.timeMax) else { return false }
                if let updatedMin = query.updatedMin, row.updated < updatedMin { return false }
                if row.cancelled && !includeDeleted {
                    // Google: cancelled occurrences of a live series still show when neither
                    // showDeleted nor singleEvents is set.
                    return !query.singleEvents && row.seriesID != nil
                        && events[row.seriesID ?? ""]?.cancelled == false
                }
                return true
            }
        }
        if let q = query.q?.lowercased(), !q.isEmpty { rows = rows.filter { matches($0, text: q) } }
        if let iCalUID = query.iCalUID { rows = rows.filter { "\($0.seriesID ?? $0.id)@google.com" == iCalUID } }
        if !query.eventTypes.isEmpty { rows = rows.filter { query.eventTypes.contains($0.details.eventType ?? "default") } }

        // startTime, and Google's "stable order", sort by start; orderBy=updated by last change.
        let key = { (row: Row) in PageCursor.Key(time: order == .updated ? row.updated : row.start, id: row.id) }
        rows.sort { key($0) < key($1) }

        // A page starts after the last item of the previous one, not at a count: items that vanish
        // from earlier pages meanwhile (a cancellation) must not push unseen ones past the cut.
        let remaining = cursor.map { cursor in rows.filter { key($0) > cursor.after } } ?? rows
        let pageRows = remaining.prefix(query.maxResults)
        let responseZone = query.responseZone ?? zone
        let items = pageRows.map { render($0, listing: true, zone: responseZone, maxAttendees: query.maxAttendees) }
        if remaining.count > pageRows.count, let last = pageRows.last {
            let next = PageCursor(order: order, after: key(last), sequence: sequence)
            return EventPage(items: items, nextPageToken: next.token)
        }
        // Last page: a sync token covering every change up to the first page, so nothing that
        // changed while the client paged is lost.
        let syncToken = "CP" + Self.randomToken(bytes: 18)
        syncTokens[syncToken] = SyncTokenRecord(sequence: sequence, issuedAt: now, windowMin: windowMin,
                                                windowMax: windowMax)
        return EventPage(items: items, nextSyncToken: syncToken)
    }

    /// `events.get`: a one-off event, a series, or any occurrence of a series by its instance id.
    func event(id: String, zone responseZone: TimeZone?, maxAttendees: Int?) -> GoogleJSON? {
        let row: Row
        if let event = events[id] {
            row = Self.row(event, zone: zone)
        } else if let found = occurrence(instanceID: id), let series = events[found.seriesID] {
            row = Self.instanceRow(series, original: found.timing, zone: zone)
        } else {
            return nil
        }
        return render(row, listing: false, zone: responseZone ?? zone, maxAttendees: maxAttendees)
    }

    /// The newest modification on the calendar: the list's top-level `updated`.
    var lastUpdated: Date? { events.values.flatMap { [$0.updated] + $0.exceptions.values.map(\.updated) }.max() }

    // MARK: Rows

    private func rows(singleEvents: Bool, expandUntil: Date) -> [Row] {
        var rows: [Row] = []
        for event in events.values {
            guard let recurrence = event.recurrence else {
                rows.append(Self.row(event, zone: zone))
                continue
            }
            if singleEvents {
                for timing in occurrences(of: event.details.timing, recurrence, until: expandUntil) {
                    rows.append(Self.instanceRow(event, original: timing, zone: zone))
                }
            } else {
                var series = Self.row(event, zone: zone)
                if let last = occurrences(of: event.details.timing, recurrence, until: expandUntil).last,
                   recurrence.count != nil {
                    series.end = last.span(in: zone).end
                } else {
                    series.end = .distantFuture
                }
                rows.append(series)
                // Changed and cancelled occurrences are items of their own next to the series.
                for (instanceID, _) in event.exceptions {
                    if let found = occurrence(instanceID: instanceID) {
                        rows.append(Self.instanceRow(event, original: found.timing, zone: zone))
                    }
                }
            }
        }
        return rows
    }

    private static func row(_ event: StoredEvent, zone: TimeZone) -> Row {
        let span = event.details.timing.span(in: zone)
        return Row(id: event.id, recurrence: event.recurrence, details: event.details, cancelled: event.cancelled,
                   created: event.created, updated: event.updated, sequence: event.sequence,
                   start: span.start, end: span.end)
    }

    private static func instanceRow(_ series: StoredEvent, original: EventTiming, zone: TimeZone) -> Row {
        let instanceID = "\(series.id)_\(original.instanceStamp)"
        let exception = series.exceptions[instanceID]
        var details = series.details
        details.timing = original
        if let changed = exception?.details { details = changed }
        let span = details.timing.span(in: zone)
        return Row(id: instanceID, seriesID: series.id, originalStart: original, details: details,
                   cancelled: series.cancelled || (exception != nil && exception?.details == nil),
                   created: series.created, updated: max(series.updated, exception?.updated ?? .distantPast),
                   sequence: max(series.sequence, exception?.sequence ?? 0), start: span.start, end: span.end)
    }

    private func occurrences(of first: EventTiming, _ recurrence: Recurrence, until limit: Date) -> [EventTiming] {
        var result: [EventTiming] = []
        let count = min(recurrence.count ?? Self.maxOccurrences, Self.maxOccurrences)
        for index in 0..<count {
            let timing = first.shifted(days: index * recurrence.everyDays, in: zone)
            if recurrence.count == nil && timing.span(in: zone).start >= limit { break }
            result.append(timing)
        }
        return result
    }

    /// The series and original timing an instance id (`<seriesId>_<stamp>`) names, if it is a real occurrence.
    private func occurrence(instanceID: String) -> (seriesID: String, timing: EventTiming)? {
        guard let underscore = instanceID.lastIndex(of: "_") else { return nil }
        let seriesID = String(instanceID[..<underscore])
        let stamp = String(instanceID[instanceID.index(after: underscore)...])
        guard let series = events[seriesID], let recurrence = series.recurrence else { return nil }
        let horizon = Date.distantFuture
        for timing in occurrences(of: series.details.timing, recurrence, until: horizon) where timing.instanceStamp == stamp {
            return (seriesID, timing)
        }
        return nil
    }

    private static func overlaps(_ row: Row, _ timeMin: Date?, _ timeMax: Date?) -> Bool {
        if let timeMin, row.end <= timeMin { return false }
        if let timeMax, row.start >= timeMax { return false }
        return true
    }

    private func matches(_ row: Row, text: String) -> Bool {
        let details = row.details
        let haystack = [details.summary, details.description, details.location, ownerEmail]
            .compactMap { $0 } + details.attendees.flatMap { [$0.email, $0.displayName ?? ""] }
        return haystack.contains { $0.lowercased().contains(text) }
    }

    // MARK: Rendering

    private func render(_ row: Row, listing: Bool, zone responseZone: TimeZone, maxAttendees: Int?) -> GoogleJSON {
        let etag = GoogleJSON.string("\"\(3_000_000_000_000_000 + row.sequence * 2000)\"")
        let original = row.originalStart.map { timeJSON($0, start: true, responseZone) }
        if listing && row.cancelled {
            // Google's deleted events carry only id and status; cancelled occurrences add what
            // identifies the occurrence, so a client hides it and keeps the series.
            return .object(["kind": "calendar#event", "etag": etag, "id": .string(row.id), "status": "cancelled",
                            "recurringEventId": .string(row.seriesID), "originalStartTime": original])
        }
        let details = row.details
        var attendees = details.attendees.map { attendee in
            GoogleJSON.object([
                "email": .string(attendee.email), "displayName": .string(attendee.displayName),
                "organizer": attendee.organizer == true ? .bool(true) : nil,
                "self": attendee.email.lowercased() == ownerEmail.lowercased() ? .bool(true) : nil,
                "optional": attendee.optional == true ? .bool(true) : nil,
                "responseStatus": .string(attendee.responseStatus ?? "needsAction"),
            ])
        }
        var attendeesOmitted: GoogleJSON?
        if let maxAttendees, attendees.count > maxAttendees {
            // Google keeps only the requesting user's own entry and says the list was cut.
            attendees = attendees.filter { $0["self"] != nil }
            attendeesOmitted = .bool(true)
        }
        let organizerEmail = details.attendees.first { $0.organizer == true }?.email ?? ownerEmail
        let isSelf = organizerEmail.lowercased() == ownerEmail.lowercased()
        let person = { (email: String, mine: Bool) in
            GoogleJSON.object(["email": .string(email), "self": mine ? .bool(true) : nil])
        }
        return .object([
            "kind": "calendar#event",
            "etag": etag,
            "id": .string(row.id),
            "status": .string(row.cancelled ? "cancelled" : details.tentative ? "tentative" : "confirmed"),
            "htmlLink": .string("https://www.google.com/calendar/event?eid="
                                + Data("\(row.id) \(ownerEmail)".utf8).base64URLEncoded),
            "created": .string(GoogleTime.rfc3339UTCMillis(row.created)),
            "updated": .string(GoogleTime.rfc3339UTCMillis(row.updated)),
            "summary": .string(details.summary),
            "description": .string(details.description),
            "location": .string(details.location),
            "creator": person(ownerEmail, true),
            "organizer": person(organizerEmail, isSelf),
            "start": timeJSON(details.timing, start: true, responseZone),
            "end": timeJSON(details.timing, start: false, responseZone),
            "recurrence": row.recurrence.map { .array([.string($0.rule)]) },
            "recurringEventId": .string(row.seriesID),
            "originalStartTime": original,
            "transparency": .string(details.transparency),
            "iCalUID": .string("\(row.seriesID ?? row.id)@google.com"),
            "sequence": .int(0),
            "attendees": attendees.isEmpty ? nil : .array(attendees),
            "attendeesOmitted": attendeesOmitted,
            "hangoutLink": .string(details.hangoutLink),
            "conferenceData": details.hangoutLink.map(Self.conferenceData),
            "reminders": .object(["useDefault": .bool(true)]),
            "eventType": .string(details.eventType ?? "default"),
        ])
    }

    private func timeJSON(_ timing: EventTiming, start: Bool, _ responseZone: TimeZone) -> GoogleJSON {
        switch timing {
        case .allDay(let first, let last):
            return .object(["date": .string((start ? first : last).text)])
        case .timed(let first, let last):
            return .object(["dateTime": .string(GoogleTime.rfc3339(start ? first : last, in: responseZone)),
                            "timeZone": .string(zone.identifier)])
        }
    }

    private static func conferenceData(_ link: String) -> GoogleJSON {
        let code = link.split(separator: "/").last.map(String.init) ?? link
        let label = link.replacingOccurrences(of: "https://", with: "")
        return .object([
            "entryPoints": .array([.object(["entryPointType": "video", "uri": .string(link), "label": .string(label)])]),
            "conferenceSolution": .object([
                "key": .object(["type": "hangoutsMeet"]), "name": "Google Meet",
                "iconUri": "https://fonts.gstatic.com/s/i/productlogos/meet_2020q4/v6/web-512dp/logo_meet_2020q4_color_2x_web_512dp.png",
            ]),
            "conferenceId": .string(code),
        ])
    }

    // MARK: Seeds

    private static func details(from seed: GoogleStandIn.SeedEvent, now: Date, zone: TimeZone,
                                ownerEmail: String) throws(StandInError) -> EventDetails {
        // Messages name the field, never the seed's title or times: they end up in logs. The caller
        // says which seed (`users[0].events[3]` when seeding).
        let timing: EventTiming
        if seed.allDay == true || seed.date != nil {
            var first: CalendarDay
            if let text = seed.date ?? seed.start {
                guard let day = CalendarDay(text) else {
                    throw StandInError(.invalidScenario, "all-day date is not yyyy-mm-dd")
                }
                first = day
            } else {
                first = CalendarDay(containing: now.addingTimeInterval((seed.startInMinutes ?? 0) * 60), in: zone)
            }
            var last = first.adding(days: 1)
            if let text = seed.end {
                guard let day = CalendarDay(text), day > first else {
                    throw StandInError(.invalidScenario, "all-day end must be a yyyy-mm-dd after the start")
                }
                last = day
            }
            timing = .allDay(start: first, end: last)
        } else {
            let start: Date
            if let text = seed.start {
                guard let parsed = GoogleTime.parseRFC3339(text) else {
                    throw StandInError(.invalidScenario, "start is not RFC 3339 with an offset, e.g. 2026-11-20T09:00:00+01:00")
                }
                start = parsed
            } else if let minutes = seed.startInMinutes {
                start = now.addingTimeInterval(minutes * 60)
            } else {
                throw StandInError(.invalidScenario, "give start, startInMinutes, date or allDay")
            }
            var end = start.addingTimeInterval((seed.durationMinutes ?? 60) * 60)
            if let text = seed.end {
                guard let parsed = GoogleTime.parseRFC3339(text) else {
                    throw StandInError(.invalidScenario, "end is not RFC 3339 with an offset, e.g. 2026-11-20T10:00:00+01:00")
                }
                end = parsed
            }
            guard end > start else { throw StandInError(.invalidScenario, "end must be after start") }
            timing = .timed(start: start, end: end)
        }
        var attendees = seed.attendees ?? []
        if let response = seed.selfResponse {
            if let index = attendees.firstIndex(where: { $0.email.lowercased() == ownerEmail.lowercased() }) {
                attendees[index].responseStatus = response
            } else {
                attendees.append(.init(email: ownerEmail, responseStatus: response))
            }
        }
        return EventDetails(summary: seed.summary, description: seed.description, location: seed.location,
                            tentative: seed.status?.lowercased() == "tentative", attendees: attendees,
                            hangoutLink: seed.hangoutLink, eventType: seed.eventType,
                            transparency: seed.transparency, timing: timing)
    }

    /// Google event ids: 5-1024 characters of base32hex (a-v, 0-9).
    private static func newEventID() -> String {
        let alphabet = Array("abcdefghijklmnopqrstuv0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<26).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    static func randomToken(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64URLEncoded
    }
}

/// An opaque `pageToken`: the sort key of the last item handed out and the change counter when
/// paging began. The next page starts after that key, so items cancelled or moved on earlier pages
/// shift nothing; what changed while the client paged is reported by the final sync token.
/// Stateless, so it survives anything but a malformed copy (which is a 400, as at Google).
struct PageCursor: Sendable {
    /// What the list is sorted by: `start` (orderBy=startTime and the default order) or `updated`.
    enum Order: String, Sendable {
        case start = "s"
        case updated = "u"
    }

    /// A position in list order: the sort time, then the id to break ties.
    struct Key: Sendable, Comparable {
        var time: Date
        var id: String

        static func < (lhs: Key, rhs: Key) -> Bool { (lhs.time, lhs.id) < (rhs.time, rhs.id) }
    }

    var order: Order
    /// The last item of the previous page.
    var after: Key
    var sequence: Int

    init(order: Order, after: Key, sequence: Int) {
        self.order = order
        self.after = after
        self.sequence = sequence
    }

    /// Nil without a token (the first page).
    init?(_ token: String?, order: Order) throws(GoogleAPIError) {
        guard let token else { return nil }
        let invalid = GoogleAPIError.badRequest("Invalid page token value.", reason: "invalid", parameter: "pageToken")
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8),
              text.hasPrefix("p2:") else { throw invalid }
        // p2:<order>:<sequence>:<seconds since 2001>:<id>; the id goes last as it may hold colons.
        let parts = text.dropFirst(3).split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
        // A token from a list in another order would start at a meaningless place.
        guard parts.count == 4, Order(rawValue: String(parts[0])) == order, let sequence = Int(parts[1]),
              let seconds = Double(parts[2]), seconds.isFinite, !parts[3].isEmpty else { throw invalid }
        self.init(order: order, after: Key(time: Date(timeIntervalSinceReferenceDate: seconds), id: String(parts[3])),
                  sequence: sequence)
    }

    /// The time is written in full (Swift prints doubles so they read back exactly), so the key
    /// compares equal to the item's own after the round trip.
    var token: String {
        Data("p2:\(order.rawValue):\(sequence):\(after.time.timeIntervalSinceReferenceDate):\(after.id)".utf8)
            .base64URLEncoded
    }
}
