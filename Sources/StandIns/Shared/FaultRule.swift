import Foundation
import Synchronization

/// A canned HTTP answer a fault returns instead of the real handler's.
public struct CannedResponse: Sendable, Codable, Equatable {
    public var status: Int
    public var headers: [String: String]
    public var body: String

    public init(status: Int, headers: [String: String] = [:], body: String = "") {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.decode(Int.self, forKey: .status)
        headers = try container.decodeIfPresent([String: String].self, forKey: .headers) ?? [:]
        body = try container.decodeIfPresent(String.self, forKey: .body) ?? ""
    }
}

/// "The next N requests matching this answer that way": the unit of fault injection (external-apis
/// §0.4). A rule with a delay and no response adds latency and then lets the real handler answer.
public struct FaultRule: Sendable {
    /// Which requests a rule applies to. Every field that is set must match; an empty match takes
    /// every request except the control plane's own.
    public struct Match: Sendable, Codable, Equatable {
        /// `GET`, `POST`, ... (case-insensitive).
        public var method: String?
        /// The exact path, e.g. `/token`.
        public var path: String?
        /// A regular expression the whole path must match, e.g. `/calendar/v3/.*`.
        public var pathRegex: String?
        /// A substring of the raw body, e.g. `grant_type=refresh_token` to hit only refreshes.
        public var bodyContains: String?
        /// Header values that must be present exactly (names are case-insensitive).
        public var headers: [String: String]?

        public init(method: String? = nil, path: String? = nil, pathRegex: String? = nil,
                    bodyContains: String? = nil, headers: [String: String]? = nil) {
            self.method = method
            self.path = path
            self.pathRegex = pathRegex
            self.bodyContains = bodyContains
            self.headers = headers
        }
    }

    public var match: Match
    /// Nil means "latency only": after `delayMilliseconds` the real handler answers.
    public var response: CannedResponse?
    public var delayMilliseconds: Int
    /// How many matching requests get this fault; nil means every one until removed or reset.
    public var times: Int?
    /// Shown in recordings and listings, e.g. `invalid_grant`, `latency`, `custom`.
    public var name: String

    public init(match: Match, response: CannedResponse?, delayMilliseconds: Int = 0, times: Int? = 1,
                name: String? = nil) {
        self.match = match
        self.response = response
        self.delayMilliseconds = delayMilliseconds
        self.times = times
        self.name = name ?? (response == nil ? "latency" : "custom")
    }
}

/// What a fault rule sees of a request.
struct RequestFacts: Sendable {
    var method: String
    var path: String
    var headers: [String: [String]]
    var body: String
}

/// The active fault rules, first added first served. Shared by every route of one stand-in.
final class FaultPlan: Sendable {
    struct Entry: Sendable {
        var id: String
        var rule: FaultRule
        var remaining: Int?
        /// `rule.match.pathRegex`, compiled once when the rule is added: `take` runs on every request.
        var pathRegex: CompiledPattern?
    }

    /// A compiled path pattern. `Regex<AnyRegexOutput>` is not Sendable only because its match
    /// output holds `Any`; this one is immutable and used solely inside `entries`' lock (in `take`),
    /// for a yes/no whole match whose output never leaves it.
    struct CompiledPattern: @unchecked Sendable {
        private let regex: Regex<AnyRegexOutput>

        init(_ pattern: String) throws { regex = try Regex(pattern) }

        func wholeMatches(_ text: String) -> Bool { (try? regex.wholeMatch(in: text)) != nil }
    }

    private let entries = Mutex<[Entry]>([])
    private let nextID = Mutex<Int>(1)

    /// Validates the rule (regex compiles, it does something, counts are positive) and activates it.
    func add(_ rule: FaultRule) throws(StandInError) -> String {
        var pathRegex: CompiledPattern?
        if let pattern = rule.match.pathRegex {
            do { pathRegex = try CompiledPattern(pattern) } catch {
                throw StandInError(.invalidFault, "pathRegex '\(pattern)' does not compile: \(error)")
            }
        }
        if rule.response == nil && rule.delayMilliseconds <= 0 {
            throw StandInError(.invalidFault, "a fault needs a response, a named fault or delayMs > 0")
        }
        if let times = rule.times, times <= 0 {
            throw StandInError(.invalidFault, "times must be at least 1, or omitted for every request")
        }
        if rule.delayMilliseconds < 0 {
            throw StandInError(.invalidFault, "delayMs must not be negative")
        }
        let id = nextID.withLock { next in
            defer { next += 1 }
            return "fault-\(next)"
        }
        entries.withLock { $0.append(Entry(id: id, rule: rule, remaining: rule.times, pathRegex: pathRegex)) }
        return id
    }

    /// The first rule matching `request`, with one use consumed; rules used up disappear.
    func take(for request: RequestFacts) -> FaultRule? {
        entries.withLock { entries in
            guard let index = entries.firstIndex(where: { Self.matches($0, request) }) else { return nil }
            let rule = entries[index].rule
            if let remaining = entries[index].remaining {
                if remaining <= 1 { entries.remove(at: index) } else { entries[index].remaining = remaining - 1 }
            }
            return rule
        }
    }

    var active: [Entry] { entries.withLock { $0 } }

    @discardableResult
    func remove(id: String) -> Bool {
        entries.withLock { entries in
            guard let index = entries.firstIndex(where: { $0.id == id }) else { return false }
            entries.remove(at: index)
            return true
        }
    }

    func removeAll() { entries.withLock { $0.removeAll() } }

    private static func matches(_ entry: Entry, _ request: RequestFacts) -> Bool {
        let match = entry.rule.match
        if let method = match.method, method.uppercased() != request.method.uppercased() { return false }
        if let path = match.path, path != request.path { return false }
        if let regex = entry.pathRegex, !regex.wholeMatches(request.path) { return false }
        if let needle = match.bodyContains, !request.body.contains(needle) { return false }
        for (name, value) in match.headers ?? [:] {
            guard request.headers[name.lowercased()]?.contains(value) == true else { return false }
        }
        return true
    }
}
