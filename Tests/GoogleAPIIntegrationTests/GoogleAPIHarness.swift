import AlfredCore
import AlfredTestCluster
import AsyncHTTPClient
import CoreMetrics
import Foundation
@testable import GoogleAPI
import Logging
import NIOCore
import ServiceLifecycle
import StandIns
import Synchronization

/// The Google stand-in on an ephemeral loopback port, and our production clients pointed at it by base
/// URL alone. Backoff runs on a manual clock (no test waits for real backoff seconds) and jitter on a
/// seeded generator; tokens come from the stand-in, as the broker's would.
struct GoogleAPIHarness: Sendable {
    static let subject = "100000000000000000001"
    static let email = "ada@example.com"
    static let calendarScope = "https://www.googleapis.com/auth/calendar.readonly"
    static let gmailScope = "https://www.googleapis.com/auth/gmail.metadata"
    static let connector = UUID(uuidString: "6f1c9a52-3b57-4d0e-9a43-0c8f6a7e2b11")!

    let standIn: GoogleStandIn
    let client: HTTPClient
    let baseURL: String
    let tokens: StandInTokenSource
    /// Sleeps return at once and move its time (`sleepsAdvance`); tests read `sleeps`.
    let clock: ManualClock
    let metrics: CountingMetrics
    let logger: Logger

    /// The production configuration with the stand-in's base URLs: the only change from real Google.
    var configuration: GoogleAPIConfiguration {
        var configuration = GoogleAPIConfiguration(root: baseURL)
        configuration.requestTimeout = .seconds(60)  // generous: tests about timeouts set their own
        return configuration
    }

    func transport(_ configure: (inout GoogleAPIConfiguration) -> Void = { _ in }) -> GoogleHTTP {
        var configuration = self.configuration
        configure(&configuration)
        return GoogleHTTP(configuration: configuration, http: client, tokens: tokens, connectorID: Self.connector,
                          logger: logger, clock: clock, random: SeededGenerator(seed: 42), metricsFactory: metrics)
    }

    func calendar(_ configure: (inout GoogleAPIConfiguration) -> Void = { _ in }) -> CalendarClient {
        CalendarClient(http: transport(configure))
    }

    func gmail(_ configure: (inout GoogleAPIConfiguration) -> Void = { _ in }) -> GmailClient {
        GmailClient(http: transport(configure))
    }

    /// Requests the stand-in served whose path starts with `prefix` (`/calendar/v3`, `/gmail/v1`).
    func requests(under prefix: String) -> [RecordedRequest] {
        standIn.recordedRequests().filter { $0.path.hasPrefix(prefix) }
    }

    static func configuration(_ user: GoogleStandIn.User) -> GoogleStandIn.Configuration {
        GoogleStandIn.Configuration(
            clients: [.init(id: "alfred-test.apps.googleusercontent.com", secret: "GOCSPX-test",
                            redirectURIs: ["http://127.0.0.1:9/oauth/google/callback"])],
            users: [user])
    }

    /// Runs `body` against a fresh stand-in inside a ServiceGroup; shuts both down whatever happens.
    /// `latencyClock`: what the stand-in's latency faults sleep on (a manual clock holds answers until advanced).
    static func with(_ user: GoogleStandIn.User = GoogleStandIn.User(subject: subject, email: email),
                     scopes: [String] = [calendarScope, gmailScope], latencyClock: any Clock<Duration> = ContinuousClock(),
                     _ body: (GoogleAPIHarness) async throws -> Void) async throws {
        let logger = Logger(label: "alfred.test.google-api")
        let standIn = GoogleStandIn(configuration: configuration(user), latencyClock: latencyClock, logger: logger)
        try await withRunningServices([standIn], logger: logger) {
            // Waiting for the port also means the service runs before we shut it down.
            let baseURL = try await standIn.baseURL()
            let client = TestHTTP.client()
            // The client goes first: its connections close before the server stops.
            do {
                try await body(GoogleAPIHarness(
                    standIn: standIn, client: client, baseURL: baseURL,
                    tokens: StandInTokenSource(standIn: standIn, user: user.subject, scopes: scopes),
                    clock: ManualClock(sleepsAdvance: true), metrics: CountingMetrics(), logger: logger))
            } catch {
                try? await client.shutdown()
                throw error
            }
            try await client.shutdown()
        }
    }
}

