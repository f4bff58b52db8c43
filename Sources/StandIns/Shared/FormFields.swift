import Foundation

/// The fields of an `application/x-www-form-urlencoded` string (a form body or a query string), in
/// order and with duplicates kept: Google rejects a repeated parameter, so we must be able to see one.
struct FormFields: Sendable, Equatable {
    struct Field: Sendable, Equatable {
        var name: String
        var value: String
    }

    var fields: [Field]

    init(_ fields: [Field] = []) { self.fields = fields }

    /// Parses `a=1&b=two+words&c=%2F`. A field that does not percent-decode keeps its raw text, so a
    /// malformed request still reaches validation and gets a proper OAuth error rather than vanishing.
    init(encoded: String) {
        fields = encoded.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            let value = parts.count > 1 ? Self.decode(parts[1]) : ""
            return Field(name: name, value: value)
        }
    }

    /// The first value of `name`; nil when absent. An empty value counts as absent, as Google treats
    /// `code=` like a missing `code`.
    subscript(name: String) -> String? {
        guard let value = fields.first(where: { $0.name == name })?.value, !value.isEmpty else { return nil }
        return value
    }

    /// The first parameter name that appears more than once, if any.
    var firstDuplicateName: String? {
        var seen = Set<String>()
        for field in fields where !seen.insert(field.name).inserted { return field.name }
        return nil
    }

    /// Encodes for a query string or a form body. Spaces become `%20`, not `+`: URLComponents-based
    /// clients read `+` literally.
    var encoded: String {
        fields.map { "\(Self.encode($0.name))=\(Self.encode($0.value))" }.joined(separator: "&")
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// RFC 3986 query characters minus the ones that delimit fields (`&`, `=`, `+`, `#`). `/` and `:`
    /// stay readable, as in Google's own redirects (`code=4/0A...`, `scope=https://...`).
    private static let allowed: CharacterSet = {
        CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/:?@!$'()*,;")
    }()

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }
}

extension Data {
    /// Base64url without padding (RFC 4648 §5), as PKCE and JWTs use it.
    var base64URLEncoded: String {
        base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
