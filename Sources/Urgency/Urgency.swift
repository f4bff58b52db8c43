import AlfredCore
import Foundation

/// One rule that contributed to a decision: its stable id (`vip_sender`, `urgency_word:de`,
/// `suppressed:spam` …) and its weight in points. Never carries message data.
///
/// `detail` says why in safe terms for `--explain` ("deadline 15:00 today, 2h20m ahead", "phrase
/// family in the snippet"): never the matched text, a subject, an address or a snippet. It renders
/// the same decision, so equality compares the id and the weight only.
public struct FiredRule: Sendable, Equatable, Codable, CustomStringConvertible {
    public let id: String
    public let weight: Int
    public let detail: String?
    public init(id: String, weight: Int, detail: String? = nil) { self.id = id; self.weight = weight; self.detail = detail }
    public var description: String { weight < 0 ? "\(id) \(weight)" : "\(id) +\(weight)" }
    public static func == (a: FiredRule, b: FiredRule) -> Bool { a.id == b.id && a.weight == b.weight }
}

/// The outcome for one message, and why.
///
/// `score` is an integer number of points: the sum of the weights of `rules`. The message is
/// urgent when `score >= threshold`, where `threshold` is the bar that applied (the quiet-hours one
/// during quiet hours). A hard suppression (SPAM, TRASH, SENT, DRAFT) short-circuits: the only rule is
/// `suppressed:<label>` with weight 0, the score is 0 and the message is never urgent.
///
/// Everything here is safe to log: rule ids, numbers and the rule-set version — no subject,
/// address or matched word.
public struct UrgencyDecision: Sendable, Equatable, Codable, CustomStringConvertible {
    public let urgent: Bool
    public let score: Int
    public let threshold: Int
    public let rules: [FiredRule]
    public let ruleSetVersion: String

    public init(urgent: Bool, score: Int, threshold: Int, rules: [FiredRule], ruleSetVersion: String) {
        self.urgent = urgent; self.score = score; self.threshold = threshold; self.rules = rules
        self.ruleSetVersion = ruleSetVersion
    }

    /// The suppressing label (`spam`, `trash`, `sent`, `draft`), if a hard suppression decided.
    public var suppressedBy: String? {
        rules.first { $0.id.hasPrefix(UrgencyScorer.suppressedPrefix) }.map { String($0.id.dropFirst(UrgencyScorer.suppressedPrefix.count)) }
    }

    /// For logs: "urgent 100/60 [vip_sender +40, urgency_word:de +45, direct_to +15] rules 2026-11-21.1".
    public var description: String {
        "\(urgent ? "urgent" : "not urgent") \(score)/\(threshold) [\(rules.map(\.description).joined(separator: ", "))] rules \(ruleSetVersion)"
    }

    enum CodingKeys: String, CodingKey {
        case urgent, score, threshold, rules
        case ruleSetVersion = "rule_set_version"
    }
}

/// Scores Gmail message metadata against a `RuleSet` for one user. Pure and deterministic: the
/// time and the user's zone are inputs, nothing is read from the clock, the network or the disk.
///
/// Own threads come from the preferences (`own_thread_ids`, `own_message_ids`) and, when the caller
/// shows it the user's SENT messages through `learn(from:)`, from those: a later reply in such a
/// thread, or one whose `In-Reply-To`/`References` names a sent `Message-ID`, fires
/// `own_thread_reply`. What is learned lives only in this value (ids, no content).
public struct UrgencyScorer: Sendable {
    public let ruleSet: RuleSet
    public let preferences: UrgencyPreferences

    static let suppressedPrefix = "suppressed:"
    /// Labels that end the decision before any rule runs (external-apis §3.5: never notify / ignore).
    static let suppressions: [(label: String, id: String)] = [("SPAM", "spam"), ("TRASH", "trash"), ("SENT", "sent"), ("DRAFT", "draft")]

    // The rule set's lexicon (compiled once per rule set, `Lexicon`) and the preferences compiled
    // into the forms the rules compare against.
    let phraseIndex: PhraseIndex
    let urgencyLanguages: [String]
    let negators: WordTable<Bool>
    let timeReader: TimeReader
    var trust: SenderTrust
    let keywordPhrases: [[String]]
    let replyPrefixes: Set<String>
    let invitationPrefixes: [String], calendarResponsePrefixes: [String], autoReplyPrefixes: [String]
    let automatedSenders: [String]
    let vipAddresses: Set<String>
    let vipDomains: Set<String>
    let userAddresses: Set<String>
    var ownThreads: Set<String>
    var ownMessageIDs: Set<String>
    let calendar: Calendar
    /// `Rule.all`'s weights in the rule set, in the same order, and whether each is a strong event:
    /// looked up once here rather than by id for every rule of every message.
    let ruleWeights: [Int]
    let ruleIsStrongEvent: [Bool]

