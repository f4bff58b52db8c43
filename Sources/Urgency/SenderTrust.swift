import AlfredCore
import Foundation

/// Who a sender claims to be against who they are: the names of people the user knows (VIPs, the
/// user, people the user writes to) with the domains they write from, and the user's organisation
/// domains. Holds names and domains in memory only; a decision says "display name matches a known
/// person", never which.
struct SenderTrust: Sendable {
    /// Sorted folded name words ("reinhardt thomas") → the domains that person writes from.
    private(set) var people: [String: Set<String>] = [:]
    /// Every word of those names: a display name with fewer than two of them claims nobody known.
    private(set) var peopleWords: Set<String> = []
    /// The user's and the VIPs' domains: mail from these (or their subdomains) is from inside.
    let organisationDomains: Set<String>
    /// Distinctive first labels of those domains ("vogelwerk"), for look-alike domains.
    let distinctiveLabels: Set<String>
    let executiveTitles: [[String]]

    /// Domain labels too common to tell an organisation apart.
    static let genericLabels: Set<String> = [
        "mail", "email", "mailbox", "inbox", "post", "correo", "courriel", "web", "online", "home", "gmail", "googlemail",
        "outlook", "hotmail", "yahoo", "gmx", "example", "freemail", "icloud", "proton", "protonmail", "posteo", "webmail",
    ]
    /// Courtesy titles left out when comparing names.
    static let courtesy: Set<String> = ["dr", "prof", "mr", "mrs", "ms", "herr", "frau", "mme", "mlle", "sr", "sra", "don", "dona", "m"]

    init(preferences: UrgencyPreferences, executiveTitles: [String]) {
        var domains = Set<String>()
        for address in preferences.userAddresses.map(AddressList.canonical) {
            if let domain = AddressList.domain(of: address) { domains.insert(String(domain)) }
        }
        for entry in preferences.vipSenders.map({ $0.trimmingCharacters(in: .whitespaces).lowercased() }) where !entry.isEmpty {
            if entry.hasPrefix("@") { domains.insert(String(entry.dropFirst())) }
            else if let domain = AddressList.domain(of: entry) { domains.insert(String(domain)) }
        }
        organisationDomains = domains
        distinctiveLabels = Set(domains.compactMap { domain in
            domain.split(separator: ".").first.map(String.init).flatMap { $0.count >= 5 && !Self.genericLabels.contains($0) ? $0 : nil }
        })
        self.executiveTitles = executiveTitles.map(Text.tokenList).filter { !$0.isEmpty }
        // Names read from addresses: "thomas.reinhardt@…" is Thomas Reinhardt at that domain.
        for address in preferences.vipSenders + preferences.userAddresses where !address.hasPrefix("@") {
            let canonical = AddressList.canonical(address)
            guard let local = AddressList.localPart(of: canonical), let domain = AddressList.domain(of: canonical) else { continue }
            remember(name: String(local), domain: String(domain))
        }
        // The user is the user at all of their addresses.
        let userDomains = Set(preferences.userAddresses.compactMap { AddressList.domain(of: AddressList.canonical($0)).map(String.init) })
        for address in preferences.userAddresses {
            if let local = AddressList.localPart(of: AddressList.canonical(address)), let key = Self.key(String(local)) {
                people[key, default: []].formUnion(userDomains)
                peopleWords.formUnion(key.split(separator: " ").map(String.init))
            }
        }
    }

    /// Name words of a display name or local part: letters only, two or more, courtesy titles dropped.
    static func nameWords(_ text: String) -> [String] {
        var tokens: [Token] = []
        Text.tokens(Substring(Text.fold(text)), inSubject: false, into: &tokens)
        return tokens.filter { !$0.isNumber && $0.text.count >= 2 && !courtesy.contains(String($0.text)) }.map { String($0.text) }
    }

    /// A name is worth comparing when it has at least two words ("Thomas Reinhardt"): one word
    /// ("Lucía") would match strangers.
    static func key(_ name: String) -> String? {
        let words = Set(nameWords(name))
        return words.count >= 2 ? words.sorted().joined(separator: " ") : nil
    }

    mutating func remember(name: String, domain: String) {
        guard let key = Self.key(name) else { return }
        people[key, default: []].insert(domain.lowercased())
        peopleWords.formUnion(key.split(separator: " ").map(String.init))
    }

