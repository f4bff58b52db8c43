import Foundation
import Hummingbird

/// Gmail API v1 (external-apis §3) under `/gmail/v1/users/{userId}`, Google's own path below
/// `https://gmail.googleapis.com`: messages.list/get, history.list, watch, stop, getProfile and
/// labels.list/get. `userId` is `me` or the token owner's email.
extension GoogleStandIn {
    private static let auth = "https://www.googleapis.com/auth/"
    static let gmailMetadataScope = auth + "gmail.metadata"
    /// Scopes that may read mail metadata, per the discovery document.
    static let gmailReadScopes = ["https://mail.google.com/"] + ["gmail.modify", "gmail.readonly", "gmail.metadata"].map { auth + $0 }
    static let gmailLabelScopes = gmailReadScopes + [auth + "gmail.labels"]

    static let systemLabels = [
        "INBOX", "SENT", "DRAFT", "SPAM", "TRASH", "UNREAD", "STARRED", "IMPORTANT", "CHAT",
        "CATEGORY_PERSONAL", "CATEGORY_SOCIAL", "CATEGORY_PROMOTIONS", "CATEGORY_UPDATES", "CATEGORY_FORUMS",
    ]

    func addGmailRoutes(to router: Router<BasicRequestContext>) {
        let base = "/gmail/v1/users/:userId"
        router.get("\(base)/messages") { request, context in
            try self.listMessages(request, userID: Self.pathParameter(context, "userId"))
        }
        router.get("\(base)/messages/:id") { request, context in
            try self.getMessage(request, userID: Self.pathParameter(context, "userId"), id: Self.pathParameter(context, "id"))
        }
        router.get("\(base)/history") { request, context in
            try self.listHistory(request, userID: Self.pathParameter(context, "userId"))
        }
        router.post("\(base)/watch") { request, context in
            try await self.watch(request, userID: Self.pathParameter(context, "userId"))
        }
        router.post("\(base)/stop") { request, context in
            try self.stop(request, userID: Self.pathParameter(context, "userId"))
        }
        router.get("\(base)/profile") { request, context in
            try self.profile(request, userID: Self.pathParameter(context, "userId"))
        }
        router.get("\(base)/labels") { request, context in
            try self.listLabels(request, userID: Self.pathParameter(context, "userId"), id: nil)
        }
        router.get("\(base)/labels/:id") { request, context in
            try self.listLabels(request, userID: Self.pathParameter(context, "userId"), id: Self.pathParameter(context, "id"))
        }
    }

    // MARK: messages

    private func listMessages(_ request: Request, userID: String) throws(GoogleAPIError) -> Response {
        let (query, info, user) = try gmailCall(request, userID: userID, scopes: Self.gmailReadScopes,
                                                parameters: ["includeSpamTrash", "labelIds", "maxResults", "pageToken", "q"])
        // Gmail refuses `q` under the metadata scope even when empty, and even when a broader Gmail
        // scope is granted too (google-api-python-client#582).
        if query.contains("q") && info.scopes.contains(Self.gmailMetadataScope) {
            throw .forbidden("Metadata scope does not support 'q' parameter")
        }
        let labelIds = query.values("labelIds")
        let includeSpamTrash = try query.bool("includeSpamTrash") ?? false
        let maxResults = try query.integer("maxResults", minimum: 1, maximum: 500) ?? 100
        let after = try MessageCursor(query.string("pageToken"))
        let search = query.string("q").map(MessageSearch.init)
        let mask = try query.fieldMask()

        let (page, total, more) = try withMailbox(of: user) { mailbox throws(GoogleAPIError) in
            let matching = mailbox.messages.values.filter { message in
                // Spam and trash stay hidden unless asked for, by flag or by naming the label.
                let hidden = !includeSpamTrash && message.labelIds.contains { ["SPAM", "TRASH"].contains($0) && !labelIds.contains($0) }
                return !hidden && labelIds.allSatisfy(message.labelIds.contains) && (search?.matches(message) ?? true)
            }.sorted(by: MessageCursor.newestFirst)
            let remaining = matching.filter { after?.precedes($0) ?? true }
            let page = Array(remaining.prefix(maxResults))
            return (page, matching.count, remaining.count > page.count)
        }
        return Self.answer(.object([
            "messages": page.isEmpty ? nil : .array(page.map { .object(["id": .string($0.id), "threadId": .string($0.threadId)]) }),
            "nextPageToken": more ? page.last.map { .string(MessageCursor(after: $0).token) } : nil,
            "resultSizeEstimate": .int(total),
        ]), mask: mask)
    }

