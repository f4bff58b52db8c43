import Foundation
import Hummingbird

/// An error from a Google data API (Calendar, Gmail) in the shape of external-apis §0.3:
/// `{"error": {"code", "message", "errors": [{"message", "domain", "reason", "location"?, "locationType"?}], "status"}}`.
/// Route handlers throw it; `TrafficMiddleware` records the status it turns into.
struct GoogleAPIError: Error, HTTPResponseError, Sendable {
    var code: Int
    var message: String
    var reason: String
    var domain = "global"
    /// The per-item message; Google often words it differently from the top-level one.
    var detail: String?
    var location: String?
    var locationType: String?
    var extraHeaders: [String: String] = [:]

    var status: HTTPResponse.Status { .init(code: code) }

    /// The gRPC-style name Google puts in `error.status`.
    var statusName: String { Self.statusName(for: code) }

    var body: GoogleJSON {
        .object([
            "error": .object([
                "code": .int(code),
                "message": .string(message),
                "errors": .array([.object([
                    "message": .string(detail ?? message),
                    "domain": .string(domain),
                    "reason": .string(reason),
                    "locationType": .string(locationType),
                    "location": .string(location),
                ])]),
                "status": .string(statusName),
            ]),
        ])
    }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = GoogleStandIn.googleJSON(body, status: code)
        for (name, value) in extraHeaders.sorted(by: { $0.key < $1.key }) {
            if let field = HTTPFields.Element.Name(name) { response.headers[field] = value }
        }
        return response
    }

    var canned: CannedResponse {
        CannedResponse(status: code, headers: extraHeaders.merging(["Content-Type": "application/json; charset=UTF-8"]) { $1 },
                       body: body.serialized)
    }

    static func statusName(for code: Int) -> String {
        switch code {
        case 400: "INVALID_ARGUMENT"
        case 401: "UNAUTHENTICATED"
        case 403: "PERMISSION_DENIED"
        case 404: "NOT_FOUND"
        case 409: "ABORTED"
        case 410: "FAILED_PRECONDITION"
        case 429: "RESOURCE_EXHAUSTED"
        case 500: "INTERNAL"
        case 503: "UNAVAILABLE"
        default: "UNKNOWN"
        }
    }

    // MARK: The errors the routes answer

    /// 401 for a missing, unknown, expired or revoked bearer token (§3.7 body).
    static let authError = GoogleAPIError(
        code: 401, message: "Request had invalid authentication credentials.", reason: "authError",
        detail: "Invalid Credentials", location: "Authorization", locationType: "header",
        extraHeaders: ["WWW-Authenticate": #"Bearer realm="https://accounts.google.com/""#])

    /// 403 when the token lacks every scope the method accepts.
    static func insufficientScopes(_ accepted: [String]) -> GoogleAPIError {
        GoogleAPIError(
            code: 403, message: "Request had insufficient authentication scopes.", reason: "insufficientPermissions",
            detail: "Insufficient Permission",
            extraHeaders: ["WWW-Authenticate":
                #"Bearer realm="https://accounts.google.com/", error="insufficient_scope", scope="\#(accepted.joined(separator: " "))""#])
    }

    static func forbidden(_ message: String) -> GoogleAPIError {
        GoogleAPIError(code: 403, message: message, reason: "forbidden")
    }

    static func badRequest(_ message: String, reason: String = "badRequest", parameter: String? = nil) -> GoogleAPIError {
        GoogleAPIError(code: 400, message: message, reason: reason, location: parameter,
                       locationType: parameter == nil ? nil : "parameter")
    }

    /// Gmail's (One Platform) wording for a bad argument.
    static func invalidArgument(_ message: String, parameter: String? = nil) -> GoogleAPIError {
        badRequest(message, reason: "invalidArgument", parameter: parameter)
    }

    static let notFound = GoogleAPIError(code: 404, message: "Requested entity was not found.", reason: "notFound")
    static let calendarNotFound = GoogleAPIError(code: 404, message: "Not Found", reason: "notFound")

    static let fullSyncRequired = GoogleAPIError(
        code: 410, message: "Sync token is no longer valid, a full sync is required.", reason: "fullSyncRequired",
        domain: "calendar", location: "syncToken", locationType: "parameter")

    static let updatedMinTooLongAgo = GoogleAPIError(
        code: 410, message: "The requested minimum modification time lies too far in the past.",
        reason: "updatedMinTooLongAgo", domain: "calendar", location: "updatedMin", locationType: "parameter")

    static let rateLimitExceeded = GoogleAPIError(
        code: 403, message: "Rate Limit Exceeded", reason: "rateLimitExceeded", domain: "usageLimits")

    static let userRateLimitExceeded = GoogleAPIError(
        code: 403, message: "User-rate limit exceeded.", reason: "userRateLimitExceeded", domain: "usageLimits")

    static func tooManyRequests(retryAfterSeconds: Int) -> GoogleAPIError {
        GoogleAPIError(code: 429, message: "Too many requests", reason: "rateLimitExceeded", domain: "usageLimits",
                       extraHeaders: ["Retry-After": "\(retryAfterSeconds)"])
    }

    static let backendError = GoogleAPIError(code: 500, message: "Backend Error", reason: "backendError")

    static func serviceUnavailable(retryAfterSeconds: Int?) -> GoogleAPIError {
        GoogleAPIError(code: 503, message: "The service is currently unavailable.", reason: "backendError",
                       extraHeaders: retryAfterSeconds.map { ["Retry-After": "\($0)"] } ?? [:])
    }
}

/// The Calendar/Gmail faults of external-apis §2.7 and §3.7, by the names `POST /_fake/faults`
/// accepts in `"fault"` next to the OAuth ones (whose bodies are token-endpoint shaped).
extension CannedResponse {
    static let googleAPIFaultNames = [
        "auth_error", "rate_limit_exceeded", "user_rate_limit_exceeded", "too_many_requests", "backend_error",
        "service_unavailable", "full_sync_required", "updated_min_too_long_ago", "not_found",
    ]

    /// A data-API fault: 401 `authError`, 403 `rateLimitExceeded` / `userRateLimitExceeded`, 429 with
    /// `Retry-After` (default 3 s), 500 `backendError`, 503, 410 `fullSyncRequired` /
    /// `updatedMinTooLongAgo`, or 404 `notFound` (Gmail's answer to a too-old `startHistoryId`).
    public static func googleAPIFault(named name: String, retryAfterSeconds: Int? = nil) -> CannedResponse? {
        let error: GoogleAPIError? = switch name {
        case "auth_error": .authError
        case "rate_limit_exceeded": .rateLimitExceeded
        case "user_rate_limit_exceeded": .userRateLimitExceeded
        case "too_many_requests": .tooManyRequests(retryAfterSeconds: retryAfterSeconds ?? 3)
        case "backend_error": .backendError
        case "service_unavailable": .serviceUnavailable(retryAfterSeconds: retryAfterSeconds)
        case "full_sync_required": .fullSyncRequired
        case "updated_min_too_long_ago": .updatedMinTooLongAgo
        case "not_found": .notFound
        default: nil
        }
        return error?.canned
    }
}

extension GoogleStandIn {
    /// A data-API answer: JSON, never cached, as Google's are for authenticated calls.
    static func googleJSON(_ value: GoogleJSON, status: Int = 200) -> Response {
        Response(status: .init(code: status),
                 headers: [.contentType: "application/json; charset=UTF-8",
                           .cacheControl: "private, max-age=0, must-revalidate, no-transform",
                           .vary: "Origin, X-Origin, Referer"],
                 body: .init(byteBuffer: ByteBuffer(string: value.serialized)))
    }
}
