import AlfredCore
import AsyncHTTPClient
import Foundation
import Logging
import Metrics
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import Synchronization

/// One call to a Google data API, before base URL, token and encoding.
struct GoogleRequest: Sendable {
    var service: GoogleService
    /// The API method (`events.list`), for errors, logs and nothing else.
    var operation: String
    var method: HTTPMethod = .GET
    /// Path segments after the base URL, unencoded (`["calendars", "primary", "events"]`).
    var path: [String]
    /// Query parameters in order; a name may repeat (`metadataHeaders`).
    var query: [(String, String)] = []
    /// A JSON body, for POSTs.
    var body: [UInt8]?
}

/// A success answer and what it took.
struct GoogleResponse: Sendable {
    var status: Int
    var body: ByteBuffer
    /// HTTP attempts made, retries included.
    var attempts: Int
}

/// The transport both clients share: one connector, one place for tokens, retries, timeouts, error
/// classification and the request metric.
///
/// - Bearer tokens come from the `TokenSource` (the broker); the last one is reused until shortly
///   before it expires. A 401 asks for a forced refresh exactly once and retries once; a second 401 is
///   `GoogleAPIError.unauthorized`.
/// - 408/429/500/502/503/504, network errors and 403 rate-limit reasons are retried within the small
///   `RetryBudget` (full-jitter backoff, `Retry-After` as a floor); past it the call fails with
///   `rateLimited`/`unavailable` so the job queue does the long wait. Nothing else is retried.
/// - Backoff sleeps on the injected clock and jitter comes from the injected generator, so tests run
///   in virtual time and reproducibly.
public final class GoogleHTTP: Sendable {
    public let configuration: GoogleAPIConfiguration
    public let connectorID: UUID
    private let http: HTTPClient
    private let tokens: any TokenSource
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let generator: Mutex<AnyGenerator>
    private let cachedToken = Mutex<AccessToken?>(nil)
    private let metrics: RequestMetrics
    private let logger: Logger

    /// - Parameters:
    ///   - http: shared, owned by the caller (who shuts it down).
    ///   - tokens: where access tokens come from; never holds a refresh token.
    ///   - clock: paces backoff. Tests pass a virtual clock so no test waits for real seconds.
    ///   - now: wall time, to judge token expiry and `Retry-After` dates without a `Date` header.
    ///   - random: jitter for the backoff.
    ///   - metricsFactory: nil uses the process-wide `MetricsSystem`.
    public init(configuration: GoogleAPIConfiguration, http: HTTPClient, tokens: any TokenSource, connectorID: UUID,
                logger: Logger, clock: any Clock<Duration> = ContinuousClock(),
                now: @escaping @Sendable () -> Date = { Date() },
                random: some RandomNumberGenerator & Sendable = SystemRandomNumberGenerator(),
                metricsFactory: (any MetricsFactory)? = nil) {
        self.configuration = configuration
        self.connectorID = connectorID
        self.http = http
        self.tokens = tokens
        self.clock = clock
        self.now = now
        self.generator = Mutex(AnyGenerator(random))
        self.metrics = RequestMetrics(factory: metricsFactory)
        var logger = logger
        logger[metadataKey: "alfred.connector.id"] = "\(connectorID.uuidString.lowercased())"
        self.logger = logger
    }

    // MARK: Calls

