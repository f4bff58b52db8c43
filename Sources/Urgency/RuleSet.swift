import Foundation

/// Named phrase lists of a rule set (`phrases` in the JSON), each per language. Content families
/// drive the rule of the same name; time families are the vocabulary of the deadline reader.
public enum PhraseFamily: String, CaseIterable, Sendable, Codable {
    // Content: each fires its rule (`decision_ask:fr` …).
    case decisionAsk = "decision_ask", blocking, incident, security, negated, closure, fyi, marketing
    case automatedNotice = "automated_notice", phishing, giftCard = "gift_card"
    case health, pickup
    /// A school or childcare closed today: a family emergency (fires `health_event`) when the time is today.
    case schoolClosure = "school_closure"
    // Combinations: a rule fires only when its families meet (transport + problem, change + today, …).
    case travelTransport = "travel_transport", travelProblem = "travel_problem"
    case meetingChange = "meeting_change", meetingWord = "meeting_word", waitingForYou = "waiting_for_you"
    case paymentAsk = "payment_ask", secrecy
    /// Bank details said to have changed: a payment ask that needs no secrecy to be a scam.
    case bankChange = "bank_change"
    // Situations that are urgent without an urgency word.
    /// Work or operations stopped or unable to proceed ("line down", "linea ferma", "parada").
    case workStopped = "work_stopped"
    /// People idle or blocked right now ("crew waiting", "operai fermi").
    case peopleIdle = "people_idle"
    /// Customers, clients, patients or users affected ("customers affected", "cliente bloccato").
    case customerImpact = "customer_impact"
    /// Where a person waits for the user ("at reception", "in portineria", "na receção"); together
    /// with `arrival` (or a phrase that says both).
    case someoneHere = "someone_here"
    /// A person arriving or waiting ("is here", "wartet", "è arrivato", "chegou"): with a place
    /// (`someone_here`), someone is waiting for the user in person.
    case arrival
    /// People the user's work serves or relies on ("patients", "drivers", "clienti", "a equipa"):
    /// with `arrival`, people are waiting.
    case people
    /// A payment or service about to fail ("will bounce", "insufficient funds", "vai ser cortado").
    case moneyConsequence = "money_consequence"
    /// What is lost if nothing happens ("otherwise", "we'll miss the truck", "altrimenti").
    case consequenceCue = "consequence_cue"
    /// Words that, right before an urgency word or a closure word, turn it around ("not", "nicht", "pas").
    case negator
    // Time vocabulary.
    case today, tomorrow, yesterday, dayAfterTomorrow = "day_after_tomorrow"
    case todayDeadline = "today_deadline", tonight, afternoon, morning, noon, midnight, endOfDay = "end_of_day"
    case withinHour = "within_hour", later, since, ago, within, minutes, hours, userTime = "user_time"
    /// Words that make the time after them a deadline ("by", "bis", "avant", "antes de"): only such a
    /// time counts as missed once it has passed.
    case deadlineCue = "deadline_cue"
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday
    case january, february, march, april, may, june, july, august, september, october, november, december
}

/// Versioned urgency rules as data: weights, thresholds and the word lists the rules match.
///
/// The JSON form (snake_case keys) is what `RuleSet(contentsOfFile:)` reads and what the embedded
/// default (`RuleSet.standard`) is written in:
/// ```json
/// { "version": "2026-11-21.2", "threshold": 60, "quiet_hours_threshold": 90,
///   "weights": { "vip_sender": 30, "list_unsubscribe": -30, … },
///   "urgency_words": [ { "language": "en", "words": ["urgent", "asap", "as soon as possible"] }, … ],
///   "reply_prefixes": ["re", "aw", "wg", …], "invitation_prefixes": ["Invitation", …],
///   "calendar_response_prefixes": ["Accepted", …], "auto_reply_prefixes": ["Automatic reply", …],
///   "automated_senders": ["noreply", "notifications", …] }
/// ```
/// A rule missing from `weights` (or weighted 0) never fires; an unknown rule id is an error, so a
/// typo in a hand-edited file cannot silently switch a rule off. Hard suppressions (SPAM, TRASH,
/// SENT, DRAFT) are not data: no rule file can make the user's spam or own mail urgent.
public struct RuleSet: Sendable, Equatable, Codable {
    /// Urgency words of one language, each a word or a phrase ("as soon as possible"), matched as
    /// whole words, case- and diacritic-insensitively. Inflections are listed, not derived.
    public struct LanguageWords: Sendable, Equatable, Codable {
        public var language: String
        public var words: [String]
        public init(language: String, words: [String]) { self.language = language; self.words = words }
    }

