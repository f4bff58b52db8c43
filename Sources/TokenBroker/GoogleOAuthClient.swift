import BrokerClient
import LocalIPC
import AlfredCore
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import Synchronization

/// Google's OAuth endpoints as the broker calls them (only the broker does: Boundary D). Base URLs
/// come from configuration, so the local stand-in and the real Google are a config change apart.
public final class GoogleOAuthClient: Sendable {
    public struct Configuration: Sendable {
        public var tokenURL: String
        public var revokeURL: String
        /// The web client, with its secret.
        public var clientID: String
        public var clientSecret: Redacted<String>
        /// The iOS client (no secret: Google issues none for it), when the app connects through one.
        public var iosClientID: String?
        /// Attempts per call for 429, 5xx and network errors (full-jitter backoff, Retry-After honoured).
        public var attempts = 3
        /// The wait between those attempts: full jitter, capped, so a caller holding a request waits
        /// seconds at most (a longer outage goes back to the caller's own retries).
        public var backoff = RetryPolicy(base: .milliseconds(200), cap: .seconds(2))
        /// A Retry-After longer than this is not waited out here: the caller (a job) retries later.
        public var maxRetryAfter: Duration = .seconds(5)
        public var timeout: Duration = .seconds(10)

        public init(tokenURL: String, revokeURL: String, clientID: String, clientSecret: Redacted<String>) {
            self.tokenURL = tokenURL
            self.revokeURL = revokeURL
            self.clientID = clientID
            self.clientSecret = clientSecret
        }
    }

    /// A token response. Secrets stay `Redacted`.
    public struct Grant: Sendable {
        public let accessToken: Redacted<String>
        public let expiresIn: Duration
        public let refreshToken: Redacted<String>?
        public let scopes: [String]
    }

    public enum Failure: Error, Equatable, CustomStringConvertible {
        /// `invalid_grant`: the refresh token or code is dead; the user must connect again.
        case invalidGrant
        /// `invalid_client` / `unauthorized_client`: our configuration is wrong; retrying will not help.
        case rejected(status: Int, error: String)
        /// 429, 5xx or network trouble that outlived our attempts; try again later.
        case unavailable(String)

        public var description: String {
            switch self {
            case .invalidGrant: "Google answered invalid_grant"
            case .rejected(let status, let error): "Google rejected the request: HTTP \(status) \(error)"
            case .unavailable(let detail): "Google's token endpoint is unavailable: \(detail)"
            }
        }
    }

    let configuration: Configuration
    let http: HTTPClient
    let logger: Logger
    private let clock: any Clock<Duration>
    private let random: Mutex<AnyGenerator>

    /// - Parameters:
    ///   - clock: paces the backoff between attempts (tests pass a manual clock).
    ///   - random: jitter for that backoff.
    public init(configuration: Configuration, http: HTTPClient, logger: Logger, clock: any Clock<Duration> = ContinuousClock(),
                random: some RandomNumberGenerator & Sendable = SystemRandomNumberGenerator()) {
        self.configuration = configuration
        self.http = http
        self.logger = logger
        self.clock = clock
        self.random = Mutex(AnyGenerator(random))
    }

    /// Connect: exchange an authorization code (with its PKCE verifier) for tokens, as `client`.
    public func exchange(code: Redacted<String>, verifier: Redacted<String>, redirectURI: String,
                         client: OAuthClientKind = .web) async throws -> Grant {
        try await grant([
            ("grant_type", "authorization_code"), ("code", code.unsafeValue), ("code_verifier", verifier.unsafeValue),
            ("redirect_uri", redirectURI),
        ] + credentials(client))
    }

    /// A new access token, asked for by the client the refresh token was issued to.
    public func refresh(_ refreshToken: Redacted<String>, client: OAuthClientKind = .web) async throws -> Grant {
        try await grant([("grant_type", "refresh_token"), ("refresh_token", refreshToken.unsafeValue)] + credentials(client))
    }

