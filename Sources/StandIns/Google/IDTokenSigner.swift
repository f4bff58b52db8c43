import Crypto
import Foundation

/// Signs the `id_token` returned when `openid`, `email` or `profile` was granted. Google signs with
/// RS256; the stand-in uses ES256 with a key made per instance, because swift-crypto's `Crypto`
/// module has no RSA. Clients that verify id_tokens must be given this key, not Google's JWKS.
struct IDTokenSigner: Sendable {
    let key = P256.Signing.PrivateKey()
    /// A `kid` so a verifier can tell this key from Google's.
    let keyID = "google-stand-in-" + String(UUID().uuidString.prefix(8)).lowercased()

    func sign(_ tokens: IssuedTokens) throws -> String {
        struct Header: Encodable { let alg = "ES256", typ = "JWT"; let kid: String }
        struct Claims: Encodable {
            let iss = "https://accounts.google.com"
            let azp: String, aud: String, sub: String
            let email: String?, email_verified: Bool?
            let iat: Int, exp: Int
            let nonce: String?
        }
        let issuedAt = Int(tokens.issuedAt.timeIntervalSince1970)
        let hasEmail = tokens.scopes.contains("email")
        let claims = Claims(azp: tokens.clientID, aud: tokens.clientID, sub: tokens.user.subject,
                            email: hasEmail ? tokens.user.email : nil, email_verified: hasEmail ? true : nil,
                            iat: issuedAt, exp: issuedAt + 3600, nonce: tokens.nonce)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let signingInput = try encoder.encode(Header(kid: keyID)).base64URLEncoded + "."
            + encoder.encode(claims).base64URLEncoded
        let signature = try key.signature(for: Data(signingInput.utf8))
        return signingInput + "." + signature.rawRepresentation.base64URLEncoded
    }

    var publicKey: P256.Signing.PublicKey { key.publicKey }
}
