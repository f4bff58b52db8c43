import AlfredCore
import Foundation
@testable import GoogleAPI
import StandIns
import Testing

/// `GmailClient` against the Google stand-in's Gmail v1 routes over a loopback socket, with a
/// `gmail.metadata` token as production has.
@Suite(.timeLimit(.minutes(5))) struct GmailClientTests {
    typealias H = GoogleAPIHarness
    typealias Seed = GoogleStandIn.SeedMessage

    static func user(_ messages: [Seed]) -> GoogleStandIn.User {
        GoogleStandIn.User(subject: H.subject, email: H.email, timeZone: "Europe/Zurich", messages: messages)
    }

    static func inbox(_ count: Int, prefix: String = "m") -> [Seed] {
        (1...count).map { Seed(id: "\(prefix)\($0)", from: "sender\($0)@example.net", subject: "Hello \($0)",
                               arrivedMinutesAgo: Double(100 - $0)) }
    }

    @Test func historyListsWhatArrivedSinceTheStoredID() async throws {
        try await H.with(Self.user(Self.inbox(2))) { google in
            let gmail = google.gmail { $0.gmailPageSize = 2 }
            let start = try await gmail.profile().historyID
            #expect(start == (try google.standIn.currentHistoryId(forUser: H.email)))

            #expect(try await gmail.history(startHistoryID: start).addedMessageIDs.isEmpty)

            for id in ["n1", "n2", "n3"] {
                try google.standIn.deliverMessage(Seed(id: id, from: "boss@example.net", subject: "Urgent \(id)"), toUser: H.email)
            }
            try google.standIn.deliverMessage(Seed(id: "sent1", subject: "My reply", labelIds: ["SENT"]), toUser: H.email)
            // A label change on an old message is history too, but not a messageAdded.
            try google.standIn.deliverMessage(Seed(id: "m1", labelIds: ["INBOX", "STARRED"]), toUser: H.email)
            try google.standIn.deliverMessage(Seed(id: "later", subject: "Tomorrow", arrivesInSeconds: 120), toUser: H.email)

            let delta = try await gmail.history(startHistoryID: start)
            #expect(delta.addedMessageIDs == ["n1", "n2", "n3"])
            #expect(delta.pageCount == 2)
            #expect(delta.historyID == (try google.standIn.currentHistoryId(forUser: H.email)))

            google.standIn.advanceClock(bySeconds: 120)
            let next = try await gmail.history(startHistoryID: delta.historyID)
            #expect(next.addedMessageIDs == ["later"])
            #expect(UInt64(next.historyID) ?? 0 > UInt64(delta.historyID) ?? .max)

            let requests = google.requests(under: "/gmail/v1/users/me/history")
            #expect(requests.count == 4)
            for request in requests {
                #expect(request.queryValue("startHistoryId") != nil)
                #expect(request.queryValue("historyTypes") == "messageAdded")
                #expect(request.queryValue("labelId") == "INBOX")
                #expect(request.queryValue("maxResults") == "2")
                #expect(request.queryValue("q") == nil && request.status == 200)
            }
            #expect(requests.filter { $0.queryValue("pageToken") != nil }.count == 1)
        }
    }

    @Test func expiredHistoryFallsBackToProfileAndRecentInbox() async throws {
        let spam = Seed(id: "junk", subject: "Winner", labelIds: ["SPAM"], arrivedMinutesAgo: 1)
        try await H.with(Self.user(Self.inbox(5) + [spam])) { google in
            let gmail = google.gmail { $0.gmailPageSize = 2 }
            let stale = try await gmail.profile().historyID
            google.standIn.expireHistory()

            let error = try await #require(throws: GoogleAPIError.self) { try await gmail.history(startHistoryID: stale) }
            #expect(error.code == .historyExpired && error.status == 404 && error.attempts == 1)
            #expect(google.clock.sleeps.isEmpty)

            let fresh = try await gmail.profile()
            #expect(fresh.messagesTotal == 6)
            #expect(fresh.emailAddress?.unsafeValue == H.email && !"\(fresh)".contains(H.email))
            let recent = try await gmail.recentInboxMessageIDs(maxResults: 3)
            #expect(recent == ["m5", "m4", "m3"])  // newest first, spam excluded by label
            #expect(try await gmail.recentInboxMessageIDs(maxResults: 50).count == 5)
            #expect(try await gmail.history(startHistoryID: fresh.historyID).addedMessageIDs.isEmpty)

            let lists = google.requests(under: "/gmail/v1/users/me/messages")
            #expect(lists.map { $0.queryValue("maxResults") } == ["2", "1", "2", "2", "2"])
            #expect(lists.allSatisfy { $0.queryValue("labelIds") == "INBOX" && $0.queryValue("q") == nil })
        }
    }

    @Test func messageMetadataCarriesTheRequestedHeadersOnly() async throws {
        let seed = Seed(id: "abc123", threadId: "t9", from: "Grace <grace@example.net>", to: H.email, cc: "team@example.net",
                        subject: "Production is down", labelIds: ["INBOX", "UNREAD", "IMPORTANT"],
                        headers: ["List-Unsubscribe": "<mailto:unsub@example.net>", "List-Id": "<ops.example.net>",
                                  "Precedence": "bulk", "Auto-Submitted": "auto-generated", "In-Reply-To": "<a@b>",
                                  "References": "<a@b>", "X-Private-Note": "not for us"],
                        snippet: "The database is on fire", arrivedMinutesAgo: 5)
        let before = Date()  // the stand-in seeds its mailbox after this
        try await H.with(Self.user([seed])) { google in
            let message = try #require(try await google.gmail().message(id: "abc123"))
            #expect(message.id == "abc123" && message.threadId == "t9")
            #expect(message.labels == ["INBOX", "UNREAD", "IMPORTANT"])
            #expect(message.header("from") == "Grace <grace@example.net>")
            #expect(message.header("To") == H.email && message.header("CC") == "team@example.net")
            #expect(message.header("Subject") == "Production is down")
            #expect(message.header("List-Unsubscribe") == "<mailto:unsub@example.net>")
            #expect(message.header("list-id") == "<ops.example.net>")
            #expect(message.header("Precedence") == "bulk" && message.header("Auto-Submitted") == "auto-generated")
            #expect(message.header("In-Reply-To") == "<a@b>" && message.header("References") == "<a@b>")
            #expect(message.header("Date") != nil && message.header("Message-ID") != nil)
            #expect(message.header("X-Private-Note") == nil)
            #expect(message.snippet == "The database is on fire")  // for the urgency rules, in memory; the body stays at Google
            #expect(message.historyId.flatMap(UInt64.init) != nil)
            let received = try #require(message.receivedAt)
            // Five minutes before the stand-in seeded it (Gmail's internalDate is in whole milliseconds).
            let seeded = before.addingTimeInterval(-300.001)...google.standIn.clock.now().addingTimeInterval(-300)
            #expect(seeded.contains(received), "\(received) not in \(seeded)")

            let request = try #require(google.requests(under: "/gmail/v1").last)
            #expect(request.path == "/gmail/v1/users/me/messages/abc123")
            #expect(request.queryValue("format") == "metadata")
            #expect(request.query.filter { $0.name == "metadataHeaders" }.map(\.value) == GmailClient.metadataHeaders)
            #expect(request.queryValue("fields") == PartialResponse.gmailMessage)
        }
    }

    @Test func aMessageGoneMeanwhileIsNil() async throws {
        try await H.with(Self.user(Self.inbox(2))) { google in
            let gmail = google.gmail()
            #expect(try await gmail.message(id: "m1") != nil)
            try google.standIn.deleteMessage(id: "m1", forUser: H.email)
            #expect(try await gmail.message(id: "m1") == nil)
            #expect(try await gmail.message(id: "never-was") == nil)
            #expect(google.clock.sleeps.isEmpty)
            #expect(google.metrics.requests("gmail", "not_found") == 2)
        }
    }

    @Test func manyMessagesAreFetchedAtMostFourAtATimeInInputOrder() async throws {
        try await H.with(Self.user(Self.inbox(12))) { google in
            // Every get is held `hold` at the stand-in after it arrives, so its slot stays taken at least
            // that long: five arrivals within less than `hold` would mean five at once, and two would mean
            // some ran in parallel. Both follow from the order of events, however slow the machine.
            // One is rate limited first (rules match in the order added).
            let hold = 400
            let rateLimited = try #require(CannedResponse.googleAPIFault(named: "user_rate_limit_exceeded"))
            try google.standIn.injectFault(FaultRule(match: .init(path: "/gmail/v1/users/me/messages/m7"),
                                                     response: rateLimited, delayMilliseconds: hold, times: 1))
            try google.standIn.injectFault(FaultRule(match: .init(method: "GET", pathRegex: "/gmail/v1/users/me/messages/.+"),
                                                     response: nil, delayMilliseconds: hold, times: nil))
            try google.standIn.deleteMessage(id: "m3", forUser: H.email)
            let ids = ["m9", "m1", "m12", "m3", "m5", "m2", "m11", "m7", "m4", "m10", "m6", "m8"]

            let messages = try await google.gmail().messages(ids: ids)
            #expect(messages.map(\.id) == ids.filter { $0 != "m3" })
            #expect(google.clock.sleeps.count == 1)  // the rate-limited one was retried inside the group

            let arrivals = google.requests(under: "/gmail/v1/users/me/messages/").map(\.receivedAt).sorted()
            #expect(arrivals.count == 13)
            let mostInAnyWindow = arrivals.indices.map { index in
                arrivals[index...].prefix { $0.timeIntervalSince(arrivals[index]) < Double(hold) / 1000 }.count
            }.max() ?? 0
            #expect(mostInAnyWindow <= 4)
            #expect(mostInAnyWindow >= 2)  // and it did run in parallel
        }
    }

    @Test func watchAndStop() async throws {
        try await H.with(Self.user(Self.inbox(1))) { google in
            let gmail = google.gmail()
            let before = google.standIn.clock.now()
            let watch = try await gmail.watch(topicName: "projects/alfred-test/topics/gmail-events")
            #expect(watch.historyID == (try google.standIn.currentHistoryId(forUser: H.email)))
            // A week from when the stand-in took the call (in whole milliseconds, as Gmail sends it).
            let week = before.addingTimeInterval(7 * 86_400 - 0.001)...google.standIn.clock.now().addingTimeInterval(7 * 86_400)
            #expect(week.contains(watch.expiration), "\(watch.expiration) not in \(week)")
            try await gmail.stop()

            let requests = google.requests(under: "/gmail/v1")
            #expect(requests.map(\.path) == ["/gmail/v1/users/me/watch", "/gmail/v1/users/me/stop"])
            #expect(requests.map(\.method) == ["POST", "POST"] && requests.map(\.status) == [200, 204])
            let body = try #require(requests.first?.body)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
            #expect(json["topicName"] as? String == "projects/alfred-test/topics/gmail-events")
            #expect(json["labelIds"] as? [String] == ["INBOX"])
            #expect(json["labelFilterBehavior"] as? String == "include")
            #expect(requests.first?.header("content-type")?.hasPrefix("application/json") == true)

            let bad = try await #require(throws: GoogleAPIError.self) { try await gmail.watch(topicName: "gmail-events") }
            #expect(bad.code == .badRequest && bad.status == 400 && bad.attempts == 1)
        }
    }
}
