import Crypto
import Foundation

/// A token-endpoint error in Google's shape: `{"error": ..., "error_description": ...}` (external-apis §1.3).
struct OAuthError: Error, Equatable, Sendable {
    var status: Int
    var error: String
    var description: String

    static func invalidGrant(_ description: String = "Bad Request") -> Self {
        Self(status: 400, error: "invalid_grant", description: description)
    }
    static let expiredOrRevoked = invalidGrant("Token has been expired or revoked.")
    static func invalidClient(_ description: String) -> Self {
        Self(status: 401, error: "invalid_client", description: description)
    }
    static func invalidRequest(_ description: String) -> Self {
        Self(status: 400, error: "invalid_request", description: description)
    }
    static func invalidScope(_ description: String) -> Self {
        Self(status: 400, error: "invalid_scope", description: description)
    }
    static let unauthorizedClient = Self(status: 401, error: "unauthorized_client", description: "Unauthorized")
    static func unsupportedGrantType(_ grantType: String) -> Self {
        Self(status: 400, error: "unsupported_grant_type", description: "Invalid grant_type: \(grantType)")
    }
}

/// What the authorization endpoint does with a browser request.
enum AuthorizationOutcome: Equatable, Sendable {
    /// 302 back to the client, with either `code` or `error=access_denied`.
    case redirect(location: String)
    /// Google's own error page: configuration problems are shown, never redirected (§1.1).
    case errorPage(status: Int, error: String, detail: String)
}

/// Tokens a successful code exchange or refresh hands out.
struct IssuedTokens: Sendable {
    var accessToken: String
    var expiresIn: Int
    var refreshToken: String?
    var scopes: [String]
    var clientID: String
    var user: GoogleStandIn.User
    var nonce: String?
    var issuedAt: Date
}

/// The fake Google's OAuth memory and rules: codes, grants, access tokens and consent. Pure state
/// with `now` passed in; the routes do the HTTP and the locking.
struct OAuthLedger: Sendable {
    struct AuthorizationCode: Sendable {
        var clientID: String
        var redirectURI: String
        var subject: String
        var scopes: [String]
        var challenge: String?
        var challengeMethod: String?
        var issueRefreshToken: Bool
        var nonce: String?
        var expiresAt: Date
        var used = false
    }

    /// One consent turned into tokens: the refresh token (if any) and every access token minted
    /// from it live and die together.
    struct Grant: Sendable {
        enum Ending: Sendable { case revoked, evicted }
        var id: Int
        var clientID: String
        var subject: String
        var scopes: [String]
        var refreshToken: String?
        var issuedAt: Date
        var lastUsedAt: Date
        var ending: Ending?
    }

    struct AccessToken: Sendable {
        var grantID: Int
        var scopes: [String]
        var expiresAt: Date
    }

    private struct ConsentKey: Hashable, Sendable {
        var clientID: String
        var subject: String
    }

    var configuration: GoogleStandIn.Configuration
    private var codes: [String: AuthorizationCode] = [:]
    private var grants: [Int: Grant] = [:]

    /// Every refresh token issued to `subject`, for tests that plant them as canaries and then
    /// search for them where they must never appear.
    func refreshTokens(subject: String) -> [String] {
        grants.values.filter { $0.subject == subject }.sorted { $0.id < $1.id }.compactMap(\.refreshToken)
    }
    /// The refresh tokens of `subject` that still work (not revoked, evicted or expired).
    func liveRefreshTokens(subject: String, now: Date) -> [String] {
        grants.values.filter { $0.subject == subject && isLive($0, now: now) }.sorted { $0.id < $1.id }.compactMap(\.refreshToken)
    }
    private var grantByRefreshToken: [String: Int] = [:]
    private var accessTokens: [String: AccessToken] = [:]
    /// Scopes each user has consented to per client; absent means the next consent is a first one.
    private var consents: [ConsentKey: Set<String>] = [:]
    private var nextGrantID = 1

    init(configuration: GoogleStandIn.Configuration) {
        self.configuration = configuration
    }

