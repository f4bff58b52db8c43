import Foundation

/// A Gmail message as `users.messages.get?format=metadata` returns it: ids, labels and the requested
/// headers — never a body. Decoding is tolerant, as Google asks: unknown fields are ignored, optional
/// ones may be absent, and int64 values arrive as strings (`historyId`, `internalDate`).
///
/// Shared by the Gmail client (which fetches it), the urgency rules (which score it) and
/// `alfred urgency score` (which reads it one object per line).
public struct GmailMessage: Sendable, Codable, Equatable, CustomStringConvertible, CustomDebugStringConvertible,
    CustomReflectable
{
    public struct Header: Sendable, Codable, Equatable {
        public var name: String
        public var value: String
        public init(name: String, value: String) { self.name = name; self.value = value }
    }

    public struct Part: Sendable, Codable, Equatable {
        public var mimeType: String?
        public var headers: [Header]?
        public init(mimeType: String? = nil, headers: [Header]? = nil) { self.mimeType = mimeType; self.headers = headers }
    }

    public var id: String
    public var threadId: String?
    public var labelIds: [String]?
    public var snippet: String?
    /// uint64 as a decimal string.
    public var historyId: String?
    /// Google's receive time, epoch milliseconds as a decimal string.
    public var internalDate: String?
    public var sizeEstimate: Int?
    public var payload: Part?

    public init(id: String, threadId: String? = nil, labelIds: [String]? = nil, snippet: String? = nil,
                historyId: String? = nil, internalDate: String? = nil, sizeEstimate: Int? = nil, payload: Part? = nil) {
        self.id = id; self.threadId = threadId; self.labelIds = labelIds; self.snippet = snippet
        self.historyId = historyId; self.internalDate = internalDate; self.sizeEstimate = sizeEstimate
        self.payload = payload
    }

    /// The first header with this name, compared case-insensitively as RFC 5322 requires.
    public func header(_ name: String) -> String? {
        payload?.headers?.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    public var labels: Set<String> { Set(labelIds ?? []) }

    /// Ids and labels only: headers hold subjects and addresses, so printing, interpolating or dumping
    /// a message never shows them.
    public var description: String { "GmailMessage(id: \(id), labels: \((labelIds ?? []).joined(separator: ",")))" }
    public var debugDescription: String { description }
    public var customMirror: Mirror { Mirror(self, children: ["id": id, "labelIds": labelIds as Any]) }

    /// `internalDate` as a date, if present and numeric.
    public var receivedAt: Date? {
        guard let ms = internalDate.flatMap(Int64.init) else { return nil }
        return Date(timeIntervalSince1970: Double(ms) / 1000)
    }
}
