import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOHTTP1
import StandIns

/// A Google stand-in for one test, its routes driven in-process through Hummingbird's router test
/// client: the same middleware (faults, recordings, logs) and handlers `run()` serves, without a
/// socket. Redirects are not followed: the authorization endpoint's 302 is what we inspect. (Our
/// clients meet the stand-in over real sockets in the integration tests.)
struct GoogleHarness: Sendable {
    let standIn: GoogleStandIn
    let client: any TestClientProtocol

    static let clientID = "alfred-test.apps.googleusercontent.com"
    static let clientSecret = "GOCSPX-test-secret-Zq81"
    static let redirectURI = "http://127.0.0.1:9/oauth/google/callback"
    static let subject = "100000000000000000001"
    static let email = "ada@example.com"
    static let calendar = "https://www.googleapis.com/auth/calendar.readonly"
    static let gmail = "https://www.googleapis.com/auth/gmail.metadata"
    /// RFC 7636 appendix B: an independent check of the stand-in's S256 arithmetic.
    static let verifier = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk"
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"

    static func configuration(grantedScopes: [String]? = nil,
                              oauth: GoogleStandIn.OAuthSettings = .init()) -> GoogleStandIn.Configuration {
        GoogleStandIn.Configuration(
            clients: [.init(id: clientID, secret: clientSecret, redirectURIs: [redirectURI])],
            users: [.init(subject: subject, email: email, grantedScopes: grantedScopes),
                    .init(subject: "100000000000000000002", email: "grace@example.com")],
            oauth: oauth)
    }

    /// Runs `body` against a fresh stand-in's routes.
    /// `latencyClock`: what latency faults sleep on (a manual clock holds a request until advanced).
    static func with(_ configuration: GoogleStandIn.Configuration = configuration(), clock: StandInClock = StandInClock(),
                     latencyClock: any Clock<Duration> = ContinuousClock(),
                     logger: Logger = Logger(label: "alfred.standin.test"),
                     _ body: @Sendable (GoogleHarness) async throws -> Void) async throws {
        let standIn = GoogleStandIn(configuration: configuration, clock: clock, latencyClock: latencyClock, logger: logger)
        try await Application(router: standIn.makeRouter(), logger: logger).test(.router) { client in
            try await body(GoogleHarness(standIn: standIn, client: client))
        }
    }

    // MARK: HTTP

    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: String

        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
        }
        var error: String? { json["error"] as? String }
        /// Query parameters of the Location header (the authorization redirect).
        var redirectQuery: [String: String] {
            let items = URLComponents(string: headers["location"] ?? "")?.queryItems ?? []
            return Dictionary(items.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        }
    }

    func send(_ method: NIOHTTP1.HTTPMethod, _ path: String, body: String? = nil, contentType: String? = nil,
              headers: [String: String] = [:]) async throws -> Reply {
        var fields = HTTPFields()
        if let contentType { fields[.contentType] = contentType }
        for (name, value) in headers { if let field = HTTPField.Name(name) { fields.append(HTTPField(name: field, value: value)) } }
        let response = try await client.execute(uri: path, method: HTTPRequest.Method(rawValue: method.rawValue)!, headers: fields,
                                                body: body.map { ByteBuffer(string: $0) })
        var replyHeaders: [String: String] = [:]
        for field in response.headers { replyHeaders[field.name.canonicalName] = field.value }
        return Reply(status: Int(response.status.code), headers: replyHeaders, body: String(buffer: response.body))
    }

    func postForm(_ path: String, _ fields: [(String, String)], headers: [String: String] = [:]) async throws -> Reply {
        try await send(.POST, path, body: Self.formEncode(fields), contentType: "application/x-www-form-urlencoded",
                       headers: headers)
    }

    func postJSON(_ path: String, _ json: String) async throws -> Reply {
        try await send(.POST, path, body: json, contentType: "application/json")
    }

    // MARK: The OAuth flow, step by step

    func authorize(scopes: [String] = [calendar, gmail], accessType: String? = "offline", prompt: String? = nil,
                   clientID: String = clientID, redirectURI: String = redirectURI,
                   challenge: String? = challenge, state: String = "xsrf-42", extra: [(String, String)] = []) async throws -> Reply {
        var fields: [(String, String)] = [("client_id", clientID), ("redirect_uri", redirectURI), ("response_type", "code"),
                                          ("scope", scopes.joined(separator: " ")), ("state", state)]
        if let accessType { fields.append(("access_type", accessType)) }
        if let prompt { fields.append(("prompt", prompt)) }
        if let challenge { fields += [("code_challenge", challenge), ("code_challenge_method", "S256")] }
        return try await send(.GET, "/o/oauth2/v2/auth?" + Self.formEncode(fields + extra))
    }

    /// Authorizes and returns the code from the redirect.
    func code(scopes: [String] = [calendar, gmail], accessType: String? = "offline", prompt: String? = nil) async throws -> String {
        let reply = try await authorize(scopes: scopes, accessType: accessType, prompt: prompt)
        guard reply.status == 302, let code = reply.redirectQuery["code"] else {
            throw HarnessError("authorize answered \(reply.status) without a code: \(reply.body)")
        }
        return code
    }

    func exchange(_ code: String, verifier: String? = verifier, secret: String = clientSecret,
                  redirectURI: String = redirectURI) async throws -> Reply {
        var fields = [("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI),
                      ("client_id", Self.clientID), ("client_secret", secret)]
        if let verifier { fields.append(("code_verifier", verifier)) }
        return try await postForm("/token", fields)
    }

    func refresh(_ refreshToken: String, secret: String = clientSecret) async throws -> Reply {
        try await postForm("/token", [("grant_type", "refresh_token"), ("refresh_token", refreshToken),
                                      ("client_id", Self.clientID), ("client_secret", secret)])
    }

    /// The whole consent: authorize, exchange, and the token response's JSON.
    func consent(scopes: [String] = [calendar, gmail], prompt: String? = nil) async throws -> [String: Any] {
        let reply = try await exchange(try await code(scopes: scopes, prompt: prompt))
        guard reply.status == 200 else { throw HarnessError("code exchange answered \(reply.status): \(reply.body)") }
        return reply.json
    }

    static func formEncode(_ fields: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return fields.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)"
        }.joined(separator: "&")
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
