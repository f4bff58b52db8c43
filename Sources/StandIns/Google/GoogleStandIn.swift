import Foundation
import Hummingbird
import Logging
import ServiceLifecycle
import Synchronization

/// A local fake of Google's OAuth 2.0 endpoints, Calendar v3 and Gmail v1 on a real loopback socket,
/// speaking Google's wire formats so production clients reach it by base URL alone.
///
/// ```swift
/// let google = GoogleStandIn(configuration: .init(clients: [client], users: [user]))
/// group.addTask { try await google.run() }          // or put it in a ServiceGroup
/// let endpoints = try await google.endpoints()      // authorization, token and revoke URLs
/// let calendar = try await google.calendarBaseURL() // replaces https://www.googleapis.com/calendar/v3
/// let gmail = try await google.gmailBaseURL()       // replaces https://gmail.googleapis.com/gmail/v1
/// ```
///
/// It owns the state every route shares: the OAuth ledger (codes, grants, access tokens), the users'
/// calendars and mailboxes, the fault plan, the request recordings and the fake clock. Routes live in
/// extensions, one file per API.
public final class GoogleStandIn: Service, Sendable {
    /// The scenario the stand-in starts from and returns to on `reset()`.
    let scenario: Mutex<Configuration>
    let ledger: Mutex<OAuthLedger>
    /// Calendars and mailboxes, seeded from the scenario relative to the clock at (re)start.
    let accounts: Mutex<Accounts>
    let faults = FaultPlan()
    let recorder = RequestRecorder()
    let boundPort = BoundPort()
    let idTokens = IDTokenSigner()
    let pubsub = Mutex(PubSubState())
    let pubsubKey = Mutex<RSASigningKey?>(nil)
    let logger: Logger
    /// Decides expiry of codes and tokens; advance it instead of waiting.
    public let clock: StandInClock
    /// Times the delay of latency faults (real time by default: the client under test measures it).
    let latencyClock: any Clock<Duration>

    /// - Parameter latencyClock: what latency faults sleep on; a test may pass a manual clock to hold
    ///   a request until it advances the clock.
    public init(configuration: Configuration = Configuration(), clock: StandInClock = StandInClock(),
                latencyClock: any Clock<Duration> = ContinuousClock(),
                logger: Logger = Logger(label: "alfred.standin.google")) {
        scenario = Mutex(configuration)
        ledger = Mutex(OAuthLedger(configuration: configuration))
        let (accounts, problems) = Self.seedAccounts(configuration, now: clock.now())
        self.accounts = Mutex(accounts)
        self.clock = clock
        self.latencyClock = latencyClock
        self.logger = logger
        Self.report(problems, logger: logger)
    }

    // MARK: Lifecycle

