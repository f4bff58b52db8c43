import Crypto
import CryptoExtras
import Foundation

/// An RSA-2048 signing key of a stand-in (the fake Apple's identity tokens, the fake Google's
/// Pub/Sub push tokens), with its public half as a JWK (`{"kty": "RSA", "kid", "use": "sig",
/// "alg": "RS256", "n", "e"}`, as Apple's `/auth/keys` and Google's `/oauth2/v3/certs` list them).
struct RSASigningKey: Sendable {
    struct JWK: Codable, Sendable, Equatable {
        var kty = "RSA"
        var kid: String
        var use = "sig"
        var alg = "RS256"
        /// Modulus and exponent, big-endian, base64url without padding (RFC 7518 §6.3.1).
        var n: String
        var e: String
    }

    let id: String
    let privateKey: _RSA.Signing.PrivateKey
    let jwk: JWK

    /// A fresh key with a random `kid` (short base64url). BoringSSL failing to
    /// make an RSA key means the process is out of memory; a stand-in cannot go on without keys.
    /// Costs tens of milliseconds of CPU; the stand-in makes one per rotation.
    static func generate() -> RSASigningKey {
        do {
            let privateKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            let primitives = try privateKey.publicKey.getKeyPrimitives()
            let id = Data((0..<6).map { _ in UInt8.random(in: .min ... .max) }).base64URLEncoded
            return RSASigningKey(id: id, privateKey: privateKey,
                                   jwk: JWK(kid: id, n: primitives.modulus.base64URLEncoded,
                                            e: primitives.publicExponent.base64URLEncoded))
        } catch {
            fatalError("stand-in: BoringSSL could not generate an RSA-2048 key: \(error)")
        }
    }

    /// RS256: RSASSA-PKCS1-v1_5 over SHA-256 (RFC 7518 §3.3). "insecure" is swift-crypto's name for
    /// PKCS#1 v1.5 padding, which JWS RS256 requires.
    func sign(_ signingInput: String) throws -> Data {
        try privateKey.signature(for: SHA256.hash(data: Data(signingInput.utf8)), padding: .insecurePKCS1v1_5)
            .rawRepresentation
    }

    /// The public key as PEM: the HMAC secret of an HS256 forgery (the classic algorithm-confusion
    /// attack signs with the public key a verifier might treat as an HMAC secret).
    var publicKeyPEM: String { privateKey.publicKey.pemRepresentation }
}