    // MARK: Authorization endpoint

    mutating func authorize(_ query: FormFields, now: Date) -> AuthorizationOutcome {
        if let duplicate = query.firstDuplicateName {
            return .errorPage(status: 400, error: "invalid_request", detail: "Parameter not allowed to repeat: \(duplicate)")
        }
        guard let clientID = query["client_id"] else {
            return .errorPage(status: 400, error: "invalid_request", detail: "Missing required parameter: client_id")
        }
        guard let client = configuration.clients.first(where: { $0.id == clientID }) else {
            return .errorPage(status: 400, error: "invalid_client", detail: "The OAuth client was not found.")
        }
        guard let redirectURI = query["redirect_uri"] else {
            return .errorPage(status: 400, error: "invalid_request", detail: "Missing required parameter: redirect_uri")
        }
        guard client.redirectURIs.contains(redirectURI) else {
            return .errorPage(status: 400, error: "redirect_uri_mismatch",
                              detail: "The redirect URI in the request does not match the ones authorized for the OAuth client.")
        }
        guard let responseType = query["response_type"] else {
            return .errorPage(status: 400, error: "invalid_request", detail: "Required parameter is missing: response_type")
        }
        guard responseType == "code" else {
            return .errorPage(status: 400, error: "unsupported_response_type",
                              detail: "Invalid response_type: \(responseType); this flow uses code")
        }
        let requested = Self.scopeList(query["scope"])
        guard !requested.isEmpty else {
            return .errorPage(status: 400, error: "invalid_request", detail: "Missing required parameter: scope")
        }
        if let unknown = requested.first(where: { !Self.isKnownScope($0) }) {
            return .errorPage(status: 400, error: "invalid_scope", detail: "Some requested scopes were invalid: \(unknown)")
        }
        let accessType = query["access_type"] ?? "online"
        guard accessType == "online" || accessType == "offline" else {
            return .errorPage(status: 400, error: "invalid_request", detail: "Invalid access_type: \(accessType)")
        }
        let challenge = query["code_challenge"]
        // Google's rule: a challenge sent without a method is `plain`.
        let challengeMethod = challenge == nil ? nil : (query["code_challenge_method"] ?? "plain")
        if let challengeMethod, challengeMethod != "S256" && challengeMethod != "plain" {
            return .errorPage(status: 400, error: "invalid_request", detail: "Invalid code_challenge_method: \(challengeMethod)")
        }
        if let challenge, !Self.isPKCEString(challenge) {
            return .errorPage(status: 400, error: "invalid_request",
                              detail: "Invalid code_challenge: expected 43-128 characters of [A-Za-z0-9-._~]")
        }
        if challenge == nil && configuration.oauth.requirePKCE {
            return .errorPage(status: 400, error: "invalid_request",
                              detail: "Missing code_challenge: this stand-in requires PKCE (set oauth.requirePKCE to false to allow it)")
        }
        guard let user = signedInUser(loginHint: query["login_hint"]) else {
            return .errorPage(status: 500, error: "stand_in_misconfigured",
                              detail: "No test user: add one to Configuration.users or the scenario file's \"users\"")
        }

        let state = query["state"]
        let key = ConsentKey(clientID: client.id, subject: user.subject)
        var granted = requested.filter { scope in user.grantedScopes.map { $0.contains(scope) } ?? true }
        if query["include_granted_scopes"] == "true", let earlier = consents[key] {
            granted += earlier.filter { !granted.contains($0) }.sorted()
        }
        guard configuration.oauth.consent == .approve, !granted.isEmpty else {
            var fields = [FormFields.Field(name: "error", value: "access_denied")]
            if let state { fields.append(.init(name: "state", value: state)) }
            return .redirect(location: Self.appending(FormFields(fields), to: redirectURI))
        }

        let prompts = Set((query["prompt"] ?? "").split(separator: " ").map(String.init))
        let firstConsent = consents[key] == nil || prompts.contains("consent")
        consents[key, default: []].formUnion(granted)
        let code = TokenMint.authorizationCode()
        codes[code] = AuthorizationCode(
            clientID: client.id, redirectURI: redirectURI, subject: user.subject, scopes: granted,
            challenge: challenge, challengeMethod: challengeMethod,
            issueRefreshToken: accessType == "offline" && firstConsent, nonce: query["nonce"],
            expiresAt: now.addingTimeInterval(TimeInterval(configuration.oauth.codeLifetimeSeconds)))

        var fields = [FormFields.Field(name: "code", value: code),
                      FormFields.Field(name: "scope", value: granted.joined(separator: " "))]
        if let state { fields.append(.init(name: "state", value: state)) }
        return .redirect(location: Self.appending(FormFields(fields), to: redirectURI))
    }

