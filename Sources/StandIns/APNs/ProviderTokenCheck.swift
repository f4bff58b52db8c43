import Crypto
import Foundation
import Synchronization

/// Verifies an APNs provider token (external-apis §4.3) the way Apple does, independently of the
/// client that minted it: `{"alg":"ES256","kid":…}.{"iss":team,"iat":seconds}` signed with the
/// key's P-256 private half, signature raw `r||s` in base64url.
enum ProviderTokenCheck {
    /// Tokens older than this are `ExpiredProviderToken`.
    static let lifetime: TimeInterval = 3600

    private struct Header: Decodable {
        var alg: String
        var kid: String
    }

    private struct Claims: Decodable {
        var iss: String
        /// A JSON number: a string or a boolean fails to decode.
        var iat: Double
    }

    /// Returns the token itself when valid and fresh; throws the 403 Apple would answer. A token
    /// whose signature was checked before is not checked again (providers reuse one token for every
    /// push for up to an hour); its age still is.
    static func verify(authorization: String?, keys: [String: P256.Signing.PublicKey], teamID: String,
                       now: Date, verified: VerifiedTokens? = nil) throws(APNsRejection) -> String {
        let token = try bearerToken(authorization)
        if let iat = verified?.issuedAt(of: token) {
            guard now.timeIntervalSince1970 - iat <= lifetime else { throw .forbidden("ExpiredProviderToken") }
            return token
        }
        let invalid = APNsRejection.forbidden("InvalidProviderToken")
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3,
              let headerData = Data(base64URL: parts[0]), let claimsData = Data(base64URL: parts[1]),
              let signatureData = Data(base64URL: parts[2]),
              let header = try? JSONDecoder().decode(Header.self, from: headerData),
              let claims = try? JSONDecoder().decode(Claims.self, from: claimsData)
        else { throw invalid }
        guard header.alg == "ES256", let key = keys[header.kid], claims.iss == teamID,
              let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData),
              key.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8))
        else { throw invalid }
        verified?.remember(token, issuedAt: claims.iat)
        guard now.timeIntervalSince1970 - claims.iat <= lifetime else { throw .forbidden("ExpiredProviderToken") }
        return token
    }

    /// The JWT of `authorization: bearer <JWT>`; absent or empty is `MissingProviderToken`.
    static func bearerToken(_ authorization: String?) throws(APNsRejection) -> String {
        let value = trimmed(Substring(authorization ?? ""))
        guard !value.isEmpty else { throw .forbidden("MissingProviderToken") }
        let parts = value.split(separator: " ", maxSplits: 1)
        // Proxies and clients trim `bearer ` to `bearer`: still no token.
        if parts.count == 1 && parts[0].lowercased() == "bearer" { throw .forbidden("MissingProviderToken") }
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw .forbidden("InvalidProviderToken") }
        let token = trimmed(parts[1])
        guard !token.isEmpty else { throw .forbidden("MissingProviderToken") }
        return String(token)
    }

    /// Without HTTP's optional white space (spaces and tabs) at either end. Not Foundation's
    /// `trimmingCharacters`: through NSString, it was most of this stand-in's CPU per push in a burst,
    /// on the cores the worker under test needs.
    private static func trimmed(_ text: Substring) -> Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !blank($0) }), let last = text.lastIndex(where: { !blank($0) }) else { return "" }
        return text[first...last]
    }
}

/// Provider tokens whose signature checked out, with their `iat` (a few at a time: tokens change at
/// most every 20 minutes per team).
final class VerifiedTokens: Sendable {
    private let tokens = Mutex<[String: Double]>([:])

    func issuedAt(of token: String) -> Double? { tokens.withLock { $0[token] } }

    func remember(_ token: String, issuedAt: Double) {
        tokens.withLock { tokens in
            if tokens.count >= 64 { tokens.removeAll() }
            tokens[token] = issuedAt
        }
    }
}

extension Data {
    /// Decodes base64url with or without padding (RFC 4648 §5); nil if malformed.
    init?(base64URL text: some StringProtocol) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}