    public init(ruleSet: RuleSet = .standard, preferences: UrgencyPreferences = UrgencyPreferences()) {
        self.ruleSet = ruleSet
        self.preferences = preferences
        ruleWeights = Rule.all.map { ruleSet.weight($0.id) }
        ruleIsStrongEvent = Rule.all.map { RuleID.strongEvents.contains($0.id) }
        let lexicon = ruleSet.lexicon
        urgencyLanguages = lexicon.urgencyLanguages
        phraseIndex = lexicon.phraseIndex
        negators = lexicon.negators
        timeReader = lexicon.timeReader
        trust = SenderTrust(preferences: preferences, executiveTitles: ruleSet.executiveTitles)
        keywordPhrases = preferences.keywords.map(Text.tokenList).filter { !$0.isEmpty }
        replyPrefixes = lexicon.replyPrefixes
        invitationPrefixes = lexicon.invitationPrefixes
        calendarResponsePrefixes = lexicon.calendarResponsePrefixes
        autoReplyPrefixes = lexicon.autoReplyPrefixes
        automatedSenders = lexicon.automatedSenders
        var addresses = Set<String>(), domains = Set<String>()
        for entry in preferences.vipSenders.map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where !entry.isEmpty {
            if entry.hasPrefix("@") { domains.insert(String(entry.dropFirst())) } else { addresses.insert(AddressList.canonical(entry)) }
        }
        vipAddresses = addresses
        vipDomains = domains
        userAddresses = Set(preferences.userAddresses.map(AddressList.canonical))
        ownThreads = Set(preferences.ownThreadIds)
        ownMessageIDs = Set(preferences.ownMessageIds.map(Self.messageID))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = preferences.timeZone
        self.calendar = calendar
    }

    /// The bar outside quiet hours: the user's override, else the rule set's.
    public var threshold: Int { preferences.threshold ?? ruleSet.threshold }

    /// The bar during quiet hours; never below `threshold`.
    public var quietHoursThreshold: Int {
        let bar = preferences.quietHoursThreshold ?? (threshold + ruleSet.quietHoursThreshold - ruleSet.threshold)
        return max(bar, threshold)
    }

    /// Learns from the user's mail history: the thread and `Message-ID` of a message the user sent
    /// (labelled SENT), so later replies count as replies in the user's own threads, and the
    /// display names of the people involved (the user, their recipients, VIPs and colleagues), so a
    /// stranger borrowing one of those names is noticed. Callers show it the SENT messages (and may
    /// show it all messages) before scoring; ids and names stay in this value only.
    public mutating func learn(from message: GmailMessage) {
        let vipAddresses = vipAddresses, vipDomains = vipDomains
        trust.learn(from: message) { address in
            vipAddresses.contains(address) || AddressList.domain(of: address).map { vipDomains.contains(String($0)) } ?? false
        }
        guard message.labels.contains("SENT") else { return }
        if let thread = message.threadId, !thread.isEmpty { ownThreads.insert(thread) }
        if let id = message.header("Message-ID").map(Self.messageID), !id.isEmpty { ownMessageIDs.insert(id) }
    }

    /// Scores one message. `now` decides what "today" is (in the user's zone); `quietHours` selects
    /// the higher bar. Rules fire in a fixed order, so equal inputs give equal decisions. `explain`
    /// fills each rule's `detail` (the `--explain` text); without it no explanation is built, which
    /// is most of the work for a message that fires a few rules.
    public func score(_ message: GmailMessage, now: Date, quietHours: Bool = false, explain: Bool = false) -> UrgencyDecision {
        let bar = quietHours ? quietHoursThreshold : threshold
        let labels = message.labels
        if let suppression = Self.suppressions.first(where: { labels.contains($0.label) }) {
            return UrgencyDecision(urgent: false, score: 0, threshold: bar,
                                   rules: [FiredRule(id: Self.suppressedPrefix + suppression.id, weight: 0)],
                                   ruleSetVersion: ruleSet.version)
        }

        let features = features(of: message, now: now, explain: explain)
        var fired: [FiredRule] = []
        var strongEvent = false
        for (index, rule) in Rule.all.enumerated() {
            let weight = ruleWeights[index]
            // A rule weighted 0 (or left out) is switched off.
            guard weight != 0, let evidence = rule.fires(features) else { continue }
            strongEvent = strongEvent || ruleIsStrongEvent[index]
            fired.append(FiredRule(id: evidence.qualifier.map { rule.id.rawValue + ":" + $0 } ?? rule.id.rawValue, weight: weight,
                                   detail: explain ? (evidence.why ?? rule.summary) : nil))
        }

        // Strong events are weighed against machine-mail signals instead of being vetoed by them.
        let floor = ruleSet.weight(.bulkFloor)
        if floor < 0, strongEvent {
            let bulk = fired.filter { rule in RuleID.bulkRules.contains { rule.id == $0.rawValue || rule.id.hasPrefix($0.rawValue + ":") } }
                .reduce(0) { $0 + $1.weight }
            if bulk < floor {
                fired.append(FiredRule(id: RuleID.bulkFloor.rawValue, weight: floor - bulk,
                                       detail: explain ? "machine-mail penalties (\(bulk)) limited to \(floor) by a strong event signal" : nil))
            }
        }

        let score = fired.reduce(0) { $0 + $1.weight }
        return UrgencyDecision(urgent: score >= bar, score: score, threshold: bar, rules: fired, ruleSetVersion: ruleSet.version)
    }