    // MARK: Token endpoint

    /// Client authentication by form fields or HTTP Basic (`client_secret_basic`), with Google's errors.
    func authenticateClient(_ form: FormFields, authorization: String?) throws(OAuthError) -> GoogleStandIn.Client {
        var clientID = form["client_id"]
        var secret = form["client_secret"]
        if let authorization, authorization.lowercased().hasPrefix("basic ") {
            guard clientID == nil, secret == nil else {
                throw .invalidRequest("Client credentials were sent both in the body and in the Authorization header.")
            }
            let encoded = authorization.dropFirst("basic ".count).trimmingCharacters(in: .whitespaces)
            guard let data = Data(base64Encoded: encoded), let pair = String(data: data, encoding: .utf8),
                  let colon = pair.firstIndex(of: ":")
            else { throw .invalidClient("Unauthorized") }
            clientID = String(pair[..<colon]).removingPercentEncoding
            secret = String(pair[pair.index(after: colon)...]).removingPercentEncoding
        }
        guard let clientID, !clientID.isEmpty else {
            throw .invalidRequest("Could not determine client ID from request.")
        }
        guard let client = configuration.clients.first(where: { $0.id == clientID }) else {
            throw .invalidClient("The OAuth client was not found.")
        }
        switch client.kind {
        case .web:
            guard let secret, !secret.isEmpty else { throw .invalidRequest("client_secret is missing.") }
            guard secret == client.secret else { throw .invalidClient("Unauthorized") }
        case .ios:
            // A public client has no secret; one sent anyway means the caller mixed up its clients.
            // (The stand-in is strict here, to catch a broker that sends the web secret.)
            guard secret == nil || secret == "" else { throw .invalidClient("Unauthorized") }
            guard form["grant_type"] != "authorization_code" || form["code_verifier"] != nil else {
                throw .invalidRequest("Missing code verifier: an iOS client must use PKCE.")
            }
        }
        return client
    }

    mutating func exchangeCode(_ form: FormFields, client: GoogleStandIn.Client, now: Date) throws(OAuthError) -> IssuedTokens {
        guard let code = form["code"] else { throw .invalidRequest("Missing required parameter: code") }
        guard let redirectURI = form["redirect_uri"] else { throw .invalidRequest("Missing parameter: redirect_uri") }
        guard var record = codes[code], !record.used, now < record.expiresAt, record.clientID == client.id,
              record.redirectURI == redirectURI
        else { throw .invalidGrant() }
        if let challenge = record.challenge {
            guard let verifier = form["code_verifier"] else { throw .invalidGrant("Missing code verifier.") }
            guard Self.isPKCEString(verifier),
                  Self.pkceMatches(verifier: verifier, challenge: challenge, method: record.challengeMethod ?? "plain")
            else { throw .invalidGrant() }
        }
        guard let user = configuration.users.first(where: { $0.subject == record.subject }) else {
            throw .invalidGrant()
        }
        record.used = true
        codes[code] = record

        var refreshToken: String?
        if record.issueRefreshToken {
            evictOldestRefreshTokens(clientID: client.id, subject: user.subject, now: now)
            refreshToken = TokenMint.refreshToken()
        }
        let grantID = nextGrantID
        nextGrantID += 1
        grants[grantID] = Grant(id: grantID, clientID: client.id, subject: user.subject, scopes: record.scopes,
                                refreshToken: refreshToken, issuedAt: now, lastUsedAt: now)
        if let refreshToken { grantByRefreshToken[refreshToken] = grantID }
        var issued = mintAccessToken(grantID: grantID, scopes: record.scopes, client: client, user: user, now: now)
        issued.refreshToken = refreshToken
        issued.nonce = record.nonce
        return issued
    }

