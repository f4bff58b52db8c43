/// Every request the Calendar and Gmail clients send, for checking against Google's discovery documents
/// (`Tests/conformance/check_requests.py`). Base URLs come from configuration; paths are Google's own.
/// Query parameters are listed in the order sent; `[...]` is present on pages after the first.
/// Every request carries `Authorization: Bearer <access token>` and `Accept: application/json`.
///
/// Calendar v3 (scope `calendar.readonly`):
///
/// 1. `GET /calendar/v3/calendars/{calendarId}/events?singleEvents=true&showDeleted=false&timeMin={RFC 3339 UTC}
///    &timeMax={RFC 3339 UTC}&maxResults={250}&fields={eventsPage}[&pageToken={token}]` — `fullSync`
/// 2. `GET /calendar/v3/calendars/{calendarId}/events?syncToken={token}&singleEvents=true&maxResults={250}
///    &fields={eventsPage}[&pageToken={token}]` — `incrementalSync` (no timeMin/timeMax/orderBy/showDeleted)
/// 3. `GET /calendar/v3/calendars/{calendarId}/events/{eventId}?fields={event}` — `event(calendarID:eventID:)`
/// 4. `GET /calendar/v3/users/me/settings/timezone?fields=value` — `timeZone()`
///
///    where `{event}` = `id,status,summary,location,start,end,attendees(self,responseStatus),hangoutLink,`
///    `conferenceData/entryPoints(entryPointType,uri),eventType,transparency,recurringEventId,originalStartTime,updated`
///    and `{eventsPage}` = `nextPageToken,nextSyncToken,timeZone,items({event})`.
///
/// Gmail v1 (scope `gmail.metadata`: never `q`, never `format=full|raw`):
///
/// 5. `GET /gmail/v1/users/me/history?startHistoryId={id}&historyTypes=messageAdded&labelId=INBOX&maxResults={500}
///    [&pageToken={token}]` — `history(startHistoryID:labelID:)`
/// 6. `GET /gmail/v1/users/me/profile` — `profile()`
/// 7. `GET /gmail/v1/users/me/messages?labelIds=INBOX&maxResults={≤500}[&pageToken={token}]` — `recentInboxMessageIDs`
/// 8. `GET /gmail/v1/users/me/messages/{id}?format=metadata&metadataHeaders=From&metadataHeaders=To&metadataHeaders=Cc`
///    `&metadataHeaders=Subject&metadataHeaders=Date&metadataHeaders=Message-ID&metadataHeaders=In-Reply-To`
///    `&metadataHeaders=References&metadataHeaders=List-Unsubscribe&metadataHeaders=List-Id&metadataHeaders=Precedence`
///    `&metadataHeaders=Auto-Submitted&metadataHeaders=Content-Type`
///    `&fields=id,threadId,labelIds,historyId,internalDate,sizeEstimate,payload(mimeType,headers)` — `message(id:)`, `messages(ids:)`
/// 9. `POST /gmail/v1/users/me/watch` with `Content-Type: application/json; charset=utf-8` and body
///    `{"topicName": "projects/…/topics/…", "labelIds": ["INBOX"], "labelFilterBehavior": "include"}` — `watch`
/// 10. `POST /gmail/v1/users/me/stop` with an empty body (`Content-Length: 0`) — `stop()`

import AlfredCore
import AlfredTestCluster
import Foundation
@testable import GoogleAPI
import StandIns
import Testing

