import AlfredCore
import Foundation

/// One rule that contributed to a decision: its stable id (`vip_sender`, `urgency_word:de`,
/// `suppressed:spam` …) and its weight in points. Never carries message data.
public struct FiredRule: Sendable, Equatable, Codable, CustomStringConvertible {
    public let id: String
    public let weight: Int
    public init(id: String, weight: Int) { self.id = id; self.weight = weight }
    public var description: String { weight < 0 ? "\(id) \(weight)" : "\(id) +\(weight)" }
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
    static let categories: [(label: String, rule: RuleID)] = [
        ("CATEGORY_PROMOTIONS", .categoryPromotions), ("CATEGORY_SOCIAL", .categorySocial),
        ("CATEGORY_UPDATES", .categoryUpdates), ("CATEGORY_FORUMS", .categoryForums),
    ]

    // The rule set and preferences compiled once into the forms the rules compare against.
    private let languages: [(language: String, phrases: [[String]])]
    private let keywordPhrases: [[String]]
    private let replyPrefixes: Set<String>
    private let automatedSenders: [String]
    private let vipAddresses: Set<String>
    private let vipDomains: Set<String>
    private let userAddresses: Set<String>
    private var ownThreads: Set<String>
    private var ownMessageIDs: Set<String>
    private let calendar: Calendar

