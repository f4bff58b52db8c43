import Foundation
import Synchronization

/// A rule set's word lists compiled into the forms the rules compare against: the phrase index, the
/// time reader, folded prefixes. Compiling takes milliseconds (tens in a debug build) and every
/// scorer made from the same rule set needs the same result, so a rule set compiles it once, on the
/// first scorer, and shares it with the rest (`RuleSet.lexicon`).
struct Lexicon: Sendable {
    /// Urgency words (family nil, ranked by list order) and every phrase family, in one index: one
    /// lookup per token of a message.
    let phraseIndex: PhraseIndex
    let urgencyLanguages: [String]
    let negators: WordTable<Bool>
    let timeReader: TimeReader
    let replyPrefixes: Set<String>
    let invitationPrefixes: [String], calendarResponsePrefixes: [String], autoReplyPrefixes: [String]
    let automatedSenders: [String]

    init(_ ruleSet: RuleSet) {
        urgencyLanguages = ruleSet.urgencyWords.map(\.language)
        phraseIndex = PhraseIndex(ruleSet.urgencyWords.enumerated().map { (nil, $0.element.language, $0.offset, $0.element.words) }
            // In the families' declared order, not the dictionary's (which changes from run to run):
            // where two phrases tie, the same one wins every time.
            + PhraseFamily.allCases.flatMap { family in (ruleSet.phrases[family] ?? []).map { (family, $0.language, 0, $0.words) } })
        negators = WordTable(Set((ruleSet.phrases[.negator] ?? []).flatMap(\.words).compactMap { Text.tokenList($0).last }).map { (WordKey($0), true) })
        timeReader = TimeReader(ruleSet: ruleSet)
        replyPrefixes = Set(ruleSet.replyPrefixes.map { Text.fold($0).trimmingCharacters(in: .whitespaces) })
        invitationPrefixes = ruleSet.invitationPrefixes.map(Text.fold)
        calendarResponsePrefixes = ruleSet.calendarResponsePrefixes.map(Text.fold)
        autoReplyPrefixes = ruleSet.autoReplyPrefixes.map(Text.fold)
        automatedSenders = ruleSet.automatedSenders.map { UrgencyScorer.squeezed(Text.fold($0)) }.filter { !$0.isEmpty }
    }
}

/// Holds a rule set's compiled lexicon once built. Copies of a rule set share it; changing any word
/// list of a copy gives that copy a fresh, empty cache (`RuleSet`'s `didSet`s), so a lexicon never
/// outlives the lists it was built from. Weights and thresholds are read from the rule set itself
/// and do not touch it.
final class LexiconCache: Sendable, Equatable {
    private let built = Mutex<Lexicon?>(nil)

    func lexicon(for ruleSet: RuleSet) -> Lexicon {
        if let lexicon = built.withLock({ $0 }) { return lexicon }
        // Built outside the lock: two first scorers at once may both build it; the first stored wins.
        let fresh = Lexicon(ruleSet)
        return built.withLock { stored in
            if let stored { return stored }
            stored = fresh
            return fresh
        }
    }

    /// A cache is not part of a rule set's value: two rule sets are equal by their contents alone.
    static func == (lhs: LexiconCache, rhs: LexiconCache) -> Bool { true }
}
