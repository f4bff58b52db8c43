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
    static let categories: [(label: String, rule: RuleID)] = [
        ("CATEGORY_PROMOTIONS", .categoryPromotions), ("CATEGORY_SOCIAL", .categorySocial),
        ("CATEGORY_UPDATES", .categoryUpdates), ("CATEGORY_FORUMS", .categoryForums),
    ]

    // The rule set and preferences compiled once into the forms the rules compare against.
    /// Urgency words (family nil, ranked by list order) and every phrase family, in one index: one
    /// lookup per token of a message.
    private let phraseIndex: PhraseIndex
    private let urgencyLanguages: [String]
    private let negators: Set<String>
    private let timeReader: TimeReader
    private var trust: SenderTrust
    private let keywordPhrases: [[String]]
    private let replyPrefixes: Set<String>
    private let invitationPrefixes: [String], calendarResponsePrefixes: [String], autoReplyPrefixes: [String]
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
        urgencyLanguages = ruleSet.urgencyWords.map(\.language)
        phraseIndex = PhraseIndex(ruleSet.urgencyWords.enumerated().map { (nil, $0.element.language, $0.offset, $0.element.words) }
            // In the families' declared order, not the dictionary's (which changes from run to run):
            // where two phrases tie, the same one wins every time.
            + PhraseFamily.allCases.flatMap { family in (ruleSet.phrases[family] ?? []).map { (family, $0.language, 0, $0.words) } })
        negators = Set((ruleSet.phrases[.negator] ?? []).flatMap(\.words).compactMap { Text.tokenList($0).last })
        timeReader = TimeReader(ruleSet: ruleSet)
        trust = SenderTrust(preferences: preferences, executiveTitles: ruleSet.executiveTitles)
        keywordPhrases = preferences.keywords.map(Text.tokenList).filter { !$0.isEmpty }
        replyPrefixes = Set(ruleSet.replyPrefixes.map { Text.fold($0).trimmingCharacters(in: .whitespaces) })
        invitationPrefixes = ruleSet.invitationPrefixes.map(Text.fold)
        calendarResponsePrefixes = ruleSet.calendarResponsePrefixes.map(Text.fold)
        autoReplyPrefixes = ruleSet.autoReplyPrefixes.map(Text.fold)
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

        // Headers by lower-cased name, first one wins (RFC 5322 names are case-insensitive).
        var headerValues: [String: String] = [:]
        for header in message.payload?.headers ?? [] where headerValues[header.name.lowercased()] == nil {
            headerValues[header.name.lowercased()] = header.value
        }
        func header(_ name: String) -> String? { headerValues[name] }

        var fired: [FiredRule] = []
        var firedIDs = Set<RuleID>()
        func fire(_ rule: RuleID, _ qualifier: String? = nil, why: @autoclosure () -> String? = nil, weight override: Int? = nil) {
            let weight = override ?? ruleSet.weight(rule)
            guard weight != 0, ruleSet.weight(rule) != 0 else { return }  // a rule weighted 0 (or left out) is switched off
            firedIDs.insert(rule)
            fired.append(FiredRule(id: qualifier.map { rule.rawValue + ":" + $0 } ?? rule.rawValue, weight: weight,
                                   detail: explain ? (why() ?? rule.summary) : nil))
        }

        let fromHeader = header("from")
        let sender = AddressList.sender(in: fromHeader).map(AddressList.canonical)
        let rawSubject = header("subject") ?? ""
        let subject = Text.strippingReplyPrefixes(rawSubject, prefixes: replyPrefixes)

        // Subject and the snippet's own text (quoted and forwarded parts cut off) as one token stream.
        var tokens: [Token] = []
        let foldedSubject = Text.fold(subject)
        Text.tokens(Substring(foldedSubject), inSubject: true, into: &tokens)
        let subjectCount = tokens.count
        var snippetText: Substring = ""
        if let snippet = message.snippet, !snippet.isEmpty {
            let folded = Text.fold(Text.decodingEntities(snippet))
            snippetText = Text.ownText(ofFoldedSnippet: folded)
            var snippetTokens: [Token] = []
            Text.tokens(snippetText, inSubject: false, into: &snippetTokens)
            if let first = snippetTokens.first {
                snippetTokens[0] = Token(text: first.text, isNumber: first.isNumber, gap: first.gap, inSubject: false, newSentence: true)
            }
            tokens += snippetTokens
        }
        let everything = phraseIndex.matches(in: tokens)
        let matches = everything.filter { $0.family != nil }
        func negated(_ match: PhraseIndex.Match) -> Bool {
            for back in 1...2 where match.start - back >= 0 {
                let token = tokens[match.start - back]
                if negators.contains(String(token.text)) { return true }
                if token.newSentence { break }
            }
            return false
        }
        /// The first match of a family that is not negated, and where it was found.
        func found(_ family: PhraseFamily, negatable: Bool = true) -> PhraseIndex.Match? {
            matches.first { $0.family == family && (!negatable || !negated($0)) }
        }
        func place(_ match: PhraseIndex.Match) -> String { match.start < subjectCount ? "subject" : "snippet" }

        // Who sent it, and what Gmail and the user already said about it.
        let vip = sender.map(isVIP) ?? false
        if vip { fire(.vipSender) }
        if labels.contains("IMPORTANT") { fire(.gmailImportant) }
        if labels.contains("STARRED") { fire(.gmailStarred) }

        // Urgency words, in the subject or the snippet, unless negated ("nicht dringend").
        let urgency = everything.filter { $0.family == nil && !negated($0) }
        if let first = urgency.min(by: { $0.rank < $1.rank }) {
            fire(.urgencyWord, first.language, why: "urgency word (\(first.language)) in the \(place(first))")
        }
        if keywordPhrases.contains(where: { phrase in Text.contains(tokens.map(\.text), phrase: phrase) }) { fire(.userKeyword) }

        // Whether it was written to the user. Unknown when the user's addresses are not configured.
        var direct = false
        if !userAddresses.isEmpty {
            let to = AddressList.addresses(in: header("to")).map(AddressList.canonical)
            let cc = AddressList.addresses(in: header("cc")).map(AddressList.canonical)
            if to.contains(where: userAddresses.contains) { fire(.directTo); direct = true }
            else if cc.contains(where: userAddresses.contains) { fire(.ccOnly) }
            else { fire(.notAddressed) }
        }
        if isReplyInOwnThread(message, header: header) { fire(.ownThreadReply) }

        // Calendar traffic: an invitation for the rest of today matters now, any other does not.
        let calendarResponse = calendarResponsePrefixes.contains(where: { Text.hasFoldedColonPrefix(foldedSubject, $0) })
        let invitation = !calendarResponse && isInvitation(header: header, mimeType: message.payload?.mimeType, foldedSubject: foldedSubject)
        if calendarResponse {
            fire(.calendarResponse)
        } else if invitation, let date = InvitationDate(subject: subject) {
            // An invitation without a readable date (Outlook's, recurring ones) fires neither rule:
            // "not today" would be a guess.
            fire(isForRestOfToday(date, now: now) ? .inviteToday : .inviteNotToday)
        }

        // Bulk and machine mail.
        if header("list-unsubscribe") != nil { fire(.listUnsubscribe) }
        if header("list-id") != nil { fire(.listID) }
        if let precedence = header("precedence").map(Self.token), ["bulk", "list", "junk"].contains(precedence) {
            fire(.precedenceBulk)
        }
        if isAutoSubmitted(header: header) { fire(.autoSubmitted) }
        if autoReplyPrefixes.contains(where: { Text.hasFoldedColonPrefix(foldedSubject, $0) }) { fire(.autoReplySubject) }
        if let sender, isAutomated(sender) { fire(.noreplySender) }
        for category in Self.categories where labels.contains(category.label) { fire(category.rule) }
        // A user filter that skipped the inbox has already said "not now".
        if !labels.isEmpty, !labels.contains("INBOX") { fire(.notInInbox) }

        // Time: deadlines and time windows, read in the user's zone against now.
        // An invitation's own date (read above) is authoritative; its body only repeats or contrasts it.
        // Calendar traffic carries event times, not deadlines: the invitation rules above judge it.
        let calendarMail = invitation || calendarResponse
        let reading = calendarMail ? TimeReading() : readTime(message, date: header("date"), tokens: tokens, matches: matches, now: now)
        // In reports of events (an urgency word, an incident, someone waiting) a past time says when it
        // happened, not a deadline that was missed.
        let eventWording = !urgency.isEmpty || [PhraseFamily.incident, .security, .health, .waitingForYou].contains { found($0) != nil }
        switch reading.verdict {
        case .soon: fire(.deadlineSoon, why: explainSoon(reading, now: now))
        case .today: fire(.todayMention, why: "names today, and the writer's today is the user's today")
        case .later: fire(.deadlineLater, why: explainDays(reading, now: now, passed: false))
        case .passed where !eventWording: fire(.deadlinePassed, why: explainDays(reading, now: now, passed: true))
        case .passed: break
        case .none: break
        }
        let timely = reading.verdict == .soon || reading.verdict == .today

        // Intent.
        if let match = found(.decisionAsk) { fire(.decisionAsk, match.language, why: "asks for a decision or approval (\(match.language), \(place(match)))") }
        if let match = found(.blocking) { fire(.blocking, match.language, why: "says something is blocked or due (\(match.language), \(place(match)))") }
        if direct, subject.unicodeScalars.contains("?") || snippetText.unicodeScalars.contains("?") { fire(.question, why: "asks the user a question") }

        // Events.
        if let match = found(.incident) { fire(.incident, match.language, why: "live incident or page (\(match.language), \(place(match)))") }
        // Account-scare phishing names credentials and blocked accounts as bait: no security event then.
        if found(.phishing, negatable: false) == nil, let match = found(.security) { fire(.securityEvent, match.language, why: "security event (\(match.language), \(place(match)))") }
        if let transport = found(.travelTransport), let problem = found(.travelProblem), reading.verdict != .later {
            fire(.travelDisruption, problem.language, why: "travel disruption (\(transport.language)/\(problem.language)), not days away")
        }
        if let match = found(.health) { fire(.healthEmergency, match.language, why: "health or family emergency (\(match.language), \(place(match)))") }
        else if timely, let match = found(.schoolClosure) {
            fire(.healthEmergency, match.language, why: "school or childcare closed today (\(match.language), \(place(match)))")
        }
        if let match = found(.pickup) { fire(.childPickup, match.language, why: "asks to pick someone up (\(match.language))") }
        if timely, let change = found(.meetingChange), found(.meetingWord) != nil || invitation {
            fire(.meetingMoved, change.language, why: "a meeting moved, and the time is today")
        }
        if let match = found(.waitingForYou), reading.verdict != .later, timely || reading.verdict == .passed || found(.meetingWord) != nil { fire(.waitingForYou, match.language, why: "people are waiting for the user (\(match.language))") }

        // Relaxation and bulk content.
        if let match = found(.negated, negatable: false) { fire(.negated, match.language, why: "says it is not urgent or can wait (\(match.language), \(place(match)))") }
        if let match = found(.closure) { fire(.closure, match.language, why: "says it is resolved or closed (\(match.language), \(place(match)))") }
        if let match = found(.fyi, negatable: false) { fire(.fyi, match.language, why: "for information only (\(match.language), \(place(match)))") }
        if let match = found(.marketing, negatable: false) { fire(.marketing, match.language, why: "marketing wording (\(match.language))") }
        if let match = found(.automatedNotice, negatable: false) { fire(.automatedNotice, match.language, why: "routine automated notice (\(match.language))") }

        // Sender trust.
        if let match = found(.phishing, negatable: false) { fire(.phishing, match.language, why: "account-scare wording typical of phishing (\(match.language))") }
        if let match = found(.giftCard, negatable: false) { fire(.giftCard, match.language, why: "asks for gift cards (\(match.language))") }
        if let payment = found(.paymentAsk), let reason = found(.secrecy, negatable: false) ?? found(.bankChange, negatable: false) {
            fire(.paymentScam, payment.language, why: "payment ask with secrecy or changed bank details (\(payment.language)/\(reason.language))")
        } else if let change = found(.bankChange, negatable: false) {
            fire(.paymentScam, change.language, why: "says bank details changed (\(change.language))")
        }
        if let sender, !userAddresses.contains(sender), !vipAddresses.contains(sender) {
            let name = fromHeader.map { SenderTrust.mailboxes(in: $0).first?.0 ?? "" } ?? ""
            switch trust.impersonation(displayName: name, address: sender) {
            case .name?: fire(.impersonation, "name", why: "display name of a known person (VIP, the user or a correspondent) from a domain that is not theirs")
            case .title?: fire(.impersonation, "title", why: "display name claims an executive role, from outside the organisation")
            case nil: break
            }
            if trust.isLookalike(sender) { fire(.lookalikeDomain, why: "sender domain imitates one of the organisation's domains") }
        }

        // Strong events are weighed against machine-mail signals instead of being vetoed by them.
        let floor = ruleSet.weight(.bulkFloor)
        if floor < 0, !firedIDs.isDisjoint(with: RuleID.strongEvents) {
            let bulk = fired.filter { rule in RuleID.bulkRules.contains { rule.id == $0.rawValue || rule.id.hasPrefix($0.rawValue + ":") } }
                .reduce(0) { $0 + $1.weight }
            if bulk < floor {
                fire(.bulkFloor, why: "machine-mail penalties (\(bulk)) limited to \(floor) by a strong event signal",
                     weight: floor - bulk)
            }
        }

        let score = fired.reduce(0) { $0 + $1.weight }
        return UrgencyDecision(urgent: score >= bar, score: score, threshold: bar, rules: fired, ruleSetVersion: ruleSet.version)
    }

    // MARK: - Time

    private static let stopwords: [(language: String, words: Set<Substring>)] = [
        ("en", ["the", "and", "you", "to", "is", "for", "your", "we", "this", "are", "please", "with", "of", "can", "it", "have"]),
        ("de", ["der", "die", "das", "und", "ist", "ich", "sie", "wir", "nicht", "mit", "bitte", "fur", "auf", "du", "den", "ein", "eine"]),
        ("fr", ["le", "la", "les", "et", "vous", "est", "pour", "une", "des", "nous", "je", "pas", "avec", "du", "au", "merci", "sur"]),
        ("es", ["el", "los", "las", "y", "que", "es", "para", "por", "una", "con", "su", "del", "al", "gracias", "tu", "lo"]),
    ]

    /// Each stopword and the languages it belongs to, as bits in `stopwords` order: one lookup a token.
    private static let stopwordLanguages: [Substring: UInt8] = {
        var table: [Substring: UInt8] = [:]
        for (index, entry) in stopwords.enumerated() {
            for word in entry.words { table[word, default: 0] |= 1 << index }
        }
        return table
    }()

    /// The message's main language by common words; ties and silence give "".
    static func guessLanguage(_ tokens: [Token]) -> String {
        var counts = [Int](repeating: 0, count: stopwords.count)
        for token in tokens where !token.isNumber {
            guard let languages = stopwordLanguages[token.text] else { continue }
            for index in counts.indices where languages & (1 << index) != 0 { counts[index] += 1 }
        }
        guard let best = counts.indices.max(by: { counts[$0] < counts[$1] }), counts[best] > 0 else { return "" }
        return stopwords[best].language
    }

    private func readTime(_ message: GmailMessage, date: String?, tokens: [Token], matches: [PhraseIndex.Match], now: Date) -> TimeReading {
        guard tokens.contains(where: \.isNumber) || matches.contains(where: { $0.family.map(TimeReader.timeFamilies.contains) ?? false }) else {
            return TimeReading()
        }
        let sent = message.receivedAt ?? now
        let zone = preferences.timeZone
        var writerZone = zone
        if let offset = date.flatMap(Self.utcOffset), offset != zone.secondsFromGMT(for: sent) {
            writerZone = TimeZone(secondsFromGMT: offset) ?? zone
        }
        let language = Self.guessLanguage(tokens)
        var writer = calendar
        if writerZone != zone { writer.timeZone = writerZone }
        return timeReader.read(TimeReader.Context(tokens: tokens, matches: matches, french: language == "fr", english: language == "en",
                                                  sent: sent, writerZone: writerZone, userZone: zone, now: now),
                               writer: writer, user: calendar)
    }

    /// The numeric zone of an RFC 5322 date ("Tue, 24 Nov 2026 09:58:12 +0100" → 3600).
    static func utcOffset(_ date: String) -> Int? {
        guard let last = date.split(separator: " ").last(where: { $0.hasPrefix("+") || $0.hasPrefix("-") }),
              last.count == 5, let value = Int(last.dropFirst()) else { return nil }
        let seconds = (value / 100) * 3600 + (value % 100) * 60
        return last.hasPrefix("-") ? -seconds : seconds
    }

    private func explainSoon(_ reading: TimeReading, now: Date) -> String {
        guard let instant = reading.instant else { return "a deadline still ahead today" }
        let parts = calendar.dateComponents([.hour, .minute], from: instant)
        let minutes = Int(instant.timeIntervalSince(now) / 60)
        let day = calendar.isDate(instant, inSameDayAs: now) ? "today" : "tomorrow"
        return String(format: "deadline %02d:%02d %@ (%@), %dh%02dm ahead", parts.hour ?? 0, parts.minute ?? 0, day,
                      preferences.timeZone.identifier, minutes / 60, minutes % 60)
    }

    private func explainDays(_ reading: TimeReading, now: Date, passed: Bool) -> String {
        if let instant = reading.instant {
            let minutes = Int(abs(instant.timeIntervalSince(now)) / 60)
            return passed ? "the time named passed \(minutes / 60)h\(String(format: "%02d", minutes % 60))m ago"
                : "the time named is \(minutes / 1440) day(s) \(minutes % 1440 / 60)h ahead"
        }
        let days = abs(reading.dayDistance ?? 0)
        return passed ? "the day named was \(days) day(s) ago" : "the day named is \(days) day(s) away"
    }

    // MARK: - Rule predicates

    private func isVIP(_ sender: String) -> Bool {
        if vipAddresses.contains(sender) { return true }
        return AddressList.domain(of: sender).map { vipDomains.contains(String($0)) } ?? false
    }

    private func isAutomated(_ sender: String) -> Bool {
        guard let local = AddressList.localPart(of: sender) else { return false }
        let squeezed = Self.squeezed(String(local))
        return automatedSenders.contains { Text.contains(squeezed, $0) }
    }

    private func isReplyInOwnThread(_ message: GmailMessage, header: (String) -> String?) -> Bool {
        if let thread = message.threadId, ownThreads.contains(thread) { return true }
        guard !ownMessageIDs.isEmpty else { return false }
        let referenced = [header("in-reply-to"), header("references")].compactMap { $0 }.flatMap(Self.messageIDs)
        return referenced.contains(where: ownMessageIDs.contains)
    }

    /// `Auto-Submitted` with any value but "no" (RFC 3834), or the older autoresponder markers.
    private func isAutoSubmitted(header: (String) -> String?) -> Bool {
        if let value = header("auto-submitted").map(Self.token), value != "no", !value.isEmpty { return true }
        return header("x-autoreply") != nil || header("x-autorespond") != nil
    }

    /// A Google Calendar invitation subject, or a calendar part/class in the headers (Outlook and
    /// others send `text/calendar`; their subjects carry no date, so the invite rules stay silent).
    private func isInvitation(header: (String) -> String?, mimeType: String?, foldedSubject folded: String) -> Bool {
        if invitationPrefixes.contains(where: { Text.hasFoldedColonPrefix(folded, $0) }) { return true }
        let types = [mimeType, header("content-type"), header("content-class")]
            .compactMap { $0?.lowercased() }
        return types.contains { Text.contains($0, "text/calendar") || Text.contains($0, "calendarmessage") }
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
