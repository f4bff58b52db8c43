import Foundation
import Hummingbird

/// The query string of a Calendar or Gmail call, read with Google's parameter rules: typed values
/// answer 400 when malformed, repeated parameters keep every value, and `fields` is a partial-response
/// selector.
struct APIQuery: Sendable {
    let fields: FormFields

    init(_ request: Request) {
        fields = FormFields(encoded: request.uri.query ?? "")
    }

    /// Every value of a repeatable parameter (`labelIds=INBOX&labelIds=UNREAD`), in order.
    func values(_ name: String) -> [String] { fields.fields.filter { $0.name == name }.map(\.value) }

    /// Present at all, even as `q=`; Gmail's metadata scope rejects an empty `q` too.
    func contains(_ name: String) -> Bool { fields.fields.contains { $0.name == name } }

    /// The first value; nil when absent or empty.
    func string(_ name: String) -> String? { fields[name] }

    func bool(_ name: String) throws(GoogleAPIError) -> Bool? {
        guard let text = string(name) else { return nil }
        switch text.lowercased() {
        case "true": return true
        case "false": return false
        default: throw .badRequest("Invalid boolean value: '\(text)' for parameter \(name).", reason: "invalidParameter",
                                   parameter: name)
        }
    }

    /// An integer of at least `minimum`; values above `maximum` are lowered to it, as Google caps
    /// page sizes rather than rejecting them.
    func integer(_ name: String, minimum: Int, maximum: Int) throws(GoogleAPIError) -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text) else {
            throw .badRequest("Invalid value '\(text)'. Values must match the following regular expression: '-?\\d+'",
                              reason: "invalidParameter", parameter: name)
        }
        guard value >= minimum else {
            throw .badRequest("Invalid value '\(text)' for \(name): must be at least \(minimum).", reason: "invalidParameter",
                              parameter: name)
        }
        return min(value, maximum)
    }

    /// RFC 3339 with an offset; anything else (no offset, a date alone, a `+` that arrived as a space
    /// because the client did not percent-encode it) is 400.
    func time(_ name: String) throws(GoogleAPIError) -> Date? {
        guard let text = string(name) else { return nil }
        guard let date = GoogleTime.parseRFC3339(text) else {
            throw .badRequest("Bad Request: \(name) '\(text)' is not an RFC 3339 timestamp with a time zone offset "
                              + "(e.g. 2026-11-21T09:00:00Z or 2026-11-21T10:00:00+01:00).", parameter: name)
        }
        return date
    }

    func oneOf(_ name: String, _ allowed: [String]) throws(GoogleAPIError) -> String? {
        guard let text = string(name) else { return nil }
        guard allowed.contains(text) else {
            throw .badRequest("Invalid value for \(name): '\(text)'; expected one of \(allowed.joined(separator: ", ")).",
                              reason: "invalidParameter", parameter: name)
        }
        return text
    }

    /// The partial-response selector, nil when the whole answer is wanted.
    func fieldMask() throws(GoogleAPIError) -> FieldMask? {
        guard let text = string("fields") else { return nil }
        do {
            return try FieldMask(parsing: text)
        } catch {
            throw .badRequest("Invalid field selection \(text): \(error.message)", reason: "invalidParameter",
                              parameter: "fields")
        }
    }

    /// Gmail (a One Platform API) refuses parameters its method does not declare; Calendar ignores them.
    func rejectUnknown(allowed: Set<String>) throws(GoogleAPIError) {
        for field in fields.fields where !allowed.contains(field.name) && !Self.standardParameters.contains(field.name) {
            throw .badRequest(
                "Invalid JSON payload received. Unknown name \"\(field.name)\": Cannot bind query parameter. "
                    + "Field '\(field.name)' could not be found in request message.",
                reason: "invalid")
        }
    }

    /// Parameters every Google API method takes (the discovery documents' top-level `parameters`).
    static let standardParameters: Set<String> = [
        "$.xgafv", "access_token", "alt", "callback", "fields", "key", "oauth_token", "prettyPrint", "quotaUser",
        "uploadType", "upload_protocol", "userIp",
    ]
}

extension GoogleStandIn {
    /// Who is calling a data API: 401 `authError` unless a live bearer token (the `Authorization`
    /// header, or Google's `access_token` query parameter) names a scenario user; 403
    /// `insufficientPermissions` unless the token holds one of `scopes`.
    func caller(_ request: Request, query: APIQuery, scopes: [String]) throws(GoogleAPIError) -> (AccessTokenInfo, User) {
        let header = request.headers[.authorization] ?? query.string("access_token").map { "Bearer \($0)" }
        let info: AccessTokenInfo
        do { info = try validateBearer(header) } catch { throw .authError }
        guard let user = scenario.withLock({ $0.users.first { $0.subject == info.subject } }) else { throw .authError }
        guard info.grants(anyOf: scopes) else { throw .insufficientScopes(scopes) }
        return (info, user)
    }

    /// A 200 answer, pruned to `fields` when the client asked for a partial response.
    static func answer(_ value: GoogleJSON, mask: FieldMask?) -> Response {
        googleJSON(mask.map { $0.apply(to: value) } ?? value)
    }

    /// A path segment as the client meant it (`ada%40example.com` is `ada@example.com`).
    static func pathParameter(_ context: BasicRequestContext, _ name: String) -> String {
        let raw = context.parameters.get(name) ?? ""
        return raw.removingPercentEncoding ?? raw
    }
}
