import AlfredCore
import Crypto
import Foundation

/// The audit trail's hash chain, recomputed independently of the database that wrote it.
///
/// `hash(n) = SHA-256(prev_hash(n) ‖ UTF-8(fields(n)))` with `prev_hash(1)` 32 zero bytes, where
/// fields are `alfred-audit-v1` followed by id, user id, seq, event type, connector, result, metadata
/// (jsonb text) and creation time (Unix µs), each as `<byte length>:<text>`, or `-` for NULL. This
/// must match `alfred_audit_hash` in migrations/0005_privacy.sql, which writes the chain.
public enum AuditChain {
    public static let genesis = [UInt8](repeating: 0, count: 32)

    public static func hash(_ entry: AuditEntry) -> [UInt8] {
        var text = "alfred-audit-v1"
        for value in [entry.id.uuidString.lowercased(), entry.userID.uuidString.lowercased(), String(entry.seq), entry.eventType,
                      entry.connector, entry.result, entry.metadataJSON, String(entry.createdAtMicros)] as [String?] {
            text += value.map { "\($0.utf8.count):\($0)" } ?? "-"
        }
        var hasher = SHA256()
        hasher.update(data: entry.prevHash)
        hasher.update(data: Array(text.utf8))
        return Array(hasher.finalize())
    }

    /// What `verify` found. `problem` names the first break, by seq; nil when the chain is intact.
    public struct Verification: Sendable, Equatable, CustomStringConvertible {
        public var events = 0
        public var firstSeq: Int64?
        public var lastSeq: Int64?
        /// Events before `firstSeq` were pruned (retention) or erased (delete-all); the first kept
        /// event still links to the recorded anchor.
        public var anchoredAt: Int64 = 0
        public var problem: String?
        public var headless = false

        public var intact: Bool { problem == nil }

        public var description: String {
            if let problem { return "audit chain BROKEN: \(problem)" }
            if events == 0 { return "no audit events" + (anchoredAt > 0 ? " (pruned through seq \(anchoredAt))" : "") }
            var text = "audit chain intact: \(events) event(s), seq \(firstSeq!)–\(lastSeq!)"
            if anchoredAt > 0 { text += ", anchored after seq \(anchoredAt)" }
            if headless { text += "; the user no longer exists (final record only)" }
            return text
        }
    }

    /// Walks the user's chain page by page: every event's hash recomputes, links to the one before,
    /// seqs have no gap, the oldest kept event links to the pruning anchor, and the newest is the
    /// head (so dropping the newest events is detected too).
    ///
    /// On a live system events keep arriving while this runs: the chain is checked up to the head
    /// read first; events appended after it must be covered by the head read again at the end
    /// (an event beyond even that head was not written through the chain).
    public static func verify(userID: UUID, store: any AuditStore, pageSize: Int = 1000) async throws -> Verification {
        var result = Verification()
        let head = try await store.head(userID: userID)
        result.headless = head == nil
        result.anchoredAt = head?.prunedThroughSeq ?? 0
        var expectedSeq: Int64? = head.map { $0.prunedThroughSeq + 1 }
        var expectedPrev: [UInt8]? = head?.prunedThroughHash
        var after: Int64 = 0
        var newestSeen: Int64 = 0
        while true {
            let page = try await store.entries(userID: userID, afterSeq: after, limit: pageSize)
            for entry in page {
                newestSeen = max(newestSeen, entry.seq)
                after = entry.seq
                // Appended after the head was read: only counted, and checked against a fresh head below.
                if let head, entry.seq > head.seq { continue }
                if result.firstSeq == nil {
                    result.firstSeq = entry.seq
                    // Without a head (a deleted user's final record), the first event is the anchor.
                    if head == nil { result.anchoredAt = entry.seq - 1 }
                }
                if let expectedSeq, entry.seq != expectedSeq {
                    result.problem = entry.seq > expectedSeq
                        ? "seq \(expectedSeq)–\(entry.seq - 1) missing before seq \(entry.seq)"
                        : "seq \(entry.seq) out of order (expected \(expectedSeq))"
                    return result
                }
                if let expectedPrev, entry.prevHash != expectedPrev {
                    result.problem = "seq \(entry.seq) does not link to the event before it (prev_hash differs)"
                    return result
                }
                if hash(entry) != entry.hash {
                    result.problem = "seq \(entry.seq) was altered: its content no longer matches its hash"
                    return result
                }
                result.events += 1
                result.lastSeq = entry.seq
                expectedSeq = entry.seq + 1
                expectedPrev = entry.hash
            }
            if page.count < pageSize { break }
        }
        if let head {
            let lastSeq = result.lastSeq ?? head.prunedThroughSeq
            let lastHash = expectedPrev ?? head.prunedThroughHash
            if lastSeq != head.seq || lastHash != head.hash {
                result.problem = lastSeq < head.seq
                    ? "events after seq \(lastSeq) are missing (the chain head is at seq \(head.seq))"
                    : "the chain head does not match the newest event (seq \(lastSeq))"
            } else if newestSeen > head.seq, let now = try await store.head(userID: userID), now.seq < newestSeen {
                result.problem = "events after seq \(now.seq) are not recorded in the chain head"
            }
        }
        return result
    }
}