@Suite(.timeLimit(.minutes(10))) struct RequestConformanceTests {
    typealias H = GoogleAPIHarness

    /// The list above as (method, path template, query parameter names in order), pages after the first
    /// included. The test below fails when a client sends anything else, so the list cannot go stale.
    static let documentedShapes: Set<String> = [
        "GET /calendar/v3/calendars/{calendarId}/events?singleEvents&showDeleted&timeMin&timeMax&maxResults&fields",
        "GET /calendar/v3/calendars/{calendarId}/events?singleEvents&showDeleted&timeMin&timeMax&maxResults&fields&pageToken",
        "GET /calendar/v3/calendars/{calendarId}/events?syncToken&singleEvents&maxResults&fields",
        "GET /calendar/v3/calendars/{calendarId}/events?syncToken&singleEvents&maxResults&fields&pageToken",
        "GET /calendar/v3/calendars/{calendarId}/events/{eventId}?fields",
        "GET /calendar/v3/users/me/settings/timezone?fields",
        "GET /gmail/v1/users/me/history?startHistoryId&historyTypes&labelId&maxResults",
        "GET /gmail/v1/users/me/history?startHistoryId&historyTypes&labelId&maxResults&pageToken",
        "GET /gmail/v1/users/me/profile",
        "GET /gmail/v1/users/me/messages?labelIds&maxResults",
        "GET /gmail/v1/users/me/messages?labelIds&maxResults&pageToken",
        "GET /gmail/v1/users/me/messages/{id}?format&metadataHeaders*&fields",
        "POST /gmail/v1/users/me/watch",
        "POST /gmail/v1/users/me/stop",
    ]

    @Test func everyRequestTheClientsSendIsDocumentedAndPassesGooglesDiscoveryDocuments() async throws {
        let events = (1...5).map { GoogleStandIn.SeedEvent(id: "ev\($0)", summary: "Meeting \($0)", startInMinutes: Double($0 * 60)) }
        let messages = (1...5).map { GoogleStandIn.SeedMessage(id: "m\($0)", subject: "Hi \($0)", arrivedMinutesAgo: Double(10 * $0)) }
        let user = GoogleStandIn.User(subject: H.subject, email: H.email, timeZone: "Europe/Zurich",
                                      events: events, messages: messages)
        var recorded: [RecordedRequest] = []
        try await H.with(user) { google in
            try await Self.exerciseEveryCall(google)
            recorded = google.standIn.recordedRequests()
        }

        let shapes = Set(recorded.map(Self.shape))
        #expect(shapes == Self.documentedShapes,
                "undocumented: \(shapes.subtracting(Self.documentedShapes)); never sent: \(Self.documentedShapes.subtracting(shapes))")
        #expect(!recorded.contains { $0.queryValue("q") != nil || ["full", "raw"].contains($0.queryValue("format")) })

        let python = try await Self.bootstrapPython()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("google-api-requests-\(UUID()).json")
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        try encoder.encode(recorded).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        for api in ["calendar", "gmail"] {
            let check = try await AlfredTestCluster.run(python, [Self.conformance("check_requests.py"), api, file.path])
            #expect(check.code == 0, "check_requests.py \(api) failed:\n\(check.output)")
            #expect(check.output.contains(" 0 violations"), "\(check.output)")
            #expect(!check.output.contains(" 0 \(api) "), "no \(api) requests were checked:\n\(check.output)")
        }
    }

    /// Each client call once, with paging forced by small pages, and the 410/404 fallbacks taken.
    static func exerciseEveryCall(_ google: GoogleAPIHarness) async throws {
        let calendar = google.calendar { $0.calendarPageSize = 2 }
        let window = Date().addingTimeInterval(-86_400)..<Date().addingTimeInterval(7 * 86_400)
        let full = try await calendar.fullSync(timeMin: window.lowerBound, timeMax: window.upperBound)
        try google.standIn.upsertEvent(.init(id: "ev1", startInMinutes: 30), forUser: H.email)
        for id in ["ev6", "ev7", "ev8"] { try google.standIn.upsertEvent(.init(id: id, startInMinutes: 500), forUser: H.email) }
        let token = try #require(full.nextSyncToken)
        _ = try await calendar.incrementalSync(syncToken: token)
        google.standIn.expireSyncTokens()
        #expect(try await calendar.sync(syncToken: token, window: window).kind == .fullAfterExpiredToken)
        _ = try await calendar.event(calendarID: H.email, eventID: "ev2")
        _ = try await calendar.timeZone()

        let gmail = google.gmail { $0.gmailPageSize = 2 }
        let start = try await gmail.profile().historyID
        for id in ["n1", "n2", "n3"] { try google.standIn.deliverMessage(.init(id: id, subject: id), toUser: H.email) }
        let delta = try await gmail.history(startHistoryID: start)
        _ = try await gmail.messages(ids: delta.addedMessageIDs + ["m1"])
        google.standIn.expireHistory()
        _ = try? await gmail.history(startHistoryID: delta.historyID)
        _ = try await gmail.recentInboxMessageIDs(maxResults: 3)
        _ = try await gmail.watch(topicName: "projects/alfred-test/topics/gmail-events")
        try await gmail.stop()
    }

    /// `METHOD /path/{template}?name&name`, repeated names collapsed to `name*`.
    static func shape(_ request: RecordedRequest) -> String {
        var path = request.path
        for (pattern, template) in [(#"^/calendar/v3/calendars/[^/]+/events/[^/]+$"#, "/calendar/v3/calendars/{calendarId}/events/{eventId}"),
                                    (#"^/calendar/v3/calendars/[^/]+/events$"#, "/calendar/v3/calendars/{calendarId}/events"),
                                    (#"^/gmail/v1/users/me/messages/[^/]+$"#, "/gmail/v1/users/me/messages/{id}")]
        where path.wholeMatch(of: try! Regex(pattern)) != nil {
            path = template
            break
        }
        var names: [String] = []
        for field in request.query {
            if names.last == field.name || names.last == field.name + "*" {
                names[names.count - 1] = field.name + "*"
            } else {
                names.append(field.name)
            }
        }
        return "\(request.method) \(path)" + (names.isEmpty ? "" : "?" + names.joined(separator: "&"))
    }

    static func conformance(_ name: String) -> String {
        Repository.url("Tests/conformance/" + name).path
    }

    /// The pinned venv's python (see `ConformanceVenv`).
    static func bootstrapPython() async throws -> String { try await ConformanceVenv.python() }
}