    /// A new access token for a live refresh token; never a new refresh token (Google keeps the old one).
    mutating func refresh(_ form: FormFields, client: GoogleStandIn.Client, now: Date) throws(OAuthError) -> IssuedTokens {
        guard let token = form["refresh_token"] else { throw .invalidRequest("Missing required parameter: refresh_token") }
        guard let grantID = grantByRefreshToken[token], var grant = grants[grantID] else { throw .invalidGrant() }
        guard grant.clientID == client.id else { throw .unauthorizedClient }
        guard isLive(grant, now: now) else { throw .expiredOrRevoked }
        var scopes = grant.scopes
        if let asked = form["scope"] {
            let subset = Self.scopeList(asked)
            if let extra = subset.first(where: { !grant.scopes.contains($0) }) {
                throw .invalidScope("Some requested scopes were invalid. {invalid=[\(extra)]}")
            }
            scopes = subset
        }
        guard let user = configuration.users.first(where: { $0.subject == grant.subject }) else {
            throw .expiredOrRevoked
        }
        grant.lastUsedAt = now
        grants[grantID] = grant
        return mintAccessToken(grantID: grantID, scopes: scopes, client: client, user: user, now: now)
    }

    // MARK: Revocation

    /// Revokes the grant behind an access or refresh token (§1.5: either kills both). False when the
    /// token is unknown or already dead, which Google answers with 400.
    mutating func revoke(token: String, now: Date) -> Bool {
        let grantID: Int
        if let id = grantByRefreshToken[token] {
            grantID = id
        } else if let access = accessTokens[token], now < access.expiresAt {
            grantID = access.grantID
        } else {
            return false
        }
        guard let grant = grants[grantID], grant.ending == nil else { return false }
        end(grantID, as: .revoked)
        return true
    }

    /// The user removes the app in their Google Account: every grant of theirs dies. Returns how many.
    mutating func revokeAll(subject: String) -> Int {
        let ids = grants.values.filter { $0.subject == subject && $0.ending == nil }.map(\.id)
        for id in ids { end(id, as: .revoked) }
        return ids.count
    }

    // MARK: Bearer tokens for the data APIs

    /// The client id recorded for tokens minted by `GoogleStandIn.mintAccessToken(forUser:scopes:)`.
    static let mintedClientID = "stand-in-minted"

    /// An access token for `subject` without the consent dance: a grant of its own with no refresh
    /// token, so it expires, validates and is revoked like any other. Nil for an unknown subject.
    mutating func mintAccessToken(subject: String, scopes: [String], now: Date) -> String? {
        guard configuration.users.contains(where: { $0.subject == subject }) else { return nil }
        let grantID = nextGrantID
        nextGrantID += 1
        grants[grantID] = Grant(id: grantID, clientID: Self.mintedClientID, subject: subject, scopes: scopes,
                                refreshToken: nil, issuedAt: now, lastUsedAt: now)
        let token = TokenMint.accessToken()
        accessTokens[token] = AccessToken(
            grantID: grantID, scopes: scopes,
            expiresAt: now.addingTimeInterval(TimeInterval(configuration.oauth.accessTokenLifetimeSeconds)))
        return token
    }

    func validate(accessToken token: String, now: Date) throws(BearerTokenRejection) -> AccessTokenInfo {
        guard let access = accessTokens[token], let grant = grants[access.grantID] else { throw .unknown }
        guard grant.ending == nil else { throw .revoked }
        guard now < access.expiresAt else { throw .expired }
        let email = configuration.users.first { $0.subject == grant.subject }?.email ?? ""
        return AccessTokenInfo(subject: grant.subject, email: email, clientID: grant.clientID, scopes: access.scopes,
                               expiresAt: access.expiresAt)
    }

