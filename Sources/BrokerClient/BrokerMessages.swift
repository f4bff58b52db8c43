import AlfredCore
import Foundation

// The broker's wire format, version 1. Every frame is a 4-byte big-endian length followed by that
// many bytes of one UTF-8 JSON object (see `FrameDecoder`).
//
// Requests:
//   {"v":1,"id":"<client-chosen>","op":"access_token","connector_id":"…"}
//   {"v":1,"id":"…","op":"exchange_code","user_id":"…","code":"…","code_verifier":"…","redirect_uri":"…"
//    [,"client":"web"|"ios"][,"required_scopes":["…"]]}
//   {"v":1,"id":"…","op":"revoke","connector_id":"…"}
//   {"v":1,"id":"…","op":"rewrap","connector_id":"…"}
//   {"v":1,"id":"…","op":"ping"}
//   {"v":1,"id":"…","op":"apns_token"[,"rejected":"<the JWT APNs refused as expired>"]}
// Responses carry the request's id; on one connection they may arrive in any order:
//   {"v":1,"id":"…","ok":true,"access_token":"…","expires_at":<unix seconds>}
//   {"v":1,"id":"…","ok":true,"connector_id":"…","scopes":["…"]}
//   {"v":1,"id":"…","ok":true,"key_version":<int>}                              (rewrap)
//   {"v":1,"id":"…","ok":true,"provider_token":"<JWT>","issued_at":<unix seconds>} (apns_token)
//   {"v":1,"id":"…","ok":true}                                                   (revoke, ping)
//   {"v":1,"id":"…"|null,"ok":false,"error":{"code":"…","message":"…","retryable":false}}
// `id` is null only when the broker could not read one from the request (malformed JSON,
// truncated or oversized frame, refused peer). Unknown fields are ignored in both directions.

/// The operations of protocol version 1, by their wire names.
public enum BrokerOperation: String, Sendable, CaseIterable {
    case accessToken = "access_token"
    case exchangeCode = "exchange_code"
    case revoke
    /// Key rotation: move the connector's data key to the active key version (no token is exposed).
    case rewrap
    /// The shared APNs provider JWT (minted here, in one place, and reused by every worker).
    case apnsToken = "apns_token"
    case ping
}

/// One request, without its envelope.
public enum BrokerRequest: Sendable, Hashable {
    /// `forceRefresh`: the caller's token was refused by Google (401); mint a new one.
    case accessToken(connectorID: String, forceRefresh: Bool = false)
    case exchangeCode(CodeExchange)
    case revoke(connectorID: String)
    case rewrap(connectorID: String)
    /// `rejected`: the token APNs refused with `ExpiredProviderToken`, if that is why the caller asks.
    case apnsToken(rejected: Redacted<String>?)
    case ping

    public var operation: BrokerOperation {
        switch self {
        case .accessToken: .accessToken
        case .exchangeCode: .exchangeCode
        case .revoke: .revoke
        case .rewrap: .rewrap
        case .apnsToken: .apnsToken
        case .ping: .ping
        }
    }
}

/// A Google access token as the broker hands it out: never the refresh token.
public struct BrokerAccessToken: Sendable, Hashable {
    public var token: Redacted<String>
    /// Whole seconds on the wire.
    public var expiresAt: Date

    public init(token: Redacted<String>, expiresAt: Date) {
        self.token = token
        self.expiresAt = expiresAt
    }
}

/// The payload of a successful response. Its shape follows from the op the caller sent:
/// `access_token` -> `.accessToken`, `exchange_code` -> `.connected`, `revoke` and `ping` -> `.empty`.
public enum BrokerReply: Sendable, Hashable {
    case accessToken(BrokerAccessToken)
    case connected(ConnectedConnector)
    /// The key version the connector's data key is wrapped under now.
    case rewrapped(keyVersion: Int)
    /// The APNs provider token and when it was issued.
    case providerToken(jwt: Redacted<String>, issuedAt: Date)
    case empty
}

/// Wire keys shared by requests and responses.
private enum WireKey: String, CodingKey {
    case v, id, op, ok, error
    case connectorID = "connector_id"
    case userID = "user_id"
    case code
    case codeVerifier = "code_verifier"
    case redirectURI = "redirect_uri"
    case accessToken = "access_token"
    case expiresAt = "expires_at"
    case scopes
    case keyVersion = "key_version"
    case forceRefresh = "force_refresh"
    case rejected
    case providerToken = "provider_token"
    case issuedAt = "issued_at"
    case client
    case requiredScopes = "required_scopes"
}

