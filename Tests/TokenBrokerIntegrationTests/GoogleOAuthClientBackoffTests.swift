import AlfredCore
import AlfredTestCluster
import AsyncHTTPClient
import Foundation
import Logging
import StandIns
import Testing
@testable import BrokerClient
import Attestation
import KeyServiceClient
import LocalIPC
@testable import TokenBroker

/// The OAuth client's retries against the Google stand-in, with its backoff on a manual clock: what
/// it waits is read from the clock, and no test waits for it in real time.
@Suite(.timeLimit(.minutes(5))) struct GoogleOAuthClientBackoffTests {
    static let refreshes = FaultRule.Match(method: "POST", path: OAuthEndpoints.tokenPath, bodyContains: "grant_type=refresh_token")

    /// Always the top of the jitter window, so each wait is the backoff's ceiling.
    struct TopOfWindow: RandomNumberGenerator, Sendable {
        mutating func next() -> UInt64 { .max }
    }

    /// A running stand-in, a client of it on `clock`, and a refresh token of a user who consented.
    static func with(clock: ManualClock, random: some RandomNumberGenerator & Sendable = SeededGenerator(seed: 7),
                     configure: (inout GoogleOAuthClient.Configuration) -> Void = { _ in },
                     _ body: (GoogleStandIn, GoogleOAuthClient, Redacted<String>) async throws -> Void) async throws {
        let logger = Logger(label: "alfred.test.oauth-backoff", factory: { _ in SwiftLogNoOpLogHandler() })
        let google = GoogleStandIn(configuration: BrokerWorld.googleConfiguration(), logger: logger)
        try await withRunningServices([google], logger: logger) {
            let endpoints = try await google.endpoints()
            var configuration = GoogleOAuthClient.Configuration(tokenURL: endpoints.tokenURL, revokeURL: endpoints.revokeURL,
                                                                clientID: BrokerWorld.clientID,
                                                                clientSecret: Redacted(BrokerWorld.clientSecret))
            configure(&configuration)
            let http = TestHTTP.client()
            do {
                let client = GoogleOAuthClient(configuration: configuration, http: http, logger: logger, clock: clock, random: random)
                let (code, verifier) = try await ConsentBrowser.authorize(
                    authorizationURL: endpoints.authorizationURL, clientID: BrokerWorld.clientID, redirectURI: BrokerWorld.redirectURI,
                    scopes: [BrokerWorld.calendar], loginHint: BrokerWorld.subject)
                let grant = try await client.exchange(code: Redacted(code), verifier: Redacted(verifier), redirectURI: BrokerWorld.redirectURI)
                try await body(google, client, try #require(grant.refreshToken))
            } catch {
                try? await http.shutdown()
                throw error
            }
            try await http.shutdown()
        }
    }

    static func refreshRequests(_ google: GoogleStandIn) -> Int {
        google.recordedRequests().filter { ($0.form ?? []).contains { $0.name == "grant_type" && $0.value == "refresh_token" } }.count
    }

    @Test func transientFailuresAreRetriedWithABackoffCappedOnTheClock() async throws {
        let clock = ManualClock(sleepsAdvance: true)
        try await Self.with(clock: clock, random: TopOfWindow(), configure: {
            $0.attempts = 6
            $0.backoff = RetryPolicy(base: .seconds(1), cap: .seconds(2))
        }) { google, client, refreshToken in
            _ = try google.injectFault(FaultRule(match: Self.refreshes, response: .unavailable(), times: 5))
            let grant = try await client.refresh(refreshToken)
            #expect(try google.validateAccessToken(grant.accessToken.unsafeValue).subject == BrokerWorld.subject)
            #expect(Self.refreshRequests(google) == 6)
            // Uncapped, the ceilings would be 1, 2, 4, 8 and 16 s.
            #expect(clock.sleeps.map { Int(($0.seconds * 1_000).rounded()) } == [1_000, 2_000, 2_000, 2_000, 2_000])
        }
    }

    @Test func aRetryAfterItMayWaitIsWaitedOutOnTheClockBeforeTheNextAttempt() async throws {
        let clock = ManualClock()
        try await Self.with(clock: clock) { google, client, refreshToken in
            _ = try google.injectFault(FaultRule(match: Self.refreshes, response: .rateLimited(retryAfterSeconds: 3), times: 1))
            let refreshing = Task { try await client.refresh(refreshToken) }
            await clock.waitForSleepers(1)
            #expect(Self.refreshRequests(google) == 1, "no second attempt before the clock moves")
            #expect(clock.sleeps == [.seconds(3)], "Retry-After is the floor of a jitter of at most 200 ms")
            clock.advance(by: .seconds(3))
            let grant = try await refreshing.value
            #expect(try google.validateAccessToken(grant.accessToken.unsafeValue).subject == BrokerWorld.subject)
            #expect(Self.refreshRequests(google) == 2)
        }
    }

    @Test func aRetryAfterLongerThanItWaitsEndsTheCallAtOnce() async throws {
        let clock = ManualClock()
        try await Self.with(clock: clock) { google, client, refreshToken in
            _ = try google.injectFault(FaultRule(match: Self.refreshes, response: .rateLimited(retryAfterSeconds: 60), times: 1))
            let failure = await #expect(throws: GoogleOAuthClient.Failure.self) { try await client.refresh(refreshToken) }
            guard case .unavailable(let detail) = failure else {
                Issue.record("expected unavailable, got \(String(describing: failure))")
                return
            }
            #expect(detail.contains("Retry-After"), "\(detail)")
            #expect(clock.sleeps.isEmpty)
            #expect(Self.refreshRequests(google) == 1)
        }
    }
}
