import Foundation

/// Word-level text handling shared by every subject rule: folding, tokenizing, phrase search and
/// reply-prefix stripping. Kept separate from the rules so the matching semantics are defined once.
enum Text {
    /// Case-, diacritic- and width-insensitive form: "IMMÉDIATEMENT" and "immediatement" fold alike.
    /// `ß` is spelled out because diacritic folding keeps it and a subject may say "Strasse" or "Straße".
    static func fold(_ string: String) -> String {
        string.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            .replacingOccurrences(of: "ß", with: "ss")
    }

    /// Folded words: maximal runs of letters and digits. Everything else (spaces, punctuation,
    /// apostrophes, hyphens) is a boundary, so "insurgent" is one word and never contains "urgent",
    /// while "urgent-care" is two words and "aujourd'hui" is "aujourd" "hui" on both sides.
    static func words(_ string: String) -> [Substring] {
        let folded = fold(string)
        return folded.split { !($0.isLetter || $0.isNumber) }
    }

    /// Folded, tokenized phrase as stored in a compiled matcher; empty phrases are dropped.
    static func phrase(_ string: String) -> [String] {
        words(string).map(String.init)
    }

    /// True when `phrase` occurs as a contiguous run of whole words in `words`.
    static func contains(_ words: [Substring], phrase: [String]) -> Bool {
        guard !phrase.isEmpty, words.count >= phrase.count else { return false }
        outer: for start in 0...(words.count - phrase.count) {
            for offset in 0..<phrase.count where words[start + offset] != phrase[offset] { continue outer }
            return true
        }
        return false
    }

    /// The subject without leading reply/forward markers ("Re:", "AW:", "WG:", "TR:", "RV:", "Fwd:",
    /// "Re[2]:", "RE :" …, any number of them). `prefixes` are folded marker words without the colon.
    /// Only a short word right before the first colon counts, so "Note: …" or "Urgent: …" stay.
    static func strippingReplyPrefixes(_ subject: String, prefixes: Set<String>) -> String {
        var rest = Substring(subject)
        while true {
            let trimmed = rest.drop { $0.isWhitespace }
            guard let colon = trimmed.firstIndex(where: { $0 == ":" || $0 == "：" }) else { return String(trimmed) }
            var marker = fold(String(trimmed[..<colon])).trimmingCharacters(in: .whitespaces)
            // "Re[2]" and "Re(2)": some clients count the replies.
            if let bracket = marker.firstIndex(where: { $0 == "[" || $0 == "(" }), marker.last == "]" || marker.last == ")" {
                marker = String(marker[..<bracket]).trimmingCharacters(in: .whitespaces)
            }
            guard prefixes.contains(marker) else { return String(trimmed) }
            rest = trimmed[trimmed.index(after: colon)...]
        }
    }

    /// True when `subject` (already stripped of reply markers) starts with `prefix` followed by a colon,
    /// compared folded and ignoring spaces before the colon ("Invitation:", French "Invitation :").
    static func hasColonPrefix(_ subject: String, _ prefix: String) -> Bool {
        let folded = fold(subject)
        let wanted = fold(prefix)
        guard folded.hasPrefix(wanted) else { return false }
        let rest = folded.dropFirst(wanted.count).drop { $0 == " " || $0 == "\u{00A0}" }
        return rest.first == ":" || rest.first == "："
    }
}