    public init(ruleSet: RuleSet = .standard, preferences: UrgencyPreferences = UrgencyPreferences()) {
        self.ruleSet = ruleSet
        self.preferences = preferences
        languages = ruleSet.urgencyWords.map { ($0.language, $0.words.map(Text.phrase).filter { !$0.isEmpty }) }
        keywordPhrases = preferences.keywords.map(Text.phrase).filter { !$0.isEmpty }
        replyPrefixes = Set(ruleSet.replyPrefixes.map { Text.fold($0).trimmingCharacters(in: .whitespaces) })
        automatedSenders = ruleSet.automatedSenders.map { Self.squeezed(Text.fold($0)) }.filter { !$0.isEmpty }
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

    /// Remembers the thread and `Message-ID` of a message the user sent (labelled SENT), so later
    /// replies count as replies in the user's own threads. Other messages are ignored.
    public mutating func learn(from message: GmailMessage) {
        guard message.labels.contains("SENT") else { return }
        if let thread = message.threadId, !thread.isEmpty { ownThreads.insert(thread) }
        if let id = message.header("Message-ID").map(Self.messageID), !id.isEmpty { ownMessageIDs.insert(id) }
    }

    /// Scores one message. `now` decides what "today" is (in the user's zone); `quietHours` selects
    /// the higher bar. Rules fire in a fixed order, so equal inputs give equal decisions.
    public func score(_ message: GmailMessage, now: Date, quietHours: Bool = false) -> UrgencyDecision {
        let bar = quietHours ? quietHoursThreshold : threshold
        let labels = message.labels
        if let suppression = Self.suppressions.first(where: { labels.contains($0.label) }) {
            return UrgencyDecision(urgent: false, score: 0, threshold: bar,
                                   rules: [FiredRule(id: Self.suppressedPrefix + suppression.id, weight: 0)],
                                   ruleSetVersion: ruleSet.version)
        }

        var fired: [FiredRule] = []
        func fire(_ rule: RuleID, _ qualifier: String? = nil) {
            let weight = ruleSet.weight(rule)
            guard weight != 0 else { return }  // a rule weighted 0 (or left out) is switched off
            fired.append(FiredRule(id: qualifier.map { "\(rule.rawValue):\($0)" } ?? rule.rawValue, weight: weight))
        }

        let sender = AddressList.sender(in: message.header("From")).map(AddressList.canonical)
        let subject = Text.strippingReplyPrefixes(message.header("Subject") ?? "", prefixes: replyPrefixes)
        let words = Text.words(subject)

        // Who sent it, and what Gmail and the user already said about it.
        if let sender, isVIP(sender) { fire(.vipSender) }
        if labels.contains("IMPORTANT") { fire(.gmailImportant) }
        if labels.contains("STARRED") { fire(.gmailStarred) }

        // What the subject says.
        if let language = languages.first(where: { $0.phrases.contains { Text.contains(words, phrase: $0) } }) {
            fire(.urgencyWord, language.language)
        }
        if keywordPhrases.contains(where: { Text.contains(words, phrase: $0) }) { fire(.userKeyword) }

        // Whether it was written to the user. Unknown when the user's addresses are not configured.
        if !userAddresses.isEmpty {
            let to = AddressList.addresses(in: message.header("To")).map(AddressList.canonical)
            let cc = AddressList.addresses(in: message.header("Cc")).map(AddressList.canonical)
            if to.contains(where: userAddresses.contains) { fire(.directTo) }
            else if cc.contains(where: userAddresses.contains) { fire(.ccOnly) }
            else { fire(.notAddressed) }
        }
        if isReplyInOwnThread(message) { fire(.ownThreadReply) }

        // Calendar traffic: an invitation for the rest of today matters now, any other does not.
        if ruleSet.calendarResponsePrefixes.contains(where: { Text.hasColonPrefix(subject, $0) }) {
            fire(.calendarResponse)
        } else if isInvitation(message, subject: subject), let date = InvitationDate(subject: subject) {
            // An invitation without a readable date (Outlook's, recurring ones) fires neither rule:
            // "not today" would be a guess.
            fire(isForRestOfToday(date, now: now) ? .inviteToday : .inviteNotToday)
        }

        // Bulk and machine mail.
        if message.header("List-Unsubscribe") != nil { fire(.listUnsubscribe) }
        if message.header("List-Id") != nil { fire(.listID) }
        if let precedence = message.header("Precedence").map(Self.token), ["bulk", "list", "junk"].contains(precedence) {
            fire(.precedenceBulk)
        }
        if isAutoSubmitted(message) { fire(.autoSubmitted) }
        if ruleSet.autoReplyPrefixes.contains(where: { Text.hasColonPrefix(subject, $0) }) { fire(.autoReplySubject) }
        if let sender, isAutomated(sender) { fire(.noreplySender) }
        for category in Self.categories where labels.contains(category.label) { fire(category.rule) }
        // A user filter that skipped the inbox has already said "not now".
        if !labels.isEmpty, !labels.contains("INBOX") { fire(.notInInbox) }

        let score = fired.reduce(0) { $0 + $1.weight }
        return UrgencyDecision(urgent: score >= bar, score: score, threshold: bar, rules: fired, ruleSetVersion: ruleSet.version)
    }

    // MARK: - Rule predicates

    private func isVIP(_ sender: String) -> Bool {
        if vipAddresses.contains(sender) { return true }
        return AddressList.domain(of: sender).map { vipDomains.contains(String($0)) } ?? false
    }

    private func isAutomated(_ sender: String) -> Bool {
        guard let local = AddressList.localPart(of: sender) else { return false }
        let squeezed = Self.squeezed(String(local))
        return automatedSenders.contains { squeezed.contains($0) }
    }

    private func isReplyInOwnThread(_ message: GmailMessage) -> Bool {
        if let thread = message.threadId, ownThreads.contains(thread) { return true }
        guard !ownMessageIDs.isEmpty else { return false }
        let referenced = [message.header("In-Reply-To"), message.header("References")].compactMap { $0 }.flatMap(Self.messageIDs)
        return referenced.contains(where: ownMessageIDs.contains)
    }

    /// `Auto-Submitted` with any value but "no" (RFC 3834), or the older autoresponder markers.
    private func isAutoSubmitted(_ message: GmailMessage) -> Bool {
        if let value = message.header("Auto-Submitted").map(Self.token), value != "no", !value.isEmpty { return true }
        return message.header("X-Autoreply") != nil || message.header("X-Autorespond") != nil
    }

    /// A Google Calendar invitation subject, or a calendar part/class in the headers (Outlook and
    /// others send `text/calendar`; their subjects carry no date, so the invite rules stay silent).
    private func isInvitation(_ message: GmailMessage, subject: String) -> Bool {
        if ruleSet.invitationPrefixes.contains(where: { Text.hasColonPrefix(subject, $0) }) { return true }
        let types = [message.payload?.mimeType, message.header("Content-Type"), message.header("Content-Class")]
            .compactMap { $0?.lowercased() }
        return types.contains { $0.contains("text/calendar") || $0.contains("calendarmessage") }
    }

    /// The invitation's date is today in the user's zone and, when the subject gives a start time,
    /// the event started less than an hour ago (a note on this morning's meeting is not urgent).
    private func isForRestOfToday(_ date: InvitationDate, now: Date) -> Bool {
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
        local.lowercased().filter { $0 != "." && $0 != "-" && $0 != "_" }
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
