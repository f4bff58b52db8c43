import Foundation

/// Which of Alfred's Google OAuth clients a grant was issued to. Google ties a refresh token to the
/// client that obtained it, so the broker refreshes with the same one.
public enum OAuthClientKind: String, Sendable, Codable, CaseIterable {
    /// A "Web application" client: an https redirect, and a client secret that only the broker holds.
    case web
    /// An "iOS" client: a custom-scheme redirect back into the app, PKCE, and no client secret at all.
    case ios
}

/// The connect-time authorization code exchange (Google OAuth with PKCE).
public struct CodeExchange: Sendable, Hashable {
    public var userID: String
    public var code: Redacted<String>
    public var codeVerifier: Redacted<String>
    public var redirectURI: String
    public var client: OAuthClientKind
    /// Scopes Alfred cannot work without: a grant missing any is revoked at Google and refused.
    public var requiredScopes: [String]

    public init(userID: String, code: Redacted<String>, codeVerifier: Redacted<String>, redirectURI: String,
                client: OAuthClientKind = .web, requiredScopes: [String] = []) {
        self.userID = userID
        self.code = code
        self.codeVerifier = codeVerifier
        self.redirectURI = redirectURI
        self.client = client
        self.requiredScopes = requiredScopes
    }
}

/// What a successful code exchange created.
public struct ConnectedConnector: Sendable, Hashable {
    public var connectorID: String
    public var scopes: [String]

    public init(connectorID: String, scopes: [String]) {
        self.connectorID = connectorID
        self.scopes = scopes
    }
}

/// The part of the token broker the API uses: turn a consent into a connector, and revoke one.
/// The API never sees a refresh token; the broker exchanges the code and stores the token sealed.
public protocol ConnectorAuthority: Sendable {
    func connect(_ exchange: CodeExchange) async throws(ConnectFailure) -> ConnectedConnector
    /// Revokes at Google and marks the connector revoked; a connector already revoked is fine.
    func disconnect(connectorID: UUID) async throws(ConnectFailure)
}

/// Why connecting or disconnecting failed, as the API answers it.
public struct ConnectFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// Google refused the code (expired, used, or issued for another redirect or client).
        case codeRefused
        /// The user left out scopes Alfred needs (granular consent); the grant was revoked.
        case missingScopes
        case notFound
        /// The broker, the key service or Google is unreachable; the same request may work later.
        case unavailable
        /// Anything else (a misconfiguration, a refused attestation); retrying will not help.
        case failed
    }

    public let kind: Kind
    /// Safe to show and log: never a token, code or verifier.
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// Google's scopes by their full names.
public enum GoogleScope {
    public static let calendarReadonly = "https://www.googleapis.com/auth/calendar.readonly"
    public static let gmailMetadata = "https://www.googleapis.com/auth/gmail.metadata"
    /// What Alfred asks for and needs: calendar events and mail headers, read-only.
    public static let required = [calendarReadonly, gmailMetadata]
}
