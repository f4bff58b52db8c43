import Foundation
import Hummingbird

/// Calendar API v3 (external-apis §2) under `/calendar/v3`, Google's own path below
/// `https://www.googleapis.com`: `events.list`, `events.get` and `settings.get`, for the user's
/// primary calendar (`primary` or the user's email as `calendarId`).
extension GoogleStandIn {
    private static let auth = "https://www.googleapis.com/auth/"
    /// Scopes that may read events, per the discovery document.
    static let calendarEventScopes = [
        "calendar", "calendar.readonly", "calendar.events", "calendar.events.readonly",
        "calendar.events.owned", "calendar.events.owned.readonly",
    ].map { auth + $0 }
    /// Scopes that may read settings (`calendar.events.readonly` may not).
    static let calendarSettingsScopes = ["calendar", "calendar.readonly", "calendar.settings.readonly"].map { auth + $0 }

    static let eventTypes = ["birthday", "default", "focusTime", "fromGmail", "outOfOffice", "workingLocation"]

    func addCalendarRoutes(to router: Router<BasicRequestContext>) {
        router.get("/calendar/v3/calendars/:calendarId/events") { request, context in
            try self.listEvents(request, calendarID: Self.pathParameter(context, "calendarId"))
        }
        router.get("/calendar/v3/calendars/:calendarId/events/:eventId") { request, context in
            try self.getEvent(request, calendarID: Self.pathParameter(context, "calendarId"),
                              eventID: Self.pathParameter(context, "eventId"))
        }
        router.get("/calendar/v3/users/me/settings/:setting") { request, context in
            try self.getSetting(request, name: Self.pathParameter(context, "setting"))
        }
    }

    private func listEvents(_ request: Request, calendarID: String) throws(GoogleAPIError) -> Response {
        let query = APIQuery(request)
        let (_, user) = try caller(request, query: query, scopes: Self.calendarEventScopes)
        try Self.requirePrimary(calendarID, of: user)
        var list = EventListQuery()
        list.timeMin = try query.time("timeMin")
        list.timeMax = try query.time("timeMax")
        list.updatedMin = try query.time("updatedMin")
        list.singleEvents = try query.bool("singleEvents") ?? false
        list.showDeleted = try query.bool("showDeleted")
        list.orderBy = try query.oneOf("orderBy", ["startTime", "updated"])
        list.maxResults = try query.integer("maxResults", minimum: 1, maximum: 2500) ?? 250
        list.maxAttendees = try query.integer("maxAttendees", minimum: 1, maximum: .max)
        list.pageToken = query.string("pageToken")
        list.syncToken = query.string("syncToken")
        list.q = query.string("q")
        list.iCalUID = query.string("iCalUID")
        list.eventTypes = query.values("eventTypes")
        if let unknown = list.eventTypes.first(where: { !Self.eventTypes.contains($0) }) {
            throw .badRequest("Invalid value for eventTypes: '\(unknown)'.", reason: "invalidParameter", parameter: "eventTypes")
        }
        list.responseZone = try Self.responseZone(query)
        let mask = try query.fieldMask()
        let now = clock.now()
        let settings = scenario.withLock { $0.calendar }

        let (page, updated, zone) = try withCalendar(of: user) { calendar throws(GoogleAPIError) in
            (try calendar.list(list, settings: settings, now: now), calendar.lastUpdated ?? now, calendar.zone)
        }
        let body = GoogleJSON.object([
            "kind": "calendar#events",
            "etag": .string("\"p3\(GoogleTime.milliseconds(updated))\""),
            "summary": .string(user.email),
            "description": "",
            "updated": .string(GoogleTime.rfc3339UTCMillis(updated)),
            "timeZone": .string(zone.identifier),
            "accessRole": "owner",
            "defaultReminders": .array([.object(["method": "popup", "minutes": .int(10)])]),
            "nextPageToken": .string(page.nextPageToken),
            "nextSyncToken": .string(page.nextSyncToken),
            "items": .array(page.items),
        ])
        return Self.answer(body, mask: mask)
    }

    private func getEvent(_ request: Request, calendarID: String, eventID: String) throws(GoogleAPIError) -> Response {
        let query = APIQuery(request)
        let (_, user) = try caller(request, query: query, scopes: Self.calendarEventScopes)
        try Self.requirePrimary(calendarID, of: user)
        let maxAttendees = try query.integer("maxAttendees", minimum: 1, maximum: .max)
        let zone = try Self.responseZone(query)
        let mask = try query.fieldMask()
        let event = try withCalendar(of: user) { calendar throws(GoogleAPIError) in
            calendar.event(id: eventID, zone: zone, maxAttendees: maxAttendees)
        }
        guard let event else { throw .calendarNotFound }
        return Self.answer(event, mask: mask)
    }

    private func getSetting(_ request: Request, name: String) throws(GoogleAPIError) -> Response {
        let query = APIQuery(request)
        let (_, user) = try caller(request, query: query, scopes: Self.calendarSettingsScopes)
        let mask = try query.fieldMask()
        // Only the setting Alfred reads; Google has a dozen more (locale, weekStart, ...).
        guard name == "timezone" else { throw .calendarNotFound }
        let zone = Self.zone(of: user).identifier
        // A stable etag derived from the value (String.hashValue changes per process).
        let etag = zone.unicodeScalars.reduce(1701) { ($0 &* 31 &+ Int($1.value)) % 1_000_000 }
        return Self.answer(.object([
            "kind": "calendar#setting", "etag": .string("\"\(etag)\""), "id": "timezone", "value": .string(zone),
        ]), mask: mask)
    }

    /// The stand-in keeps one calendar per user: `primary`, or its id (the user's email).
    private static func requirePrimary(_ calendarID: String, of user: User) throws(GoogleAPIError) {
        guard calendarID == "primary" || calendarID.lowercased() == user.email.lowercased() else {
            throw .calendarNotFound
        }
    }

    private static func responseZone(_ query: APIQuery) throws(GoogleAPIError) -> TimeZone? {
        guard let name = query.string("timeZone") else { return nil }
        guard let zone = TimeZone(identifier: name) else {
            throw .badRequest("Invalid time zone definition for time zone: \(name)", reason: "invalidParameter",
                              parameter: "timeZone")
        }
        return zone
    }
}