    /// Binds `configuration.host:port` and serves until cancelled or gracefully shut down.
    public func run() async throws {
        let configuration = scenario.withLock { $0 }
        boundPort.rearm()
        let router = makeRouter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await self.runPushes() }
            defer { group.cancelAll() }
            try await boundPort.serve(router, host: configuration.host, port: configuration.port, name: "Google stand-in", logger: logger)
        }
    }

    /// Every route, behind the traffic middleware (faults, recordings, logs): what `run()` serves, and
    /// what the stand-in's own tests drive without a socket.
    package func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: TrafficMiddleware(faults: faults, recorder: recorder, clock: clock,
                                                latencyClock: latencyClock, logger: logger))
        addOAuthRoutes(to: router)
        addCalendarRoutes(to: router)
        addGmailRoutes(to: router)
        addControlRoutes(to: router)
        addPubSubRoutes(to: router)
        return router
    }

    /// The bound port, once `run()` is listening (waits for it; cancellable). Throws if it failed or stopped.
    public func port() async throws -> Int {
        try await boundPort.wait()
    }

    /// `http://127.0.0.1:<port>`: what replaces `https://oauth2.googleapis.com`,
    /// `https://www.googleapis.com` and `https://gmail.googleapis.com` in client configuration.
    public func baseURL() async throws -> String {
        let host = scenario.withLock { $0.host }
        return "http://\(host.contains(":") ? "[\(host)]" : host):\(try await port())"
    }

    /// `GOOGLE_CALENDAR_BASE_URL`: `<base>/calendar/v3`, as `https://www.googleapis.com/calendar/v3`.
    public func calendarBaseURL() async throws -> String { try await baseURL() + "/calendar/v3" }

    /// `GMAIL_BASE_URL`: `<base>/gmail/v1`, as `https://gmail.googleapis.com/gmail/v1`.
    public func gmailBaseURL() async throws -> String { try await baseURL() + "/gmail/v1" }

    /// The three OAuth URLs of external-apis §0.1, pointing here.
    public func endpoints() async throws -> OAuthEndpoints {
        let base = try await baseURL()
        return OAuthEndpoints(authorizationURL: base + OAuthEndpoints.authorizationPath,
                              tokenURL: base + OAuthEndpoints.tokenPath,
                              revokeURL: base + OAuthEndpoints.revokePath)
    }

    // MARK: Bearer tokens (for the Calendar and Gmail routes)

    /// Resolves an `Authorization: Bearer <token>` header value to the token's owner and scopes.
    public func validateBearer(_ authorizationHeader: String?) throws(BearerTokenRejection) -> AccessTokenInfo {
        guard let header = authorizationHeader else { throw .missing }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw .malformed }
        return try validateAccessToken(String(parts[1]).trimmingCharacters(in: .whitespaces))
    }

    public func validateAccessToken(_ token: String) throws(BearerTokenRejection) -> AccessTokenInfo {
        let now = clock.now()
        return try ledger.withLock { ledger throws(BearerTokenRejection) in try ledger.validate(accessToken: token, now: now) }
    }

    // MARK: Control (the Swift side of /_fake/...)

    /// Activates a fault rule; returns its id for `removeFault(id:)`.
    @discardableResult
    public func injectFault(_ rule: FaultRule) throws(StandInError) -> String {
        try faults.add(rule)
    }

    @discardableResult
    public func removeFault(id: String) -> Bool { faults.remove(id: id) }

    public func removeAllFaults() { faults.removeAll() }

    /// The ids of the fault rules still active. A rule with `times` leaves as the last request it
    /// applies to arrives (before any delay it adds), so a test can wait for a held request to reach
    /// the stand-in; requests are recorded only once answered.
    public func activeFaultIDs() -> [String] { faults.active.map(\.id) }

    /// Requests served so far, oldest first, secrets redacted. Control-plane calls are not recorded.
    public func recordedRequests() -> [RecordedRequest] { recorder.all }

    public func clearRecordedRequests() { recorder.removeAll() }

    /// Server-side revocation, as when the user removes the app: the next refresh gets
    /// `invalid_grant`, and the grant's access tokens stop validating. False if unknown or already dead.
    @discardableResult
    public func revokeRefreshToken(_ refreshToken: String) -> Bool {
        guard refreshToken.hasPrefix("1//") else { return false }
        let now = clock.now()
        return ledger.withLock { $0.revoke(token: refreshToken, now: now) }
    }

    /// Revokes every live grant of one user; returns how many.
    @discardableResult
    public func revokeGrants(subject: String) -> Int {
        ledger.withLock { $0.revokeAll(subject: subject) }
    }

    /// What the test user does on the consent screen from now on.
    /// Refresh tokens issued to a user (test canaries: they must appear nowhere but inside the broker).
    public func issuedRefreshTokens(subject: String) -> [String] { ledger.withLock { $0.refreshTokens(subject: subject) } }

    /// The refresh tokens issued to `subject` that still work: what a revocation must have ended.
    public func liveRefreshTokens(subject: String) -> [String] {
        let now = clock.now()
        return ledger.withLock { $0.liveRefreshTokens(subject: subject, now: now) }
    }

    public func setConsent(_ decision: ConsentDecision) {
        ledger.withLock { $0.configuration.oauth.consent = decision }
    }

    /// Moves the fake clock forward: codes, access tokens and refresh tokens age accordingly.
    public func advanceClock(bySeconds seconds: TimeInterval) { clock.advance(bySeconds: seconds) }

    /// Back to the starting scenario: no tokens, faults, recordings or clock offset; calendars and
    /// mailboxes seeded afresh relative to the reset clock.
    public func reset() {
        let configuration = scenario.withLock { $0 }
        ledger.withLock { $0 = OAuthLedger(configuration: configuration) }
        faults.removeAll()
        recorder.removeAll()
        clock.reset()
        let (seeded, problems) = Self.seedAccounts(configuration, now: clock.now())
        accounts.withLock { $0 = seeded }
        Self.report(problems, logger: logger)
    }

    private static func report(_ problems: [String], logger: Logger) {
        for problem in problems {
            logger.error("stand-in scenario seed skipped", metadata: ["alfred.standin.problem": "\(problem)"])
        }
    }

    /// Makes `configuration` the starting scenario and resets to it. The listening address stays.
    public func replaceScenario(_ configuration: Configuration) {
        scenario.withLock { $0 = configuration }
        reset()
    }

    /// The key that signs this instance's `id_token`s (ES256), for clients that verify them.
    public var idTokenKeyID: String { idTokens.keyID }
    public var idTokenPublicKeyPEM: String { idTokens.publicKey.pemRepresentation }
}

/// Where a client finds the stand-in's OAuth endpoints: the values for `GOOGLE_AUTH_URL`,
/// `GOOGLE_TOKEN_URL` and `GOOGLE_REVOKE_URL`.
public struct OAuthEndpoints: Sendable, Equatable {
    public static let authorizationPath = "/o/oauth2/v2/auth"
    public static let tokenPath = "/token"
    public static let revokePath = "/revoke"

    public var authorizationURL: String
    public var tokenURL: String
    public var revokeURL: String
}
