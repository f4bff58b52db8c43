import Foundation

/// Who a bearer token the stand-in issued belongs to and what it may do. For the Calendar and Gmail
/// routes: resolve the `Authorization` header with `GoogleStandIn.validateBearer(_:)`, answer 401
/// on a rejection and 403 when the needed scope is missing.
public struct AccessTokenInfo: Sendable, Equatable {
    public var subject: String
    public var email: String
    public var clientID: String
    public var scopes: [String]
    public var expiresAt: Date

    /// True when any of `scopes` was granted (e.g. `calendar.readonly` or `calendar.events.readonly`).
    public func grants(anyOf scopes: [String]) -> Bool {
        scopes.contains { self.scopes.contains($0) }
    }
}

/// Why a bearer token does not authenticate. Each case is a 401 from a Google data API.
public enum BearerTokenRejection: Error, Sendable, Equatable, CustomStringConvertible {
    /// No `Authorization` header.
    case missing
    /// Not `Bearer <token>`.
    case malformed
    /// Never issued by this stand-in (or issued before a reset).
    case unknown
    case expired
    /// Its grant was revoked (via `/revoke`, the control plane or `revokeRefreshTokens`).
    case revoked

    public var description: String {
        switch self {
        case .missing: "no Authorization header"
        case .malformed: "Authorization header is not 'Bearer <token>'"
        case .unknown: "access token was not issued by this stand-in"
        case .expired: "access token expired"
        case .revoked: "access token's grant was revoked"
        }
    }
}
