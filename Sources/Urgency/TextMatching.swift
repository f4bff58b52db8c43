import Foundation

/// Word-level text handling shared by every subject rule: folding, tokenizing, phrase search and
/// reply-prefix stripping. Kept separate from the rules so the matching semantics are defined once.
enum Text {
    /// ASCII bytes lower-cased into a string, leaving out those `dropping` names: the one loop behind
    /// folding ASCII text, addresses and squeezed local parts.
    static func asciiLowercased(_ bytes: some Collection<UInt8>, dropping: (UInt8) -> Bool = { _ in false }) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { buffer in
            var count = 0
            for byte in bytes where !dropping(byte) {
                buffer[count] = byte >= 65 && byte <= 90 ? byte + 32 : byte
                count += 1
            }
            return count
        }
    }

    /// Case-, diacritic- and width-insensitive form: "IMMÉDIATEMENT" and "immediatement" fold alike.
    /// `ß` is spelled out because diacritic folding keeps it and a subject may say "Strasse" or "Straße".
    static func fold(_ string: String) -> String {
        // Fastest path: pure ASCII (most headers and much mail), lower-cased byte by byte.
        let utf8 = string.utf8
        if utf8.allSatisfy({ $0 < 0x80 }) { return asciiLowercased(utf8) }
        // Fast path (the common case, and the scoring budget is tens of microseconds): ASCII and the
        // accented Latin letters of the supported languages, folded natively into UTF-8 bytes.
        // Anything else (full-width forms, other scripts) goes through Foundation, which gives the
        // same result more slowly.
        var out: [UInt8] = []
        out.reserveCapacity(utf8.count)
        for scalar in string.unicodeScalars {
            if scalar.isASCII {
                let byte = UInt8(scalar.value)
                out.append(byte >= 65 && byte <= 90 ? byte + 32 : byte)
            } else if let folded = latinBytes[scalar] {
                out.append(contentsOf: folded)
            } else if scalar.properties.isAlphabetic || scalar.properties.generalCategory == .nonspacingMark {
                return string.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
                    .replacingOccurrences(of: "ß", with: "ss")
            } else {
                out.append(contentsOf: String(scalar).utf8)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `latin` as UTF-8 bytes, for the fast path.
    static let latinBytes: [Unicode.Scalar: [UInt8]] = latin.mapValues { Array($0.utf8) }

    /// Accented Latin letters (both cases) and their folded forms, as Foundation folds them.
    static let latin: [Unicode.Scalar: String] = {
        var table: [Unicode.Scalar: String] = ["ß": "ss", "ẞ": "ss"]
        let groups: [(String, String)] = [
            ("àáâãäåāăą", "a"), ("çćĉċč", "c"), ("ďđ", "d"), ("èéêëēĕėęě", "e"), ("ĝğġģ", "g"), ("ĥħ", "h"),
            ("ìíîïĩīĭįı", "i"), ("ĵ", "j"), ("ķ", "k"), ("ĺļľŀł", "l"), ("ñńņňŉ", "n"), ("òóôõöōŏő", "o"),
            ("ŕŗř", "r"), ("śŝşš", "s"), ("ţťŧ", "t"), ("ùúûüũūŭůűų", "u"), ("ŵ", "w"), ("ýÿŷ", "y"), ("źżž", "z"),
        ]
        for (letters, base) in groups {
            for scalar in letters.unicodeScalars { table[scalar] = base }
            for scalar in letters.uppercased().unicodeScalars where table[scalar] == nil { table[scalar] = base }
        }
        // Letters Foundation does not decompose keep their lower-case form.
        for (upper, lower) in [("Ø", "ø"), ("Æ", "æ"), ("Œ", "œ"), ("Ł", "l"), ("Đ", "d")] { table[upper.unicodeScalars.first!] = lower }
        for letter in ["ø", "æ", "œ"] { table[letter.unicodeScalars.first!] = letter }
        return table
    }()

    /// True when `needle` occurs in `haystack`, comparing UTF-8 bytes (both already folded or
    /// lowercased). Natively: Foundation's `contains` bridges through NSString on Linux.
    static func contains(_ haystack: String, _ needle: String) -> Bool {
        var haystack = haystack, needle = needle
        return haystack.withUTF8 { bytes in needle.withUTF8 { contains(bytes, $0, caseless: false) } }
    }

    /// The same for an ASCII-lowercase `needle` in any-case `haystack` (header values such as
    /// `Content-Type`), without lowercasing a copy first.
    static func containsIgnoringASCIICase(_ haystack: String, _ needle: String) -> Bool {
        var haystack = haystack, needle = needle
        return haystack.withUTF8 { bytes in needle.withUTF8 { contains(bytes, $0, caseless: true) } }
    }

    private static func contains(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>, caseless: Bool) -> Bool {
        guard let first = needle.first else { return true }
        guard bytes.count >= needle.count else { return false }
        @inline(__always) func lower(_ byte: UInt8) -> UInt8 { caseless && byte >= 65 && byte <= 90 ? byte + 32 : byte }
        for start in 0...(bytes.count - needle.count) where lower(bytes[start]) == first {
            var matched = true
            for offset in 1..<needle.count where lower(bytes[start + offset]) != needle[offset] { matched = false; break }
            if matched { return true }
        }
        return false
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
        // Most subjects have no colon at all (ASCII ':' or full-width '：', whose UTF-8 ends in 0x9A).
        if !subject.utf8.contains(where: { $0 == UInt8(ascii: ":") || $0 == 0x9A }) {
            return String(subject.drop { $0.isWhitespace })
        }
        var rest = Substring(subject)
        while true {
            let trimmed = rest.drop { $0.isWhitespace }
            // A marker is a short word ("AW", "Antwort", "Re[12]"): a colon further in ends the search
            // without folding anything (found on the bytes: the colons are ':' and '：').
            let utf8 = trimmed.utf8.prefix(maxMarkerBytes + 3)
            guard let colon = utf8.indices.first(where: { utf8[$0] == UInt8(ascii: ":") || (utf8[$0] == 0xEF && trimmed.unicodeScalars[$0] == "：") })
            else { return String(trimmed) }
            var marker = fold(String(trimmed[..<colon])).trimmingCharacters(in: .whitespaces)
            // "Re[2]" and "Re(2)": some clients count the replies.
            if let bracket = marker.firstIndex(where: { $0 == "[" || $0 == "(" }), marker.last == "]" || marker.last == ")" {
                marker = String(marker[..<bracket]).trimmingCharacters(in: .whitespaces)
            }
            guard prefixes.contains(marker) else { return String(trimmed) }
            rest = trimmed[trimmed.index(after: colon)...]
        }
    }

    /// Longer than any reply marker with its reply count ("weiterleitung[12]" is 17 bytes).
    static let maxMarkerBytes = 24

    /// True when `subject` (already stripped of reply markers) starts with `prefix` followed by a colon,
    /// compared folded and ignoring spaces before the colon ("Invitation:", French "Invitation :").
    /// The same test on an already folded subject and prefix (the scorer folds each once).
    static func hasFoldedColonPrefix(_ folded: String, _ wanted: String) -> Bool {
        // On the bytes: this runs for every prefix of three lists on every message.
        let utf8 = folded.utf8
        guard utf8.starts(with: wanted.utf8) else { return false }
        var rest = utf8.dropFirst(wanted.utf8.count)[...]
        while true {
            if rest.first == 0x20 { rest = rest.dropFirst() }
            else if rest.starts(with: [0xC2, 0xA0]) { rest = rest.dropFirst(2) }  // no-break space
            else { break }
        }
        return rest.first == UInt8(ascii: ":") || rest.starts(with: [0xEF, 0xBC, 0x9A])  // '：'
    }

    static func hasColonPrefix(_ subject: String, _ prefix: String) -> Bool {
        let folded = fold(subject)
        let wanted = fold(prefix)
        guard folded.hasPrefix(wanted) else { return false }
        let rest = folded.dropFirst(wanted.count).drop { $0 == " " || $0 == "\u{00A0}" }
        return rest.first == ":" || rest.first == "："
    }
}

// MARK: - Subject and snippet as one token stream

extension Text {
    /// Gmail's snippet keeps HTML entities (`&#39;`, `&amp;`, `&quot;`, `&gt;`, `&nbsp;`, `&#x27;`):
    /// decoded here so "don&#39;t" reads as "don't" and "Einstellungen &gt; Sicherheit" as ">".
    static func decodingEntities(_ string: String) -> String {
        guard string.utf8.contains(UInt8(ascii: "&")) else { return string }
        let bytes = Array(string.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "&") else { out.append(bytes[index]); index += 1; continue }
            // A name of at most ten characters, then ';' (names are ASCII, so bytes count alike).
            let window = (index + 1)..<min(bytes.count, index + 11)
            guard let semi = window.first(where: { bytes[$0] == UInt8(ascii: ";") }) else { out.append(bytes[index]); index += 1; continue }
            let name = String(decoding: bytes[(index + 1)..<semi], as: UTF8.self)
            let decoded: String?
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                decoded = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            } else if name.hasPrefix("#") {
                decoded = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
            } else {
                decoded = entities[name]
            }
            if let decoded { out.append(contentsOf: decoded.utf8); index = semi + 1 } else { out.append(bytes[index]); index += 1 }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static let entities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": " ", "rsquo": "'", "lsquo": "'",
        "rdquo": "\"", "ldquo": "\"", "ndash": "–", "mdash": "—", "hellip": "…", "euro": "€", "laquo": "«", "raquo": "»",
    ]

    /// Folded markers that start quoted or forwarded text in a snippet. What follows them was written
    /// by someone else (or earlier), so the rules stop reading there.
    static let quoteMarkers = [
        "wrote:", "schrieb:", "schrieb ", "a ecrit", "escribio", "-----original message", "original message",
        "forwarded message", "ursprungliche nachricht", "weitergeleitete nachricht", "message d'origine",
        "message transfere", "mensaje original", "mensaje reenviado",
    ]
    /// Words that open an attribution line ("On Tue, Anna wrote:", "Am Mo., 23. Nov. … schrieb").
    static let attributionOpeners = [" on ", " am ", " le ", " el ", "\non ", "\nam "]

    /// The folded snippet up to the first quote or forward marker (searched as bytes: this runs for
    /// every message, and the markers are ASCII once folded).
    static func ownText(ofFoldedSnippet snippet: String) -> Substring {
        var copy = snippet
        let start = copy.withUTF8 { bytes -> Int? in
            // Where `pattern` first (or last) occurs in `range`: libc's memchr to each candidate first
            // byte, then memcmp (every snippet is searched for every marker).
            func find(_ pattern: [UInt8], in range: Range<Int>, last: Bool = false) -> Int? {
                guard let first = pattern.first, range.count >= pattern.count, let base = bytes.baseAddress else { return nil }
                var found: Int?
                var from = range.lowerBound
                let end = range.upperBound - pattern.count + 1  // last start + 1
                while from < end, let hit = memchr(base + from, Int32(first), end - from) {
                    let at = UnsafeRawPointer(hit) - UnsafeRawPointer(base)
                    if pattern.withUnsafeBytes({ memcmp(base + at, $0.baseAddress!, pattern.count) == 0 }) {
                        found = at
                        if !last { break }
                    }
                    from = at + 1
                }
                return found
            }
            var cut = bytes.count
            for marker in quoteMarkerBytes { if let at = find(marker, in: 0..<cut) { cut = at } }
            guard cut < bytes.count else { return nil }
            // Back up to the attribution's opener when it is close before the marker.
            let window = max(0, cut - 120)
            if window == 0, attributionOpenerBytes.contains(where: { bytes.starts(with: $0.dropFirst()) }) { return 0 }
            var start = cut
            for opener in attributionOpenerBytes { if let at = find(opener, in: window..<cut, last: true), at < start { start = at } }
            return start
        }
        guard let start else { return snippet[...] }
        let utf8 = snippet.utf8
        let end = utf8.index(utf8.startIndex, offsetBy: start)
        return snippet[..<(end.samePosition(in: snippet) ?? snippet.endIndex)]
    }

    static let quoteMarkerBytes = quoteMarkers.map { Array($0.utf8) }
    static let attributionOpenerBytes = attributionOpeners.map { Array($0.utf8) }
}

/// A folded word as a dictionary key, hashed and compared by its UTF-8 bytes. Folded text has no
/// canonically equivalent spellings left to tell apart, and String's own hashing and equality check
/// normalization for every token of every message (a fifth of the scoring time, measured).
struct WordKey: Hashable, Sendable {
    let text: Substring
    /// FNV-1a of the bytes, computed once: a token is looked up in several tables.
    let digest: UInt64

    init(_ text: Substring) {
        self.text = text
        func fnv<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
            var digest: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return digest
        }
        digest = text.utf8.withContiguousStorageIfAvailable { fnv($0) } ?? fnv(text.utf8)
    }

    init(_ text: String) { self.init(Substring(text)) }

    static func == (a: WordKey, b: WordKey) -> Bool {
        guard a.digest == b.digest else { return false }
        return a.text.utf8.withContiguousStorageIfAvailable { x in
            b.text.utf8.withContiguousStorageIfAvailable { y in
                x.count == y.count && (x.count == 0 || memcmp(x.baseAddress!, y.baseAddress!, x.count) == 0)
            }
        }.flatMap { $0 } ?? a.text.utf8.elementsEqual(b.text.utf8)
    }

    func hash(into hasher: inout Hasher) { hasher.combine(digest) }
}