/// A request with its envelope: `{"v":1,"id":…,"op":…, …}`.
///
/// Decoding throws `BrokerError` (`bad_request`, `unsupported_version`, `unknown_op`) so the server
/// can answer with the right code; JSON that is not an object surfaces as a `DecodingError`.
public struct BrokerRequestFrame: Sendable, Hashable, Codable {
    public static let version = 1

    public var id: String
    public var request: BrokerRequest

    public init(id: String, request: BrokerRequest) {
        self.id = id
        self.request = request
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        let version: Int
        do {
            version = try container.decode(Int.self, forKey: .v)
        } catch {
            throw BrokerError.badRequest("field \"v\" must be an integer")
        }
        guard version == Self.version else { throw BrokerError.unsupportedVersion(version) }
        id = try container.requiredString(.id)
        guard let op = BrokerOperation(rawValue: try container.requiredString(.op)) else {
            throw BrokerError.unknownOp()
        }
        switch op {
        case .accessToken:
            let force: Bool
            do { force = try container.decodeIfPresent(Bool.self, forKey: .forceRefresh) ?? false } catch {
                throw BrokerError.badRequest("field \"force_refresh\" must be a boolean")
            }
            request = .accessToken(connectorID: try container.requiredString(.connectorID, nonEmpty: true),
                                   forceRefresh: force)
        case .revoke:
            request = .revoke(connectorID: try container.requiredString(.connectorID, nonEmpty: true))
        case .rewrap:
            request = .rewrap(connectorID: try container.requiredString(.connectorID, nonEmpty: true))
        case .exchangeCode:
            request = .exchangeCode(
                CodeExchange(
                    userID: try container.requiredString(.userID, nonEmpty: true),
                    code: Redacted(try container.requiredString(.code, nonEmpty: true)),
                    codeVerifier: Redacted(try container.requiredString(.codeVerifier, nonEmpty: true)),
                    redirectURI: try container.requiredString(.redirectURI, nonEmpty: true),
                    client: try container.clientKind(),
                    requiredScopes: try container.stringList(.requiredScopes)))
        case .apnsToken:
            let rejected: String?
            do { rejected = try container.decodeIfPresent(String.self, forKey: .rejected) } catch {
                throw BrokerError.badRequest("field \"rejected\" must be a string")
            }
            request = .apnsToken(rejected: rejected.map(Redacted.init))
        case .ping:
            request = .ping
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        try container.encode(Self.version, forKey: .v)
        try container.encode(id, forKey: .id)
        try container.encode(request.operation.rawValue, forKey: .op)
        switch request {
        case .accessToken(let connectorID, let force):
            try container.encode(connectorID, forKey: .connectorID)
            if force { try container.encode(true, forKey: .forceRefresh) }
        case .revoke(let connectorID), .rewrap(let connectorID):
            try container.encode(connectorID, forKey: .connectorID)
        case .exchangeCode(let exchange):
            try container.encode(exchange.userID, forKey: .userID)
            try container.encode(exchange.code.unsafeValue, forKey: .code)
            try container.encode(exchange.codeVerifier.unsafeValue, forKey: .codeVerifier)
            try container.encode(exchange.redirectURI, forKey: .redirectURI)
            try container.encode(exchange.client.rawValue, forKey: .client)
            if !exchange.requiredScopes.isEmpty { try container.encode(exchange.requiredScopes, forKey: .requiredScopes) }
        case .apnsToken(let rejected):
            try container.encodeIfPresent(rejected?.unsafeValue, forKey: .rejected)
        case .ping:
            break
        }
    }
}

/// A response with its envelope: `{"v":1,"id":…,"ok":…, …}`.
public struct BrokerResponseFrame: Sendable, Hashable, Codable {
    /// The request's id; nil when the broker could not read one.
    public var id: String?
    public var result: Result<BrokerReply, BrokerError>

