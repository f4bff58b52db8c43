import AlfredCore
import Crypto
import CryptoExtras
import Foundation

/// The three parts of a compact JWS (`header.payload.signature`), decoded but not yet trusted.
struct CompactJWS {
    let header: [String: Any]
    let claims: [String: Any]
    /// `header.payload` as sent: what the signature covers.
    let signingInput: [UInt8]
    let signature: [UInt8]

    init?(_ token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
              let header = Base64URL.decode(parts[0]).flatMap({ try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }),
              let claims = Base64URL.decode(parts[1]).flatMap({ try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }),
              let signature = Base64URL.decode(parts[2])
        else { return nil }
        self.header = header
        self.claims = claims
        signingInput = Array("\(parts[0]).\(parts[1])".utf8)
        self.signature = Array(signature)
    }

    func string(_ claim: String) -> String? { claims[claim] as? String }

    /// RS256 (RSASSA-PKCS1-v1_5 over SHA-256, RFC 7518 §3.3; "insecure" is swift-crypto's name for
    /// that padding, which RS256 requires) by `key`.
    func isSignedRS256(by key: _RSA.Signing.PublicKey) -> Bool {
        key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: signingInput),
                             padding: .insecurePKCS1v1_5)
    }

    /// Why a token is not an RS256 JWS signed by `key`, checked in this order.
    enum SignatureFailure: Error { case malformed, unsupportedAlgorithm, unknownKey, badSignature }

    /// The token parsed, once it is well formed, pinned to RS256 (no `none`, no HS/RS confusion) and
    /// signed by `key` (nil: the issuer does not publish its `kid`). Every verifier of a third
    /// party's token (Apple's, Google's) starts here and then checks its own claims.
    static func verifiedRS256(_ token: String, key: _RSA.Signing.PublicKey?) throws(SignatureFailure) -> CompactJWS {
        guard let jws = CompactJWS(token) else { throw .malformed }
        guard jws.header["alg"] as? String == "RS256" else { throw .unsupportedAlgorithm }
        guard let key else { throw .unknownKey }
        guard jws.isSignedRS256(by: key) else { throw .badSignature }
        return jws
    }

    enum LifetimeFailure: Error { case expired, issuedInFuture }

    /// `exp` not yet passed and `iat` not in the future, each within `skew` (both claims required).
    func checkLifetime(now: Date, skew: Duration) throws(LifetimeFailure) {
        guard let expires = date("exp"), now.timeIntervalSince(expires) < skew.seconds else { throw .expired }
        guard let issued = date("iat"), issued.timeIntervalSince(now) <= skew.seconds else { throw .issuedInFuture }
    }

    /// `aud`: one string or a list of them.
    var audiences: [String] { (claims["aud"] as? String).map { [$0] } ?? (claims["aud"] as? [String]) ?? [] }

    /// A NumericDate claim (seconds since the epoch, integer or fraction).
    func date(_ claim: String) -> Date? {
        switch claims[claim] {
        case let value as Int: Date(timeIntervalSince1970: Double(value))
        case let value as Double: Date(timeIntervalSince1970: value)
        case let value as NSNumber: Date(timeIntervalSince1970: value.doubleValue)
        default: nil
        }
    }

    /// A boolean claim (Apple has sent some as the strings "true"/"false").
    func bool(_ claim: String) -> Bool? {
        switch claims[claim] {
        case let value as Bool: value
        case let value as String: value == "true" ? true : value == "false" ? false : nil
        default: nil
        }
    }
}

extension Base64URL {
    /// `bytes` random bytes (the system's CSPRNG), base64url: session refresh tokens, connect states,
    /// PKCE verifiers (whose alphabet this is).
    package static func random(bytes: Int) -> String {
        encode(SymmetricKey(size: SymmetricKeySize(bitCount: bytes * 8)).withUnsafeBytes { Array($0) })
    }
}