/// A read-only hash table of words, probed by the digest each token already carries: no hashing
/// at lookup (Dictionary would run SipHash over the digest for every token of every message).
struct WordTable<Value: Sendable>: Sendable {
    /// Each slot's key digest (0: empty), probed before any key or value is touched, so a miss
    /// copies nothing.
    private var digests: [UInt64]
    private var keys: [WordKey?]
    private var values: [Value?]
    private let mask: Int
    let count: Int
    var isEmpty: Bool { count == 0 }

    init(_ pairs: [(WordKey, Value)]) {
        var capacity = 8
        while capacity < pairs.count * 2 { capacity *= 2 }
        digests = [UInt64](repeating: 0, count: capacity)
        keys = [WordKey?](repeating: nil, count: capacity)
        values = [Value?](repeating: nil, count: capacity)
        mask = capacity - 1
        for (key, value) in pairs {
            let digest = Self.slotDigest(key)
            var index = Int(truncatingIfNeeded: digest) & mask
            while digests[index] != 0, keys[index]! != key { index = (index + 1) & mask }
            digests[index] = digest
            keys[index] = key
            values[index] = value
        }
        count = pairs.count
    }

    private static func slotDigest(_ key: WordKey) -> UInt64 { key.digest == 0 ? 1 : key.digest }