    /// Sends `request` until it succeeds or fails for good; returns a 2xx body. Throws `GoogleAPIError`,
    /// the token source's errors, or `CancellationError`.
    func send(_ request: GoogleRequest) async throws -> GoogleResponse {
        var attempts = 0
        var transientAttempts = 0
        var slept = Duration.zero
        var refreshed = false
        var rejected: AccessToken?
        while true {
            try Task.checkCancellation()
            let token = try await accessToken(replacing: rejected)
            rejected = nil
            attempts += 1
            let exchange = try await perform(request, token: token)

            // Only transient failures get past this switch; success returns, the rest throws.
            let failure: GoogleAPIError
            switch exchange {
            case .response(let status, let headers, let body):
                let error = status / 100 == 2 ? nil : GoogleErrorBody(body.readableBytesView)
                metrics.record(request.service, ResponseClass.metricResult(status: status, reason: error?.reason))
                let retryAfter = RetryAfter.parse(headers.first(name: "Retry-After"),
                                                  responseDate: headers.first(name: "Date"), now: now())
                func fail(_ code: GoogleAPIError.Code) -> GoogleAPIError {
                    GoogleAPIError(code, service: request.service, operation: request.operation, status: status,
                                   reason: error?.reason, retryAfter: retryAfter, attempts: attempts)
                }
                switch ResponseClass(status: status, reason: error?.reason) {
                case .success:
                    return GoogleResponse(status: status, body: body, attempts: attempts)
                case .unauthorized:
                    guard !refreshed else { throw fail(.unauthorized) }
                    // The token we had was refused: mint a new one, once, and try again at once.
                    refreshed = true
                    rejected = token
                    logger.info("Google answered 401; retrying once with a refreshed token",
                                metadata: metadata(request, status: status))
                    continue
                case .permanent(let code):
                    throw fail(code)
                case .transient(let code):
                    failure = fail(code)
                }
            case .tooLarge(let status):
                metrics.record(request.service, ResponseClass.metricResult(status: status, reason: nil))
                throw GoogleAPIError(.invalidResponse, service: request.service, operation: request.operation,
                                     status: status, attempts: attempts,
                                     detail: "response larger than \(configuration.maxResponseBytes) bytes")
            case .networkFailure(let detail):
                metrics.record(request.service, .network)
                failure = GoogleAPIError(.unavailable, service: request.service, operation: request.operation,
                                         status: nil, attempts: attempts, detail: "network error (\(detail))")
            }

            transientAttempts += 1
            let delay = generator.withLock { generator in
                configuration.retry.delay(afterAttempt: transientAttempts, alreadySlept: slept,
                                          retryAfter: failure.retryAfter, using: &generator)
            }
            guard let delay else { throw failure }
            var details = metadata(request, status: failure.status)
            details["alfred.attempt"] = "\(attempts)"
            details["alfred.retry.delay_ms"] = "\(Int64(delay.seconds * 1_000))"
            if let reason = failure.reason { details["alfred.google.reason"] = "\(reason)" }
            logger.info("Google call failed transiently; retrying", metadata: details)
            try await clock.sleep(for: delay)
            slept += delay
        }
    }

    func get(_ service: GoogleService, _ operation: String, path: [String],
             query: [(String, String)] = []) async throws -> GoogleResponse {
        try await send(GoogleRequest(service: service, operation: operation, path: path, query: query))
    }

    func post(_ service: GoogleService, _ operation: String, path: [String], json: [UInt8]?) async throws -> GoogleResponse {
        try await send(GoogleRequest(service: service, operation: operation, method: .POST, path: path, body: json))
    }

