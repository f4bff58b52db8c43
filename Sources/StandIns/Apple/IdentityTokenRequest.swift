import Foundation

extension AppleStandIn {
    /// What to put in a minted identity token. Every field is optional: the defaults make a token
    /// that verifies for `Configuration.audience`, for the configured test user, valid for
    /// `Configuration.tokenLifetimeSeconds` from the stand-in's clock.
    ///
    /// JSON (for `POST /_fake/identity-token`) uses these property names; `issuedAt` is seconds
    /// since 1970; `overrides` holds `Override` raw values; unknown keys are refused.
    public struct IdentityTokenRequest: Sendable, Codable, Equatable {
        /// Apple's account id (`sub`); default `Configuration.subject`.
        public var subject: String?
        /// The bundle id (`aud`); default `Configuration.audience`.
        public var audience: String?
        /// The raw nonce the app made: the token carries its SHA-256 hex, as the app sends it to Apple.
        public var nonce: String?
        /// A nonce already hashed by the caller, put in the `nonce` claim as is. Not with `nonce`.
        public var hashedNonce: String?
        /// `nonce_supported`: whether the device could carry a nonce (then a token without one is refused).
        public var nonceSupported: Bool
        /// `email`; default `Configuration.email`.
        public var email: String?
        public var emailVerified: Bool
        /// `is_private_email`; default: whether `email` is a private relay address.
        public var isPrivateEmail: Bool?
        /// `real_user_status`: 0 unsupported, 1 unknown, 2 likely real.
        public var realUserStatus: Int
        /// `iat` (and `auth_time`); default the stand-in clock's now.
        public var issuedAt: Date?
        /// `exp` - `iat` in seconds (> 0); default `Configuration.tokenLifetimeSeconds`.
        public var expiresIn: Int?
        /// Negative cases: each makes the token fail exactly one verifier check.
        public var overrides: [Override]
        /// Claims set last, over everything above; `.null` removes a claim (e.g. `sub`).
        public var claims: [String: ClaimValue]

        public init(subject: String? = nil, audience: String? = nil, nonce: String? = nil, hashedNonce: String? = nil,
                    nonceSupported: Bool = true, email: String? = nil, emailVerified: Bool = true,
                    isPrivateEmail: Bool? = nil, realUserStatus: Int = 2, issuedAt: Date? = nil, expiresIn: Int? = nil,
                    overrides: [Override] = [], claims: [String: ClaimValue] = [:]) {
            self.subject = subject
            self.audience = audience
            self.nonce = nonce
            self.hashedNonce = hashedNonce
            self.nonceSupported = nonceSupported
            self.email = email
            self.emailVerified = emailVerified
            self.isPrivateEmail = isPrivateEmail
            self.realUserStatus = realUserStatus
            self.issuedAt = issuedAt
            self.expiresIn = expiresIn
            self.overrides = overrides
            self.claims = claims
        }

        enum CodingKeys: String, CodingKey, CaseIterable {
            case subject, audience, nonce, hashedNonce, nonceSupported, email, emailVerified, isPrivateEmail,
                 realUserStatus, issuedAt, expiresIn, overrides, claims
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let defaults = IdentityTokenRequest()
            subject = try container.decodeIfPresent(String.self, forKey: .subject)
            audience = try container.decodeIfPresent(String.self, forKey: .audience)
            nonce = try container.decodeIfPresent(String.self, forKey: .nonce)
            hashedNonce = try container.decodeIfPresent(String.self, forKey: .hashedNonce)
            nonceSupported = try container.decodeIfPresent(Bool.self, forKey: .nonceSupported) ?? defaults.nonceSupported
            email = try container.decodeIfPresent(String.self, forKey: .email)
            emailVerified = try container.decodeIfPresent(Bool.self, forKey: .emailVerified) ?? defaults.emailVerified
            isPrivateEmail = try container.decodeIfPresent(Bool.self, forKey: .isPrivateEmail)
            realUserStatus = try container.decodeIfPresent(Int.self, forKey: .realUserStatus) ?? defaults.realUserStatus
            issuedAt = try container.decodeIfPresent(Date.self, forKey: .issuedAt)
            expiresIn = try container.decodeIfPresent(Int.self, forKey: .expiresIn)
            overrides = try container.decodeIfPresent([Override].self, forKey: .overrides) ?? []
            claims = try container.decodeIfPresent([String: ClaimValue].self, forKey: .claims) ?? [:]
        }
    }

    /// A negative case: the token is well formed but fails one check of external-apis §5.
    public enum Override: String, Sendable, Codable, Equatable, CaseIterable {
        /// `iss` is not `https://appleid.apple.com`.
        case wrongIssuer = "wrong_issuer"
        /// `aud` names another app.
        case wrongAudience = "wrong_audience"
        /// `exp` ten minutes in the past (well beyond any clock skew allowance).
        case expired
        /// The header names a `kid` Apple does not publish (signed with the real key all the same).
        case unknownKeyID = "unknown_kid"
        /// A valid RS256 signature with one byte flipped.
        case badSignature = "bad_signature"
        /// `alg: HS256`, HMAC-signed with the signing key's public PEM as the secret (algorithm confusion).
        case hs256 = "HS256"
        /// `alg: none` and an empty signature.
        case algorithmNone = "none"
    }

    /// A JSON claim value, for `IdentityTokenRequest.claims`.
    public enum ClaimValue: Sendable, Codable, Equatable {
        case string(String)
        case int(Int)
        case double(Double)
        case bool(Bool)
        case strings([String])
        /// Removes the claim.
        case null

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .null }
            else if let value = try? container.decode(Bool.self) { self = .bool(value) }
            else if let value = try? container.decode(Int.self) { self = .int(value) }
            else if let value = try? container.decode(Double.self) { self = .double(value) }
            else if let value = try? container.decode(String.self) { self = .string(value) }
            else if let value = try? container.decode([String].self) { self = .strings(value) }
            else {
                throw DecodingError.dataCorruptedError(in: container,
                    debugDescription: "a claim is a string, number, boolean, array of strings or null")
            }
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let value): try container.encode(value)
            case .int(let value): try container.encode(value)
            case .double(let value): try container.encode(value)
            case .bool(let value): try container.encode(value)
            case .strings(let value): try container.encode(value)
            case .null: try container.encodeNil()
            }
        }
    }

    /// A minted identity token and what a test may want to know about it (never logged).
    public struct MintedIdentityToken: Sendable, Codable, Equatable {
        /// The compact JWS, as the app receives it from `ASAuthorizationAppleIDCredential.identityToken`.
        public var identityToken: String
        /// The `kid` in the header.
        public var kid: String
        public var subject: String?
        /// `exp`, seconds since 1970.
        public var expiresAt: Int?
    }

    /// A mint request that cannot be honoured; the message says what to change.
    public struct MintError: Error, CustomStringConvertible, Sendable {
        public let message: String
        public var description: String { "apple stand-in: \(message)" }
    }
}