    private func getMessage(_ request: Request, userID: String, id: String) throws(GoogleAPIError) -> Response {
        let (query, info, user) = try gmailCall(request, userID: userID, scopes: Self.gmailReadScopes,
                                                parameters: ["format", "metadataHeaders"])
        let format = try query.oneOf("format", ["minimal", "metadata", "full", "raw"]) ?? "full"
        if (format == "full" || format == "raw") && info.scopes.contains(Self.gmailMetadataScope) {
            throw .forbidden("Metadata scope doesn't allow format \(format.uppercased())")
        }
        let wanted = Set(query.values("metadataHeaders").map { $0.lowercased() })
        let mask = try query.fieldMask()
        let message = try withMailbox(of: user) { mailbox throws(GoogleAPIError) in mailbox.messages[id] }
        guard let message else { throw .notFound }
        return Self.answer(Self.render(message, format: format, headers: wanted), mask: mask)
    }

    /// A message in the shape `format` asks for. `historyId`, `internalDate` are strings, as in Gmail.
    private static func render(_ message: Mailbox.Message, format: String, headers wanted: Set<String>) -> GoogleJSON {
        var headers = message.headers
        if format == "metadata" && !wanted.isEmpty { headers = headers.filter { wanted.contains($0.name.lowercased()) } }
        let bodySize = message.body.utf8.count
        var payload: GoogleJSON?
        switch format {
        case "metadata":
            payload = .object([
                "partId": "", "mimeType": "text/plain", "filename": "",
                "headers": .array(headers.map { .object(["name": .string($0.name), "value": .string($0.value)]) }),
                "body": .object(["size": .int(bodySize)]),
            ])
        case "full":
            payload = .object([
                "partId": "", "mimeType": "text/plain", "filename": "",
                "headers": .array(headers.map { .object(["name": .string($0.name), "value": .string($0.value)]) }),
                "body": .object(["size": .int(bodySize), "data": .string(Data(message.body.utf8).base64URLEncoded)]),
            ])
        default: payload = nil
        }
        return .object([
            "id": .string(message.id),
            "threadId": .string(message.threadId),
            "labelIds": .array(message.labelIds.map { .string($0) }),
            "snippet": .string(message.snippet),
            "payload": payload,
            "sizeEstimate": .int(message.sizeEstimate),
            "historyId": .int64String(message.historyId),
            "internalDate": .int64String(GoogleTime.milliseconds(message.internalDate)),
            "raw": format == "raw" ? .string(Data(message.rfc822.utf8).base64URLEncoded) : nil,
        ])
    }

    // MARK: history

    private func listHistory(_ request: Request, userID: String) throws(GoogleAPIError) -> Response {
        let (query, _, user) = try gmailCall(request, userID: userID, scopes: Self.gmailReadScopes,
                                             parameters: ["historyTypes", "labelId", "maxResults", "pageToken", "startHistoryId"])
        guard let startText = query.string("startHistoryId") else {
            throw .invalidArgument("Missing required parameter: startHistoryId", parameter: "startHistoryId")
        }
        guard let start = UInt64(startText) else {
            throw .invalidArgument("Invalid startHistoryId: '\(startText)'", parameter: "startHistoryId")
        }
        var types: Set<Mailbox.ChangeType> = []
        for name in query.values("historyTypes") {
            guard let type = Mailbox.ChangeType(rawValue: name) else {
                throw .invalidArgument("Invalid value at 'history_types' (TYPE_ENUM), \"\(name)\"", parameter: "historyTypes")
            }
            types.insert(type)
        }
        let labelId = query.string("labelId")
        let maxResults = try query.integer("maxResults", minimum: 1, maximum: 500) ?? 100
        var after = start
        if let token = query.string("pageToken") {
            guard token.hasPrefix("h"), let id = UInt64(token.dropFirst()), id >= start else {
                throw .invalidArgument("Invalid pageToken", parameter: "pageToken")
            }
            after = id
        }
        let mask = try query.fieldMask()

        let (records, more, current) = try withMailbox(of: user) { mailbox throws(GoogleAPIError) in
            // The history before `startHistoryId` is gone: Gmail answers 404 and the client re-syncs.
            guard mailbox.canAnswerHistory(since: start) else { throw GoogleAPIError.notFound }
            let matching = mailbox.history.filter { record in
                record.id > after && (types.isEmpty || types.contains(record.type))
                    && (labelId.map { record.labelIds.contains($0) || record.changedLabels.contains($0) } ?? true)
            }
            return (Array(matching.prefix(maxResults)), matching.count > maxResults, mailbox.historyId)
        }
        return Self.answer(.object([
            "history": records.isEmpty ? nil : .array(records.map(Self.render)),
            "nextPageToken": more ? records.last.map { .string("h\($0.id)") } : nil,
            "historyId": .int64String(current),
        ]), mask: mask)
    }