    /// Decodes a success body; a body that is not the documented JSON is `invalidResponse`, described
    /// without the decoder's message (it can quote values).
    func decode<T: Decodable>(_ type: T.Type, from response: GoogleResponse, _ request: (GoogleService, String)) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: response.body)
        } catch {
            throw invalidResponse(response, request, "body is not the documented JSON")
        }
    }

    /// A success status whose content is unusable; `detail` is a fixed phrase.
    func invalidResponse(_ response: GoogleResponse, _ request: (GoogleService, String), _ detail: String) -> GoogleAPIError {
        GoogleAPIError(.invalidResponse, service: request.0, operation: request.1, status: response.status,
                       attempts: response.attempts, detail: detail)
    }

    // MARK: One exchange

    private enum Exchange: Sendable {
        case response(status: Int, headers: HTTPHeaders, body: ByteBuffer)
        /// The body outgrew `maxResponseBytes`.
        case tooLarge(status: Int)
        /// A fixed description of what failed (an error type or `timeout`); never a URL.
        case networkFailure(String)
    }

    /// One HTTP exchange, head and body, within `requestTimeout`. Network trouble is a value, not a throw;
    /// cancellation of the calling task still throws.
    private func perform(_ request: GoogleRequest, token: AccessToken) async throws -> Exchange {
        var outgoing = HTTPClientRequest(url: url(for: request))
        outgoing.method = request.method
        outgoing.headers.add(name: "Authorization", value: "Bearer \(token.token.unsafeValue)")
        outgoing.headers.add(name: "Accept", value: "application/json")
        if let body = request.body {
            outgoing.headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        } else if request.method == .POST {
            outgoing.body = .bytes(ByteBuffer())
        }
        let http = self.http
        let prepared = outgoing
        let limit = configuration.maxResponseBytes
        let timeout = configuration.requestTimeout
        let started = ContinuousClock.now
        defer { metrics.duration(request.service, ContinuousClock.now - started) }
        do {
            // AHC's own deadline covers the head only; this one also covers the body. Real time on
            // purpose: the injected clock paces backoff and is virtual in tests, where a virtual
            // timeout would fire at once.
            let exchange = try await withDeadline(timeout) { () -> Exchange in
                let response = try await http.execute(prepared, timeout: TimeAmount(timeout))
                let status = Int(response.status.code)
                do {
                    let body = try await response.body.collect(upTo: limit)
                    return .response(status: status, headers: response.headers, body: body)
                } catch is NIOTooManyBytesError {
                    return .tooLarge(status: status)
                }
            }
            return exchange ?? .networkFailure("timeout after \(timeout)")
        } catch {
            if Task.isCancelled { throw CancellationError() }
            // AHC's deadline and the race above share the limit; whichever fires, it is the same timeout.
            if let error = error as? HTTPClientError, error == .deadlineExceeded {
                return .networkFailure("timeout after \(timeout)")
            }
            // AHC's error code name only: some codes carry values (a rejected header value could be
            // the bearer token). Other errors by type, which cannot carry a URL or a token.
            return .networkFailure((error as? HTTPClientError).map { Self.codeName($0) } ?? "\(type(of: error))")
        }
    }

    private func url(for request: GoogleRequest) -> String {
        var url = configuration.baseURL(request.service)
        for segment in request.path { url += "/" + Self.percentEncoded(segment) }
        if !request.query.isEmpty {
            url += "?" + request.query.map { "\(Self.percentEncoded($0.0))=\(Self.percentEncoded($0.1))" }
                .joined(separator: "&")
        }
        return url
    }

    /// RFC 3986 unreserved characters stay; everything else (`@`, `#`, `/` in a calendar id, `,()` in
    /// `fields`, `+` in an offset) is percent-encoded, byte by byte.
    /// `HTTPClientError.connectTimeout` for every code, without any associated values.
    static func codeName(_ error: HTTPClientError) -> String { String("\(error)".prefix { $0 != "(" }) }

    static func percentEncoded(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    private func metadata(_ request: GoogleRequest, status: Int?) -> Logger.Metadata {
        var metadata: Logger.Metadata = ["alfred.google.api": "\(request.service.rawValue)",
                                         "alfred.google.operation": "\(request.operation)"]
        if let status { metadata["alfred.http.status"] = "\(status)" }
        return metadata
    }

    // MARK: Tokens

    /// The cached token if it has a while to live, else a new one from the source. After a 401,
    /// `rejected` is the refused token: the source is asked to mint a new one (`forceRefresh`), unless a
    /// concurrent call on this transport already replaced it, so four parallel message fetches hitting
    /// an expired token cost one refresh, not four.
    private func accessToken(replacing rejected: AccessToken?) async throws -> AccessToken {
        let margin = configuration.tokenReuseMargin.seconds
        if let cached = cachedToken.withLock({ $0 }), cached.expiresAt.timeIntervalSince(now()) > margin,
           rejected == nil || cached.token != rejected?.token {
            return cached
        }
        let token = try await tokens.accessToken(for: connectorID, forceRefresh: rejected != nil)
        cachedToken.withLock { $0 = token }
        return token
    }
}

/// `alfred_google_requests_total{api, result}` (one per HTTP attempt, retries included) and
/// `alfred_google_request_duration_seconds{api}`. Handles are made once; labels come from fixed sets.
struct RequestMetrics: Sendable {
    private let counters: [GoogleService: [RequestResult: Counter]]
    private let timers: [GoogleService: Timer]

    init(factory: (any MetricsFactory)?) {
        var counters: [GoogleService: [RequestResult: Counter]] = [:]
        var timers: [GoogleService: Timer] = [:]
        for service in GoogleService.allCases {
            for result in RequestResult.allCases {
                let dimensions = [("api", service.rawValue), ("result", result.rawValue)]
                counters[service, default: [:]][result] = factory.map {
                    Counter(label: MetricName.googleRequests, dimensions: dimensions, factory: $0)
                } ?? Counter(label: MetricName.googleRequests, dimensions: dimensions)
            }
            let dimensions = [("api", service.rawValue)]
            timers[service] = factory.map {
                Timer(label: MetricName.googleRequestDuration, dimensions: dimensions, preferredDisplayUnit: .seconds,
                      factory: $0)
            } ?? Timer(label: MetricName.googleRequestDuration, dimensions: dimensions, preferredDisplayUnit: .seconds)
        }
        self.counters = counters
        self.timers = timers
    }

    func record(_ service: GoogleService, _ result: RequestResult) {
        counters[service]?[result]?.increment()
    }

    func duration(_ service: GoogleService, _ duration: Duration) {
        timers[service]?.recordNanoseconds(Int64(duration.seconds * 1e9))
    }
}
