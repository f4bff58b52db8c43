import Crypto
import Foundation

extension AppleStandIn {
    static let wrongIssuer = "https://appleid.example.com"
    static let wrongAudience = "com.example.another-app"
    static let unknownKeyID = "stand-in-unpublished-kid"

    /// An identity token as Apple hands it to the app: a compact JWS, RS256 with the signing key
    /// (`signingKeyID`), with Apple's claims (external-apis §5): `iss`, `aud`, `exp`, `iat`, `sub`,
    /// `nonce`, `nonce_supported`, `email`, `email_verified`, `is_private_email`, `auth_time`,
    /// `real_user_status`. `request.overrides` turn it into a negative case.
    /// Throws `MintError` for a contradictory request.
    public func identityToken(_ request: IdentityTokenRequest = IdentityTokenRequest()) throws -> String {
        try mint(request).identityToken
    }

    /// The token and its `kid`, `sub` and `exp`, as `POST /_fake/identity-token` answers.
    public func mint(_ request: IdentityTokenRequest) throws -> MintedIdentityToken {
        let overrides = Set(request.overrides)
        let claims = try claims(for: request, overrides: overrides)
        let key = keys.withLock { $0[0] }
        let kid = overrides.contains(.unknownKeyID) ? Self.unknownKeyID : key.id
        let algorithm = overrides.contains(.algorithmNone) ? "none" : overrides.contains(.hs256) ? "HS256" : "RS256"

        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let header = try encoder.encode(["alg": algorithm, "kid": kid])
        let signingInput = header.base64URLEncoded + "." + (try encoder.encode(claims)).base64URLEncoded
        var signature: Data
        switch algorithm {
        case "none": signature = Data()
        case "HS256":
            let secret = SymmetricKey(data: Data(key.publicKeyPEM.utf8))
            signature = Data(HMAC<SHA256>.authenticationCode(for: Data(signingInput.utf8), using: secret))
        default: signature = try key.sign(signingInput)
        }
        if overrides.contains(.badSignature), !signature.isEmpty {
            signature[signature.startIndex + signature.count / 2] ^= 0x01
        }
        var subject: String?
        if case .string(let value) = claims["sub"] { subject = value }
        var expiresAt: Int?
        if case .int(let value) = claims["exp"] { expiresAt = value }
        return MintedIdentityToken(identityToken: signingInput + "." + signature.base64URLEncoded, kid: kid,
                                   subject: subject, expiresAt: expiresAt)
    }

    private func claims(for request: IdentityTokenRequest, overrides: Set<Override>) throws -> [String: ClaimValue] {
        if request.nonce != nil && request.hashedNonce != nil {
            throw MintError(message: "send nonce (raw) or hashedNonce, not both")
        }
        let lifetime = request.expiresIn ?? configuration.tokenLifetimeSeconds
        guard lifetime > 0 else {
            throw MintError(message: "expiresIn must be > 0 seconds; for an expired token use the override 'expired'")
        }
        guard (0...2).contains(request.realUserStatus) else {
            throw MintError(message: "realUserStatus is 0 (unsupported), 1 (unknown) or 2 (likely real)")
        }
        var issuedAt = Int((request.issuedAt ?? clock.now()).timeIntervalSince1970)
        if overrides.contains(.expired) {
            // Expired ten minutes ago: past any verifier's clock skew allowance.
            issuedAt = Int(clock.now().timeIntervalSince1970) - 600 - lifetime
        }
        let email = request.email ?? configuration.email
        var claims: [String: ClaimValue] = [
            "iss": .string(overrides.contains(.wrongIssuer) ? Self.wrongIssuer : configuration.issuer),
            "aud": .string(overrides.contains(.wrongAudience) ? Self.wrongAudience : request.audience ?? configuration.audience),
            "iat": .int(issuedAt),
            "exp": .int(issuedAt + lifetime),
            "auth_time": .int(issuedAt),
            "sub": .string(request.subject ?? configuration.subject),
            "nonce_supported": .bool(request.nonceSupported),
            "email": .string(email),
            "email_verified": .bool(request.emailVerified),
            "is_private_email": .bool(request.isPrivateEmail ?? email.lowercased().hasSuffix("@privaterelay.appleid.com")),
            "real_user_status": .int(request.realUserStatus),
        ]
        if let raw = request.nonce {
            claims["nonce"] = .string(SHA256.hash(data: Data(raw.utf8)).map { String(format: "%02x", $0) }.joined())
        } else if let hashed = request.hashedNonce {
            claims["nonce"] = .string(hashed)
        }
        for (name, value) in request.claims {
            claims[name] = value == .null ? nil : value
        }
        return claims
    }
}
