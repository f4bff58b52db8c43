/// Email addresses out of RFC 5322 address headers (`From`, `To`, `Cc`), lowercased.
///
/// Handles what real headers contain: `"Doe, Jane" <jane@example.com>` (a comma inside quotes),
/// bare `bob@example.org`, `Name <addr>` lists, `(comments)`, groups such as
/// `undisclosed-recipients:;` or `Team: a@example.com, b@example.com;`, and escaped quotes.
/// It is not a validator: anything without an `@` is dropped, because only addresses are compared.
public enum AddressList {
    public static func addresses(in header: String?) -> [String] {
        guard let header else { return [] }
        var result: [String] = []
        // Read as UTF-8 bytes: every delimiter is ASCII, and no byte of a multi-byte character is.
        var current: [UInt8] = []  // the text of the current mailbox, outside quotes and comments
        var angle: [UInt8] = []    // the text inside <…>, when the mailbox has one
        var hasAngle = false
        var inQuotes = false, escaped = false, commentDepth = 0, inAngle = false

        func finish() {
            defer { current.removeAll(keepingCapacity: true); angle.removeAll(keepingCapacity: true); hasAngle = false }
            let candidate = hasAngle ? angle : current
            guard candidate.allSatisfy({ $0 < 0x80 }) else {
                let text = trimmed(String(decoding: candidate, as: UTF8.self))
                // A group's display name ends at ':'; what follows is the first member.
                let address = text.split(separator: ":").last.map { trimmed(String($0)) } ?? ""
                if address.utf8.contains(UInt8(ascii: "@")), !address.utf8.contains(UInt8(ascii: " ")) { result.append(address.lowercased()) }
                return
            }
            // ASCII (nearly every address): the same steps on the bytes, without building strings.
            var bytes = candidate[...]
            func trim() {
                while let first = bytes.first, isSpace(first) { bytes = bytes.dropFirst() }
                while let last = bytes.last, isSpace(last) { bytes = bytes.dropLast() }
            }
            trim()
            while bytes.last == UInt8(ascii: ":") { bytes = bytes.dropLast() }
            if let colon = bytes.lastIndex(of: UInt8(ascii: ":")) { bytes = bytes[(colon + 1)...] }
            trim()
            guard bytes.contains(UInt8(ascii: "@")), !bytes.contains(UInt8(ascii: " ")) else { return }
            result.append(Text.asciiLowercased(bytes))
        }

        for byte in header.utf8 {
            if escaped { escaped = false; if inAngle { angle.append(byte) }; continue }
            switch byte {
            case UInt8(ascii: "\\") where inQuotes || commentDepth > 0: escaped = true
            case UInt8(ascii: "\"") where commentDepth == 0 && !inAngle: inQuotes.toggle()
            case _ where inQuotes: continue  // display names are never compared
            case UInt8(ascii: "(") where !inAngle: commentDepth += 1
            case UInt8(ascii: ")") where !inAngle && commentDepth > 0: commentDepth -= 1
            case _ where commentDepth > 0: continue
            case UInt8(ascii: "<"): inAngle = true; angle.removeAll(keepingCapacity: true); hasAngle = true
            case UInt8(ascii: ">"): inAngle = false
            case _ where inAngle: angle.append(byte)
            case UInt8(ascii: ","), UInt8(ascii: ";"): finish()
            default: current.append(byte)
            }
        }
        finish()
        return result
    }

    /// ASCII white space (what `trimmed` removes, for ASCII text).
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }

    /// Without surrounding white space (natively: this runs for every header of every message).
    static func trimmed(_ string: String) -> String {
        let scalars = string.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace }) else { return "" }
        return String(scalars[first...last])
    }

    /// The one sender address of a `From` header, if it has one.
    public static func sender(in header: String?) -> String? { addresses(in: header).first }

    /// Comparable form: lowercased, and a `+tag` subaddress dropped (`ada+shop@example.com` is Ada).
    static func canonical(_ address: String) -> String {
        // Fast path: a lowercase ASCII address without a subaddress (what `addresses` returns).
        let utf8 = address.utf8
        if !utf8.contains(UInt8(ascii: "+")), utf8.allSatisfy({ $0 < 0x80 && !($0 >= 65 && $0 <= 90) }) { return address }
        let lower = address.lowercased()
        guard let at = lower.lastIndex(of: "@") else { return lower }
        let local = lower[..<at], domain = lower[lower.index(after: at)...]
        let base = local.split(separator: "+", maxSplits: 1, omittingEmptySubsequences: false).first ?? local
        return "\(base)@\(domain)"
    }

    static func domain(of address: String) -> Substring? {
        address.lastIndex(of: "@").map { address[address.index(after: $0)...] }
    }

    static func localPart(of address: String) -> Substring? {
        address.lastIndex(of: "@").map { address[..<$0] }
    }
}
