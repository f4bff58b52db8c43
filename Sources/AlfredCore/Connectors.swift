import Foundation

/// A connector's status, as stored in `connectors.status`.
public enum ConnectorStatus: String, Sendable, Codable {
    case active = "ACTIVE"
    /// Google answered `invalid_grant`: the user must connect again.
    case needsReconsent = "NEEDS_RECONSENT"
    case revoked = "REVOKED"
    /// Its user was deleted before Google confirmed the revocation; kept only to revoke it.
    case revocationPending = "REVOCATION_PENDING"
}

/// What the broker reads to decrypt a refresh token. Only the broker's database role can read it.
public struct ConnectorSecret: Sendable {
    public let id: UUID
    public let userID: UUID
    public let status: ConnectorStatus
    public let keyID: String
    public let keyVersion: Int
    /// `refresh_token_ciphertext` (an envelope; not plaintext, but still never logged).
    public let ciphertext: Redacted<[UInt8]>
    /// The OAuth client the refresh token was issued to (and must be refreshed by).
    public let oauthClient: OAuthClientKind

    public init(id: UUID, userID: UUID, status: ConnectorStatus, keyID: String, keyVersion: Int, ciphertext: [UInt8],
                oauthClient: OAuthClientKind = .web) {
        self.id = id; self.userID = userID; self.status = status; self.keyID = keyID; self.keyVersion = keyVersion
        self.ciphertext = Redacted(ciphertext)
        self.oauthClient = oauthClient
    }
}

/// A new connector, its refresh token already encrypted.
public struct NewConnector: Sendable {
    public let id: UUID
    public let userID: UUID
    public let provider: String
    public let scopes: [String]
    public let keyID: String
    public let keyVersion: Int
    public let ciphertext: [UInt8]
    public let oauthClient: OAuthClientKind

    public init(id: UUID, userID: UUID, provider: String = "google", scopes: [String], keyID: String, keyVersion: Int, ciphertext: [UInt8],
                oauthClient: OAuthClientKind = .web) {
        self.id = id; self.userID = userID; self.provider = provider; self.scopes = scopes; self.keyID = keyID
        self.keyVersion = keyVersion; self.ciphertext = ciphertext; self.oauthClient = oauthClient
    }
}

/// A redacted audit record: a type, a result and bounded metadata — never tokens, addresses,
/// subjects or titles.
public struct AuditEvent: Sendable {
    public let userID: UUID
    public let type: String
    public let connector: String?
    public let result: String
    public let metadata: [String: String]

    public init(userID: UUID, type: String, connector: String? = "google", result: String, metadata: [String: String] = [:]) {
        self.userID = userID; self.type = type; self.connector = connector; self.result = result; self.metadata = metadata
    }
}

/// What a worker may know about connectors for key rotation: ids and key versions, never tokens.
public protocol ConnectorListing: Sendable {
    /// Connectors of `keyID` wrapped under a version other than `activeVersion`, by id, after `after`.
    func needingRewrap(keyID: String, activeVersion: Int, after: UUID?, limit: Int) async throws -> [UUID]
    /// How many connectors that are not revoked, and grants parked for revocation, are wrapped under
    /// each key id and version: a version with none can be retired (revoked connectors are never
    /// decrypted again).
    func keyVersionUsage() async throws -> [KeyVersionUsage]
}

public struct KeyVersionUsage: Sendable, Equatable {
    public let keyID: String
    public let version: Int
    public let connectors: Int
    public init(keyID: String, version: Int, connectors: Int) {
        self.keyID = keyID
        self.version = version
        self.connectors = connectors
    }
}

/// Connector storage as the token broker sees it.
public protocol ConnectorStore: ConnectorListing {
    func insert(_ connector: NewConnector) async throws
    func secret(_ id: UUID) async throws -> ConnectorSecret?
    /// The connector's status, without its secret; nil when there is no such connector.
    func status(_ id: UUID) async throws -> ConnectorStatus?
    func setStatus(_ id: UUID, _ status: ConnectorStatus) async throws
    /// Replaces the ciphertext after a rewrap, only if the connector is still at `fromVersion`.
    /// Returns false if it moved meanwhile.
    func rewrapped(_ id: UUID, fromVersion: Int, toVersion: Int, ciphertext: [UInt8]) async throws -> Bool
    /// Drops a connector parked for revocation, once Google confirmed it.
    func forgetParked(_ id: UUID) async throws
    func audit(_ event: AuditEvent) async throws
    /// Counts a routine success into the user's daily tally (see `AuditRecorder.tally`).
    func tally(_ event: AuditEvent) async throws
}

/// A short-lived Google access token, as workers get it from the broker.
public struct AccessToken: Sendable {
    public let token: Redacted<String>
    public let expiresAt: Date
    public init(token: Redacted<String>, expiresAt: Date) { self.token = token; self.expiresAt = expiresAt }
}

/// Where workers get access tokens (the broker, over its socket). Never a refresh token.
public protocol TokenSource: Sendable {
    /// A valid access token for the connector. `forceRefresh` skips every cache and mints a new one:
    /// clients ask for it once after Google answered 401 to the token they had.
    func accessToken(for connector: UUID, forceRefresh: Bool) async throws -> AccessToken
}

extension TokenSource {
    public func accessToken(for connector: UUID) async throws -> AccessToken {
        try await accessToken(for: connector, forceRefresh: false)
    }
}
