import Foundation
import Hummingbird

/// Google's OAuth 2.0 web-server flow (external-apis §1): authorize, token and revoke, at Google's
/// paths and with Google's bodies and errors.
extension GoogleStandIn {
    func addOAuthRoutes(to router: Router<BasicRequestContext>) {
        router.get(RouterPath(OAuthEndpoints.authorizationPath)) { request, _ in self.authorize(request) }
        router.post(RouterPath(OAuthEndpoints.tokenPath)) { request, _ in try await self.token(request) }
        // POST only: Google answers GET /revoke with 404, which is what an unregistered method gives.
        router.post(RouterPath(OAuthEndpoints.revokePath)) { request, _ in try await self.revoke(request) }
    }

    /// The consent screen, already clicked through: 302 back to the client, or Google's error page.
    private func authorize(_ request: Request) -> Response {
        let query = FormFields(encoded: request.uri.query ?? "")
        let now = clock.now()
        switch ledger.withLock({ $0.authorize(query, now: now) }) {
        case .redirect(let location):
            return Response(status: .found, headers: [.location: location, .cacheControl: "no-store"])
        case .errorPage(let status, let error, let detail):
            return Self.errorPage(status: status, error: error, detail: detail)
        }
    }

    private func token(_ request: Request) async throws -> Response {
        var request = request
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        guard contentType.hasPrefix("application/x-www-form-urlencoded") else {
            return Self.oauthError(.invalidRequest(
                "Content-Type must be application/x-www-form-urlencoded, got \(contentType.isEmpty ? "none" : contentType)"))
        }
        let body = try await request.collectBody(upTo: TrafficMiddleware.maxBodyBytes)
        let form = FormFields(encoded: String(buffer: body))
        let authorization = request.headers[.authorization]
        let now = clock.now()
        let result = ledger.withLock { ledger in
            Result { () throws(OAuthError) -> IssuedTokens in
                try ledger.token(form, authorization: authorization, now: now)
            }
        }
        switch result {
        case .failure(let error):
            return Self.oauthError(error)
        case .success(let issued):
            let wantsIDToken = issued.scopes.contains { ["openid", "email", "profile"].contains($0) }
            let response = TokenResponse(
                access_token: issued.accessToken, expires_in: issued.expiresIn, refresh_token: issued.refreshToken,
                scope: issued.scopes.joined(separator: " "), token_type: "Bearer",
                id_token: wantsIDToken ? try idTokens.sign(issued) : nil)
            return try Self.json(status: 200, response)
        }
    }

    private func revoke(_ request: Request) async throws -> Response {
        var request = request
        // Google takes the token from the query string or a form body.
        var token = FormFields(encoded: request.uri.query ?? "")["token"]
        if token == nil {
            let body = try await request.collectBody(upTo: TrafficMiddleware.maxBodyBytes)
            token = FormFields(encoded: String(buffer: body))["token"]
        }
        guard let token else {
            return Self.oauthError(.invalidRequest("Missing required parameter: token"))
        }
        let now = clock.now()
        guard ledger.withLock({ $0.revoke(token: token, now: now) }) else {
            // The exact body of Google's 400 is unconfirmed (external-apis §8); this is the agreed shape.
            return Self.oauthError(OAuthError(status: 400, error: "invalid_token", description: "Token expired or revoked"))
        }
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(string: "{}")))
    }

    // MARK: Responses

    /// Field names are Google's, hence snake_case.
    private struct TokenResponse: Encodable {
        let access_token: String
        let expires_in: Int
        let refresh_token: String?
        let scope: String
        let token_type: String
        let id_token: String?
    }

    private struct ErrorBody: Encodable {
        let error: String
        let error_description: String
    }

    static func oauthError(_ error: OAuthError) -> Response {
        // Encoding two strings cannot fail; the fallback keeps the signature non-throwing.
        (try? json(status: error.status, ErrorBody(error: error.error, error_description: error.description)))
            ?? Response(status: .init(code: error.status))
    }

    static func json(status: Int, _ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        // Google's token responses are never cached.
        return Response(status: .init(code: status),
                        headers: [.contentType: "application/json; charset=utf-8",
                                  .cacheControl: "no-cache, no-store, max-age=0, must-revalidate", Self.pragma: "no-cache"],
                        body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// HTTP/1.0 caches, which Google still addresses on token responses.
    private static let pragma = HTTPFields.Element.Name("Pragma")!

    /// Google shows configuration errors on its own page ("Error 400: redirect_uri_mismatch").
    private static func errorPage(status: Int, error: String, detail: String) -> Response {
        let html = """
            <!doctype html><html><head><title>Error \(status): \(escapeHTML(error))</title></head>
            <body><h1>Access blocked: this app's request is invalid</h1>
            <p>Error \(status): \(escapeHTML(error))</p><p>\(escapeHTML(detail))</p></body></html>
            """
        return Response(status: .init(code: status), headers: [.contentType: "text/html; charset=utf-8"],
                        body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    private static func escapeHTML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

extension OAuthLedger {
    /// The token endpoint's dispatch, in Google's order: grant type, then client, then the grant.
    mutating func token(_ form: FormFields, authorization: String?, now: Date) throws(OAuthError) -> IssuedTokens {
        if let duplicate = form.firstDuplicateName {
            throw .invalidRequest("Parameter not allowed to repeat: \(duplicate)")
        }
        guard let grantType = form["grant_type"] else { throw .invalidRequest("Missing required parameter: grant_type") }
        guard grantType == "authorization_code" || grantType == "refresh_token" else {
            throw .unsupportedGrantType(grantType)
        }
        let client = try authenticateClient(form, authorization: authorization)
        if grantType == "authorization_code" { return try exchangeCode(form, client: client, now: now) }
        return try refresh(form, client: client, now: now)
    }
}