/// One page of a user's audit trail, in the shape of RFC §7.5's `GET /v1/audit-events`.
public struct AuditPage: Sendable, Encodable {
    public struct Item: Sendable, Encodable {
        public let id: String
        public let seq: Int64
        /// `createdAt` as ISO 8601 (what is encoded).
        public let timestamp: String
        public let createdAt: Date
        public let eventType: String
        public let connector: String?
        public let result: String
        public let metadata: [String: AuditMetadataValue]

        enum CodingKeys: String, CodingKey {
            case id, seq, timestamp, connector, result, metadata
            case eventType = "event_type"
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(seq, forKey: .seq)
            try container.encode(timestamp, forKey: .timestamp)
            try container.encode(eventType, forKey: .eventType)
            try container.encode(connector, forKey: .connector)  // null when none, as in the RFC
            try container.encode(result, forKey: .result)
            try container.encode(metadata, forKey: .metadata)
        }
    }

    public let items: [Item]
    /// Opaque; nil on the last page.
    public let nextCursor: String?

    enum CodingKeys: String, CodingKey { case items, nextCursor = "next_cursor" }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(items, forKey: .items)
        try container.encode(nextCursor, forKey: .nextCursor)
    }

    /// Reads the page after `cursor` (nil: from the oldest kept event).
    public static func load(userID: UUID, cursor: String?, limit: Int, store: any AuditStore) async throws -> AuditPage {
        try await load(userID: userID, afterSeq: try cursor.map(Cursor.decode) ?? 0, limit: limit, store: store)
    }

    /// Reads the page of events after `after` (0: from the oldest kept event).
    public static func load(userID: UUID, afterSeq after: Int64, limit: Int, store: any AuditStore) async throws -> AuditPage {
        // One more than asked, to know whether another page follows.
        let entries = try await store.entries(userID: userID, afterSeq: after, limit: limit + 1)
        let shown = entries.prefix(limit)
        let items = shown.map { entry in
            Item(id: "ae_" + entry.id.uuidString.lowercased(), seq: entry.seq,
                 timestamp: entry.createdAt.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)), createdAt: entry.createdAt,
                 eventType: entry.eventType, connector: entry.connector, result: entry.result,
                 metadata: (try? JSONDecoder().decode([String: AuditMetadataValue].self, from: Data(entry.metadataJSON.utf8))) ?? [:])
        }
        return AuditPage(items: Array(items), nextCursor: entries.count > limit ? shown.last.map { Cursor.encode($0.seq) } : nil)
    }

    /// A cursor is the last seq shown, base64url-encoded so that clients treat it as opaque.
    public enum Cursor {
        public struct Invalid: Error, CustomStringConvertible {
            public var description: String { "the cursor is not one this command returned (pass next_cursor as printed)" }
        }
        static func encode(_ seq: Int64) -> String {
            Data("seq:\(seq)".utf8).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        static func decode(_ cursor: String) throws -> Int64 {
            var base64 = cursor.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            guard let data = Data(base64Encoded: base64), let text = String(data: data, encoding: .utf8), text.hasPrefix("seq:"),
                  let seq = Int64(text.dropFirst(4)), seq >= 0 else { throw Invalid() }
            return seq
        }
    }
}

/// Audit metadata values: bounded strings and numbers (never personal data, by construction of the
/// events that write them).
public enum AuditMetadataValue: Sendable, Codable, Equatable {
    case string(String)
    case number(Double)
    case bool(Bool)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else { self = .string(try container.decode(String.self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value) where value == value.rounded() && abs(value) < 1e15: try container.encode(Int64(value))
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        }
    }
}