    subscript(key: WordKey) -> Value? {
        let digest = Self.slotDigest(key)
        var index = Int(truncatingIfNeeded: digest) & mask
        while true {
            let found = digests[index]
            if found == 0 { return nil }
            if found == digest, keys[index]! == key { return values[index] }
            index = (index + 1) & mask
        }
    }
}

/// One token of folded text: a run of letters or a run of ASCII digits (so "14h30" is 14, h, 30 and
/// "3pm" is 3, pm), with the separator text before it, which the time reader needs (":" in 15:00).
struct Token: Sendable {
    var text: Substring { key.text }
    /// The text as a lookup key (hashed once, here).
    let key: WordKey
    var isNumber: Bool
    /// Separator characters between the previous token and this one ("" when adjacent).
    var gap: Substring
    /// True for tokens of the subject (the snippet follows it in the same stream).
    var inSubject: Bool
    /// True when a sentence boundary (., !, ?, newline, or the subject/snippet seam) lies in `gap`.
    var newSentence: Bool

    init(text: Substring, isNumber: Bool, gap: Substring, inSubject: Bool, newSentence: Bool) {
        key = WordKey(text)
        self.isNumber = isNumber
        self.gap = gap
        self.inSubject = inSubject
        self.newSentence = newSentence
    }
}

