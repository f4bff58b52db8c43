import Foundation

/// A Calendar or Gmail call that did not produce its result. Workers act on `code` (and `retryAfter`),
/// never on text. `description` is safe for job records and logs: API, operation, HTTP status, Google's
/// machine-readable reason and attempt count — never a URL, token, address, subject or title.
///
/// Errors of the `TokenSource` (the broker: connector revoked, needs re-consent, broker down) and
/// `CancellationError` pass through unchanged; they already say what happened.
public struct GoogleAPIError: Error, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate let name: String
        public var description: String { name }

        /// 401 again after a forced token refresh: Google does not accept this connector's credentials.
        /// Not transient; check the connector (the broker reports a dead refresh token as its own error).
        public static let unauthorized = Code(name: "unauthorized")
        /// 429, or 403 `rateLimitExceeded`/`userRateLimitExceeded`, still failing when the in-process
        /// budget ran out (or `Retry-After` asked for more than it allows). Retry the job after
        /// `retryAfter`, or the queue's own backoff when Google sent none.
        public static let rateLimited = Code(name: "rate_limited")
        /// 403 `dailyLimitExceeded`/`quotaExceeded`: the project's quota is spent. Retry much later (hours).
        public static let quotaExceeded = Code(name: "quota_exceeded")
        /// 408, 5xx or a network error/timeout still failing when the budget ran out. Retry the job later
        /// (after `retryAfter` if Google sent one).
        public static let unavailable = Code(name: "unavailable")
        /// 403 for any other reason (scope not granted, access to the calendar lost). Do not retry; mark
        /// the calendar or mailbox unavailable.
        public static let forbidden = Code(name: "forbidden")
        /// 404 where it is not an expected signal (calendar gone). Do not retry.
        public static let notFound = Code(name: "not_found")
        /// 410 where it is not a sync signal. Do not retry.
        public static let gone = Code(name: "gone")
        /// Calendar 410 (`fullSyncRequired`, `updatedMinTooLongAgo`) on an incremental sync: drop the sync
        /// token and the cached events of that calendar, run a full sync.
        public static let syncTokenExpired = Code(name: "sync_token_expired")
        /// Gmail `history.list` 404: the stored history id is too old. Take a fresh one from `profile()`
        /// and reconcile with `recentInboxMessageIDs(maxResults:)`.
        public static let historyExpired = Code(name: "history_expired")
        /// 400 or another 4xx: our request is wrong. Do not retry; it is a bug.
        public static let badRequest = Code(name: "bad_request")
        /// A success status whose body is not what the API documents (or is too large), or a pager that
        /// never ends. Retrying may help if Google was having a moment; the job queue decides.
        public static let invalidResponse = Code(name: "invalid_response")
    }

    public let code: Code
    public let service: GoogleService
    /// The API method, e.g. `events.list`, `messages.get`.
    public let operation: String
    /// The last HTTP status seen; nil when the last attempt failed on the network.
    public let status: Int?
    /// Google's `error.errors[0].reason` (e.g. `rateLimitExceeded`), when it looked like one.
    public let reason: String?
    /// How long Google asked us to wait (`Retry-After`), when it said.
    public let retryAfter: Duration?
    /// HTTP attempts made for this call.
    public let attempts: Int
    /// A fixed phrase for failures without a status (`network error (HTTPClientError.connectTimeout)`).
    let detail: String?

    init(_ code: Code, service: GoogleService, operation: String, status: Int?, reason: String? = nil,
         retryAfter: Duration? = nil, attempts: Int, detail: String? = nil) {
        self.code = code
        self.service = service
        self.operation = operation
        self.status = status
        self.reason = reason
        self.retryAfter = retryAfter
        self.attempts = attempts
        self.detail = detail
    }

    /// The same failure under another code, for callers that know what a status means for their
    /// operation (a 410 on an incremental sync is `syncTokenExpired`).
    func recoded(_ code: Code) -> GoogleAPIError {
        GoogleAPIError(code, service: service, operation: operation, status: status, reason: reason,
                       retryAfter: retryAfter, attempts: attempts, detail: detail)
    }

    /// True when trying again later can succeed without anyone changing anything.
    public var isTransient: Bool {
        [.rateLimited, .quotaExceeded, .unavailable, .invalidResponse].contains(code)
    }

    public var description: String {
        var text = "Google \(service.rawValue) \(operation) failed: \(code.name)"
        if let status { text += ", HTTP \(status)" }
        if let reason { text += " \(reason)" }
        if let detail { text += ", \(detail)" }
        text += ", \(attempts) attempt\(attempts == 1 ? "" : "s")"
        if let retryAfter { text += ", Retry-After \(Self.format(retryAfter))" }
        return text
    }

    private static func format(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        let millis = duration.components.attoseconds / 1_000_000_000_000_000
        return millis == 0 ? "\(seconds)s" : "\(seconds).\(String(format: "%03lld", millis))s"
    }
}

