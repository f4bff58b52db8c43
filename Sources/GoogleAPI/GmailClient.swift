import AlfredCore
import Foundation

/// What arrived in a mailbox since a stored history id.
public struct GmailHistoryDelta: Sendable, Equatable {
    /// Ids of added messages, first seen first, each once. Fetch them with `messages(ids:)`; some may be
    /// gone by then.
    public var addedMessageIDs: [String]
    /// The mailbox's newest history id (from the last page): store it for the next `history` call.
    public var historyID: String
    public var pageCount: Int
}

/// `users.getProfile`: a fresh starting point for history.
public struct GmailProfile: Sendable {
    /// The current history id: start `history` here after connecting or after `historyExpired`.
    public var historyID: String
    /// The account's address (push notifications name the mailbox by it). Personal, so redacted.
    public var emailAddress: Redacted<String>?
    public var messagesTotal: Int?
}

/// `users.watch`: push notifications for the mailbox until `expiration` (renew daily, at least weekly).
public struct GmailWatch: Sendable, Equatable {
    public var historyID: String
    public var expiration: Date
}

/// Gmail v1 for one connector, under the `gmail.metadata` scope: history, message metadata, watch.
/// Never sends `q` and never asks for `format=full`/`raw`, both refused under that scope. Every call
/// may throw `GoogleAPIError`, the token source's errors and `CancellationError`.
public struct GmailClient: Sendable {
    /// The headers urgency rules read (sender, recipients, threading, list and auto-reply markers).
    public static let metadataHeaders = ["From", "To", "Cc", "Subject", "Date", "Message-ID", "In-Reply-To",
                                         "References", "List-Unsubscribe", "List-Id", "Precedence", "Auto-Submitted",
                                         "Content-Type"]

    let http: GoogleHTTP

    public init(http: GoogleHTTP) { self.http = http }

    /// Messages added under `labelID` since `startHistoryID` (a history id *we* stored, not one from a
    /// push notification), paged to the end. Throws `GoogleAPIError.historyExpired` on 404: start again
    /// from `profile()` and reconcile with `recentInboxMessageIDs(maxResults:)`.
    public func history(startHistoryID: String, labelID: String = "INBOX") async throws -> GmailHistoryDelta {
        struct Page: Decodable {
            struct Record: Decodable {
                struct Added: Decodable {
                    struct Message: Decodable { var id: String }
                    var message: Message
                }
                var messagesAdded: LenientArray<Added>?
            }
            var history: LenientArray<Record>?
            var nextPageToken: String?
            var historyId: LenientString?
        }
        let operation = (GoogleService.gmail, "history.list")
        var ids: [String] = []
        var seen = Set<String>()
        var pageToken: String?
        var seenTokens = Set<String>()
        var last: GoogleResponse?
        for pageCount in 1...max(1, http.configuration.maxPages) {
            var query = [("startHistoryId", startHistoryID), ("historyTypes", "messageAdded"), ("labelId", labelID),
                         ("maxResults", "\(http.configuration.gmailPageSize)")]
            if let pageToken { query.append(("pageToken", pageToken)) }
            let response: GoogleResponse
            do {
                response = try await http.get(.gmail, "history.list", path: ["users", "me", "history"], query: query)
            } catch let error as GoogleAPIError where error.code == .notFound {
                throw error.recoded(.historyExpired)
            }
            last = response
            let page = try http.decode(Page.self, from: response, operation)
            for record in page.history?.elements ?? [] {
                for added in record.messagesAdded?.elements ?? [] where seen.insert(added.message.id).inserted {
                    ids.append(added.message.id)
                }
            }
            guard let next = page.nextPageToken, !next.isEmpty else {
                guard let historyID = page.historyId?.value, !historyID.isEmpty else {
                    throw http.invalidResponse(response, operation, "history page without historyId")
                }
                return GmailHistoryDelta(addedMessageIDs: ids, historyID: historyID, pageCount: pageCount)
            }
            guard seenTokens.insert(next).inserted else { break }
            pageToken = next
        }
        throw GoogleAPIError(.invalidResponse, service: .gmail, operation: "history.list", status: last?.status,
                             attempts: last?.attempts ?? 0, detail: "paging did not end")
    }

