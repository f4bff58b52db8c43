import Foundation
import StandIns
import Testing

typealias H = GoogleHarness

@Suite(.timeLimit(.minutes(5))) struct OAuthFlowTests {
    @Test func fullAuthorizationCodeFlowWithPKCE() async throws {
        try await H.with { google in
            let redirect = try await google.authorize(prompt: "consent")
            #expect(redirect.status == 302)
            #expect(redirect.headers["location"]?.hasPrefix(H.redirectURI + "?") == true)
            let query = redirect.redirectQuery
            #expect(query["state"] == "xsrf-42")
            #expect(query["scope"] == "\(H.calendar) \(H.gmail)")
            let code = try #require(query["code"])
            #expect(code.hasPrefix("4/0"))

            let exchanged = try await google.exchange(code)
            #expect(exchanged.status == 200)
            #expect(exchanged.headers["content-type"]?.hasPrefix("application/json") == true)
            #expect(exchanged.headers["cache-control"]?.contains("no-store") == true)
            let tokens = exchanged.json
            let access = try #require(tokens["access_token"] as? String)
            let refresh = try #require(tokens["refresh_token"] as? String)
            #expect(access.hasPrefix("ya29."))
            #expect(refresh.hasPrefix("1//"))
            #expect(tokens["expires_in"] as? Int == 3599)
            #expect(tokens["token_type"] as? String == "Bearer")
            #expect(tokens["scope"] as? String == "\(H.calendar) \(H.gmail)")
            #expect(tokens["id_token"] == nil)

            let info = try google.standIn.validateBearer("Bearer \(access)")
            #expect(info.subject == H.subject && info.email == H.email && info.clientID == H.clientID)
            #expect(info.grants(anyOf: [H.calendar]))

            let refreshed = try await google.refresh(refresh)
            #expect(refreshed.status == 200)
            let newAccess = try #require(refreshed.json["access_token"] as? String)
            #expect(newAccess != access && newAccess.hasPrefix("ya29."))
            #expect(refreshed.json["refresh_token"] == nil)
            #expect(refreshed.json["scope"] as? String == "\(H.calendar) \(H.gmail)")

            let revoked = try await google.postForm("/revoke", [("token", refresh)])
            #expect(revoked.status == 200)

            let dead = try await google.refresh(refresh)
            #expect(dead.status == 400)
            #expect(dead.error == "invalid_grant")
            #expect(dead.json["error_description"] as? String == "Token has been expired or revoked.")
            // Revoking the refresh token took the access tokens minted from it along.
            #expect(throws: BearerTokenRejection.revoked) { try google.standIn.validateAccessToken(newAccess) }
            #expect(throws: BearerTokenRejection.revoked) { try google.standIn.validateAccessToken(access) }
        }
    }

    @Test func reusedCodeIsInvalidGrant() async throws {
        try await H.with { google in
            let code = try await google.code()
            #expect(try await google.exchange(code).status == 200)
            let again = try await google.exchange(code)
            #expect(again.status == 400)
            #expect(again.body == #"{"error":"invalid_grant","error_description":"Bad Request"}"#)
        }
    }

    @Test func wrongOrMissingVerifierIsInvalidGrant() async throws {
        try await H.with { google in
            let code = try await google.code()
            let wrong = try await google.exchange(code, verifier: String(repeating: "a", count: 43))
            #expect(wrong.status == 400 && wrong.error == "invalid_grant")
            let missing = try await google.exchange(code, verifier: nil)
            #expect(missing.status == 400 && missing.error == "invalid_grant")
            // A failed verifier does not burn the code: the right one still works.
            #expect(try await google.exchange(code).status == 200)
        }
    }

    @Test func badClientCredentialsAre401InvalidClient() async throws {
        try await H.with { google in
            let code = try await google.code()
            let badSecret = try await google.exchange(code, secret: "not-the-secret")
            #expect(badSecret.status == 401)
            #expect(badSecret.error == "invalid_client")
            let unknown = try await google.postForm("/token", [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", H.redirectURI),
                ("client_id", "nobody.apps.googleusercontent.com"), ("client_secret", H.clientSecret)])
            #expect(unknown.status == 401)
            #expect(unknown.json["error_description"] as? String == "The OAuth client was not found.")
            // client_secret_basic works too.
            let basic = Data("\(H.clientID):\(H.clientSecret)".utf8).base64EncodedString()
            let viaHeader = try await google.postForm(
                "/token", [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", H.redirectURI),
                           ("code_verifier", H.verifier)],
                headers: ["Authorization": "Basic \(basic)"])
            #expect(viaHeader.status == 200)
        }
    }

    @Test(arguments: [
        ([("client_id", H.clientID)], 400, "invalid_request"),
        ([("grant_type", "password"), ("client_id", H.clientID), ("client_secret", H.clientSecret)], 400, "unsupported_grant_type"),
        ([("grant_type", "authorization_code"), ("client_id", H.clientID), ("client_secret", H.clientSecret)], 400, "invalid_request"),
        ([("grant_type", "authorization_code"), ("code", "4/0Anope"), ("client_id", H.clientID)], 400, "invalid_request"),
        ([("grant_type", "refresh_token"), ("client_id", H.clientID), ("client_secret", H.clientSecret)], 400, "invalid_request"),
        ([("grant_type", "refresh_token"), ("refresh_token", "1//0unknown"), ("client_id", H.clientID),
          ("client_secret", H.clientSecret)], 400, "invalid_grant"),
        ([("grant_type", "refresh_token"), ("grant_type", "refresh_token")], 400, "invalid_request"),
    ])
    func tokenEndpointErrorsHaveGooglesShape(fields: [(String, String)], status: Int, error: String) async throws {
        try await H.with { google in
            let reply = try await google.postForm("/token", fields)
            #expect(reply.status == status)
            #expect(reply.error == error)
            #expect(Set(reply.json.keys) == ["error", "error_description"])
        }
    }

    @Test func tokenEndpointRejectsJSONBodies() async throws {
        try await H.with { google in
            let reply = try await google.postJSON("/token", #"{"grant_type":"refresh_token","refresh_token":"1//0x"}"#)
            #expect(reply.status == 400 && reply.error == "invalid_request")
        }
    }

    @Test func exchangeNeedsTheSameRedirectURIAndAFreshCode() async throws {
        try await H.with { google in
            let code = try await google.code()
            let mismatch = try await google.exchange(code, redirectURI: H.redirectURI + "/")
            #expect(mismatch.status == 400 && mismatch.error == "invalid_grant")
            google.standIn.advanceClock(bySeconds: 601)
            let expired = try await google.exchange(code)
            #expect(expired.status == 400 && expired.error == "invalid_grant")
        }
    }

    @Test func refreshTokenOnlyOnFirstOfflineConsentOrPromptConsent() async throws {
        try await H.with { google in
            let online = try await google.exchange(try await google.code(accessType: nil)).json
            #expect(online["access_token"] != nil && online["refresh_token"] == nil)
            // The online consent above already counts as consent, so offline now needs prompt=consent.
            let again = try await google.exchange(try await google.code(accessType: "offline")).json
            #expect(again["refresh_token"] == nil)
            let forced = try await google.exchange(try await google.code(accessType: "offline", prompt: "consent")).json
            #expect(forced["refresh_token"] is String)
        }
        try await H.with { google in
            let first = try await google.exchange(try await google.code(accessType: "offline")).json
            #expect(first["refresh_token"] is String)
        }
    }

    @Test func grantsOnlyTheScopesTheUserAllows() async throws {
        try await H.with(H.configuration(grantedScopes: [H.calendar])) { google in
            let redirect = try await google.authorize(scopes: [H.calendar, H.gmail])
            #expect(redirect.redirectQuery["scope"] == H.calendar)
            let tokens = try await google.exchange(try #require(redirect.redirectQuery["code"])).json
            #expect(tokens["scope"] as? String == H.calendar)
            let access = try #require(tokens["access_token"] as? String)
            #expect(try google.standIn.validateAccessToken(access).scopes == [H.calendar])
            // Narrowing on refresh is allowed; widening is invalid_scope.
            let refresh = try #require(tokens["refresh_token"] as? String)
            let widened = try await google.postForm("/token", [
                ("grant_type", "refresh_token"), ("refresh_token", refresh), ("client_id", H.clientID),
                ("client_secret", H.clientSecret), ("scope", H.gmail)])
            #expect(widened.status == 400 && widened.error == "invalid_scope")
        }
    }

    @Test func idTokenWhenOpenIDIsGranted() async throws {
        try await H.with { google in
            let tokens = try await google.consent(scopes: ["openid", "email", H.calendar])
            let idToken = try #require(tokens["id_token"] as? String)
            let parts = idToken.split(separator: ".")
            #expect(parts.count == 3)
            var payload = String(parts[1]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            payload += String(repeating: "=", count: (4 - payload.count % 4) % 4)
            let payloadData = try #require(Data(base64Encoded: payload))
            let claims = try #require(try JSONSerialization.jsonObject(with: payloadData) as? [String: Any])
            #expect(claims["sub"] as? String == H.subject)
            #expect(claims["email"] as? String == H.email)
            #expect(claims["aud"] as? String == H.clientID)
            #expect(claims["iss"] as? String == "https://accounts.google.com")
        }
    }

    @Test(arguments: [
        ("unknown client", [("client_id", "nobody")], "invalid_client"),
        ("redirect with trailing slash", [("redirect_uri", H.redirectURI + "/")], "redirect_uri_mismatch"),
        ("response_type token", [("response_type", "token")], "unsupported_response_type"),
        ("no scope", [("scope", "")], "invalid_request"),
        ("typo scope", [("scope", "calendar.readonly")], "invalid_scope"),
        ("no PKCE", [("code_challenge", "")], "invalid_request"),
        ("bad PKCE method", [("code_challenge_method", "S512")], "invalid_request"),
    ])
    func authorizationProblemsShowGooglesErrorPage(label: String, overrides: [(String, String)], error: String) async throws {
        try await H.with { google in
            var fields: [String: String] = [
                "client_id": H.clientID, "redirect_uri": H.redirectURI, "response_type": "code",
                "scope": H.calendar, "code_challenge": H.challenge, "code_challenge_method": "S256", "state": "s",
            ]
            for (name, value) in overrides { fields[name] = value }
            let reply = try await google.send(.GET, "/o/oauth2/v2/auth?" + H.formEncode(fields.sorted { $0.key < $1.key }))
            #expect(reply.status == 400, "\(label)")
            #expect(reply.headers["location"] == nil, "\(label): configuration errors are never redirected")
            #expect(reply.body.contains("Error 400: \(error)"), "\(label): \(reply.body)")
        }
    }

    @Test func deniedConsentRedirectsWithAccessDenied() async throws {
        var configuration = H.configuration()
        configuration.oauth.consent = .deny
        try await H.with(configuration) { google in
            let reply = try await google.authorize(state: "keep-me")
            #expect(reply.status == 302)
            #expect(reply.redirectQuery == ["error": "access_denied", "state": "keep-me"])
            google.standIn.setConsent(.approve)
            #expect(try await google.authorize().redirectQuery["code"] != nil)
        }
    }

    @Test func revokeAnswersLikeGoogle() async throws {
        try await H.with { google in
            let unknown = try await google.postForm("/revoke", [("token", "1//0never-issued")])
            #expect(unknown.status == 400)
            #expect(unknown.body == #"{"error":"invalid_token","error_description":"Token expired or revoked"}"#)
            #expect(try await google.send(.GET, "/revoke?token=x").status == 404)

            // Revoking the access token (token in the query string) kills its refresh token as well.
            let tokens = try await google.consent()
            let access = try #require(tokens["access_token"] as? String)
            let refresh = try #require(tokens["refresh_token"] as? String)
            #expect(try await google.send(.POST, "/revoke?token=\(H.formEncode([("t", access)]).dropFirst(2))").status == 200)
            #expect(try await google.refresh(refresh).error == "invalid_grant")
            #expect(try await google.postForm("/revoke", [("token", refresh)]).status == 400)
        }
    }

    @Test func bearerValidationFollowsTheFakeClock() async throws {
        try await H.with { google in
            let access = try #require(try await google.consent()["access_token"] as? String)
            #expect(throws: BearerTokenRejection.missing) { try google.standIn.validateBearer(nil) }
            #expect(throws: BearerTokenRejection.malformed) { try google.standIn.validateBearer(access) }
            #expect(throws: BearerTokenRejection.unknown) { try google.standIn.validateBearer("Bearer ya29.nope") }
            _ = try google.standIn.validateBearer("Bearer \(access)")
            google.standIn.advanceClock(bySeconds: 3599)
            #expect(throws: BearerTokenRejection.expired) { try google.standIn.validateBearer("Bearer \(access)") }
        }
    }

    @Test func refreshTokensDieLikeGooglesDo() async throws {
        // "Testing" publishing status: seven days, however often used.
        var testing = GoogleStandIn.OAuthSettings()
        testing.refreshTokenMaxAgeSeconds = 7 * 24 * 3600
        try await H.with(H.configuration(oauth: testing)) { google in
            let refresh = try #require(try await google.consent()["refresh_token"] as? String)
            google.standIn.advanceClock(bySeconds: 6 * 24 * 3600)
            #expect(try await google.refresh(refresh).status == 200)
            google.standIn.advanceClock(bySeconds: 2 * 24 * 3600)
            #expect(try await google.refresh(refresh).error == "invalid_grant")
        }
        // Unused for six months.
        try await H.with { google in
            let refresh = try #require(try await google.consent()["refresh_token"] as? String)
            google.standIn.advanceClock(bySeconds: 181 * 24 * 3600)
            #expect(try await google.refresh(refresh).error == "invalid_grant")
        }
        // Beyond the per-user limit the oldest token silently stops working.
        var limited = GoogleStandIn.OAuthSettings()
        limited.refreshTokensPerUserLimit = 2
        try await H.with(H.configuration(oauth: limited)) { google in
            var tokens: [String] = []
            for _ in 0..<3 {
                tokens.append(try #require(try await google.consent(prompt: "consent")["refresh_token"] as? String))
            }
            #expect(try await google.refresh(tokens[0]).error == "invalid_grant")
            #expect(try await google.refresh(tokens[1]).status == 200)
            #expect(try await google.refresh(tokens[2]).status == 200)
        }
    }
}
