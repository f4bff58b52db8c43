import Foundation

/// A JSON value whose object members keep their order. Calendar and Gmail answers are built from it
/// (rather than Codable structs) because the `fields` parameter prunes them generically, and because
/// Google's member order makes recorded answers easy to read next to the documentation.
enum GoogleJSON: Sendable, ExpressibleByStringLiteral {
    case string(String)
    case int(Int)
    case bool(Bool)
    case array([GoogleJSON])
    case object([(String, GoogleJSON)])

    init(stringLiteral value: String) { self = .string(value) }

    /// An object without the members whose value is nil: optional fields are omitted, never `null`,
    /// as in Google's answers.
    static func object(_ members: KeyValuePairs<String, GoogleJSON?>) -> GoogleJSON {
        .object(members.compactMap { key, value in value.map { (key, $0) } })
    }

    static func string(_ value: String?) -> GoogleJSON? { value.map { .string($0) } }

    /// Strings of digits: Google sends int64/uint64 values (`historyId`, `internalDate`, `expiration`)
    /// as JSON strings.
    static func int64String(_ value: some BinaryInteger) -> GoogleJSON { .string(String(value)) }

    subscript(key: String) -> GoogleJSON? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    /// Compact UTF-8 JSON; `/` is not escaped, as in Google's answers.
    var serialized: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .string(let text): Self.writeString(text, to: &out)
        case .int(let number): out += String(number)
        case .bool(let flag): out += flag ? "true" : "false"
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { out += "," }
                Self.writeString(key, to: &out)
                out += ":"
                value.write(to: &out)
            }
            out += "}"
        }
    }

    private static func writeString(_ text: String, to out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let control where control.value < 0x20:
                out += "\\u" + String(repeating: "0", count: 4 - String(control.value, radix: 16).count)
                    + String(control.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

/// Google's partial-response selector (`fields=nextPageToken,items(id,start,attendees(email,self)),a/b`),
/// parsed into a tree and applied to an answer. Selecting a member without a sub-selection keeps it
/// whole; a sub-selection on an array applies to each element; `*` keeps every member. Unknown names
/// select nothing (real Google rejects some of them; the stand-in is lenient so a client's optional
/// fields never break a test).
struct FieldMask: Sendable, Equatable {
    indirect enum Selection: Sendable, Equatable {
        case whole
        case partial(FieldMask)
    }

    var members: [String: Selection]

    struct SyntaxError: Error, Sendable {
        var message: String
    }

    init(members: [String: Selection] = [:]) { self.members = members }

    /// Parses a `fields` value; throws on unbalanced parentheses or empty names.
    init(parsing text: String) throws(SyntaxError) {
        var parser = Parser(characters: Array(text))
        self = try parser.parseList(closing: nil)
    }

    func apply(to value: GoogleJSON) -> GoogleJSON {
        switch value {
        case .array(let items): return .array(items.map { apply(to: $0) })
        case .object(let pairs):
            if members["*"] != nil { return value }
            return .object(pairs.compactMap { key, inner in
                switch members[key] {
                case nil: nil
                case .whole: (key, inner)
                case .partial(let mask): (key, mask.apply(to: inner))
                }
            })
        default: return value
        }
    }

    /// Adds `path` (already split on `/`) ending in `leaf`, merging with what is selected already.
    mutating func add(path: ArraySlice<String>, leaf: Selection) {
        guard let head = path.first else { return }
        let rest = path.dropFirst()
        let existing = members[head]
        if existing == .whole { return }  // a whole selection already covers any partial one
        if rest.isEmpty {
            switch (existing, leaf) {
            case (.partial(var mask), .partial(let more)):
                for (key, selection) in more.members { mask.add(path: [key][...], leaf: selection) }
                members[head] = .partial(mask)
            default: members[head] = leaf
            }
            return
        }
        var child = FieldMask()
        if case .partial(let mask) = existing { child = mask }
        child.add(path: rest, leaf: leaf)
        members[head] = .partial(child)
    }

    private struct Parser {
        let characters: [Character]
        var index = 0

        mutating func parseList(closing: Character?) throws(SyntaxError) -> FieldMask {
            var mask = FieldMask()
            while true {
                let path = try parsePath()
                var leaf = Selection.whole
                if index < characters.count, characters[index] == "(" {
                    index += 1
                    leaf = .partial(try parseList(closing: ")"))
                }
                mask.add(path: path[...], leaf: leaf)
                guard index < characters.count else {
                    if closing != nil { throw SyntaxError(message: "missing ')'") }
                    return mask
                }
                let next = characters[index]
                index += 1
                if next == "," { continue }
                if next == closing { return mask }
                throw SyntaxError(message: "unexpected '\(next)'")
            }
        }

        mutating func parsePath() throws(SyntaxError) -> [String] {
            var names: [String] = []
            var current = ""
            while index < characters.count {
                let character = characters[index]
                if character == "," || character == "(" || character == ")" { break }
                index += 1
                if character == " " { continue }
                if character == "/" {
                    guard !current.isEmpty else { throw SyntaxError(message: "empty name before '/'") }
                    names.append(current)
                    current = ""
                } else {
                    current.append(character)
                }
            }
            guard !current.isEmpty else { throw SyntaxError(message: "empty field name") }
            names.append(current)
            return names
        }
    }
}
