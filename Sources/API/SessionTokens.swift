import AlfredCore
import Crypto
import Foundation

/// The API's own tokens. Access tokens are short-lived JWTs (HS256 with the session key) naming the
/// user and the session; every request also checks that the session is still open, so logout and
/// delete-all end them at once. Refresh tokens are 32 random bytes, handed out once and stored only
/// as their SHA-256.
public struct SessionTokens: Sendable {
    static let issuer = "alfred-api"
    /// How long a refresh token unused keeps working (each refresh moves it).
    public static let defaultRefreshLifetime: Duration = .seconds(30 * 86_400)
    let key: SymmetricKey
    let accessLifetime: Duration
    let refreshLifetime: Duration

    /// `keyBytes`: at least 32 random bytes (`alfred api --session-key-file`).
    init(keyBytes: [UInt8], accessLifetime: Duration = .seconds(900), refreshLifetime: Duration = Self.defaultRefreshLifetime) throws {
        guard keyBytes.count >= 32 else { throw SessionKeyError("the session key must be at least 32 bytes, found \(keyBytes.count)") }
        key = SymmetricKey(data: keyBytes)
        self.accessLifetime = accessLifetime
        self.refreshLifetime = refreshLifetime
    }

    struct Claims: Equatable {
        let userID: UUID
        let sessionID: UUID
    }

    func accessToken(for claims: Claims, now: Date) -> String {
        let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let issued = Int(now.timeIntervalSince1970)
        let body = #"{"iss":"\#(Self.issuer)","sub":"\#(claims.userID.uuidString.lowercased())","sid":"\#(claims.sessionID.uuidString.lowercased())","iat":\#(issued),"exp":\#(issued + Int(accessLifetime.seconds))}"#
        let input = "\(header).\(Base64URL.encode(Array(body.utf8)))"
        let mac = HMAC<SHA256>.authenticationCode(for: Data(input.utf8), using: key)
        return "\(input).\(Base64URL.encode(mac))"
    }

    /// The claims of a valid, unexpired access token of ours; nil for anything else.
    func verify(_ token: String, now: Date) -> Claims? {
        guard let jws = CompactJWS(token), jws.header["alg"] as? String == "HS256",
              HMAC<SHA256>.isValidAuthenticationCode(jws.signature, authenticating: jws.signingInput, using: key),
              jws.string("iss") == Self.issuer,
              let expires = jws.date("exp"), now < expires,
              let user = jws.string("sub").flatMap(UUID.init(uuidString:)),
              let session = jws.string("sid").flatMap(UUID.init(uuidString:))
        else { return nil }
        return Claims(userID: user, sessionID: session)
    }

    /// A new refresh token and the hash that is stored.
    static func newRefreshToken() -> (token: String, hash: [UInt8]) {
        let token = "rt_" + Base64URL.random(bytes: 32)
        return (token, hash(token))
    }

    static func hash(_ refreshToken: String) -> [UInt8] { Array(SHA256.hash(data: Data(refreshToken.utf8))) }
}

struct SessionKeyError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