    public init(id: String?, result: Result<BrokerReply, BrokerError>) {
        self.id = id
        self.result = result
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        let version = try container.decode(Int.self, forKey: .v)
        guard version == BrokerRequestFrame.version else {
            throw DecodingError.dataCorruptedError(
                forKey: .v, in: container, debugDescription: "unsupported response version \(version)")
        }
        id = try container.decodeIfPresent(String.self, forKey: .id)
        guard try container.decode(Bool.self, forKey: .ok) else {
            result = .failure(try container.decode(BrokerError.self, forKey: .error))
            return
        }
        if let token = try container.decodeIfPresent(String.self, forKey: .accessToken) {
            let expiresAt = try container.decode(Int64.self, forKey: .expiresAt)
            result = .success(
                .accessToken(
                    BrokerAccessToken(token: Redacted(token), expiresAt: Date(timeIntervalSince1970: Double(expiresAt)))))
        } else if let jwt = try container.decodeIfPresent(String.self, forKey: .providerToken) {
            let issuedAt = try container.decode(Int64.self, forKey: .issuedAt)
            result = .success(.providerToken(jwt: Redacted(jwt), issuedAt: Date(timeIntervalSince1970: Double(issuedAt))))
        } else if let keyVersion = try container.decodeIfPresent(Int.self, forKey: .keyVersion) {
            result = .success(.rewrapped(keyVersion: keyVersion))
        } else if let connectorID = try container.decodeIfPresent(String.self, forKey: .connectorID) {
            let scopes = try container.decode([String].self, forKey: .scopes)
            result = .success(.connected(ConnectedConnector(connectorID: connectorID, scopes: scopes)))
        } else {
            result = .success(.empty)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: WireKey.self)
        try container.encode(BrokerRequestFrame.version, forKey: .v)
        // Always present, null when unknown, so every response has the same envelope.
        try container.encode(id, forKey: .id)
        switch result {
        case .failure(let error):
            try container.encode(false, forKey: .ok)
            try container.encode(error, forKey: .error)
        case .success(let reply):
            try container.encode(true, forKey: .ok)
            switch reply {
            case .accessToken(let token):
                try container.encode(token.token.unsafeValue, forKey: .accessToken)
                try container.encode(Int64(token.expiresAt.timeIntervalSince1970.rounded(.down)), forKey: .expiresAt)
            case .connected(let connector):
                try container.encode(connector.connectorID, forKey: .connectorID)
                try container.encode(connector.scopes, forKey: .scopes)
            case .rewrapped(let keyVersion):
                try container.encode(keyVersion, forKey: .keyVersion)
            case .providerToken(let jwt, let issuedAt):
                try container.encode(jwt.unsafeValue, forKey: .providerToken)
                try container.encode(Int64(issuedAt.timeIntervalSince1970.rounded(.down)), forKey: .issuedAt)
            case .empty:
                break
            }
        }
    }
}

extension KeyedDecodingContainer where Key == WireKey {
    fileprivate func requiredString(_ key: WireKey, nonEmpty: Bool = false) throws -> String {
        let value: String
        do {
            value = try decode(String.self, forKey: key)
        } catch {
            throw BrokerError.badRequest("field \"\(key.stringValue)\" must be a string")
        }
        if nonEmpty, value.isEmpty { throw BrokerError.badRequest("field \"\(key.stringValue)\" must not be empty") }
        return value
    }

    /// `client`, web when absent (the only kind before iOS clients were supported).
    fileprivate func clientKind() throws -> OAuthClientKind {
        let raw: String?
        do { raw = try decodeIfPresent(String.self, forKey: .client) } catch {
            throw BrokerError.badRequest("field \"client\" must be a string")
        }
        guard let raw else { return .web }
        guard let kind = OAuthClientKind(rawValue: raw) else {
            throw BrokerError.badRequest("field \"client\" must be one of \(OAuthClientKind.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return kind
    }

    fileprivate func stringList(_ key: WireKey) throws -> [String] {
        do { return try decodeIfPresent([String].self, forKey: key) ?? [] } catch {
            throw BrokerError.badRequest("field \"\(key.stringValue)\" must be an array of strings")
        }
    }
}

/// Reads only the id of a request that failed to decode, so its error can still be matched.
package struct RequestIDProbe: Decodable {
    package let id: String?

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: WireKey.self)
        id = try? container.decode(String.self, forKey: .id)
    }
}
