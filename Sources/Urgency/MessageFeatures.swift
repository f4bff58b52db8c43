import AlfredCore
import Foundation

/// What the rules know about one message, read once: who sent it and to whom, what Gmail and the
/// user already said, whether it is machine or calendar mail, the words of its subject and snippet
/// matched against the lexicon, and the time it names read against now in the user's zone.
///
/// Every rule (`Rule`) is a predicate over this value and nothing else, so a rule never re-reads
/// headers or text, and adding one touches one file. Nothing here leaves the scorer: rules turn it
/// into ids, weights and (with `explain`) safe text.
struct MessageFeatures {
    enum Addressing { case unknown, to, cc, neither }
    enum Invitation { case none, today, notToday, undated }

    // Who and where.
    let labels: Set<String>
    let headers: [String: String]
    let sender: String?
    let isVIP: Bool
    let addressing: Addressing
    let ownThreadReply: Bool
    let automatedSender: Bool
    let autoSubmitted: Bool
    let autoReplySubject: Bool
    let impersonation: SenderTrust.Finding?
    let lookalikeDomain: Bool

    // Calendar traffic.
    let calendarResponse: Bool
    let invitation: Invitation

    // Words.
    let tokens: [Token]
    let subjectCount: Int
    /// The subject or the snippet's own text contains a question mark.
    let asks: Bool
    /// Urgency words that are not negated, in match order (set last: negation reads the tokens).
    fileprivate(set) var urgencyWords: [PhraseIndex.Match]
    /// Matches of every phrase family, in match order.
    let matches: [PhraseIndex.Match]
    let negators: WordTable<Bool>
    let keywordHit: Bool

    // Time.
    let reading: TimeReading
    let now: Date
    let calendar: Calendar

    /// Whether rules build their `--explain` text.
    let explain: Bool

    func header(_ name: String) -> String? { headers[name] }
    var direct: Bool { addressing == .to }

    /// Any sign of list, bulk or machine mail (headers, sender, Gmail's non-personal categories).
    var looksBulk: Bool {
        autoSubmitted || automatedSender || headers["list-unsubscribe"] != nil || headers["list-id"] != nil
            || headers["precedence"] != nil
            || !labels.isDisjoint(with: ["CATEGORY_PROMOTIONS", "CATEGORY_SOCIAL", "CATEGORY_UPDATES", "CATEGORY_FORUMS"])
    }

    /// A deadline still ahead today or within hours, or a plain "today".
    var timely: Bool { reading.verdict == .soon || reading.verdict == .today }

    /// The message's main language by its common words ("" when unsure).
    let language: String

    /// The first match of a family, skipping negated ones ("nicht dringend") unless `negatable` is false.
    /// Where the same words are listed in several languages ("urgente"), the message's language names it.
    func found(_ family: PhraseFamily, negatable: Bool = true) -> PhraseIndex.Match? {
        var first: PhraseIndex.Match?
        for match in matches where match.family == family && (!negatable || !negated(match)) {
            if match.language == language { return match }
            if first == nil { first = match }
        }
        return first
    }

    /// A match of `family` and one of `other` at most `distance` tokens apart ("the drivers are
    /// waiting"), the first's returned.
    func found(_ family: PhraseFamily, near other: PhraseFamily, within distance: Int) -> PhraseIndex.Match? {
        let others = matches.filter { $0.family == other && !negated($0) }
        return matches.first { match in
            match.family == family && !negated(match) && others.contains { abs($0.start - match.start) <= distance }
        }
    }

    func negated(_ match: PhraseIndex.Match) -> Bool {
        for back in 1...2 where match.start - back >= 0 {
            let token = tokens[match.start - back]
            if negators[token.key] != nil { return true }
            if token.newSentence { break }
        }
        return false
    }

    func place(_ match: PhraseIndex.Match) -> String { match.start < subjectCount ? "subject" : "snippet" }