    private static func render(_ record: Mailbox.HistoryRecord) -> GoogleJSON {
        let ids = GoogleJSON.object(["id": .string(record.messageID), "threadId": .string(record.threadId)])
        let message = GoogleJSON.object(["id": .string(record.messageID), "threadId": .string(record.threadId),
                                         "labelIds": .array(record.labelIds.map { .string($0) })])
        let labels = GoogleJSON.array(record.changedLabels.map { .string($0) })
        let change: (String, GoogleJSON) = switch record.type {
        case .messageAdded: ("messagesAdded", .array([.object(["message": message])]))
        case .messageDeleted: ("messagesDeleted", .array([.object(["message": message])]))
        case .labelAdded: ("labelsAdded", .array([.object(["message": message, "labelIds": labels])]))
        case .labelRemoved: ("labelsRemoved", .array([.object(["message": message, "labelIds": labels])]))
        }
        return .object([("id", .int64String(record.id)), ("messages", .array([ids])), change])
    }

    // MARK: watch, stop, profile, labels

    private func watch(_ request: Request, userID: String) async throws -> Response {
        let (query, _, user) = try gmailCall(request, userID: userID, scopes: Self.gmailReadScopes, parameters: [])
        var request = request
        let body = try await request.collectBody(upTo: TrafficMiddleware.maxBodyBytes)
        guard let object = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] else {
            throw GoogleAPIError.invalidArgument("Invalid JSON payload received. Expected a WatchRequest object.")
        }
        let topic = object["topicName"] as? String ?? ""
        guard topic.wholeMatch(of: /projects\/[^\/]+\/topics\/[^\/]+/) != nil else {
            throw GoogleAPIError.invalidArgument("Invalid topicName does not match projects/SOME-PROJECT/topics/SOME-TOPIC")
        }
        guard let labelIds = (object["labelIds"] ?? [String]()) as? [String] else {
            throw GoogleAPIError.invalidArgument("Invalid value at 'labelIds': expected a list of label ids")
        }
        // labelFilterBehavior replaces the deprecated labelFilterAction; Google's own guide writes INCLUDE.
        let behavior = (object["labelFilterBehavior"] ?? object["labelFilterAction"] ?? "include") as? String ?? ""
        guard ["include", "exclude"].contains(behavior.lowercased()) else {
            throw GoogleAPIError.invalidArgument("Invalid value at 'label_filter_behavior' (TYPE_ENUM), \"\(behavior)\"")
        }
        let mask = try query.fieldMask()
        let now = clock.now()
        let lifetime = TimeInterval(scenario.withLock { $0.gmail.watchLifetimeSeconds })
        let expiration = now.addingTimeInterval(lifetime)
        let historyId = try withMailbox(of: user) { mailbox throws(GoogleAPIError) in
            mailbox.setWatch(.init(topicName: topic, labelIds: labelIds, include: behavior.lowercased() == "include",
                                   expiration: expiration))
            return mailbox.historyId
        }
        return Self.answer(.object(["historyId": .int64String(historyId),
                                    "expiration": .int64String(GoogleTime.milliseconds(expiration))]), mask: mask)
    }

    private func stop(_ request: Request, userID: String) throws(GoogleAPIError) -> Response {
        let (_, _, user) = try gmailCall(request, userID: userID, scopes: Self.gmailReadScopes, parameters: [])
        try withMailbox(of: user) { mailbox throws(GoogleAPIError) in mailbox.setWatch(nil) }
        return Response(status: .noContent)
    }

    private func profile(_ request: Request, userID: String) throws(GoogleAPIError) -> Response {
        let (query, _, user) = try gmailCall(request, userID: userID, scopes: Self.gmailReadScopes, parameters: [])
        let mask = try query.fieldMask()
        let body = try withMailbox(of: user) { mailbox throws(GoogleAPIError) in
            GoogleJSON.object(["emailAddress": .string(user.email), "messagesTotal": .int(mailbox.messages.count),
                               "threadsTotal": .int(mailbox.threadsTotal), "historyId": .int64String(mailbox.historyId)])
        }
        return Self.answer(body, mask: mask)
    }

    private func listLabels(_ request: Request, userID: String, id: String?) throws(GoogleAPIError) -> Response {
        let (query, _, user) = try gmailCall(request, userID: userID, scopes: Self.gmailLabelScopes, parameters: [])
        let mask = try query.fieldMask()
        let inUse = try withMailbox(of: user) { mailbox throws(GoogleAPIError) in
            Set(mailbox.messages.values.flatMap(\.labelIds))
        }
        // User labels are named after their ids here; the stand-in has no label names of its own.
        let userLabels = inUse.subtracting(Self.systemLabels).sorted()
        let labels = Self.systemLabels.map { ($0, GoogleJSON.object(["id": .string($0), "name": .string($0), "type": "system"])) }
            + userLabels.map {
                ($0, GoogleJSON.object(["id": .string($0), "name": .string($0), "messageListVisibility": "show",
                                        "labelListVisibility": "labelShow", "type": "user"]))
            }
        guard let id else { return Self.answer(.object(["labels": .array(labels.map(\.1))]), mask: mask) }
        guard let label = labels.first(where: { $0.0 == id }) else { throw .notFound }
        return Self.answer(label.1, mask: mask)
    }

    // MARK: Shared

    /// Authenticates, checks the scope, refuses undeclared parameters and resolves `userId`.
    private func gmailCall(_ request: Request, userID: String, scopes: [String],
                           parameters: Set<String>) throws(GoogleAPIError) -> (APIQuery, AccessTokenInfo, User) {
        let query = APIQuery(request)
        let (info, user) = try caller(request, query: query, scopes: scopes)
        guard userID == "me" || userID.lowercased() == user.email.lowercased() else {
            throw .forbidden("Delegation denied for \(user.email)")
        }
        try query.rejectUnknown(allowed: parameters)
        return (query, info, user)
    }
}

