import Foundation
import NIOCore

/// Google Calendar v3 for one connector: sync (full and incremental), one event, the time zone.
/// Scope: `calendar.readonly`. Every call may throw `GoogleAPIError`, the token source's errors and
/// `CancellationError`.
public struct CalendarClient: Sendable {
    let http: GoogleHTTP

    public init(http: GoogleHTTP) { self.http = http }

    /// Every event overlapping `timeMin..<timeMax` (Google: ends after `timeMin`, starts before `timeMax`),
    /// recurring series expanded into instances, paged to the end. The `nextSyncToken` it returns makes
    /// later incremental syncs; their window stays the one given here, so re-run a full sync now and
    /// then (daily) to slide it.
    public func fullSync(calendarID: String = "primary", timeMin: Date, timeMax: Date) async throws -> CalendarSyncPage {
        try await list(calendarID: calendarID, query: [
            ("singleEvents", "true"),
            ("showDeleted", "false"),
            ("timeMin", WireDate.format(timeMin)),
            ("timeMax", WireDate.format(timeMax)),
            ("maxResults", "\(http.configuration.calendarPageSize)"),
            ("fields", PartialResponse.eventsPage),
        ])
    }

    /// Changes since `syncToken`, cancellations included. Google forbids `timeMin`/`timeMax`/`orderBy`/
    /// `showDeleted` with a sync token; `singleEvents` must match the full sync. Throws
    /// `GoogleAPIError.syncTokenExpired` on 410: run `fullSync` then.
    public func incrementalSync(calendarID: String = "primary", syncToken: String) async throws -> CalendarSyncPage {
        do {
            return try await list(calendarID: calendarID, query: [
                ("syncToken", syncToken),
                ("singleEvents", "true"),
                ("maxResults", "\(http.configuration.calendarPageSize)"),
                ("fields", PartialResponse.eventsPage),
            ])
        } catch let error as GoogleAPIError where error.code == .gone {
            throw error.recoded(.syncTokenExpired)
        }
    }

    /// Incremental when a token is held, else full over `window`; an expired token falls back to a full
    /// sync. `kind` says which, because the caller applies them differently.
    public func sync(calendarID: String = "primary", syncToken: String?, window: Range<Date>) async throws -> CalendarSync {
        if let syncToken {
            do {
                return CalendarSync(kind: .incremental, page: try await incrementalSync(calendarID: calendarID, syncToken: syncToken))
            } catch let error as GoogleAPIError where error.code == .syncTokenExpired {
                let page = try await fullSync(calendarID: calendarID, timeMin: window.lowerBound, timeMax: window.upperBound)
                return CalendarSync(kind: .fullAfterExpiredToken, page: page)
            }
        }
        let page = try await fullSync(calendarID: calendarID, timeMin: window.lowerBound, timeMax: window.upperBound)
        return CalendarSync(kind: .full, page: page)
    }

    /// One event as it is now (a reminder re-reads its event before firing: it may have moved). Nil when
    /// it no longer happens: Google answers 404 or 410, or returns it with `status: cancelled` (which is
    /// how Google answers for a deleted event or a cancelled occurrence). So nil means "no reminder".
    public func event(calendarID: String = "primary", eventID: String) async throws -> CalendarEvent? {
        do {
            let response = try await http.get(.calendar, "events.get", path: ["calendars", calendarID, "events", eventID],
                                              query: [("fields", PartialResponse.event)])
            let event = try http.decode(CalendarEvent.self, from: response, (.calendar, "events.get"))
            return event.isCancelled ? nil : event
        } catch let error as GoogleAPIError where error.code == .notFound || error.code == .gone {
            return nil
        }
    }

    /// The user's Calendar time zone (IANA name), from `users/me/settings/timezone`.
    public func timeZone() async throws -> String {
        struct Setting: Decodable { var value: String }
        let response = try await http.get(.calendar, "settings.get", path: ["users", "me", "settings", "timezone"],
                                          query: [("fields", PartialResponse.timeZoneSetting)])
        let setting = try http.decode(Setting.self, from: response, (.calendar, "settings.get"))
        guard !setting.value.isEmpty else {
            throw http.invalidResponse(response, (.calendar, "settings.get"), "empty time zone")
        }
        return setting.value
    }

    // MARK: Paging

    private struct EventsPage: Decodable {
        var items: LenientArray<CalendarEvent>?
        var nextPageToken: String?
        var nextSyncToken: String?
        var timeZone: String?
    }

    /// `events.list` from the first page to the last. Every page repeats the query (Google wants the
    /// same parameters with `pageToken`); `nextSyncToken` and the time zone come from the last page.
    private func list(calendarID: String, query: [(String, String)]) async throws -> CalendarSyncPage {
        var events: [CalendarEvent] = []
        var skipped = 0
        var timeZone: String?
        var pageToken: String?
        var seenTokens = Set<String>()
        var last: GoogleResponse?
        for pageCount in 1...max(1, http.configuration.maxPages) {
            let response = try await http.get(.calendar, "events.list", path: ["calendars", calendarID, "events"],
                                              query: query + (pageToken.map { [("pageToken", $0)] } ?? []))
            last = response
            let page = try http.decode(EventsPage.self, from: response, (.calendar, "events.list"))
            events += page.items?.elements ?? []
            skipped += page.items?.skipped ?? 0
            timeZone = page.timeZone ?? timeZone
            guard let next = page.nextPageToken, !next.isEmpty else {
                return CalendarSyncPage(events: events, nextSyncToken: page.nextSyncToken, timeZone: timeZone,
                                        pageCount: pageCount, skippedItems: skipped)
            }
            // A pager that hands out a token twice would loop forever.
            guard seenTokens.insert(next).inserted else { break }
            pageToken = next
        }
        throw GoogleAPIError(.invalidResponse, service: .calendar, operation: "events.list", status: last?.status,
                             attempts: last?.attempts ?? 0, detail: "paging did not end")
    }
}