extension Text {
    /// Tokens of already folded text. Walked as UTF-8 bytes (folded text is nearly all ASCII); a
    /// non-ASCII scalar is decoded only to ask whether it is a letter.
    static func tokens(_ folded: Substring, inSubject: Bool, into result: inout [Token]) {
        let utf8 = folded.utf8, scalars = folded.unicodeScalars
        // 0: neither, 1: letter, 2: digit, and where the next character starts.
        func kind(at index: String.Index) -> (Int, String.Index) {
            let byte = utf8[index]
            if byte < 0x80 {
                let next = utf8.index(after: index)
                if byte >= 48 && byte <= 57 { return (2, next) }
                return ((byte >= 97 && byte <= 122) || (byte >= 65 && byte <= 90) ? 1 : 0, next)
            }
            return (scalars[index].properties.isAlphabetic ? 1 : 0, scalars.index(after: index))
        }
        var index = utf8.startIndex
        var gapStart = index
        var first = true
        while index < utf8.endIndex {
            let (startKind, afterStart) = kind(at: index)
            guard startKind != 0 else { index = afterStart; continue }
            let start = index
            index = afterStart
            while index < utf8.endIndex {
                let (nextKind, afterNext) = kind(at: index)
                guard nextKind == startKind else { break }
                index = afterNext
            }
            let gap = folded[gapStart..<start]
            let boundary = first || gap.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "!") || $0 == UInt8(ascii: "?")
                || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: ";") }
            result.append(Token(text: folded[start..<index], isNumber: startKind == 2, gap: gap,
                                inSubject: inSubject, newSentence: boundary))
            gapStart = index
            first = false
        }
    }

    static func tokenList(_ string: String) -> [String] {
        var out: [Token] = []
        tokens(Substring(fold(string)), inSubject: false, into: &out)
        return out.map { String($0.text) }
    }
}

