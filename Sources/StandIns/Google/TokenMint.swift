import Foundation

/// Random, URL-safe tokens shaped like Google's, so logs and length limits behave as in production.
/// The system generator on purpose (not an injected one): tokens must be unguessable and unique,
/// and no test needs to predict them.
enum TokenMint {
    /// Google access tokens start `ya29.` and run to a few hundred characters.
    static func accessToken() -> String { "ya29.a0" + random(bytes: 120) }
    /// Google refresh tokens start `1//`.
    static func refreshToken() -> String { "1//0" + random(bytes: 72) }
    /// Google authorization codes start `4/0`.
    static func authorizationCode() -> String { "4/0A" + random(bytes: 54) }

    private static func random(bytes count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }).base64URLEncoded
    }
}