/// Where a messages.list page ends, as an opaque `pageToken`: the last message's date and id, so
/// arrivals while a client pages neither repeat nor skip messages.
struct MessageCursor: Sendable {
    var internalDate: Int64
    var id: String

    init(after message: Mailbox.Message) {
        internalDate = GoogleTime.milliseconds(message.internalDate)
        id = message.id
    }

    init?(_ token: String?) throws(GoogleAPIError) {
        guard let token else { return nil }
        var base64 = token.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8), text.hasPrefix("m1:")
        else { throw .invalidArgument("Invalid pageToken", parameter: "pageToken") }
        let parts = text.dropFirst(3).split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let date = Int64(parts[0]) else {
            throw .invalidArgument("Invalid pageToken", parameter: "pageToken")
        }
        internalDate = date
        id = String(parts[1])
    }

    var token: String { Data("m1:\(internalDate):\(id)".utf8).base64URLEncoded }

    /// Gmail lists newest first.
    static func newestFirst(_ lhs: Mailbox.Message, _ rhs: Mailbox.Message) -> Bool {
        (GoogleTime.milliseconds(lhs.internalDate), lhs.id) > (GoogleTime.milliseconds(rhs.internalDate), rhs.id)
    }

    /// True when `message` comes after this cursor in list order.
    func precedes(_ message: Mailbox.Message) -> Bool {
        (internalDate, id) > (GoogleTime.milliseconds(message.internalDate), message.id)
    }
}

/// A small part of Gmail's search syntax, for tokens without the metadata scope: words match
/// From/To/Subject/snippet/body; `from:`, `subject:`, `label:`, `in:` and `is:` narrow by field or label.
struct MessageSearch: Sendable {
    var terms: [String]

    init(_ text: String) { terms = text.lowercased().split(separator: " ").map(String.init) }

    func matches(_ message: Mailbox.Message) -> Bool {
        let labels = Set(message.labelIds.map { $0.lowercased() })
        return terms.allSatisfy { term in
            let parts = term.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2 else {
                return [message.header("From"), message.header("To"), message.header("Subject"), message.snippet, message.body]
                    .contains { $0?.lowercased().contains(term) == true }
            }
            switch parts[0] {
            case "from", "to", "subject": return message.header(parts[0])?.lowercased().contains(parts[1]) == true
            case "label", "in", "is": return labels.contains(parts[1])
            default: return false
            }
        }
    }
}