    /// The mailbox's current history id (and address), for a first sync or after `historyExpired`.
    public func profile() async throws -> GmailProfile {
        struct Profile: Decodable {
            var historyId: LenientString
            var emailAddress: String?
            var messagesTotal: Int?
        }
        let response = try await http.get(.gmail, "users.getProfile", path: ["users", "me", "profile"])
        let profile = try http.decode(Profile.self, from: response, (.gmail, "users.getProfile"))
        return GmailProfile(historyID: profile.historyId.value, emailAddress: profile.emailAddress.map(Redacted.init),
                            messagesTotal: profile.messagesTotal)
    }

    /// Ids of the newest inbox messages, newest first, at most `maxResults` (paging past Gmail's 500 per
    /// page). Filtered by `labelIds`, never `q`. The fallback after `historyExpired`.
    public func recentInboxMessageIDs(maxResults: Int) async throws -> [String] {
        struct Page: Decodable {
            struct Message: Decodable { var id: String }
            var messages: LenientArray<Message>?
            var nextPageToken: String?
        }
        var ids: [String] = []
        var pageToken: String?
        var seenTokens = Set<String>()
        // Bounded like every pager here: empty pages with fresh tokens must not loop forever.
        for _ in 0..<http.configuration.maxPages where ids.count < maxResults {
            var query = [("labelIds", "INBOX"), ("maxResults", "\(min(maxResults - ids.count, http.configuration.gmailPageSize))")]
            if let pageToken { query.append(("pageToken", pageToken)) }
            let response = try await http.get(.gmail, "messages.list", path: ["users", "me", "messages"], query: query)
            let page = try http.decode(Page.self, from: response, (.gmail, "messages.list"))
            ids += (page.messages?.elements ?? []).map(\.id)
            guard let next = page.nextPageToken, !next.isEmpty, seenTokens.insert(next).inserted else { break }
            pageToken = next
        }
        return Array(ids.prefix(max(0, maxResults)))
    }

    /// One message's labels, snippet and the named headers (`format=metadata`: no body); nil when it no
    /// longer exists (deleted between the history and now).
    public func message(id: String, headers: [String] = metadataHeaders) async throws -> GmailMessage? {
        let query = [("format", "metadata")] + headers.map { ("metadataHeaders", $0) }
            + [("fields", PartialResponse.gmailMessage)]
        do {
            let response = try await http.get(.gmail, "messages.get", path: ["users", "me", "messages", id], query: query)
            return try http.decode(GmailMessage.self, from: response, (.gmail, "messages.get"))
        } catch let error as GoogleAPIError where error.code == .notFound {
            return nil
        }
    }

    /// `message(id:)` for many ids, at most `maxMessagesInFlight` at once (Gmail throttles concurrent
    /// requests per user). Results in the order of `ids`; messages gone meanwhile are left out. The first
    /// failure cancels the rest and is thrown.
    public func messages(ids: [String], headers: [String] = metadataHeaders) async throws -> [GmailMessage] {
        let limit = max(1, http.configuration.maxMessagesInFlight)
        return try await withThrowingTaskGroup(of: (Int, GmailMessage?).self) { group in
            var results = [GmailMessage?](repeating: nil, count: ids.count)
            var next = 0
            func startNext() {
                guard next < ids.count else { return }
                let index = next
                next += 1
                group.addTask { (index, try await message(id: ids[index], headers: headers)) }
            }
            for _ in 0..<limit { startNext() }
            while let (index, message) = try await group.next() {
                results[index] = message
                startNext()
            }
            return results.compactMap { $0 }
        }
    }

    /// Starts (or renews) push notifications for `labelIDs` to a Pub/Sub topic of our Cloud project.
    public func watch(topicName: String, labelIDs: [String] = ["INBOX"]) async throws -> GmailWatch {
        struct Request: Encodable {
            var topicName: String
            var labelIds: [String]
            var labelFilterBehavior = "include"
        }
        struct Response: Decodable {
            var historyId: LenientString
            var expiration: LenientString
        }
        let operation = (GoogleService.gmail, "users.watch")
        let json = try JSONEncoder().encode(Request(topicName: topicName, labelIds: labelIDs))
        let response = try await http.post(.gmail, "users.watch", path: ["users", "me", "watch"], json: Array(json))
        let body = try http.decode(Response.self, from: response, operation)
        guard let milliseconds = Int64(body.expiration.value) else {
            throw http.invalidResponse(response, operation, "expiration is not epoch milliseconds")
        }
        return GmailWatch(historyID: body.historyId.value,
                          expiration: Date(timeIntervalSince1970: Double(milliseconds) / 1_000))
    }

    /// Ends push notifications for the mailbox.
    public func stop() async throws {
        _ = try await http.post(.gmail, "users.stop", path: ["users", "me", "stop"], json: nil)
    }
}