    /// In reports of events (an urgency word, an incident, someone waiting) a past time says when it
    /// happened, not a deadline that was missed.
    var reportsAnEvent: Bool {
        !urgencyWords.isEmpty || [PhraseFamily.incident, .security, .health, .waitingForYou].contains { found($0) != nil }
    }

    /// The `--explain` text, built only when asked for.
    func why(_ text: @autoclosure () -> String) -> String? { explain ? text() : nil }
}

extension UrgencyScorer {
    /// Reads everything the rules look at, once. Suppressed messages never get here.
    func features(of message: GmailMessage, now: Date, explain: Bool) -> MessageFeatures {
        // Headers by lower-cased name, first one wins (RFC 5322 names are case-insensitive).
        var headers: [String: String] = [:]
        for header in message.payload?.headers ?? [] {
            let name = header.name.lowercased()
            if headers[name] == nil { headers[name] = header.value }
        }
        let labels = message.labels
        let fromHeader = headers["from"]
        // The From header read once: its first mailbox is the sender, with the name it shows.
        let fromMailbox = SenderTrust.mailboxes(in: fromHeader).first
        let sender = fromMailbox?.1
        let subject = Text.strippingReplyPrefixes(headers["subject"] ?? "", prefixes: replyPrefixes)

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

        var addressing = MessageFeatures.Addressing.unknown
        if !userAddresses.isEmpty {
            let to = AddressList.addresses(in: headers["to"]).map(AddressList.canonical)
            let cc = AddressList.addresses(in: headers["cc"]).map(AddressList.canonical)
            addressing = to.contains(where: userAddresses.contains) ? .to : cc.contains(where: userAddresses.contains) ? .cc : .neither
        }

        // Calendar traffic: an invitation's own date (when its subject gives one) decides.
        let calendarResponse = calendarResponsePrefixes.contains(where: { Text.hasFoldedColonPrefix(foldedSubject, $0) })
        var invitation = MessageFeatures.Invitation.none
        if !calendarResponse, isInvitation(headers: headers, mimeType: message.payload?.mimeType, foldedSubject: foldedSubject) {
            invitation = InvitationDate(subject: subject).map { isForRestOfToday($0, now: now) ? .today : .notToday } ?? .undated
        }
        // Calendar traffic carries event times, not deadlines: the invitation rules judge it.
        let language = Self.guessLanguage(tokens)
        let reading = invitation != .none || calendarResponse
            ? TimeReading() : readTime(message, date: headers["date"], tokens: tokens, matches: matches, language: language, now: now)

        var impersonation: SenderTrust.Finding?
        var lookalike = false
        if let sender, !userAddresses.contains(sender), !vipAddresses.contains(sender) {
            impersonation = trust.impersonation(displayName: fromMailbox?.0 ?? "", address: sender)
            lookalike = trust.isLookalike(sender)
        }

        let negators = self.negators
        var features = MessageFeatures(
            labels: labels, headers: headers, sender: sender, isVIP: sender.map(isVIP) ?? false, addressing: addressing,
            ownThreadReply: isReplyInOwnThread(message, headers: headers),
            automatedSender: sender.map(isAutomated) ?? false, autoSubmitted: isAutoSubmitted(headers: headers),
            autoReplySubject: autoReplyPrefixes.contains(where: { Text.hasFoldedColonPrefix(foldedSubject, $0) }),
            impersonation: impersonation, lookalikeDomain: lookalike,
            calendarResponse: calendarResponse, invitation: invitation,
            tokens: tokens, subjectCount: subjectCount,
            asks: subject.unicodeScalars.contains("?") || snippetText.unicodeScalars.contains("?"),
            urgencyWords: [], matches: matches, negators: negators,
            keywordHit: !keywordPhrases.isEmpty && keywordPhrases.contains { Text.contains(tokens.map(\.text), phrase: $0) },
            reading: reading, now: now, calendar: calendar, explain: explain, language: language)
        // Urgency words, unless negated: read with the same negation as every family.
        features.urgencyWords = everything.filter { $0.family == nil && !features.negated($0) }
        return features
    }
}
