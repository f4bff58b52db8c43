import AlfredTestKit
import Foundation
import StandIns
import Testing

/// Gmail v1 over a real socket, against external-apis §3.7. The clock is pinned at 2026-11-20 08:00 UTC.
@Suite(.timeLimit(.minutes(5))) struct GmailRoutesTests {
    typealias Seed = GoogleStandIn.SeedMessage
    static let base = "/gmail/v1/users/me"

    static let seeds: [Seed] = [
        Seed(id: "m-001", threadId: "t-001", from: "Grace Hopper <grace@navy.example>", subject: "Production is down",
             labelIds: ["INBOX", "UNREAD", "IMPORTANT"], snippet: "Can you look now?", arrivedMinutesAgo: 5),
        Seed(id: "m-002", from: "News <news@shop.example>", subject: "Weekly deals",
             labelIds: ["INBOX", "UNREAD", "CATEGORY_PROMOTIONS"],
             headers: ["List-Unsubscribe": "<mailto:unsubscribe@shop.example>", "Precedence": "bulk"],
             snippet: "This week only", arrivedMinutesAgo: 60),
        Seed(id: "m-003", threadId: "t-001", from: "Grace Hopper <grace@navy.example>", cc: "lin@example.com",
             subject: "Re: Production is down", labelIds: ["INBOX", "Label_42"],
             headers: ["In-Reply-To": "<m-001@mail.example.com>"], snippet: "Earlier", body: "The full text.",
             arrivedMinutesAgo: 120),
        Seed(id: "m-spam", from: "Prince <p@spam.example>", subject: "Win", labelIds: ["SPAM", "UNREAD"], arrivedMinutesAgo: 10),
        Seed(id: "m-later", from: "Charles Babbage <charles@example.com>", subject: "Engine",
             labelIds: ["INBOX", "UNREAD", "IMPORTANT"], snippet: "Arrives in a minute", arrivesInSeconds: 60),
    ]

    static func with(_ seeds: [Seed] = seeds, gmail: GoogleStandIn.GmailSettings = .init(), scopes: [String] = [H.gmailMetadata],
                     latencyClock: any Clock<Duration> = ContinuousClock(),
                     _ body: @Sendable (GoogleHarness, String) async throws -> Void) async throws {
        try await H.withData(H.dataConfiguration(messages: seeds, gmail: gmail), latencyClock: latencyClock) { google in
            try await body(google, try google.token(scopes))
        }
    }

    static func messageIDs(_ reply: GoogleHarness.Reply) -> [String] {
        (reply.json["messages"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
    }

    // MARK: messages.list

    @Test func listFiltersByEveryLabelNewestFirst() async throws {
        try await Self.with { google, token in
            let unread = try await google.get(Self.base + "/messages" + query([("labelIds", "INBOX"), ("labelIds", "UNREAD")]), token: token)
            #expect(unread.status == 200)
            #expect(Self.messageIDs(unread) == ["m-001", "m-002"])
            #expect((unread.json["messages"] as? [[String: Any]])?.first?["threadId"] as? String == "t-001")
            #expect(unread.json["resultSizeEstimate"] as? Int == 2)

            #expect(Self.messageIDs(try await google.get(Self.base + "/messages?labelIds=IMPORTANT", token: token)) == ["m-001"])
            #expect(Self.messageIDs(try await google.get(Self.base + "/messages", token: token)) == ["m-001", "m-002", "m-003"])
            let withSpam = try await google.get(Self.base + "/messages?includeSpamTrash=true", token: token)
            #expect(Self.messageIDs(withSpam) == ["m-001", "m-spam", "m-002", "m-003"])
            #expect(Self.messageIDs(try await google.get(Self.base + "/messages?labelIds=SPAM", token: token)) == ["m-spam"])

            let none = try await google.get(Self.base + "/messages?labelIds=STARRED", token: token)
            #expect(none.status == 200 && none.json["messages"] == nil && none.json["resultSizeEstimate"] as? Int == 0)
        }
    }

    @Test func listPagesWithMaxResults() async throws {
        try await Self.with { google, token in
            let first = try await google.get(Self.base + "/messages?maxResults=2", token: token)
            #expect(Self.messageIDs(first) == ["m-001", "m-002"])
            let next = try #require(first.json["nextPageToken"] as? String)
            let second = try await google.get(Self.base + "/messages" + query([("maxResults", "2"), ("pageToken", next)]), token: token)
            #expect(Self.messageIDs(second) == ["m-003"])
            #expect(second.json["nextPageToken"] == nil)
            #expect(try await google.get(Self.base + "/messages?maxResults=9999", token: token).status == 200)
            #expect(try await google.get(Self.base + "/messages?maxResults=0", token: token).status == 400)
            #expect(try await google.get(Self.base + "/messages?pageToken=garbage", token: token).status == 400)
        }
    }

    @Test func metadataScopeRefusesSearchAndBodies() async throws {
        try await Self.with { google, token in
            for q in ["?q=from:grace", "?q="] {
                let reply = try await google.get(Self.base + "/messages" + q, token: token)
                #expect(reply.status == 403 && reply.reason == "forbidden", "\(q)")
                #expect(reply.apiError["message"] as? String == "Metadata scope does not support 'q' parameter")
            }
            let both = try google.token([H.gmailMetadata, H.gmailReadonly])
            #expect(try await google.get(Self.base + "/messages?q=grace", token: both).status == 403)

            let full = try await google.get(Self.base + "/messages/m-001?format=full", token: token)
            #expect(full.status == 403 && full.apiError["message"] as? String == "Metadata scope doesn't allow format FULL")
            let raw = try await google.get(Self.base + "/messages/m-001?format=raw", token: token)
            #expect(raw.status == 403 && raw.apiError["message"] as? String == "Metadata scope doesn't allow format RAW")
            #expect(try await google.get(Self.base + "/messages/m-001", token: token).status == 403)  // default format is full

            let readonly = try google.token([H.gmailReadonly])
            let search = try await google.get(Self.base + "/messages" + query([("q", "from:grace is:unread")]), token: readonly)
            #expect(Self.messageIDs(search) == ["m-001"])
        }
    }

    @Test func undeclaredParametersAndOtherUsersAreRefused() async throws {
        try await Self.with { google, token in
            let typo = try await google.get(Self.base + "/messages?maxResult=5", token: token)
            #expect(typo.status == 400 && typo.apiError["status"] as? String == "INVALID_ARGUMENT")
            #expect((typo.apiError["message"] as? String)?.contains("Unknown name \"maxResult\"") == true)
            #expect(try await google.get(Self.base + "/messages?alt=json&prettyPrint=false&fields=messages", token: token).status == 200)

            #expect(try await google.get("/gmail/v1/users/ada%40example.com/messages", token: token).status == 200)
            let other = try await google.get("/gmail/v1/users/grace%40example.com/messages", token: token)
            #expect(other.status == 403 && other.reason == "forbidden")
            let calendarOnly = try await google.get(Self.base + "/messages", token: try google.token([H.calendarReadonly]))
            #expect(calendarOnly.status == 403 && calendarOnly.reason == "insufficientPermissions")
            #expect(try await google.get(Self.base + "/messages", token: nil).reason == "authError")
        }
    }

    // MARK: messages.get

    @Test func getAnswersEachFormat() async throws {
        try await Self.with(scopes: [H.gmailReadonly]) { google, token in
            let minimal = try await google.get(Self.base + "/messages/m-003?format=minimal", token: token).json
            #expect(minimal["payload"] == nil)
            #expect(minimal["labelIds"] as? [String] == ["INBOX", "Label_42"])
            #expect(minimal["internalDate"] as? String == "\(Int64(H.pinned.timeIntervalSince1970 * 1000) - 120 * 60_000)")
            #expect((minimal["historyId"] as? String).flatMap(UInt64.init) != nil)
            #expect(minimal["sizeEstimate"] as? Int ?? 0 > 0)

            let metadata = try await google.get(Self.base + "/messages/m-002" + query([
                ("format", "metadata"), ("metadataHeaders", "from"), ("metadataHeaders", "SUBJECT"),
                ("metadataHeaders", "list-unsubscribe"), ("metadataHeaders", "Date")]), token: token).json
            let headers = try #require((metadata["payload"] as? [String: Any])?["headers"] as? [[String: String]])
            #expect(headers.map { $0["name"] } == ["Date", "From", "Subject", "List-Unsubscribe"])
            #expect(headers.first { $0["name"] == "Date" }?["value"] == "Fri, 20 Nov 2026 08:00:00 +0100")
            #expect(headers.first { $0["name"] == "List-Unsubscribe" }?["value"] == "<mailto:unsubscribe@shop.example>")
            #expect(metadata["snippet"] as? String == "This week only")

            let everything = try await google.get(Self.base + "/messages/m-003?format=metadata", token: token).json
            let names = ((everything["payload"] as? [String: Any])?["headers"] as? [[String: String]])?.compactMap { $0["name"] }
            #expect(names == ["Date", "Message-ID", "From", "To", "Cc", "Subject", "In-Reply-To"])

            let full = try await google.get(Self.base + "/messages/m-003?format=full", token: token).json
            let body = try #require((full["payload"] as? [String: Any])?["body"] as? [String: Any])
            #expect(body["data"] as? String == "VGhlIGZ1bGwgdGV4dC4")  // base64url("The full text."), unpadded
            let raw = try await google.get(Self.base + "/messages/m-003?format=raw", token: token).json
            #expect((raw["raw"] as? String)?.isEmpty == false && raw["payload"] == nil)

            let missing = try await google.get(Self.base + "/messages/nope", token: token)
            #expect(missing.status == 404 && missing.reason == "notFound" && missing.apiError["status"] as? String == "NOT_FOUND")
            #expect(try await google.get(Self.base + "/messages/m-001?format=html", token: token).status == 400)
        }
    }

    // MARK: Arrivals and history

    @Test func laterArrivalsAppearWhenTheClockPassesThem() async throws {
        try await Self.with { google, token in
            let start = try #require(try await google.get(Self.base + "/profile", token: token).json["historyId"] as? String)
            #expect(try await google.get(Self.base + "/messages/m-later?format=minimal", token: token).status == 404)
            let quiet = try await google.get(Self.base + "/history?startHistoryId=\(start)", token: token)
            #expect(quiet.status == 200 && quiet.json["history"] == nil && quiet.json["historyId"] as? String == start)

            google.standIn.advanceClock(bySeconds: 59)
            #expect(!Self.messageIDs(try await google.get(Self.base + "/messages", token: token)).contains("m-later"))
            google.standIn.advanceClock(bySeconds: 1)
            #expect(Self.messageIDs(try await google.get(Self.base + "/messages", token: token)).first == "m-later")
            let message = try await google.get(Self.base + "/messages/m-later?format=minimal", token: token).json
            let history = try await google.get(Self.base + "/history?startHistoryId=\(start)", token: token)
            let records = try #require(history.json["history"] as? [[String: Any]])
            #expect(records.count == 1)
            let added = try #require((records[0]["messagesAdded"] as? [[String: Any]])?.first?["message"] as? [String: Any])
            #expect(added["id"] as? String == "m-later" && added["labelIds"] as? [String] == ["INBOX", "UNREAD", "IMPORTANT"])
            #expect(records[0]["id"] as? String == message["historyId"] as? String)
            #expect(history.json["historyId"] as? String == message["historyId"] as? String)
            #expect(message["internalDate"] as? String == "\(Int64(H.pinned.timeIntervalSince1970 * 1000) + 60_000)")
        }
    }

    @Test func historyIdsGrowUnevenlyAndFilter() async throws {
        try await Self.with([]) { google, token in
            let start = try google.standIn.currentHistoryId(forUser: H.email)
            let first = try google.standIn.deliverMessage(Seed(subject: "one", labelIds: ["INBOX", "UNREAD"]), toUser: H.email)
            try google.standIn.deliverMessage(Seed(subject: "two", labelIds: ["CATEGORY_SOCIAL"]), toUser: H.email)
            try google.standIn.deliverMessage(Seed(id: first, subject: "one", labelIds: ["INBOX"]), toUser: H.email)  // read
            try google.standIn.deleteMessage(id: first, forUser: H.email)
            try google.standIn.deliverMessage(Seed(subject: "three", labelIds: ["INBOX"]), toUser: H.subject)

            let all = try await google.get(Self.base + "/history?startHistoryId=\(start)", token: token)
            let records = try #require(all.json["history"] as? [[String: Any]])
            let ids = records.compactMap { ($0["id"] as? String).flatMap(UInt64.init) }
            #expect(ids.count == 5 && ids == ids.sorted() && Set(ids).count == 5)
            #expect(zip(ids, ids.dropFirst()).contains { $1 - $0 > 1 }, "history ids must not be contiguous")
            #expect(records.map { Set($0.keys).subtracting(["id", "messages"]) } ==
                    [["messagesAdded"], ["messagesAdded"], ["labelsRemoved"], ["messagesDeleted"], ["messagesAdded"]])
            #expect((records[2]["labelsRemoved"] as? [[String: Any]])?.first?["labelIds"] as? [String] == ["UNREAD"])
            #expect(all.json["historyId"] as? String == String(ids.last ?? 0))

            let added = try await google.get(Self.base + "/history" + query([
                ("startHistoryId", start), ("historyTypes", "messageAdded"), ("labelId", "INBOX")]), token: token)
            #expect((added.json["history"] as? [[String: Any]])?.count == 2)

            let page = try await google.get(Self.base + "/history" + query([("startHistoryId", start), ("maxResults", "2")]), token: token)
            #expect((page.json["history"] as? [[String: Any]])?.count == 2)
            let next = try #require(page.json["nextPageToken"] as? String)
            let rest = try await google.get(Self.base + "/history" + query([
                ("startHistoryId", start), ("maxResults", "2"), ("pageToken", next)]), token: token)
            #expect((rest.json["history"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == ids.dropFirst(2).prefix(2).map(String.init))

            #expect(try await google.get(Self.base + "/messages/\(first)?format=minimal", token: token).status == 404)
            #expect(try await google.get(Self.base + "/history", token: token).status == 400)
            #expect(try await google.get(Self.base + "/history?startHistoryId=abc", token: token).status == 400)
            #expect(try await google.get(Self.base + "/history?startHistoryId=\(start)&historyTypes=everything", token: token).status == 400)
        }
    }

    /// A delayed message that fell due before a later change gets its history id first: history stays
    /// in time order, so retention drops exactly the old records and no newer start id 404s early.
    @Test func aDueDelayedMessageTakesItsHistoryIdBeforeALaterDelivery() async throws {
        var gmail = GoogleStandIn.GmailSettings()
        gmail.historyRetentionSeconds = 60
        try await Self.with([], gmail: gmail) { google, token in
            let start = try google.standIn.currentHistoryId(forUser: H.email)
            let delayed = try google.standIn.deliverMessage(Seed(subject: "on its way", arrivesInSeconds: 1), toUser: H.email)
            google.standIn.advanceClock(bySeconds: 2)
            // No read in between: the delivery itself must deliver what is due first.
            let immediate = try google.standIn.deliverMessage(Seed(subject: "right now"), toUser: H.email)

            let history = try await google.get(Self.base + "/history?startHistoryId=\(start)", token: token)
            let records = try #require(history.json["history"] as? [[String: Any]])
            let added = records.compactMap { ((($0["messagesAdded"] as? [[String: Any]])?.first)?["message"] as? [String: Any])?["id"] as? String }
            #expect(added == [delayed, immediate])
            let ids = records.compactMap { ($0["id"] as? String).flatMap(UInt64.init) }
            #expect(ids.count == 2 && ids == ids.sorted())
            let delayedID = try await google.get(Self.base + "/messages/\(delayed)?format=minimal", token: token).json["historyId"] as? String
            let immediateID = try await google.get(Self.base + "/messages/\(immediate)?format=minimal", token: token).json["historyId"] as? String
            #expect(delayedID.flatMap(UInt64.init) == ids.first && immediateID.flatMap(UInt64.init) == ids.last)

            // 60.5 s after the delayed arrival, 59.5 s after the immediate one: only the first record goes.
            google.standIn.advanceClock(bySeconds: 59.5)
            #expect(try await google.get(Self.base + "/history?startHistoryId=\(start)", token: token).status == 404)
            let recent = try await google.get(Self.base + "/history?startHistoryId=\(try #require(delayedID))", token: token)
            #expect(recent.status == 200)
            #expect((recent.json["history"] as? [[String: Any]])?.compactMap { $0["id"] as? String } == [try #require(immediateID)])
        }
    }

    @Test func tooOldStartHistoryIdIs404() async throws {
        var gmail = GoogleStandIn.GmailSettings()
        gmail.historyRetentionSeconds = 3600
        try await Self.with([], gmail: gmail) { google, _ in
            let start = try google.standIn.currentHistoryId(forUser: H.email)
            try google.standIn.deliverMessage(Seed(subject: "old news"), toUser: H.email)
            google.standIn.advanceClock(bySeconds: 1800)
            let token = try google.token([H.gmailMetadata])
            #expect(try await google.get(Self.base + "/history?startHistoryId=\(start)", token: token).status == 200)
            google.standIn.advanceClock(bySeconds: 1801)
            let gone = try await google.get(Self.base + "/history?startHistoryId=\(start)", token: token)
            #expect(gone.status == 404 && gone.reason == "notFound")
            // A fresh id works again.
            let fresh = try #require(try await google.get(Self.base + "/profile", token: token).json["historyId"] as? String)
            #expect(try await google.get(Self.base + "/history?startHistoryId=\(fresh)", token: token).status == 200)

            google.standIn.expireHistory()
            #expect(try await google.get(Self.base + "/history?startHistoryId=\(fresh)", token: token).status == 404)
            let renewed = try google.standIn.currentHistoryId(forUser: H.email)
            #expect(try await google.send(.POST, "/_fake/state/history/expire").status == 204)
            #expect(try await google.get(Self.base + "/history?startHistoryId=\(renewed)", token: token).status == 404)
        }
    }

    // MARK: watch, stop, profile, labels

    @Test func watchAnswersHistoryIdAndExpirationAndValidatesTheRequest() async throws {
        try await Self.with { google, token in
            for behavior in ["include", "INCLUDE", "exclude"] {
                let reply = try await google.post(Self.base + "/watch", json: """
                    {"topicName": "projects/alfred-dev/topics/gmail-events", "labelIds": ["INBOX"], "labelFilterBehavior": "\(behavior)"}
                    """, token: token)
                #expect(reply.status == 200, "\(behavior): \(reply.body)")
                #expect(reply.json["expiration"] as? String == "\(Int64(H.pinned.timeIntervalSince1970 * 1000) + 7 * 86_400_000)")
                #expect(reply.json["historyId"] as? String == (try google.standIn.currentHistoryId(forUser: H.email)))
            }
            #expect(try await google.post(Self.base + "/watch", json: #"{"topicName": "projects/p/topics/t", "labelFilterAction": "include"}"#,
                                          token: token).status == 200)
            for bad in [#"{"topicName": "gmail-events"}"#, #"{"topicName": "projects/p/subscriptions/s"}"#, #"{}"#, "not json",
                        #"{"topicName": "projects/p/topics/t", "labelFilterBehavior": "sometimes"}"#] {
                let reply = try await google.post(Self.base + "/watch", json: bad, token: token)
                #expect(reply.status == 400, "\(bad)")
            }
            let stopped = try await google.send(.POST, Self.base + "/stop", headers: ["Authorization": "Bearer \(token)"])
            #expect(stopped.status == 204 && stopped.body.isEmpty)
        }
    }

    @Test func profileAndLabels() async throws {
        try await Self.with { google, token in
            let profile = try await google.get(Self.base + "/profile", token: token).json
            #expect(profile["emailAddress"] as? String == H.email)
            #expect(profile["messagesTotal"] as? Int == 4 && profile["threadsTotal"] as? Int == 3)
            #expect(profile["historyId"] is String)

            let labels = try #require(try await google.get(Self.base + "/labels", token: token).json["labels"] as? [[String: Any]])
            let ids = labels.compactMap { $0["id"] as? String }
            for system in ["INBOX", "UNREAD", "IMPORTANT", "STARRED", "SPAM", "TRASH", "SENT", "DRAFT", "CATEGORY_PROMOTIONS"] {
                #expect(ids.contains(system))
            }
            #expect(labels.first { $0["id"] as? String == "Label_42" }?["type"] as? String == "user")
            #expect(try await google.get(Self.base + "/labels/INBOX", token: token).json["type"] as? String == "system")
            #expect(try await google.get(Self.base + "/labels/Label_404", token: token).status == 404)
        }
    }

    // MARK: Control plane and faults

    @Test func controlPlaneDeliversAndDeletesMessages() async throws {
        try await Self.with([]) { google, token in
            let delivered = try await google.postJSON("/_fake/state/messages", #"""
                {"user": "\#(H.email)", "message": {"from": "Lin <lin@example.com>", "subject": "Lunch?", "labelIds": ["INBOX", "UNREAD"]}}
                """#)
            #expect(delivered.status == 201)
            let id = try #require(delivered.json["id"] as? String)
            #expect(id.allSatisfy(\.isHexDigit) && id.count >= 12)
            #expect(Self.messageIDs(try await google.get(Self.base + "/messages", token: token)) == [id])
            #expect(try await google.postJSON("/_fake/state/messages/delete", #"{"user": "\#(H.email)", "id": "\#(id)"}"#).status == 200)
            #expect(try await google.get(Self.base + "/messages/\(id)?format=minimal", token: token).status == 404)
            #expect(try await google.postJSON("/_fake/state/messages", #"{"user": "x@example.com", "message": {}}"#).status == 404)
        }
    }

    @Test(arguments: [
        ("user_rate_limit_exceeded", 403, "userRateLimitExceeded", nil),
        ("too_many_requests", 429, "rateLimitExceeded", "2"),
        ("backend_error", 500, "backendError", nil),
        ("service_unavailable", 503, "backendError", "2"),
        ("auth_error", 401, "authError", nil),
        ("not_found", 404, "notFound", nil),
    ] as [(String, Int, String, String?)])
    func faultsAnswerGmailRequests(fault: String, status: Int, reason: String, retryAfter: String?) async throws {
        try await Self.with { google, token in
            let added = try await google.postJSON("/_fake/faults", """
                {"match": {"method": "GET", "pathRegex": "/gmail/v1/users/[^/]+/history"}, "fault": "\(fault)", "retryAfterSeconds": 2, "times": 1}
                """)
            #expect(added.status == 201)
            let path = Self.base + "/history?startHistoryId=\(try google.standIn.currentHistoryId(forUser: H.email))"
            let faulted = try await google.get(path, token: token)
            #expect(faulted.status == status && faulted.reason == reason && faulted.headers["retry-after"] == retryAfter)
            #expect(faulted.apiError["status"] as? String != nil)
            #expect(try await google.get(Self.base + "/messages", token: token).status == 200)  // other routes untouched
            #expect(try await google.get(path, token: token).status == 200)
        }
    }

    /// The delay sleeps on a manual clock: the request is held, unanswered, until the test moves it.
    @Test func latencyFaultDelaysGmail() async throws {
        let latency = ManualClock()
        try await Self.with(latencyClock: latency) { google, token in
            let added = try await google.postJSON("/_fake/faults", #"{"match": {"pathRegex": "/gmail/.*"}, "delayMs": 300, "times": 1}"#)
            #expect(added.status == 201)
            let profile = Task { try await google.get(Self.base + "/profile", token: token) }
            await latency.waitForSleepers(1)
            #expect(latency.sleeps == [.milliseconds(300)])
            #expect(google.standIn.recordedRequests().isEmpty, "held, not answered")
            latency.advance(by: .milliseconds(300))
            #expect(try await profile.value.status == 200)
            #expect(google.standIn.recordedRequests().map(\.fault) == ["latency"])
        }
    }

    @Test func scenarioFileSeedsCalendarAndMail() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("google-data-\(UUID()).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("""
            { "users": [{ "subject": "1000", "email": "lin@example.com", "timeZone": "Asia/Tokyo",
                          "events": [{ "id": "evt-1", "summary": "Sync", "startInMinutes": 20, "durationMinutes": 30,
                                       "attendees": [{"email": "x@example.com"}], "selfResponse": "tentative" }],
                          "messages": [{ "id": "m-1", "subject": "Hi", "arrivedMinutesAgo": 5,
                                         "headers": {"Precedence": "bulk"} }] }],
              "calendar": { "syncTokenLifetimeSeconds": 60 }, "gmail": { "historyRetentionSeconds": 120 } }
            """.utf8).write(to: URL(fileURLWithPath: path))
        let configuration = try GoogleStandIn.Configuration(scenarioFile: path)
        #expect(configuration.users[0].timeZone == "Asia/Tokyo")
        #expect(configuration.users[0].events.first?.selfResponse == "tentative")
        #expect(configuration.users[0].messages.first?.headers == ["Precedence": "bulk"])
        #expect(configuration.calendar.syncTokenLifetimeSeconds == 60)
        #expect(configuration.calendar.updatedMinHorizonSeconds == 28 * 24 * 3600)
        #expect(configuration.gmail.historyRetentionSeconds == 120)

        try Data(#"{"users": [{"subject": "1", "email": "a@b.c", "events": [{"start": "9am"}]}]}"#.utf8)
            .write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: StandInError.self) { try GoogleStandIn.Configuration(scenarioFile: path) }
        #expect(error?.message.contains("RFC 3339") == true)
    }
}