    /// Learns the display names in a message the user sent (their own and their recipients'), and
    /// a VIP's or colleague's display name on mail from them.
    mutating func learn(from message: GmailMessage, isVIP: (String) -> Bool) {
        guard people.count < 5_000 else { return }  // bounded: a long history adds nothing after that
        if message.labels.contains("SENT") {
            for header in ["From", "To", "Cc"] {
                for (name, address) in Self.mailboxes(in: message.header(header)) {
                    if let domain = AddressList.domain(of: address) { remember(name: name, domain: String(domain)) }
                }
            }
        } else if let (name, address) = Self.mailboxes(in: message.header("From")).first,
                  let domain = AddressList.domain(of: address).map(String.init),
                  isVIP(address) || isOrganisation(domain) {
            remember(name: name, domain: domain)
        }
    }

    func isOrganisation(_ domain: String) -> Bool {
        organisationDomains.contains { domain == $0 || domain.hasSuffix("." + $0) }
    }

    enum Finding: String { case name, title }

    /// A display name that claims a known person or an executive role, from a domain that is not theirs.
    func impersonation(displayName: String, address: String) -> Finding? {
        guard let domain = AddressList.domain(of: address).map(String.init) else { return nil }
        var tokens: [Token] = []
        Text.tokens(Substring(Text.fold(displayName)), inSubject: false, into: &tokens)
        // Only words of known names can form a known name's key.
        var known = Set<String>()
        for token in tokens where !token.isNumber && token.text.utf8.count >= 2 {
            let word = String(token.text)
            if peopleWords.contains(word), !Self.courtesy.contains(word) { known.insert(word) }
        }
        if known.count >= 2 {
            // Every subset of two to four name words, in key form: a display name "Dr. Thomas
            // Reinhardt (Vorstand)" claims "reinhardt thomas".
            let words = Array(known.sorted().prefix(6))
            let count = words.count
            for mask in 1..<(1 << count) where (2...4).contains(mask.nonzeroBitCount) {
                let key = (0..<count).filter { mask & (1 << $0) != 0 }.map { words[$0] }.joined(separator: " ")
                if let domains = people[key], !domains.contains(where: { domain == $0 || domain.hasSuffix("." + $0) }) { return .name }
            }
        }
        if !executiveTitles.isEmpty, !isOrganisation(domain) {
            for title in executiveTitles where tokens.count >= title.count {
                for start in 0...(tokens.count - title.count)
                where (0..<title.count).allSatisfy({ tokens[start + $0].text == title[$0] }) { return .title }
            }
        }
        return nil
    }

    /// A domain outside the organisation that borrows one of its distinctive labels
    /// ("vogelwerk-support.example.net" next to "vogelwerk.example.com").
    func isLookalike(_ address: String) -> Bool {
        guard let domain = AddressList.domain(of: address).map(String.init), !isOrganisation(domain) else { return false }
        let labels = domain.split(whereSeparator: { $0 == "." || $0 == "-" }).map(String.init)
        let first = domain.split(separator: ".").first.map(String.init) ?? ""
        return distinctiveLabels.contains { label in labels.contains(label) || (first != label && Text.contains(first, label)) }
    }

    /// (display name, address) pairs of an address header.
    static func mailboxes(in header: String?) -> [(String, String)] {
        guard let header else { return [] }
        var result: [(String, String)] = []
        // Split on commas outside quotes and angle brackets (bytes: every delimiter is ASCII).
        var inQuotes = false, inAngle = false
        var parts: [String] = []
        let bytes = Array(header.utf8)
        var start = 0
        for (index, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "\""): inQuotes.toggle()
            case UInt8(ascii: "<"): inAngle = true
            case UInt8(ascii: ">"): inAngle = false
            case UInt8(ascii: ",") where !inQuotes && !inAngle:
                parts.append(String(decoding: bytes[start..<index], as: UTF8.self)); start = index + 1
            default: break
            }
        }
        parts.append(String(decoding: bytes[start...], as: UTF8.self))
        for part in parts {
            guard let address = AddressList.sender(in: part) else { continue }
            let name = part.split(separator: "<", maxSplits: 1).first.map(String.init) ?? ""
            let cleaned = name.utf8.contains(UInt8(ascii: "@")) ? "" : AddressList.trimmed(String(name.filter { $0 != "\"" }))
            result.append((cleaned, AddressList.canonical(address)))
        }
        return result
    }
}