/// Phrases of many families and languages compiled into one lookup by first token, so a message is
/// matched in one pass over its tokens however many phrases the rule set lists.
struct PhraseIndex: Sendable {
    struct Entry: Sendable { var tokens: [WordKey]; var family: PhraseFamily?; var language: String; var rank: Int }
    struct Match: Sendable { var family: PhraseFamily?; var language: String; var rank: Int; var start: Int; var length: Int }
    /// The phrases that start with one token: one-word phrases, and longer ones by their second
    /// token, so a common first word ("non", "não", "in") costs one more lookup, not a scan of every
    /// phrase it starts.
    /// A class so that a lookup hands out a reference, not copies of both lists.
    private final class Bucket: Sendable {
        let longer: WordTable<[Entry]>
        let single: [Entry]
        init(longer: WordTable<[Entry]>, single: [Entry]) { self.longer = longer; self.single = single }
    }
    private let byFirst: WordTable<Bucket>
    var isEmpty: Bool { byFirst.isEmpty }

    /// `rank` orders languages where the caller needs a stable first (the urgency words' list order).
    init(_ lists: [(family: PhraseFamily?, language: String, rank: Int, phrases: [String])]) {
        var single: [WordKey: [Entry]] = [:], longer: [WordKey: [WordKey: [Entry]]] = [:]
        for list in lists {
            for phrase in list.phrases {
                let tokens = Text.tokenList(phrase).map(WordKey.init)
                guard let first = tokens.first else { continue }
                let entry = Entry(tokens: tokens, family: list.family, language: list.language, rank: list.rank)
                if tokens.count == 1 { single[first, default: []].append(entry) }
                else { longer[first, default: [:]][tokens[1], default: []].append(entry) }
            }
        }
        // Longer phrases first, so "not urgent" is seen before "urgent" where both start alike; among
        // equally long ones the order they were listed in (a stable sort: decisions never depend on it).
        let firsts = Set(single.keys).union(longer.keys)
        byFirst = WordTable(firsts.map { first in
            let seconds = (longer[first] ?? [:]).map { second, entries in
                (second, entries.enumerated().sorted { ($0.element.tokens.count, $1.offset) > ($1.element.tokens.count, $0.offset) }.map(\.element))
            }
            return (first, Bucket(longer: WordTable(seconds), single: single[first] ?? []))
        })
    }

    func matches(in tokens: [Token]) -> [Match] {
        var found: [Match] = []
        for start in tokens.indices {
            guard let bucket = byFirst[tokens[start].key] else { continue }
            if start + 1 < tokens.count, let entries = bucket.longer[tokens[start + 1].key] {
                for entry in entries where start + entry.tokens.count <= tokens.count {
                    var ok = true
                    var offset = 2
                    while offset < entry.tokens.count {
                        if tokens[start + offset].key != entry.tokens[offset] { ok = false; break }
                        offset += 1
                    }
                    if ok {
                        found.append(Match(family: entry.family, language: entry.language, rank: entry.rank, start: start,
                                           length: entry.tokens.count))
                    }
                }
            }
            for entry in bucket.single {
                found.append(Match(family: entry.family, language: entry.language, rank: entry.rank, start: start, length: 1))
            }
        }
        return found
    }
}