    /// The rules that fire on a message whatever their weights (none for a suppressed one): what
    /// `WeightFitting` sums instead of scoring again for every candidate weight.
    func firingRules(_ message: GmailMessage, now: Date) -> [RuleID] {
        guard !Self.suppressions.contains(where: { message.labels.contains($0.label) }) else { return [] }
        let features = features(of: message, now: now, explain: false)
        return Rule.all.compactMap { $0.fires(features) == nil ? nil : $0.id }
    }

    // MARK: - Time

    private static let stopwords: [(language: String, words: Set<Substring>)] = [
        ("en", ["the", "and", "you", "to", "is", "for", "your", "we", "this", "are", "please", "with", "of", "can", "it", "have"]),
        ("de", ["der", "die", "das", "und", "ist", "ich", "sie", "wir", "nicht", "mit", "bitte", "fur", "auf", "du", "den", "ein", "eine"]),
        ("fr", ["le", "la", "les", "et", "vous", "est", "pour", "une", "des", "nous", "je", "pas", "avec", "du", "au", "merci", "sur"]),
        ("es", ["el", "los", "las", "y", "que", "es", "para", "por", "una", "con", "su", "del", "al", "gracias", "tu", "lo"]),
        ("it", ["il", "che", "per", "di", "della", "delle", "degli", "dei", "gli", "sono", "del", "nel", "nella", "alla", "questo", "questa", "anche", "ho"]),
        ("pt", ["nao", "voce", "uma", "os", "do", "da", "em", "ao", "e", "dos", "das", "com", "pelo", "pela", "isso", "tambem", "obrigado", "muito"]),
    ]

    /// Each stopword and the languages it belongs to, as bits in `stopwords` order: one lookup a token.
    private static let stopwordLanguages: WordTable<UInt8> = {
        var table: [WordKey: UInt8] = [:]
        for (index, entry) in stopwords.enumerated() {
            for word in entry.words { table[WordKey(word), default: 0] |= 1 << index }
        }
        return WordTable(table.map { ($0.key, $0.value) })
    }()

    /// The message's main language by common words; ties and silence give "".
    static func guessLanguage(_ tokens: [Token]) -> String {
        var counts = [Int](repeating: 0, count: stopwords.count)
        for token in tokens where !token.isNumber {
            guard let languages = stopwordLanguages[token.key] else { continue }
            for index in counts.indices where languages & (1 << index) != 0 { counts[index] += 1 }
        }
        guard let best = counts.indices.max(by: { counts[$0] < counts[$1] }), counts[best] > 0 else { return "" }
        return stopwords[best].language
    }

    func readTime(_ message: GmailMessage, date: String?, tokens: [Token], matches: [PhraseIndex.Match], language: String, now: Date) -> TimeReading {
        guard tokens.contains(where: \.isNumber) || matches.contains(where: { $0.family.map(TimeReader.timeFamilies.contains) ?? false }) else {
            return TimeReading()
        }
        let sent = message.receivedAt ?? now
        let zone = preferences.timeZone
        var writerZone = zone
        if let offset = date.flatMap(Self.utcOffset), offset != zone.secondsFromGMT(for: sent) {
            writerZone = TimeZone(secondsFromGMT: offset) ?? zone
        }
        var writer = calendar
        if writerZone != zone { writer.timeZone = writerZone }
        return timeReader.read(TimeReader.Context(tokens: tokens, matches: matches, french: language == "fr", english: language == "en",
                                                  sent: sent, writerZone: writerZone, userZone: zone, now: now),
                               writer: writer, user: calendar)
    }

