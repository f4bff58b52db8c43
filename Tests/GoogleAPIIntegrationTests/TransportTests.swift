import AlfredCore
import AlfredTestCluster
import Foundation
@testable import GoogleAPI
import StandIns
import Testing

/// `GoogleHTTP`'s policy (tokens, 401, retries, budget, timeouts, classification, metrics) against
/// the stand-in's real routes, with faults injected in front of them. Backoff runs on the virtual
/// clock, so the sleeps the client asked for are read back instead of waited for.
@Suite(.timeLimit(.minutes(5))) struct TransportTests {
    typealias H = GoogleAPIHarness
    static let timezonePath = "/calendar/v3/users/me/settings/timezone"
    static let user = GoogleStandIn.User(subject: H.subject, email: H.email, timeZone: "Europe/Zurich")

    static func fault(_ name: String, retryAfter: Int? = nil) throws -> CannedResponse {
        try #require(CannedResponse.googleAPIFault(named: name, retryAfterSeconds: retryAfter))
    }

    // MARK: Tokens and 401

    @Test func reusesItsTokenAndRefreshesOnceAfterA401() async throws {
        try await H.with(Self.user) { google in
            let calendar = google.calendar()
            #expect(try await calendar.timeZone() == "Europe/Zurich")
            #expect(try await calendar.timeZone() == "Europe/Zurich")
            #expect(google.tokens.calls == 1 && google.tokens.forcedRefreshes == 0)

            try google.standIn.fail(Self.timezonePath, with: try Self.fault("auth_error"))
            #expect(try await calendar.timeZone() == "Europe/Zurich")
            #expect(google.tokens.forcedRefreshes == 1 && google.tokens.calls == 2)
            #expect(google.clock.sleeps.isEmpty)  // a 401 retry is immediate
            #expect(google.metrics.requests("calendar", "unauthorized") == 1)
        }
    }

    @Test func aTokenGoogleNoLongerAcceptsIsReplaced() async throws {
        try await H.with(Self.user) { google in
            let calendar = google.calendar()
            _ = try await calendar.timeZone()
            // An hour later on Google's clock the cached token is dead, though our clock thinks it fine:
            // the stand-in's own 401, not a canned one.
            google.standIn.advanceClock(bySeconds: 3_600)
            #expect(try await calendar.timeZone() == "Europe/Zurich")
            #expect(google.tokens.forcedRefreshes == 1)
            #expect(google.requests(under: "/calendar/v3").map(\.status) == [200, 401, 200])
        }
    }

    @Test func aSecond401IsACredentialProblem() async throws {
        try await H.with(Self.user) { google in
            try google.standIn.fail(Self.timezonePath, with: try Self.fault("auth_error"), times: 2)
            let error = try await #require(throws: GoogleAPIError.self) { try await google.calendar().timeZone() }
            #expect(error.code == .unauthorized && error.status == 401 && error.reason == "authError")
            #expect(error.attempts == 2 && !error.isTransient)
            #expect(google.tokens.forcedRefreshes == 1)
            #expect(google.clock.sleeps.isEmpty)
        }
    }

    // MARK: Transient failures

    @Test func honoursRetryAfterAsAFloor() async throws {
        try await H.with(Self.user) { google in
            try google.standIn.fail(Self.timezonePath, with: try Self.fault("too_many_requests", retryAfter: 2))
            #expect(try await google.calendar().timeZone() == "Europe/Zurich")
            #expect(google.clock.sleeps.count == 1)
            #expect(try #require(google.clock.sleeps.first) >= .seconds(2))
            #expect(google.requests(under: "/calendar/v3").map(\.status) == [429, 200])
            #expect(google.metrics.requests("calendar", "rate_limited") == 1)
            #expect(google.metrics.requests("calendar", "ok") == 1)
        }
    }

    /// The HTTP-date form of Retry-After through the real stack. The wait is measured against the
    /// answer's Date header, which the server stamps from its own per-second cache (a canned Date is
    /// replaced), so it differs from this test's clock by a second or more under load: exact values
    /// are checked where the inputs are fixed (WireFormatTests); here, what the client does with them.
    @Test func retryAfterAsAnHTTPDate() async throws {
        try await H.with(Self.user) { google in
            // About an hour: more than the retry budget, so the wait is handed back, not slept.
            try google.standIn.fail(Self.timezonePath, with: CannedResponse(status: 503, headers: [
                "Retry-After": Self.httpDate(Date().addingTimeInterval(3600))]))
            let error = try await #require(throws: GoogleAPIError.self) { try await google.calendar().timeZone() }
            let handedBack = try #require(error.retryAfter)
            #expect(handedBack > .seconds(3000) && handedBack < .seconds(4200), "about an hour: \(handedBack)")
            #expect(error.attempts == 1 && google.clock.sleeps.isEmpty)

            // A few seconds: within the budget, so waited out (on the manual clock) once, then retried.
            try google.standIn.fail(Self.timezonePath, with: CannedResponse(status: 503, headers: [
                "Retry-After": Self.httpDate(Date().addingTimeInterval(3))]))
            #expect(try await google.calendar().timeZone() == "Europe/Zurich")
            #expect(google.clock.sleeps.count == 1, "\(google.clock.sleeps)")
            #expect(google.requests(under: "/calendar/v3").map(\.status).suffix(2) == [503, 200])
        }
    }

    @Test(arguments: ["backend_error", "service_unavailable", "rate_limit_exceeded", "user_rate_limit_exceeded"])
    func transientAnswersAreRetried(fault: String) async throws {
        try await H.with(Self.user) { google in
            try google.standIn.fail(Self.timezonePath, with: try Self.fault(fault), times: 2)
            #expect(try await google.calendar().timeZone() == "Europe/Zurich")
            #expect(google.requests(under: "/calendar/v3").count == 3)
            #expect(google.clock.sleeps.count == 2)
            #expect(google.clock.totalSlept <= RetryBudget().maxTotalDelay)
        }
    }

    @Test func statusesWithoutABodyAreRetriedToo() async throws {
        try await H.with(Self.user) { google in
            for status in [408, 502, 504] {
                try google.standIn.fail(Self.timezonePath, with: CannedResponse(status: status, body: "<html>oops</html>"))
            }
            let calendar = google.calendar { $0.retry.maxAttempts = 4 }
            #expect(try await calendar.timeZone() == "Europe/Zurich")
            #expect(google.requests(under: "/calendar/v3").map(\.status) == [408, 502, 504, 200])
        }
    }

    @Test func exhaustedBudgetHandsTheWaitToTheQueue() async throws {
        try await H.with(Self.user) { google in
            try google.standIn.fail(Self.timezonePath, with: try Self.fault("service_unavailable"), times: nil)
            let unavailable = try await #require(throws: GoogleAPIError.self) { try await google.calendar().timeZone() }
            #expect(unavailable.code == .unavailable && unavailable.status == 503 && unavailable.attempts == 3)
            #expect(unavailable.isTransient)
            #expect(google.clock.sleeps.count == 2 && google.clock.totalSlept <= .seconds(5))
            google.standIn.removeAllFaults()

            try google.standIn.fail(Self.timezonePath, with: try Self.fault("too_many_requests", retryAfter: 1), times: nil)
            let limited = try await #require(throws: GoogleAPIError.self) { try await google.calendar().timeZone() }
            #expect(limited.code == .rateLimited && limited.status == 429 && limited.retryAfter == .seconds(1))
            #expect(limited.attempts == 3)
            google.standIn.removeAllFaults()

            // 403 rateLimitExceeded is a rate limit like 429 (external-apis §0.2).
            try google.standIn.fail(Self.timezonePath, with: try Self.fault("rate_limit_exceeded"), times: nil)
            let forbiddenRate = try await #require(throws: GoogleAPIError.self) { try await google.calendar().timeZone() }
            #expect(forbiddenRate.code == .rateLimited && forbiddenRate.status == 403 && forbiddenRate.attempts == 3)
        }
    }

    @Test func aRetryAfterLongerThanTheBudgetIsNotWaitedOut() async throws {
        try await H.with(Self.user) { google in
            try google.standIn.fail(Self.timezonePath, with: try Self.fault("too_many_requests", retryAfter: 120))
            let error = try await #require(throws: GoogleAPIError.self) { try await google.calendar().timeZone() }
            #expect(error.code == .rateLimited && error.retryAfter == .seconds(120) && error.attempts == 1)
            #expect(google.clock.sleeps.isEmpty)
            // The fault was used up: the job's next attempt would simply succeed.
            #expect(try await google.calendar().timeZone() == "Europe/Zurich")
        }
    }

    @Test func noBudgetMeansNoRetry() async throws {
        try await H.with(Self.user) { google in
            try google.standIn.fail(Self.timezonePath, with: try Self.fault("backend_error"))
            let error = try await #require(throws: GoogleAPIError.self) {
                try await google.calendar { $0.retry = .none }.timeZone()
            }
            #expect(error.code == .unavailable && error.attempts == 1 && google.clock.sleeps.isEmpty)
        }
    }

    // MARK: Permanent failures are not retried

    @Test func badRequestsAndMissingThingsAreNotRetried() async throws {
        try await H.with(Self.user) { google in
            let calendar = google.calendar()
            // The stand-in's own 400: an empty time range.
            let now = Date()
            let bad = try await #require(throws: GoogleAPIError.self) {
                try await calendar.fullSync(timeMin: now, timeMax: now.addingTimeInterval(-60))
            }
            #expect(bad.code == .badRequest && bad.status == 400 && bad.reason == "timeRangeEmpty" && bad.attempts == 1)

            // The stand-in's own 404: a calendar that is not the user's.
            let missing = try await #require(throws: GoogleAPIError.self) {
                try await calendar.fullSync(calendarID: "someone.else@example.org", timeMin: now,
                                            timeMax: now.addingTimeInterval(60))
            }
            #expect(missing.code == .notFound && missing.status == 404 && missing.attempts == 1)

            // 403 other than a rate limit, and a daily quota: not retried in process.
            try google.standIn.fail(Self.timezonePath, with: GoogleErrors.response(403, "forbidden", "Forbidden"))
            #expect(try await #require(throws: GoogleAPIError.self) { try await calendar.timeZone() }.code == .forbidden)
            try google.standIn.fail(Self.timezonePath, with: GoogleErrors.response(403, "dailyLimitExceeded", "Daily Limit"))
            let quota = try await #require(throws: GoogleAPIError.self) { try await calendar.timeZone() }
            #expect(quota.code == .quotaExceeded && quota.isTransient && quota.attempts == 1)

            #expect(google.clock.sleeps.isEmpty)
            #expect(google.requests(under: "/calendar/v3").count == 4)
            #expect(google.metrics.requests("calendar", "client_error") == 2)
            #expect(google.metrics.requests("calendar", "not_found") == 1)
        }
    }

    @Test func aTokenWithoutTheScopeIsForbidden() async throws {
        try await H.with(Self.user, scopes: [H.gmailScope]) { google in
            let error = try await #require(throws: GoogleAPIError.self) { try await google.calendar().timeZone() }
            #expect(error.code == .forbidden && error.reason == "insufficientPermissions" && error.attempts == 1)
        }
    }

    // MARK: Network

    @Test func networkFailuresAreRetriedThenUnavailable() async throws {
        try await H.with(Self.user) { google in
            // Nothing listens on port 1: connection refused (or AHC's connect retries until the timeout).
            let http = GoogleHTTP(configuration: {
                var configuration = GoogleAPIConfiguration(root: "http://127.0.0.1:1")
                configuration.requestTimeout = .milliseconds(300)
                return configuration
            }(), http: google.client, tokens: google.tokens, connectorID: H.connector, logger: google.logger,
                                  clock: google.clock, random: SystemRandomNumberGenerator(), metricsFactory: google.metrics)
            let error = try await #require(throws: GoogleAPIError.self) { try await CalendarClient(http: http).timeZone() }
            #expect(error.code == .unavailable && error.status == nil && error.attempts == 3)
            #expect(google.clock.sleeps.count == 2)
            #expect(google.metrics.requests("calendar", "network") == 3)
            #expect(error.description.hasPrefix("Google calendar settings.get failed: unavailable, network error ("))
            #expect(error.description.hasSuffix("), 3 attempts"))
            #expect(!error.description.contains("127.0.0.1") && !error.description.contains("http:"))
        }
    }

    /// Google holds its answers (on a manual clock) until the test lets them go, so only the client's
    /// 2 s timeout can end an attempt, however slow the machine; the counters and the error say it did.
    @Test func slowAnswersTimeOutAndCountAsNetworkFailures() async throws {
        let latency = ManualClock()
        var releasing: Task<Void, Never>?
        defer { releasing?.cancel() }
        try await H.with(Self.user, latencyClock: latency) { google in
            try google.standIn.injectFault(FaultRule(match: .init(path: Self.timezonePath), response: nil,
                                                     delayMilliseconds: 600_000, times: nil))
            let retried = try await #require(throws: GoogleAPIError.self) {
                try await google.calendar { $0.requestTimeout = .milliseconds(2_000) }.timeZone()
            }
            #expect(retried.description == "Google calendar settings.get failed: unavailable, network error (timeout after 2.0 seconds), 3 attempts")
            #expect(google.metrics.requests("calendar", "network") == 3)
            #expect(google.clock.sleeps.count == 2, "backoff between the attempts")

            let error = try await #require(throws: GoogleAPIError.self) {
                try await google.calendar { $0.requestTimeout = .milliseconds(2_000); $0.retry = .none }.timeZone()
            }
            #expect(error.description == "Google calendar settings.get failed: unavailable, network error (timeout after 2.0 seconds), 1 attempt")
            #expect(google.metrics.requests("calendar", "network") == 4)

            // Google answers again: the held answers go out (to nobody), now and for any still arriving,
            // and the next call is answered.
            google.standIn.removeAllFaults()
            releasing = Task {
                while !Task.isCancelled {
                    await latency.waitForSleepers(1)
                    latency.advance(by: .seconds(600))
                }
            }
            #expect(try await google.calendar().timeZone() == "Europe/Zurich")
            #expect(google.metrics.requests("calendar", "ok") == 1)
        }
    }

    // MARK: What errors and metrics may contain

    @Test func errorDescriptionsCarryNoSecretsOrPersonalData() async throws {
        let secrets = ["ada@example.com", "Divorce lawyer", "Secret Lane", "ya29.", "Bearer", "?", "http", "example.com"]
        try await H.with(Self.user) { google in
            let calendar = google.calendar()
            var errors: [GoogleAPIError] = []
            // A personal event id in the path, answered 404.
            try google.standIn.fail(".*/events/.*", with: GoogleErrors.response(404, "notFound", "Divorce lawyer at Secret Lane"))
            errors.append(try await #require(throws: GoogleAPIError.self) {
                try await CalendarClient(http: google.transport()).fullSync(
                    calendarID: "ada@example.com/events/Divorce lawyer", timeMin: Date(), timeMax: Date().addingTimeInterval(60))
            })
            // Google echoing personal text in message and reason, with a Retry-After, until the budget is gone.
            let leaky = CannedResponse(status: 429, headers: ["Retry-After": "1", "Content-Type": "application/json"], body: """
                {"error":{"code":429,"message":"Divorce lawyer ada@example.com","status":"Secret Lane",
                 "errors":[{"reason":"ada@example.com","message":"Divorce lawyer"}]}}
                """)
            try google.standIn.fail(Self.timezonePath, with: leaky, times: nil)
            errors.append(try await #require(throws: GoogleAPIError.self) { try await calendar.timeZone() })
            google.standIn.removeAllFaults()
            // Two 401s, with tokens in play.
            try google.standIn.fail(Self.timezonePath, with: try Self.fault("auth_error"), times: 2)
            errors.append(try await #require(throws: GoogleAPIError.self) { try await calendar.timeZone() })
            // A 200 whose body is not JSON.
            try google.standIn.fail(Self.timezonePath, with: CannedResponse(status: 200, body: "Divorce lawyer"))
            errors.append(try await #require(throws: GoogleAPIError.self) { try await calendar.timeZone() })

            #expect(errors.map(\.code) == [.notFound, .rateLimited, .unauthorized, .invalidResponse])
            #expect(errors[1].reason == nil && errors[1].retryAfter == .seconds(1))
            let canaries = secrets + google.tokens.minted
            for error in errors {
                for text in [error.description, String(reflecting: error), "\(error)", error.localizedDescription] {
                    for canary in canaries {
                        #expect(!text.contains(canary), "\(error.code) description leaks '\(canary.prefix(12))'")
                    }
                }
            }
            #expect(errors[0].description == "Google calendar events.list failed: not_found, HTTP 404 notFound, 1 attempt")
        }
    }

    @Test func metricLabelsComeFromFixedSets() async throws {
        try await H.with(Self.user) { google in
            try google.standIn.fail(Self.timezonePath, with: try Self.fault("backend_error"))
            try google.standIn.fail(Self.timezonePath, with: try Self.fault("too_many_requests", retryAfter: 0))
            _ = try await google.calendar().timeZone()
            _ = try? await google.calendar().event(eventID: "ada@example.com")
            let apis = Set(GoogleService.allCases.map(\.rawValue))
            let results = Set(RequestResult.allCases.map(\.rawValue))
            #expect(google.metrics.keys == [
                "alfred_google_requests_total{api=calendar,result=not_found}",
                "alfred_google_requests_total{api=calendar,result=ok}",
                "alfred_google_requests_total{api=calendar,result=rate_limited}",
                "alfred_google_requests_total{api=calendar,result=server_error}",
            ])
            #expect(apis == ["calendar", "gmail"])
            #expect(results == ["ok", "not_found", "client_error", "server_error", "rate_limited", "unauthorized", "network"])
        }
    }

    static func httpDate(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        return formatter.string(from: date)
    }
}