    /// The client's identification on the token endpoint: the web client's id and secret, or the iOS
    /// client's id alone (sending a secret for a public client is a mistake Google may refuse).
    private func credentials(_ client: OAuthClientKind) throws -> [(String, String)] {
        switch client {
        case .web:
            return [("client_id", configuration.clientID), ("client_secret", configuration.clientSecret.unsafeValue)]
        case .ios:
            guard let id = configuration.iosClientID, !id.isEmpty else {
                throw Failure.rejected(status: 0, error: "no iOS OAuth client configured (GOOGLE_IOS_CLIENT_ID)")
            }
            return [("client_id", id)]
        }
    }

    /// Revokes a refresh token (and what was minted from it). An already dead token counts as revoked.
    public func revoke(_ token: Redacted<String>) async throws {
        let (status, body) = try await post(configuration.revokeURL, [("token", token.unsafeValue)])
        if status == 200 { return }
        if status == 400, Self.errorCode(body) == "invalid_token" || Self.errorCode(body) == "invalid_grant" { return }
        throw Failure.rejected(status: status, error: Self.errorCode(body) ?? "unknown")
    }

    private func grant(_ form: [(String, String)]) async throws -> Grant {
        let (status, body) = try await post(configuration.tokenURL, form)
        guard status == 200 else {
            let code = Self.errorCode(body) ?? "unknown"
            if code == "invalid_grant" { throw Failure.invalidGrant }
            throw Failure.rejected(status: status, error: code)
        }
        struct Response: Decodable {
            let access_token: String
            let expires_in: Int?
            let refresh_token: String?
            let scope: String?
        }
        guard let response = try? JSONDecoder().decode(Response.self, from: Data(body)) else {
            throw Failure.unavailable("token response is not the expected JSON")
        }
        return Grant(accessToken: Redacted(response.access_token), expiresIn: .seconds(response.expires_in ?? 3599),
                     refreshToken: response.refresh_token.map(Redacted.init),
                     scopes: (response.scope ?? "").split(separator: " ").map(String.init))
    }

    /// POSTs a form, retrying 429, 5xx and network errors with capped full-jitter backoff (a
    /// `Retry-After` up to `maxRetryAfter` is a floor; a longer one ends the call). Other statuses
    /// return to the caller.
    private func post(_ url: String, _ form: [(String, String)]) async throws -> (Int, [UInt8]) {
        var lastProblem = "no attempt made"
        for attempt in 1...max(1, configuration.attempts) {
            var retryAfter: Duration?
            do {
                var request = HTTPClientRequest(url: url)
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
                request.headers.add(name: "Accept", value: "application/json")
                request.body = .bytes(ByteBuffer(string: Self.formEncode(form)))
                let response = try await http.execute(request, timeout: .init(configuration.timeout))
                let body = try await response.body.collect(upTo: 256 * 1024)
                let status = Int(response.status.code)
                guard status == 429 || status >= 500 else { return (status, Array(buffer: body)) }
                lastProblem = "HTTP \(status)"
                retryAfter = response.headers.first(name: "Retry-After").flatMap(Int.init).map { .seconds($0) }
            } catch is CancellationError {
                throw CancellationError()  // the caller gave up: not a Google failure, and no retry
            } catch {
                lastProblem = "network error (\(type(of: error)))"
            }
            if let retryAfter, retryAfter > configuration.maxRetryAfter {
                throw Failure.unavailable("\(lastProblem), Retry-After \(retryAfter) is longer than we wait")
            }
            let next = random.withLock { random in
                configuration.backoff.next(afterAttempt: attempt, maxAttempts: configuration.attempts, retryAfter: retryAfter,
                                           using: &random)
            }
            guard case .retry(let delay) = next else { break }
            logger.info("Google token endpoint failed; retrying",
                        metadata: ["alfred.problem": "\(lastProblem)", "alfred.attempt": "\(attempt)",
                                   "alfred.retry.delay_ms": "\(Int64(delay.seconds * 1_000))"])
            try await clock.sleep(for: delay)
        }
        throw Failure.unavailable(lastProblem)
    }

    static func errorCode(_ body: [UInt8]) -> String? {
        (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])?["error"] as? String
    }

    static func formEncode(_ pairs: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return pairs.map { key, value in
            "\(key)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }.joined(separator: "&")
    }
}