    // MARK: Rules

    private func isLive(_ grant: Grant, now: Date) -> Bool {
        guard grant.ending == nil else { return false }
        let settings = configuration.oauth
        if now.timeIntervalSince(grant.lastUsedAt) > TimeInterval(settings.refreshTokenIdleSeconds) { return false }
        if let maxAge = settings.refreshTokenMaxAgeSeconds, now.timeIntervalSince(grant.issuedAt) > TimeInterval(maxAge) {
            return false
        }
        return true
    }

    /// Makes room for one more refresh token: beyond the per-user limit Google silently kills the oldest.
    private mutating func evictOldestRefreshTokens(clientID: String, subject: String, now: Date) {
        let live = grants.values
            .filter { $0.clientID == clientID && $0.subject == subject && $0.refreshToken != nil && isLive($0, now: now) }
            .sorted { ($0.issuedAt, $0.id) < ($1.issuedAt, $1.id) }
        let excess = live.count - max(configuration.oauth.refreshTokensPerUserLimit, 1) + 1
        for grant in live.prefix(max(excess, 0)) { grants[grant.id]?.ending = .evicted }
    }

    private mutating func end(_ grantID: Int, as ending: Grant.Ending) {
        guard let grant = grants[grantID] else { return }
        grants[grantID]?.ending = ending
        // Consent goes with the grant, so the next authorization is a first consent again and, with
        // access_type=offline, yields a new refresh token.
        consents[ConsentKey(clientID: grant.clientID, subject: grant.subject)] = nil
    }

    private mutating func mintAccessToken(grantID: Int, scopes: [String], client: GoogleStandIn.Client,
                                          user: GoogleStandIn.User, now: Date) -> IssuedTokens {
        let lifetime = configuration.oauth.accessTokenLifetimeSeconds
        let token = TokenMint.accessToken()
        accessTokens[token] = AccessToken(grantID: grantID, scopes: scopes,
                                          expiresAt: now.addingTimeInterval(TimeInterval(lifetime)))
        return IssuedTokens(accessToken: token, expiresIn: lifetime, refreshToken: nil, scopes: scopes,
                            clientID: client.id, user: user, nonce: nil, issuedAt: now)
    }

    private func signedInUser(loginHint: String?) -> GoogleStandIn.User? {
        if let loginHint, let user = configuration.users.first(where: { $0.email == loginHint || $0.subject == loginHint }) {
            return user
        }
        return configuration.users.first
    }

    // MARK: Wire details

    static func scopeList(_ text: String?) -> [String] {
        var seen = Set<String>()
        return (text ?? "").split(separator: " ").map(String.init).filter { seen.insert($0).inserted }
    }

    /// Google's scope vocabulary: API scopes under googleapis.com/auth, Gmail's full scope, and the
    /// OpenID Connect ones. Anything else is a typo worth an error page.
    static func isKnownScope(_ scope: String) -> Bool {
        ["openid", "email", "profile", "https://mail.google.com/"].contains(scope)
            || (scope.hasPrefix("https://www.googleapis.com/auth/") && scope.count > "https://www.googleapis.com/auth/".count)
    }

    /// RFC 7636: verifiers and challenges are 43-128 unreserved characters.
    static func isPKCEString(_ text: String) -> Bool {
        (43...128).contains(text.count)
            && text.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "-._~".unicodeScalars.contains($0)) }
    }

    static func pkceMatches(verifier: String, challenge: String, method: String) -> Bool {
        switch method {
        case "S256": Data(SHA256.hash(data: Data(verifier.utf8))).base64URLEncoded == challenge
        case "plain": verifier == challenge
        default: false
        }
    }

    static func appending(_ fields: FormFields, to uri: String) -> String {
        uri + (uri.contains("?") ? "&" : "?") + fields.encoded
    }
}
