import AlfredTestKit
import Foundation
import StandIns
import Testing

@Suite(.timeLimit(.minutes(5))) struct FaultInjectionTests {
    /// Each named fault, injected over the HTTP control plane for one refresh, then gone.
    @Test(arguments: [
        ("invalid_grant", 400, #"{"error":"invalid_grant","error_description":"Token has been expired or revoked."}"#, nil),
        ("invalid_client", 401, #"{"error":"invalid_client","error_description":"Unauthorized"}"#, nil),
        ("rate_limited", 429, nil, "7"),
        ("internal_failure", 500, #"{"error":"internal_failure"}"#, nil),
        ("unavailable", 503, "", "7"),
    ] as [(String, Int, String?, String?)])
    func namedFaultAnswersOnceThenTheRealEndpointDoes(fault: String, status: Int, body: String?, retryAfter: String?) async throws {
        try await H.with { google in
            let refresh = try #require(try await google.consent()["refresh_token"] as? String)
            let retry = retryAfter.map { #", "retryAfterSeconds": \#($0)"# } ?? ""
            let added = try await google.postJSON("/_fake/faults", """
                {"match": {"method": "POST", "path": "/token", "bodyContains": "grant_type=refresh_token"},
                 "fault": "\(fault)"\(retry), "times": 1}
                """)
            #expect(added.status == 201)
            #expect((added.json["id"] as? String)?.isEmpty == false)

            let faulted = try await google.refresh(refresh)
            #expect(faulted.status == status)
            if let body { #expect(faulted.body == body) }
            #expect(faulted.headers["retry-after"] == retryAfter)
            #expect(google.standIn.recordedRequests().last?.fault == fault)

            #expect(try await google.refresh(refresh).status == 200)
        }
    }

    /// The delay sleeps on a manual clock: the refresh is held, unanswered, until the test moves it.
    @Test func latencyDelaysThenTheRealEndpointAnswers() async throws {
        let latency = ManualClock()
        try await H.with(latencyClock: latency) { google in
            let refresh = try #require(try await google.consent()["refresh_token"] as? String)
            #expect(try await google.postJSON("/_fake/faults", #"{"match": {"path": "/token"}, "delayMs": 400, "times": 1}"#).status == 201)
            let answered = google.standIn.recordedRequests().count
            let slow = Task { try await google.refresh(refresh) }
            await latency.waitForSleepers(1)
            #expect(latency.sleeps == [.milliseconds(400)])
            #expect(google.standIn.recordedRequests().count == answered, "held, not answered")
            latency.advance(by: .milliseconds(400))
            #expect(try await slow.value.status == 200)
            #expect(google.standIn.recordedRequests().last?.fault == "latency")
        }
    }

    @Test func swiftAPIFaultsCountDownAndCanBeUnlimited() async throws {
        try await H.with { google in
            let refresh = try #require(try await google.consent()["refresh_token"] as? String)
            try google.standIn.injectFault(FaultRule(match: .init(path: "/token"),
                                                     response: .unavailable(retryAfterSeconds: 5), times: 2))
            #expect(try await google.refresh(refresh).status == 503)
            let second = try await google.refresh(refresh)
            #expect(second.status == 503 && second.headers["retry-after"] == "5")
            #expect(try await google.refresh(refresh).status == 200)

            let id = try google.standIn.injectFault(FaultRule(match: .init(pathRegex: "/(token|revoke)"),
                                                              response: .rateLimited(), times: nil))
            for _ in 0..<3 { #expect(try await google.refresh(refresh).status == 429) }
            let listing = try await google.send(.GET, "/_fake/faults")
            #expect(listing.body.hasPrefix("[") && listing.body.contains(#""id":"\#(id)""#))
            #expect(listing.body.contains(#""name":"custom""#) && listing.body.contains(#""status":429"#))
            #expect(try await google.send(.DELETE, "/_fake/faults/\(id)").status == 204)
            #expect(try await google.refresh(refresh).status == 200)
        }
    }

    @Test func badFaultRequestsSayWhatToFix() async throws {
        try await H.with { google in
            let unknown = try await google.postJSON("/_fake/faults", #"{"fault": "teapot"}"#)
            #expect(unknown.status == 400)
            #expect((unknown.json["error"] as? String)?.contains("invalid_grant") == true)
            #expect(try await google.postJSON("/_fake/faults", #"{"match": {"pathRegex": "("}, "fault": "unavailable"}"#).status == 400)
            #expect(try await google.postJSON("/_fake/faults", #"{"match": {"path": "/token"}}"#).status == 400)
            #expect(try await google.postJSON("/_fake/faults", #"{"fault": "unavailable", "times": 0}"#).status == 400)
            #expect(throws: StandInError.self) {
                try google.standIn.injectFault(FaultRule(match: .init(), response: nil))
            }
        }
    }

    /// `pathRegex` is compiled once, when the rule is added: a bad one is refused there, and a good
    /// one (capture groups and all) keeps matching whole paths for every request while active.
    @Test func pathRegexIsCheckedAtInjectionAndMatchesWholePathsAfterwards() async throws {
        try await H.with { google in
            let error = #expect(throws: StandInError.self) {
                try google.standIn.injectFault(FaultRule(match: .init(pathRegex: "(unclosed"), response: .internalFailure))
            }
            #expect(error?.code == .invalidFault && error?.message.contains("does not compile") == true)
            #expect(google.standIn.recordedRequests().isEmpty)

            try google.standIn.injectFault(FaultRule(match: .init(method: "GET", pathRegex: "/calendar/v3/(users|calendars)/.+"),
                                                     response: .unavailable(), times: nil))
            for _ in 0..<3 {
                #expect(try await google.send(.GET, "/calendar/v3/calendars/primary/events").status == 503)
                #expect(try await google.send(.GET, "/calendar/v3/users/me/settings/timezone").status == 503)
            }
            // Whole-path matches only: a prefix or a longer path elsewhere does not trip it.
            #expect(try await google.send(.GET, "/calendar/v3/calendars").status != 503)
            #expect(try await google.send(.GET, "/x/calendar/v3/calendars/primary/events").status != 503)
            #expect(google.standIn.recordedRequests().filter { $0.fault == "custom" }.count == 6)
        }
    }

    @Test func serverSideRevocationMakesTheNextRefreshInvalidGrant() async throws {
        try await H.with { google in
            let first = try #require(try await google.consent()["refresh_token"] as? String)
            let byToken = try await google.postJSON("/_fake/oauth/revoke", #"{"refreshToken": "\#(first)"}"#)
            #expect(byToken.status == 200 && byToken.json["revoked"] as? Int == 1)
            #expect(try await google.refresh(first).error == "invalid_grant")

            // The next offline consent is a first consent again, so it yields a new refresh token.
            let second = try #require(try await google.consent()["refresh_token"] as? String)
            #expect(try await google.postJSON("/_fake/oauth/revoke", #"{"subject": "\#(H.subject)"}"#).json["revoked"] as? Int == 1)
            #expect(try await google.refresh(second).error == "invalid_grant")
            #expect(try await google.postJSON("/_fake/oauth/revoke", #"{"subject": "\#(H.subject)"}"#).status == 404)

            let third = try #require(try await google.consent()["refresh_token"] as? String)
            #expect(google.standIn.revokeRefreshToken(third))
            #expect(try await google.refresh(third).error == "invalid_grant")
        }
    }

    @Test func controlPlaneConsentClockAndReset() async throws {
        try await H.with { google in
            #expect(try await google.postJSON("/_fake/oauth/consent", #"{"decision": "deny"}"#).status == 200)
            #expect(try await google.authorize().redirectQuery["error"] == "access_denied")
            #expect(try await google.postJSON("/_fake/oauth/consent", #"{"decision": "approve"}"#).status == 200)

            let access = try #require(try await google.consent()["access_token"] as? String)
            #expect(try await google.postJSON("/_fake/clock", #"{"advanceSeconds": 3600}"#).json["now"] is String)
            #expect(throws: BearerTokenRejection.expired) { try google.standIn.validateAccessToken(access) }

            try google.standIn.injectFault(FaultRule(match: .init(), response: .internalFailure, times: nil))
            #expect(try await google.send(.POST, "/_fake/reset").status == 204)
            #expect(google.standIn.recordedRequests().isEmpty)
            #expect(throws: BearerTokenRejection.unknown) { try google.standIn.validateAccessToken(access) }
            #expect(try await google.authorize().status == 302)  // the fault went with the reset
        }
    }
}
