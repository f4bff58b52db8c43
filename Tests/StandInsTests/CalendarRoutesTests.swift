import AlfredTestKit
import Foundation
import StandIns
import Testing

/// Calendar v3 over a real socket, against external-apis §2.7. The clock is pinned at Friday
/// 2026-11-20 08:00 UTC (09:00 in Ada's Europe/Zurich).
@Suite(.timeLimit(.minutes(5))) struct CalendarRoutesTests {
    typealias Seed = GoogleStandIn.SeedEvent
    static let events = "/calendar/v3/calendars/primary/events"

    static let seeds: [Seed] = [
        Seed(id: "evt-board", summary: "Board sync", location: "Room 4.12", description: "Quarterly numbers",
             start: "2026-11-20T09:30:00Z", end: "2026-11-20T10:00:00Z", selfResponse: "accepted",
             attendees: [.init(email: "grace@example.com", responseStatus: "accepted", organizer: true)],
             hangoutLink: "https://meet.google.com/abc-defg-hij"),
        Seed(id: "evt-early", summary: "Ends at timeMin", start: "2026-11-20T08:00:00Z", end: "2026-11-20T09:00:00Z"),
        Seed(id: "evt-late", summary: "Starts at timeMax", start: "2026-11-20T12:00:00Z", durationMinutes: 30),
        Seed(id: "evt-focus", summary: "Focus", startInMinutes: 120, eventType: "focusTime", transparency: "transparent"),
        Seed(id: "evt-offsite", summary: "Offsite", date: "2026-11-21"),
        Seed(id: "evt-standup", summary: "Stand-up", start: "2026-11-21T08:00:00Z", durationMinutes: 15,
             selfResponse: "needsAction", recurrence: "daily", recurrenceCount: 3),
    ]

    static func with(_ seeds: [Seed] = seeds, calendar: GoogleStandIn.CalendarSettings = .init(),
                     latencyClock: any Clock<Duration> = ContinuousClock(),
                     _ body: @Sendable (GoogleHarness, String) async throws -> Void) async throws {
        try await H.withData(H.dataConfiguration(events: seeds, calendar: calendar), latencyClock: latencyClock) { google in
            try await body(google, try google.token([H.calendarReadonly]))
        }
    }

    // MARK: Auth

    @Test func bearerAndScopeAreChecked() async throws {
        try await Self.with { google, token in
            let missing = try await google.get(Self.events, token: nil)
            #expect(missing.status == 401)
            #expect(missing.reason == "authError" && missing.apiError["status"] as? String == "UNAUTHENTICATED")
            #expect(missing.apiError["code"] as? Int == 401)
            #expect(missing.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
            #expect(try await google.get(Self.events, token: "ya29.forged").status == 401)

            let gmailOnly = try await google.get(Self.events, token: try google.token([H.gmailMetadata]))
            #expect(gmailOnly.status == 403 && gmailOnly.reason == "insufficientPermissions")
            #expect(gmailOnly.apiError["status"] as? String == "PERMISSION_DENIED")

            // events.readonly reads events but not settings; settings.readonly the other way round.
            let eventsOnly = try google.token([H.calendarEventsReadonly])
            #expect(try await google.get(Self.events, token: eventsOnly).status == 200)
            #expect(try await google.get("/calendar/v3/users/me/settings/timezone", token: eventsOnly).status == 403)
            let settingsOnly = try google.token([H.calendarSettingsReadonly])
            #expect(try await google.get("/calendar/v3/users/me/settings/timezone", token: settingsOnly).status == 200)
            #expect(try await google.get(Self.events, token: settingsOnly).status == 403)

            // The token dies on the stand-in's clock.
            google.standIn.advanceClock(bySeconds: 3600)
            #expect(try await google.get(Self.events, token: token).reason == "authError")
        }
    }

    @Test func primaryAliasAndCalendarIdByEmail() async throws {
        try await Self.with { google, token in
            let primary = try await google.get(Self.events, token: token)
            #expect(primary.status == 200)
            #expect(primary.json["kind"] as? String == "calendar#events")
            #expect(primary.json["timeZone"] as? String == "Europe/Zurich")
            #expect(primary.json["summary"] as? String == H.email)
            let byEmail = try await google.get("/calendar/v3/calendars/ada%40example.com/events", token: token)
            #expect(byEmail.ids == primary.ids)
            let other = try await google.get("/calendar/v3/calendars/someone-else%40example.com/events", token: token)
            #expect(other.status == 404 && other.reason == "notFound")
        }
    }

    // MARK: Time window

    @Test func timeMinBoundsTheEndAndTimeMaxTheStartBothExclusive() async throws {
        try await Self.with { google, token in
            let window = try await google.get(Self.events + query([
                ("timeMin", "2026-11-20T10:00:00+01:00"), ("timeMax", "2026-11-20T12:00:00Z"),
                ("singleEvents", "true"), ("orderBy", "startTime")]), token: token)
            #expect(window.status == 200)
            #expect(window.ids == ["evt-board", "evt-focus"])

            // All-day events occupy their days from midnight in the calendar's zone (23:00 UTC before).
            let saturday = try await google.get(Self.events + query([
                ("timeMin", "2026-11-20T22:30:00Z"), ("timeMax", "2026-11-20T23:30:00Z")]), token: token)
            #expect(saturday.ids == ["evt-offsite"])
        }
    }

    @Test(arguments: [
        ("timeMin", "2026-11-20T09:00:00", "badRequest"),   // no offset
        ("timeMin", "2026-11-20", "badRequest"),
        ("timeMax", "2026-11-20T09:00:00 01:00", "badRequest"),  // an unencoded '+' arrives as a space
        ("updatedMin", "yesterday", "badRequest"),
        ("maxResults", "ten", "invalidParameter"),
        ("maxResults", "0", "invalidParameter"),
        ("orderBy", "bogus", "invalidParameter"),
        ("singleEvents", "yes", "invalidParameter"),
        ("timeZone", "Mars/Olympus", "invalidParameter"),
        ("fields", "items(id", "invalidParameter"),
        ("pageToken", "not-a-token", "invalid"),
    ])
    func malformedParametersAre400(name: String, value: String, reason: String) async throws {
        try await Self.with { google, token in
            let reply = try await google.get(Self.events + query([(name, value)]), token: token)
            #expect(reply.status == 400, "\(name)=\(value): \(reply.body)")
            #expect(reply.reason == reason, "\(name)=\(value): \(reply.body)")
            #expect(reply.apiError["status"] as? String == "INVALID_ARGUMENT")
        }
    }

    @Test func emptyRangeAndOrderingRules() async throws {
        try await Self.with { google, token in
            let empty = try await google.get(Self.events + query([
                ("timeMin", "2026-11-20T10:00:00Z"), ("timeMax", "2026-11-20T10:00:00Z")]), token: token)
            #expect(empty.status == 400 && empty.reason == "timeRangeEmpty")
            let unordered = try await google.get(Self.events + query([("orderBy", "startTime")]), token: token)
            #expect(unordered.status == 400)
            let byUpdated = try await google.get(Self.events + query([("orderBy", "updated")]), token: token)
            #expect(byUpdated.status == 200 && byUpdated.ids.count == Self.seeds.count)
        }
    }

    // MARK: Recurrence

    @Test func singleEventsExpandsDailyAndWeeklySeries() async throws {
        var seeds = Self.seeds
        seeds.append(Seed(id: "weekly1", summary: "1:1", start: "2026-11-23T14:00:00+01:00", durationMinutes: 30,
                          recurrence: "weekly", recurrenceCount: 2))
        try await Self.with(seeds) { google, token in
            let expanded = try await google.get(Self.events + query([
                ("timeMin", "2026-11-21T00:00:00Z"), ("timeMax", "2026-12-31T00:00:00Z"),
                ("singleEvents", "true"), ("orderBy", "startTime")]), token: token)
            let standups = expanded.items.filter { $0["recurringEventId"] as? String == "evt-standup" }
            #expect(standups.map { $0["id"] as? String } == [
                "evt-standup_20261121T080000Z", "evt-standup_20261122T080000Z", "evt-standup_20261123T080000Z"])
            let first = try #require(standups.first)
            #expect((first["originalStartTime"] as? [String: Any])?["dateTime"] as? String == "2026-11-21T09:00:00+01:00")
            #expect((first["start"] as? [String: Any])?["dateTime"] as? String == "2026-11-21T09:00:00+01:00")
            #expect((first["start"] as? [String: Any])?["timeZone"] as? String == "Europe/Zurich")
            #expect(expanded.ids.filter { $0.hasPrefix("weekly1_") } == ["weekly1_20261123T130000Z", "weekly1_20261130T130000Z"])
            #expect(!expanded.ids.contains("evt-standup"))

            let series = try await google.get(Self.events + query([("timeMin", "2026-11-21T00:00:00Z")]), token: token)
            let standup = try #require(series.items.first { $0["id"] as? String == "evt-standup" })
            #expect(standup["recurrence"] as? [String] == ["RRULE:FREQ=DAILY;COUNT=3"])
            #expect(series.ids.filter { $0.hasPrefix("evt-standup_") }.isEmpty)

            // Each occurrence can be fetched by its instance id; the timeZone parameter changes the printing.
            let instance = try await google.get(Self.events + "/evt-standup_20261122T080000Z" + query([("timeZone", "UTC")]), token: token)
            #expect(instance.status == 200)
            #expect(instance.json["recurringEventId"] as? String == "evt-standup")
            #expect((instance.json["start"] as? [String: Any])?["dateTime"] as? String == "2026-11-22T08:00:00Z")
            #expect(try await google.get(Self.events + "/evt-standup_20261124T080000Z", token: token).status == 404)
        }
    }

    // MARK: Event shape

    @Test func eventsCarryTheFieldsRemindersNeed() async throws {
        try await Self.with { google, token in
            let board = try await google.get(Self.events + "/evt-board", token: token)
            #expect(board.status == 200)
            let event = board.json
            #expect(event["kind"] as? String == "calendar#event")
            #expect(event["status"] as? String == "confirmed")
            #expect(event["summary"] as? String == "Board sync" && event["location"] as? String == "Room 4.12")
            #expect(event["description"] as? String == "Quarterly numbers")
            #expect((event["start"] as? [String: Any])?["dateTime"] as? String == "2026-11-20T10:30:00+01:00")
            #expect((event["end"] as? [String: Any])?["dateTime"] as? String == "2026-11-20T11:00:00+01:00")
            #expect(event["updated"] as? String == "2026-11-20T08:00:00.000Z")
            #expect(event["hangoutLink"] as? String == "https://meet.google.com/abc-defg-hij")
            let entry = ((event["conferenceData"] as? [String: Any])?["entryPoints"] as? [[String: Any]])?.first
            #expect(entry?["entryPointType"] as? String == "video" && entry?["uri"] as? String == "https://meet.google.com/abc-defg-hij")
            let attendees = try #require(event["attendees"] as? [[String: Any]])
            #expect(attendees.count == 2)
            let me = try #require(attendees.first { $0["self"] as? Bool == true })
            #expect(me["email"] as? String == H.email && me["responseStatus"] as? String == "accepted")
            #expect((event["organizer"] as? [String: Any])?["email"] as? String == "grace@example.com")
            #expect(event["eventType"] as? String == "default")

            let focus = try await google.get(Self.events + "/evt-focus", token: token).json
            #expect(focus["eventType"] as? String == "focusTime" && focus["transparency"] as? String == "transparent")
            #expect((focus["start"] as? [String: Any])?["dateTime"] as? String == "2026-11-20T11:00:00+01:00")
            #expect(focus["attendees"] == nil)

            let offsite = try await google.get(Self.events + "/evt-offsite", token: token).json
            #expect(offsite["start"] as? [String: String] == ["date": "2026-11-21"])
            #expect(offsite["end"] as? [String: String] == ["date": "2026-11-22"])

            let trimmed = try await google.get(Self.events + "/evt-board" + query([("maxAttendees", "1")]), token: token).json
            #expect((trimmed["attendees"] as? [[String: Any]])?.count == 1 && trimmed["attendeesOmitted"] as? Bool == true)

            let unknown = try await google.get(Self.events + "/nope", token: token)
            #expect(unknown.status == 404 && unknown.reason == "notFound")
        }
    }

    @Test func timezoneSetting() async throws {
        try await Self.with { google, token in
            let setting = try await google.get("/calendar/v3/users/me/settings/timezone", token: token)
            #expect(setting.status == 200)
            #expect(setting.json["kind"] as? String == "calendar#setting")
            #expect(setting.json["id"] as? String == "timezone" && setting.json["value"] as? String == "Europe/Zurich")
            #expect(setting.json["etag"] is String)
            #expect(try await google.get("/calendar/v3/users/me/settings/weekStart", token: token).status == 404)
        }
    }

    @Test func fieldsSelectsTopLevelAndNestedMembers() async throws {
        try await Self.with { google, token in
            let reply = try await google.get(Self.events + "/evt-board" + query([
                ("fields", "id,attendees(email,self),conferenceData/entryPoints(uri),start/dateTime,noSuchField")]), token: token)
            #expect(reply.status == 200)
            #expect(Set(reply.json.keys) == ["id", "attendees", "conferenceData", "start"])
            #expect(reply.json["start"] as? [String: String] == ["dateTime": "2026-11-20T10:30:00+01:00"])
            #expect((reply.json["attendees"] as? [[String: Any]])?.allSatisfy { Set($0.keys).isSubset(of: ["email", "self"]) } == true)
            #expect(reply.body.contains(#""conferenceData":{"entryPoints":[{"uri":"https://meet.google.com/abc-defg-hij"}]}"#))

            let list = try await google.get(Self.events + query([
                ("fields", "nextSyncToken,timeZone,items(id,start)"), ("maxResults", "2")]), token: token)
            #expect(Set(list.json.keys) == ["timeZone", "items"])  // not the last page: no sync token to select
            #expect(list.items.allSatisfy { Set($0.keys) == ["id", "start"] })
        }
    }

    // MARK: Paging and sync

    @Test func pagesCarryOpaqueTokensAndTheSyncTokenComesLast() async throws {
        try await Self.with { google, token in
            var pageToken: String?
            var pages: [[String]] = []
            var syncToken: String?
            repeat {
                var fields = [("maxResults", "2"), ("singleEvents", "true")]
                if let pageToken { fields.append(("pageToken", pageToken)) }
                let page = try await google.get(Self.events + query(fields), token: token)
                #expect(page.status == 200)
                pageToken = page.json["nextPageToken"] as? String
                #expect(pageToken == nil || page.json["nextSyncToken"] == nil, "nextSyncToken only on the last page")
                if pageToken == nil { syncToken = page.json["nextSyncToken"] as? String }
                pages.append(page.ids)
            } while pageToken != nil && pages.count < 10
            #expect(pages.map(\.count) == [2, 2, 2, 2])  // 5 one-offs + 3 stand-ups
            #expect(Set(pages.flatMap { $0 }).count == 8)
            #expect(syncToken?.isEmpty == false)

            let capped = try await google.get(Self.events + query([("maxResults", "5000")]), token: token)
            #expect(capped.status == 200 && capped.json["nextSyncToken"] is String)
        }
    }

    /// Pages continue after the last item handed out, not at a count: an item cancelled on an earlier
    /// page must not push a live one past the cut, where no later sync would report it (it never changed).
    @Test(arguments: [
        [("singleEvents", "true")],
        [("singleEvents", "true"), ("orderBy", "startTime")],
        [("singleEvents", "true"), ("orderBy", "updated")],
        [("orderBy", "updated")],
    ])
    func cancellingOnAnEarlierPageSkipsNothing(order: [(String, String)]) async throws {
        try await Self.with { google, token in
            let first = try await google.get(Self.events + query(order + [("maxResults", "2")]), token: token)
            #expect(first.ids.count == 2)
            var pageToken = try #require(first.json["nextPageToken"] as? String)
            let cancelled = try #require(first.ids.first)
            try google.standIn.cancelEvent(id: cancelled, forUser: H.email)

            var seen = first.ids
            var syncToken: String?
            for _ in 0..<10 {
                let page = try await google.get(Self.events + query(order + [("maxResults", "2"), ("pageToken", pageToken)]),
                                                token: token)
                #expect(page.status == 200, "\(page.body)")
                seen += page.ids
                guard let next = page.json["nextPageToken"] as? String else {
                    syncToken = page.json["nextSyncToken"] as? String
                    break
                }
                pageToken = next
            }
            let live = try await google.get(Self.events + query(order), token: token)
            #expect(!live.ids.contains(cancelled) && live.ids.count >= 5)
            #expect(Set(live.ids).isSubset(of: seen), "skipped: \(Set(live.ids).subtracting(seen).sorted())")
            #expect(seen.count == Set(seen).count, "no item twice: \(seen)")

            // The cancellation happened while paging, so the final sync token still reports it.
            let sync = try #require(syncToken)
            let singleEvents = order.filter { $0.0 == "singleEvents" }
            let changes = try await google.get(Self.events + query(singleEvents + [("syncToken", sync)]), token: token)
            #expect(changes.ids == [cancelled])
        }
    }

    @Test func pageTokenIsTiedToItsOrdering() async throws {
        try await Self.with { google, token in
            let first = try await google.get(Self.events + query([("singleEvents", "true"), ("maxResults", "2")]), token: token)
            let next = try #require(first.json["nextPageToken"] as? String)
            let mixed = try await google.get(Self.events + query([
                ("singleEvents", "true"), ("orderBy", "updated"), ("maxResults", "2"), ("pageToken", next)]), token: token)
            #expect(mixed.status == 400 && mixed.reason == "invalid")
        }
    }

    @Test func syncTokenReturnsChangesShapedLikeGoogles() async throws {
        try await Self.with { google, token in
            let full = try await google.get(Self.events + query([
                ("singleEvents", "true"), ("timeMin", "2026-11-19T00:00:00Z"), ("timeMax", "2026-12-01T00:00:00Z")]), token: token)
            let first = try #require(full.json["nextSyncToken"] as? String)

            let nothing = try await google.get(Self.events + query([("singleEvents", "true"), ("syncToken", first)]), token: token)
            #expect(nothing.status == 200 && nothing.items.isEmpty && nothing.json["nextSyncToken"] is String)

            google.standIn.advanceClock(bySeconds: 60)
            try google.standIn.upsertEvent(Seed(id: "evt-board", summary: "Board sync (moved)", startInMinutes: 240,
                                                durationMinutes: 30), forUser: H.email)
            try google.standIn.cancelEvent(id: "evt-early", forUser: H.email)
            try google.standIn.cancelEvent(id: "evt-standup_20261122T080000Z", forUser: H.subject)
            let added = try google.standIn.upsertEvent(Seed(summary: "New", startInMinutes: 30), forUser: H.email)

            let changes = try await google.get(Self.events + query([("singleEvents", "true"), ("syncToken", first)]), token: token)
            #expect(changes.status == 200)
            #expect(Set(changes.ids) == ["evt-board", "evt-early", "evt-standup_20261122T080000Z", added])
            let moved = try #require(changes.items.first { $0["id"] as? String == "evt-board" })
            #expect(moved["summary"] as? String == "Board sync (moved)")
            #expect(moved["updated"] as? String == "2026-11-20T08:01:00.000Z")
            #expect((moved["start"] as? [String: Any])?["dateTime"] as? String == "2026-11-20T13:01:00+01:00")
            let deleted = try #require(changes.items.first { $0["id"] as? String == "evt-early" })
            #expect(Set(deleted.keys).subtracting(["kind", "etag"]) == ["id", "status"])
            #expect(deleted["status"] as? String == "cancelled")
            let skipped = try #require(changes.items.first { $0["id"] as? String == "evt-standup_20261122T080000Z" })
            #expect(Set(skipped.keys).subtracting(["kind", "etag"]) == ["id", "status", "recurringEventId", "originalStartTime"])
            #expect(skipped["recurringEventId"] as? String == "evt-standup")
            #expect((skipped["originalStartTime"] as? [String: Any])?["dateTime"] as? String == "2026-11-22T09:00:00+01:00")

            // The next token starts after these changes.
            let second = try #require(changes.json["nextSyncToken"] as? String)
            let quiet = try await google.get(Self.events + query([("singleEvents", "true"), ("syncToken", second)]), token: token)
            #expect(quiet.items.isEmpty)

            // Without a sync token, cancelled items need showDeleted.
            let live = try await google.get(Self.events + query([("singleEvents", "true")]), token: token)
            #expect(!live.ids.contains("evt-early") && !live.ids.contains("evt-standup_20261122T080000Z"))
            let all = try await google.get(Self.events + query([("singleEvents", "true"), ("showDeleted", "true")]), token: token)
            #expect(all.ids.contains("evt-early") && all.ids.contains("evt-standup_20261122T080000Z"))
            // Without singleEvents, a cancelled occurrence of a live series is listed next to the series.
            let series = try await google.get(Self.events, token: token)
            #expect(series.ids.contains("evt-standup") && series.ids.contains("evt-standup_20261122T080000Z"))
            #expect(!series.ids.contains("evt-early"))

            // updatedMin: what changed since, deletions included.
            let since = try await google.get(Self.events + query([("updatedMin", "2026-11-20T08:00:30Z")]), token: token)
            #expect(Set(since.ids) == ["evt-board", "evt-early", "evt-standup_20261122T080000Z", added])
        }
    }

    @Test func syncTokenRestrictionsAndExpiry() async throws {
        try await Self.with(calendar: { var settings = GoogleStandIn.CalendarSettings(); settings.syncTokenLifetimeSeconds = 3600
                                        settings.updatedMinHorizonSeconds = 86_400; return settings }()) { google, token in
            let sync = try #require(try await google.get(Self.events, token: token).json["nextSyncToken"] as? String)
            for (name, value) in [("timeMin", "2026-11-20T00:00:00Z"), ("timeMax", "2026-11-21T00:00:00Z"),
                                  ("orderBy", "updated"), ("q", "board"), ("updatedMin", "2026-11-20T00:00:00Z"),
                                  ("showDeleted", "false")] {
                let reply = try await google.get(Self.events + query([("syncToken", sync), (name, value)]), token: token)
                #expect(reply.status == 400, "syncToken with \(name)")
            }
            let unknown = try await google.get(Self.events + query([("syncToken", "CPnever-issued")]), token: token)
            #expect(unknown.status == 410 && unknown.reason == "fullSyncRequired")
            #expect(unknown.apiError["message"] as? String == "Sync token is no longer valid, a full sync is required.")

            // Past the configured lifetime on the stand-in's clock.
            google.standIn.advanceClock(bySeconds: 3601)
            let aged = try await google.get(Self.events + query([("syncToken", sync)]), token: try google.token([H.calendarReadonly]))
            #expect(aged.status == 410 && aged.reason == "fullSyncRequired")

            let old = try await google.get(Self.events + query([("updatedMin", "2026-11-18T00:00:00Z")]),
                                           token: try google.token([H.calendarReadonly]))
            #expect(old.status == 410 && old.reason == "updatedMinTooLongAgo")
        }
        try await Self.with { google, token in
            let sync = try #require(try await google.get(Self.events, token: token).json["nextSyncToken"] as? String)
            google.standIn.expireSyncTokens()
            #expect(try await google.get(Self.events + query([("syncToken", sync)]), token: token).status == 410)

            let fresh = try #require(try await google.get(Self.events, token: token).json["nextSyncToken"] as? String)
            #expect(try await google.send(.POST, "/_fake/state/sync-tokens/expire").status == 204)
            #expect(try await google.get(Self.events + query([("syncToken", fresh)]), token: token).status == 410)
        }
    }

    // MARK: Control plane and faults

    @Test func controlPlaneAddsMovesAndCancelsEvents() async throws {
        try await Self.with([]) { google, _ in
            let minted = try await google.postJSON("/_fake/tokens", #"{"user": "\#(H.email)", "scopes": ["\#(H.calendarReadonly)"]}"#)
            #expect(minted.status == 200 && minted.json["expires_in"] as? Int == 3599)
            let token = try #require(minted.json["access_token"] as? String)
            #expect(!google.standIn.recordedRequests().contains { $0.path.hasPrefix("/_fake") })

            let created = try await google.postJSON("/_fake/state/events", #"""
                {"user": "\#(H.email)", "event": {"summary": "Dentist", "startInMinutes": 45, "durationMinutes": 30}}
                """#)
            #expect(created.status == 201)
            let id = try #require(created.json["id"] as? String)
            #expect(id.count == 26)
            #expect(try await google.get(Self.events, token: token).ids == [id])

            #expect(try await google.postJSON("/_fake/state/events/cancel", #"{"user": "\#(H.subject)", "id": "\#(id)"}"#).status == 200)
            #expect(try await google.get(Self.events, token: token).ids.isEmpty)
            #expect(try await google.postJSON("/_fake/state/events/cancel", #"{"user": "\#(H.email)", "id": "nope"}"#).status == 400)
            #expect(try await google.postJSON("/_fake/state/events", #"{"user": "nobody@example.com", "event": {"startInMinutes": 1}}"#).status == 404)
            let invalid = try await google.postJSON("/_fake/state/events", #"{"user": "\#(H.email)", "event": {"start": "tomorrow"}}"#)
            #expect(invalid.status == 400 && invalid.error?.contains("RFC 3339") == true)
        }
    }

    @Test(arguments: [
        ("auth_error", 401, "authError", nil),
        ("rate_limit_exceeded", 403, "rateLimitExceeded", nil),
        ("too_many_requests", 429, "rateLimitExceeded", "7"),
        ("backend_error", 500, "backendError", nil),
        ("service_unavailable", 503, "backendError", "7"),
        ("full_sync_required", 410, "fullSyncRequired", nil),
    ] as [(String, Int, String, String?)])
    func faultsAnswerCalendarRequests(fault: String, status: Int, reason: String, retryAfter: String?) async throws {
        try await Self.with { google, token in
            let added = try await google.postJSON("/_fake/faults", """
                {"match": {"pathRegex": "/calendar/v3/.*"}, "fault": "\(fault)", "retryAfterSeconds": 7, "times": 1}
                """)
            #expect(added.status == 201)
            let faulted = try await google.get(Self.events, token: token)
            #expect(faulted.status == status && faulted.reason == reason)
            #expect(faulted.apiError["code"] as? Int == status)
            #expect(faulted.headers["retry-after"] == retryAfter)
            #expect(google.standIn.recordedRequests().last?.fault == fault)
            #expect(try await google.get(Self.events, token: token).status == 200)
        }
    }

    /// The delay sleeps on a manual clock: the request is held, unanswered, until the test moves it.
    @Test func latencyFaultDelaysCalendar() async throws {
        let latency = ManualClock()
        try await Self.with(latencyClock: latency) { google, token in
            try google.standIn.injectFault(FaultRule(match: .init(path: Self.events), response: nil, delayMilliseconds: 300))
            let listing = Task { try await google.get(Self.events, token: token) }
            await latency.waitForSleepers(1)
            #expect(latency.sleeps == [.milliseconds(300)])
            #expect(google.standIn.recordedRequests().isEmpty, "held, not answered")
            latency.advance(by: .milliseconds(300))
            #expect(try await listing.value.status == 200)
            #expect(google.standIn.recordedRequests().map(\.fault) == ["latency"])
        }
    }
}