    /// Identifies the rules that made a decision (`rule_set_version` in every decision).
    public var version: String
    /// A message is urgent when its score reaches this.
    public var threshold: Int
    /// The higher bar during the user's quiet hours.
    public var quietHoursThreshold: Int
    public var weights: [RuleID: Int]
    /// Checked in order; the first language with a match is the one the decision names.
    public var urgencyWords: [LanguageWords] { didSet { lexiconCache = LexiconCache() } }
    /// Folded reply/forward markers stripped from the subject start ("re", "aw", "wg", "tr", "rv" …).
    public var replyPrefixes: [String] { didSet { lexiconCache = LexiconCache() } }
    /// Subject starts (before a colon) of calendar invitations: "Invitation", "Updated invitation" …
    public var invitationPrefixes: [String] { didSet { lexiconCache = LexiconCache() } }
    /// Subject starts of replies to invitations: "Accepted", "Declined" …
    public var calendarResponsePrefixes: [String] { didSet { lexiconCache = LexiconCache() } }
    /// Subject starts of out-of-office and other automatic replies that lack `Auto-Submitted`.
    public var autoReplyPrefixes: [String] { didSet { lexiconCache = LexiconCache() } }
    /// Substrings of a sender's local part (with `.`, `-`, `_` removed) that mark a machine sender.
    public var automatedSenders: [String] { didSet { lexiconCache = LexiconCache() } }
    /// Phrase lists by family and language: what the content and time rules read.
    public var phrases: [PhraseFamily: [LanguageWords]] { didSet { lexiconCache = LexiconCache() } }
    /// Display-name words that claim an executive role ("ceo", "geschaftsfuhrer", "pdg" …), folded.
    public var executiveTitles: [String]

    /// The word lists compiled, built on first use and shared by the copies of this value.
    private var lexiconCache = LexiconCache()
    var lexicon: Lexicon { lexiconCache.lexicon(for: self) }

    public init(version: String, threshold: Int, quietHoursThreshold: Int, weights: [RuleID: Int],
                urgencyWords: [LanguageWords], replyPrefixes: [String] = [], invitationPrefixes: [String] = [],
                calendarResponsePrefixes: [String] = [], autoReplyPrefixes: [String] = [],
                automatedSenders: [String] = [], phrases: [PhraseFamily: [LanguageWords]] = [:],
                executiveTitles: [String] = []) throws {
        self.version = version; self.threshold = threshold; self.quietHoursThreshold = quietHoursThreshold
        self.weights = weights; self.urgencyWords = urgencyWords; self.replyPrefixes = replyPrefixes
        self.invitationPrefixes = invitationPrefixes; self.calendarResponsePrefixes = calendarResponsePrefixes
        self.autoReplyPrefixes = autoReplyPrefixes; self.automatedSenders = automatedSenders
        self.phrases = phrases; self.executiveTitles = executiveTitles
        try validate()
    }

    /// The weight of a rule; 0 (never fires) when the rule set leaves it out.
    public func weight(_ rule: RuleID) -> Int { weights[rule] ?? 0 }

    /// Decodes and validates a rule set from its JSON form.
    public init(json: Data) throws {
        do {
            self = try JSONDecoder().decode(RuleSet.self, from: json)
        } catch let error as RuleSetError {
            throw error
        } catch let error as DecodingError {
            throw RuleSetError(.malformed, detail: DecodingFailure.describe(error))
        }
    }

    /// What a weight or threshold may be (see `validate`).
    public static let bounds = -10_000...10_000