// MARK: Stand-ins for the process boundaries

/// The broker's part, played by the stand-in's token mint: every call mints a new access token for
/// the user. Counts calls and forced refreshes so tests can see the client's token behaviour.
final class StandInTokenSource: TokenSource {
    private let standIn: GoogleStandIn
    private let user: String
    private let scopes: [String]
    private let state = Mutex<(calls: Int, forced: Int, minted: [String])>((0, 0, []))

    init(standIn: GoogleStandIn, user: String, scopes: [String]) {
        self.standIn = standIn
        self.user = user
        self.scopes = scopes
    }

    func accessToken(for connector: UUID, forceRefresh: Bool) async throws -> AccessToken {
        let token = try standIn.mintAccessToken(forUser: user, scopes: scopes)
        state.withLock {
            $0.calls += 1
            if forceRefresh { $0.forced += 1 }
            $0.minted.append(token)
        }
        return AccessToken(token: Redacted(token), expiresAt: Date().addingTimeInterval(3_599))
    }

    var calls: Int { state.withLock { $0.calls } }
    var forcedRefreshes: Int { state.withLock { $0.forced } }
    /// Every token handed out: canaries that must never appear in an error or a log.
    var minted: [String] { state.withLock { $0.minted } }
}

extension CountingMetrics {
    func requests(_ api: String, _ result: String) -> Int64 {
        count(MetricName.googleRequests, [("api", api), ("result", result)])
    }
}

/// Canned Google error answers for faults, with the bodies of external-apis §0.3 / §3.7.
enum GoogleErrors {
    static let json = ["Content-Type": "application/json; charset=UTF-8"]

    static func body(_ code: Int, _ reason: String, _ message: String, status: String? = nil) -> String {
        let status = status.map { #","status":"\#($0)""# } ?? ""
        return #"{"error":{"code":\#(code),"message":"\#(message)","errors":[{"message":"\#(message)","domain":"global","reason":"\#(reason)"}]\#(status)}}"#
    }

    static func response(_ code: Int, _ reason: String, _ message: String = "error", status: String? = nil,
                         headers: [String: String] = [:]) -> CannedResponse {
        CannedResponse(status: code, headers: json.merging(headers) { $1 }, body: body(code, reason, message, status: status))
    }

    static let unauthorized = response(401, "authError", "Invalid Credentials", status: "UNAUTHENTICATED")
    static func rateLimited(retryAfter: Int? = nil) -> CannedResponse {
        response(429, "rateLimitExceeded", "Too many requests", status: "RESOURCE_EXHAUSTED",
                 headers: retryAfter.map { ["Retry-After": "\($0)"] } ?? [:])
    }
    static let userRateLimited = response(403, "userRateLimitExceeded", "User Rate Limit Exceeded")
    static let backendError = response(500, "backendError", "Backend Error")
    static let unavailable = response(503, "backendError", "The service is currently unavailable.", status: "UNAVAILABLE")
    static let badRequest = response(400, "badRequest", "Bad Request")
    static let notFound = response(404, "notFound", "Not Found", status: "NOT_FOUND")
}

extension GoogleStandIn {
    /// Answers the next `times` requests on paths matching `pathRegex` with `response`.
    func fail(_ pathRegex: String, with response: CannedResponse, times: Int? = 1, method: String? = nil) throws {
        try injectFault(FaultRule(match: .init(method: method, pathRegex: pathRegex), response: response, times: times))
    }
}
