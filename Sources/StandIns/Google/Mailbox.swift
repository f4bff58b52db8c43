import Foundation

extension GoogleStandIn {
    /// A message in a user's mailbox, as a scenario or `deliverMessage` describes it. Every key is
    /// optional. `Date`, `Message-ID`, `From`, `To`, `Cc` and `Subject` headers are synthesized;
    /// `headers` adds more (or overrides those by name). `arrivedMinutesAgo` backdates
    /// `internalDate`; `arrivesInSeconds` holds the message back until the stand-in's clock reaches
    /// its arrival, when it appears in list, get and history at once (a `messageAdded` record).
    /// Delivering an id that exists updates that message; label changes become `labelAdded` /
    /// `labelRemoved` history records.
    public struct SeedMessage: Sendable, Codable, Equatable {
        public var id: String?
        /// Defaults to the message id (a thread of one).
        public var threadId: String?
        public var from: String?
        public var to: String?
        public var cc: String?
        public var subject: String?
        /// Default `["INBOX", "UNREAD"]`.
        public var labelIds: [String]?
        public var headers: [String: String]?
        public var snippet: String?
        /// Plain-text body for `format=full`/`raw`; defaults to the snippet.
        public var body: String?
        public var arrivedMinutesAgo: Double?
        public var arrivesInSeconds: Double?

        public init(id: String? = nil, threadId: String? = nil, from: String? = nil, to: String? = nil,
                    cc: String? = nil, subject: String? = nil, labelIds: [String]? = nil,
                    headers: [String: String]? = nil, snippet: String? = nil, body: String? = nil,
                    arrivedMinutesAgo: Double? = nil, arrivesInSeconds: Double? = nil) {
            self.id = id
            self.threadId = threadId
            self.from = from
            self.to = to
            self.cc = cc
            self.subject = subject
            self.labelIds = labelIds
            self.headers = headers
            self.snippet = snippet
            self.body = body
            self.arrivedMinutesAgo = arrivedMinutesAgo
            self.arrivesInSeconds = arrivesInSeconds
        }
    }

    /// How long Gmail's history and watches last, on the stand-in's clock.
    public struct GmailSettings: Sendable, Codable, Equatable {
        /// History records older than this are dropped; a `startHistoryId` before a dropped record
        /// answers 404. Gmail keeps "at least a week", sometimes only hours.
        public var historyRetentionSeconds: Int = 7 * 24 * 3600
        /// `expiration` of a `watch`: Gmail says re-watch at least every 7 days.
        public var watchLifetimeSeconds: Int = 7 * 24 * 3600

        public init() {}

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let defaults = GmailSettings()
            historyRetentionSeconds = try container.decodeIfPresent(Int.self, forKey: .historyRetentionSeconds)
                ?? defaults.historyRetentionSeconds
            watchLifetimeSeconds = try container.decodeIfPresent(Int.self, forKey: .watchLifetimeSeconds)
                ?? defaults.watchLifetimeSeconds
        }
    }
}

/// One user's Gmail: visible messages, messages still on their way, the history log and the watch.
/// Pure state with `now` passed in; call `catchUp(now:retention:)` before reading so arrivals and
/// history retention follow the stand-in's clock.
struct Mailbox: Sendable {
    struct Header: Sendable, Equatable {
        var name: String
        var value: String
    }

    struct Message: Sendable {
        var id: String
        var threadId: String
        var labelIds: [String]
        var headers: [Header]
        var snippet: String
        var body: String
        var internalDate: Date
        /// When it becomes visible; equals `internalDate` unless backdated.
        var arrival: Date
        /// The last history record that touched it.
        var historyId: UInt64 = 0

        var sizeEstimate: Int { rfc822.utf8.count }

        var rfc822: String {
            headers.map { "\($0.name): \($0.value)\r\n" }.joined() + "\r\n" + body
        }

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    enum ChangeType: String, Sendable, CaseIterable {
        case messageAdded, messageDeleted, labelAdded, labelRemoved
    }

    struct HistoryRecord: Sendable {
        var id: UInt64
        var time: Date
        var type: ChangeType
        var messageID: String
        var threadId: String
        /// The message's labels right after the change.
        var labelIds: [String]
        /// For label changes: the labels added or removed.
        var changedLabels: [String] = []
    }

    struct Watch: Sendable {
        var topicName: String
        var labelIds: [String]
        var include: Bool
        var expiration: Date
    }

    let email: String
    let zone: TimeZone
    private(set) var messages: [String: Message] = [:]
    private var pending: [Message] = []
    private(set) var history: [HistoryRecord] = []
    private(set) var historyId: UInt64 = 100_000
    /// The highest history id whose record is gone: a `startHistoryId` below it cannot be answered.
    private var prunedThrough: UInt64 = 100_000
    private(set) var watch: Watch?
    private var step = 0

    init(email: String, zone: TimeZone) {
        self.email = email
        self.zone = zone
    }

    // MARK: Mutation