    /// Loads a rule set file (the same JSON as the embedded default).
    public init(contentsOfFile path: String) throws {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw RuleSetError(.unreadable, detail: "cannot read \(path)")
        }
        do { try self.init(json: data) } catch let error as RuleSetError {
            throw RuleSetError(error.code, detail: "\(path): \(error.detail)")
        }
    }

    /// The rules a file must satisfy: a version, a quiet-hours bar strictly above the normal one
    /// (quiet hours only ever raise the bar), and usable word lists.
    public func validate() throws {
        if version.trimmingCharacters(in: .whitespaces).isEmpty { throw RuleSetError(.invalid, detail: "version is empty") }
        // Sums of weights are plain Ints: bounded inputs keep a hand-edited file from overflowing them.
        for (name, value) in [("threshold", threshold), ("quiet_hours_threshold", quietHoursThreshold)] + weights.map({ ($0.key.rawValue, $0.value) })
        where !Self.bounds.contains(value) {
            throw RuleSetError(.invalid, detail: "\(name) is \(value); weights and thresholds must lie in \(Self.bounds)")
        }
        if quietHoursThreshold <= threshold {
            throw RuleSetError(.invalid, detail: "quiet_hours_threshold (\(quietHoursThreshold)) must be above threshold (\(threshold))")
        }
        for entry in urgencyWords + phrases.values.flatMap({ $0 }) {
            if entry.language.isEmpty || entry.language.contains(where: { !$0.isLetter && $0 != "-" }) {
                throw RuleSetError(.invalid, detail: "urgency_words language '\(entry.language)' must be a language code such as 'de'")
            }
            if let empty = entry.words.first(where: { Text.phrase($0).isEmpty }) {
                throw RuleSetError(.invalid, detail: "a phrase list [\(entry.language)] has a word without letters: '\(empty)'")
            }
        }
    }

    enum CodingKeys: String, CodingKey {
        case version, threshold, weights
        case quietHoursThreshold = "quiet_hours_threshold"
        case urgencyWords = "urgency_words"
        case replyPrefixes = "reply_prefixes"
        case invitationPrefixes = "invitation_prefixes"
        case calendarResponsePrefixes = "calendar_response_prefixes"
        case autoReplyPrefixes = "auto_reply_prefixes"
        case automatedSenders = "automated_senders"
        case phrases
        case executiveTitles = "executive_titles"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        // Weights are read as plain strings first, so an unknown id gets a message that names it.
        let raw = try container.decode([String: Int].self, forKey: .weights)
        var weights: [RuleID: Int] = [:]
        for (key, value) in raw {
            guard let rule = RuleID(rawValue: key) else {
                throw RuleSetError(.invalid, detail: "unknown rule id '\(key)' in weights; known: \(RuleID.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            weights[rule] = value
        }
        try self.init(
            version: try container.decode(String.self, forKey: .version),
            threshold: try container.decode(Int.self, forKey: .threshold),
            quietHoursThreshold: try container.decode(Int.self, forKey: .quietHoursThreshold),
            weights: weights,
            urgencyWords: try container.decodeIfPresent([LanguageWords].self, forKey: .urgencyWords) ?? [],
            replyPrefixes: try container.decodeIfPresent([String].self, forKey: .replyPrefixes) ?? [],
            invitationPrefixes: try container.decodeIfPresent([String].self, forKey: .invitationPrefixes) ?? [],
            calendarResponsePrefixes: try container.decodeIfPresent([String].self, forKey: .calendarResponsePrefixes) ?? [],
            autoReplyPrefixes: try container.decodeIfPresent([String].self, forKey: .autoReplyPrefixes) ?? [],
            automatedSenders: try container.decodeIfPresent([String].self, forKey: .automatedSenders) ?? [],
            phrases: try Self.decodePhrases(container.decodeIfPresent([String: [LanguageWords]].self, forKey: .phrases) ?? [:]),
            executiveTitles: try container.decodeIfPresent([String].self, forKey: .executiveTitles) ?? [])
    }

    /// Family names are checked like rule ids: a typo is an error, not a silently empty family.
    static func decodePhrases(_ raw: [String: [LanguageWords]]) throws -> [PhraseFamily: [LanguageWords]] {
        var phrases: [PhraseFamily: [LanguageWords]] = [:]
        for (key, value) in raw {
            guard let family = PhraseFamily(rawValue: key) else {
                throw RuleSetError(.invalid, detail: "unknown phrase family '\(key)' in phrases")
            }
            phrases[family] = value
        }
        return phrases
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encode(threshold, forKey: .threshold)
        try container.encode(quietHoursThreshold, forKey: .quietHoursThreshold)
        try container.encode(Dictionary(uniqueKeysWithValues: weights.map { ($0.key.rawValue, $0.value) }), forKey: .weights)
        try container.encode(urgencyWords, forKey: .urgencyWords)
        try container.encode(replyPrefixes, forKey: .replyPrefixes)
        try container.encode(invitationPrefixes, forKey: .invitationPrefixes)
        try container.encode(calendarResponsePrefixes, forKey: .calendarResponsePrefixes)
        try container.encode(autoReplyPrefixes, forKey: .autoReplyPrefixes)
        try container.encode(automatedSenders, forKey: .automatedSenders)
        try container.encode(Dictionary(uniqueKeysWithValues: phrases.map { ($0.key.rawValue, $0.value) }), forKey: .phrases)
        try container.encode(executiveTitles, forKey: .executiveTitles)
    }
}

/// A rule set that cannot be used, with what is wrong and where (a path or a key, never message data).
public struct RuleSetError: Error, CustomStringConvertible, Equatable {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate let name: String
        public var description: String { name }
        /// The file could not be read.
        public static let unreadable = Code(name: "unreadable")
        /// Not JSON, or a field is missing or of the wrong type.
        public static let malformed = Code(name: "malformed")
        /// Well-formed, but breaks a rule of `RuleSet.validate()`.
        public static let invalid = Code(name: "invalid")
    }

    public let code: Code
    public let detail: String
    public init(_ code: Code, detail: String) { self.code = code; self.detail = detail }
    public var description: String { "rule set \(code): \(detail)" }
}

/// Short, data-free descriptions of `DecodingError`s (Foundation's include the coding path, which is
/// what an operator needs, and never the offending value).
enum DecodingFailure {
    static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "the top level" : "'\(keys.joined(separator: "."))'"
        }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty: return "not valid JSON"
        case .dataCorrupted(let context): return "invalid value at \(path(context)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            let parent = context.codingPath.isEmpty ? "" : " in \(path(context))"
            return "missing field '\(key.stringValue)'\(parent)"
        case .typeMismatch(let type, let context): return "\(path(context)) is not \(Self.name(type))"
        case .valueNotFound(let type, let context): return "\(path(context)) is null, expected \(Self.name(type))"
        @unknown default: return "cannot decode"
        }
    }

    private static func name(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "a boolean"
        default:
            String(describing: type).hasPrefix("Array") ? "an array" :
                String(describing: type).hasPrefix("Dictionary") ? "an object" : "a \(type)"
        }
    }
}