/// Google's error body (external-apis §0.3), read tolerantly: any part may be missing or malformed.
struct GoogleErrorBody: Equatable {
    var code: Int?
    /// `error.errors[0].reason`, or an `ErrorInfo` reason from `error.details` on newer responses.
    var reason: String?
    /// gRPC-style status name (`RESOURCE_EXHAUSTED`), when present.
    var status: String?

    init(code: Int? = nil, reason: String? = nil, status: String? = nil) {
        self.code = code
        self.reason = reason
        self.status = status
    }

    /// Nil unless the body is JSON with an `error` object.
    init?(_ body: some Sequence<UInt8>) {
        guard let root = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
              let error = root["error"] as? [String: Any]
        else { return nil }
        code = error["code"] as? Int
        status = (error["status"] as? String).flatMap(Self.identifier)
        let first = (error["errors"] as? [[String: Any]])?.first?["reason"] as? String
        let info = (error["details"] as? [[String: Any]])?.lazy.compactMap { $0["reason"] as? String }.first
        reason = (first ?? info).flatMap(Self.identifier)
    }

    /// Reasons and statuses go into error descriptions and logs, so only short identifier-like values
    /// are kept: a server echoing an address or a title into `reason` must not leak it.
    static func identifier(_ text: String) -> String? {
        guard (1...64).contains(text.utf8.count),
              text.utf8.allSatisfy({ $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "_") })
        else { return nil }
        return text
    }
}

extension UInt8 {
    fileprivate var isASCIIAlphanumeric: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}

/// What one HTTP answer means for the transport: the decision, separate from the I/O.
enum ResponseClass: Equatable {
    case success
    /// Refresh the token once and retry; a second one is `.unauthorized`.
    case unauthorized
    /// Retry within the budget; when it runs out, fail with this code.
    case transient(GoogleAPIError.Code)
    /// Fail now with this code.
    case permanent(GoogleAPIError.Code)

    static let rateLimitReasons: Set<String> = ["ratelimitexceeded", "userratelimitexceeded", "rate_limit_exceeded"]
    static let quotaReasons: Set<String> = ["dailylimitexceeded", "quotaexceeded", "dailylimitexceededunreg"]

    init(status: Int, reason: String?) {
        let reason = reason?.lowercased()
        switch status {
        case 200..<300: self = .success
        case 401: self = .unauthorized
        case 408, 500, 502, 503, 504: self = .transient(.unavailable)
        case 429: self = .transient(.rateLimited)
        case 403 where reason.map(Self.rateLimitReasons.contains) == true: self = .transient(.rateLimited)
        case 403 where reason.map(Self.quotaReasons.contains) == true: self = .permanent(.quotaExceeded)
        case 403: self = .permanent(.forbidden)
        case 404: self = .permanent(.notFound)
        case 410: self = .permanent(.gone)
        case 400..<500: self = .permanent(.badRequest)
        // 501, 505, ...: not the kind of 5xx that goes away in a second; the job queue retries.
        case 500..<600: self = .permanent(.unavailable)
        default: self = .permanent(.invalidResponse)
        }
    }

    /// The `result` label of the request metric: a fixed set.
    static func metricResult(status: Int, reason: String?) -> RequestResult {
        switch ResponseClass(status: status, reason: reason) {
        case .success: .ok
        case .unauthorized: .unauthorized
        case .transient(.rateLimited), .permanent(.quotaExceeded): .rateLimited
        case .permanent(.notFound), .permanent(.gone): .notFound
        default: status >= 500 ? .serverError : .clientError
        }
    }
}

/// Values of the request metric's `result` label.
enum RequestResult: String, Sendable, CaseIterable {
    case ok
    /// 404/410: usually an expected signal (deleted message, expired history or sync token).
    case notFound = "not_found"
    case clientError = "client_error"
    case serverError = "server_error"
    case rateLimited = "rate_limited"
    case unauthorized
    /// Connection failure or timeout: no HTTP status.
    case network
}