    @discardableResult
    mutating func deliver(_ seed: GoogleStandIn.SeedMessage, now: Date) throws(StandInError) -> String {
        if let delay = seed.arrivesInSeconds, delay < 0 {
            throw StandInError(.invalidScenario, "arrivesInSeconds must be >= 0")
        }
        let internalDate = now.addingTimeInterval(-(seed.arrivedMinutesAgo ?? 0) * 60 + (seed.arrivesInSeconds ?? 0))
        let id = seed.id ?? newMessageID(internalDate)
        let labels = seed.labelIds ?? ["INBOX", "UNREAD"]
        var message = Message(id: id, threadId: seed.threadId ?? id, labelIds: labels, headers: [],
                              snippet: seed.snippet ?? String((seed.body ?? "").prefix(200)),
                              body: seed.body ?? seed.snippet ?? "", internalDate: internalDate,
                              arrival: max(internalDate, now))
        message.headers = headers(for: seed, id: id, date: internalDate)

        if var existing = messages[id] {
            // Same id again: the message changes in place; label differences are history.
            let added = labels.filter { !existing.labelIds.contains($0) }
            let removed = existing.labelIds.filter { !labels.contains($0) }
            message.internalDate = existing.internalDate
            message.arrival = existing.arrival
            message.historyId = existing.historyId
            existing = message
            messages[id] = existing
            if !added.isEmpty { record(.labelAdded, message: existing, changed: added, at: now) }
            if !removed.isEmpty { record(.labelRemoved, message: existing, changed: removed, at: now) }
            return id
        }
        pending.removeAll { $0.id == id }
        if message.arrival <= now {
            arrive(message)
        } else {
            pending.append(message)
        }
        return id
    }

    /// Deletes a message (a `messageDeleted` record); a message still on its way simply never arrives.
    mutating func delete(id: String, now: Date) throws(StandInError) {
        if let message = messages.removeValue(forKey: id) {
            record(.messageDeleted, message: message, changed: [], at: now)
        } else if pending.contains(where: { $0.id == id }) {
            pending.removeAll { $0.id == id }
        } else {
            throw StandInError(.invalidScenario, "no message '\(id)' in \(email)'s mailbox")
        }
    }

    /// Delivers what has arrived by `now` (in arrival order) and forgets history past `retention`.
    mutating func catchUp(now: Date, retention: TimeInterval) {
        let due = pending.filter { $0.arrival <= now }.sorted { ($0.arrival, $0.id) < ($1.arrival, $1.id) }
        pending.removeAll { $0.arrival <= now }
        for message in due { arrive(message) }
        let cutoff = now.addingTimeInterval(-retention)
        if let lastOld = history.lastIndex(where: { $0.time < cutoff }) {
            prunedThrough = max(prunedThrough, history[lastOld].id)
            history.removeFirst(lastOld + 1)
        }
    }

    /// Forces the 404 path: every history id handed out so far is too old from now on.
    mutating func expireHistory() {
        historyId = nextHistoryID()
        prunedThrough = historyId
        history.removeAll()
    }

    mutating func setWatch(_ watch: Watch?) { self.watch = watch }

    // MARK: Reading

    /// False when records after `startHistoryId` were already dropped (Gmail answers 404).
    func canAnswerHistory(since startHistoryId: UInt64) -> Bool {
        startHistoryId >= prunedThrough
    }

    var threadsTotal: Int { Set(messages.values.map(\.threadId)).count }

    // MARK: Internals

    private mutating func arrive(_ message: Message) {
        messages[message.id] = message
        record(.messageAdded, message: message, changed: [], at: message.arrival)
    }

    private mutating func record(_ type: ChangeType, message: Message, changed: [String], at time: Date) {
        historyId = nextHistoryID()
        history.append(HistoryRecord(id: historyId, time: time, type: type, messageID: message.id,
                                     threadId: message.threadId, labelIds: message.labelIds, changedLabels: changed))
        messages[message.id]?.historyId = historyId
    }

    /// History ids grow by uneven steps: Gmail's are increasing but never contiguous, and clients
    /// that assume `+1` must fail here as they would there.
    private mutating func nextHistoryID() -> UInt64 {
        let gaps: [UInt64] = [3, 7, 2, 11, 5, 13, 4]
        defer { step += 1 }
        return historyId + gaps[step % gaps.count]
    }

    private mutating func newMessageID(_ date: Date) -> String {
        // Gmail ids are 16 hex digits that grow with time.
        var candidate: String
        repeat {
            step += 1
            let value = UInt64(max(0, GoogleTime.milliseconds(date))) << 12 | UInt64(step & 0xfff)
            candidate = String(value, radix: 16)
        } while messages[candidate] != nil || pending.contains(where: { $0.id == candidate })
        return candidate
    }

    private func headers(for seed: GoogleStandIn.SeedMessage, id: String, date: Date) -> [Header] {
        var headers: [Header] = [
            .init(name: "Date", value: GoogleTime.rfc5322(date, in: zone)),
            .init(name: "Message-ID", value: "<\(id)@mail.example.com>"),
        ]
        if let from = seed.from { headers.append(.init(name: "From", value: from)) }
        headers.append(.init(name: "To", value: seed.to ?? email))
        if let cc = seed.cc { headers.append(.init(name: "Cc", value: cc)) }
        if let subject = seed.subject { headers.append(.init(name: "Subject", value: subject)) }
        for (name, value) in (seed.headers ?? [:]).sorted(by: { $0.key < $1.key }) {
            if let index = headers.firstIndex(where: { $0.name.lowercased() == name.lowercased() }) {
                headers[index].value = value
            } else {
                headers.append(.init(name: name, value: value))
            }
        }
        return headers
    }
}