    /// The numeric zone of an RFC 5322 date ("Tue, 24 Nov 2026 09:58:12 +0100" → 3600).
    static func utcOffset(_ date: String) -> Int? {
        // The last space-separated word that starts with a sign, as bytes ("+0100", "-0500").
        guard let last = date.utf8.split(separator: UInt8(ascii: " ")).last(where: { $0.first == UInt8(ascii: "+") || $0.first == UInt8(ascii: "-") }),
              last.count == 5 else { return nil }
        var value = 0
        for byte in last.dropFirst() {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        let seconds = (value / 100) * 3600 + (value % 100) * 60
        return last.first == UInt8(ascii: "-") ? -seconds : seconds
    }

    // MARK: - Rule predicates

    func isVIP(_ sender: String) -> Bool {
        if vipAddresses.contains(sender) { return true }
        return AddressList.domain(of: sender).map { vipDomains.contains(String($0)) } ?? false
    }

    func isAutomated(_ sender: String) -> Bool {
        guard let local = AddressList.localPart(of: sender) else { return false }
        let squeezed = Self.squeezed(String(local))
        return automatedSenders.contains { Text.contains(squeezed, $0) }
    }

    func isReplyInOwnThread(_ message: GmailMessage, headers: [String: String]) -> Bool {
        if let thread = message.threadId, ownThreads.contains(thread) { return true }
        guard !ownMessageIDs.isEmpty else { return false }
        let referenced = [headers["in-reply-to"], headers["references"]].compactMap { $0 }.flatMap(Self.messageIDs)
        return referenced.contains(where: ownMessageIDs.contains)
    }

    /// `Auto-Submitted` with any value but "no" (RFC 3834), or the older autoresponder markers.
    func isAutoSubmitted(headers: [String: String]) -> Bool {
        if let value = headers["auto-submitted"].map(Self.token), value != "no", !value.isEmpty { return true }
        return headers["x-autoreply"] != nil || headers["x-autorespond"] != nil
    }

    /// A Google Calendar invitation subject, or a calendar part/class in the headers (Outlook and
    /// others send `text/calendar`; their subjects carry no date, so the invite rules stay silent).
    func isInvitation(headers: [String: String], mimeType: String?, foldedSubject folded: String) -> Bool {
        if invitationPrefixes.contains(where: { Text.hasFoldedColonPrefix(folded, $0) }) { return true }
        return [mimeType, headers["content-type"], headers["content-class"]].contains { type in
            type.map { Text.containsIgnoringASCIICase($0, "text/calendar") || Text.containsIgnoringASCIICase($0, "calendarmessage") } ?? false
        }
    }

    /// The invitation's date is today in the user's zone and, when the subject gives a start time,
    /// the event started less than an hour ago (a note on this morning's meeting is not urgent).
    func isForRestOfToday(_ date: InvitationDate, now: Date) -> Bool {
        let today = calendar.dateComponents([.year, .month, .day], from: now)
        guard today.year == date.year, today.month == date.month, today.day == date.day else { return false }
        guard let start = date.start,
              let startDate = calendar.date(from: DateComponents(year: date.year, month: date.month, day: date.day,
                                                                 hour: start.hour, minute: start.minute)) else { return true }
        return startDate >= now.addingTimeInterval(-3600)
    }

    // MARK: - Header helpers

    /// The first token of a structured header value, folded: "Bulk", "auto-replied; x=1" → "auto-replied".
    static func token(_ value: String) -> String {
        Text.fold(value.split(separator: ";", maxSplits: 1).first.map(String.init) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A local part without separators, so "no-reply", "no_reply" and "noreply" compare alike.
    static func squeezed(_ local: String) -> String {
        let utf8 = local.utf8
        guard utf8.allSatisfy({ $0 < 0x80 }) else { return local.lowercased().filter { $0 != "." && $0 != "-" && $0 != "_" } }
        return Text.asciiLowercased(utf8) { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    static func messageID(_ raw: String) -> String {
        messageIDs(in: raw).first ?? raw.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The `<…>` ids in an `In-Reply-To` or `References` value, without the brackets.
    static func messageIDs(in value: String) -> [String] {
        var ids: [String] = []
        var current: String?
        for character in value {
            switch character {
            case "<": current = ""
            case ">": if let id = current, !id.isEmpty { ids.append(id) }; current = nil
            default: current?.append(character)
            }
        }
        return ids
    }
}
