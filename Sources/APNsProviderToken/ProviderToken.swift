import AlfredCore
import Crypto
import Foundation
import Synchronization

/// The APNs provider authentication token: an ES256 JWT with `kid`, `iss` (team id) and `iat`
/// (external-apis §4.3). Signing is the only thing the `.p8` key is used for.
public struct ProviderTokenSigner: Sendable {
    public let keyID: String
    public let teamID: String
    private let key: P256.Signing.PrivateKey

    public init(keyID: String, teamID: String, key: P256.Signing.PrivateKey) {
        self.keyID = keyID
        self.teamID = teamID
        self.key = key
    }

    /// Reads Apple's `.p8` file (a PKCS#8 PEM P-256 private key).
    public init(keyID: String, teamID: String, p8Path: String) throws {
        guard let data = FileManager.default.contents(atPath: p8Path) else {
            throw ProviderTokenError("cannot read the APNs signing key file \(p8Path)")
        }
        do {
            try self.init(keyID: keyID, teamID: teamID,
                          key: P256.Signing.PrivateKey(pemRepresentation: String(decoding: data, as: UTF8.self)))
        } catch {
            throw ProviderTokenError("the APNs signing key file \(p8Path) is not a PEM P-256 private key (Apple's .p8)")
        }
    }

    /// `header.claims.signature`, each base64url without padding; the signature is raw `r||s`.
    public func sign(issuedAt: Date) throws -> String {
        let header = Self.base64URL(Array(#"{"alg":"ES256","kid":"\#(keyID)"}"#.utf8))
        let claims = Self.base64URL(Array(#"{"iss":"\#(teamID)","iat":\#(Int(issuedAt.timeIntervalSince1970))}"#.utf8))
        let input = "\(header).\(claims)"
        let signature = try key.signature(for: Data(input.utf8))
        return "\(input).\(Self.base64URL(Array(signature.rawRepresentation)))"
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

public struct ProviderTokenError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// Mints provider tokens in one place and reuses them, as Apple requires: a new token at most every
/// `minimumInterval` (20 min; more often earns 429 `TooManyProviderTokenUpdates`), and always before
/// `renewAfter` (APNs refuses tokens older than an hour). A rejection as expired renews only when the
/// rejected token is the current one and is at least `minimumInterval` old; a younger one being
/// refused means the clocks disagree, and minting again would only add a token update.
public final class ProviderTokenMinter: ProviderTokenSource {
    public enum Trigger: String, Sendable { case initial, age, expiredProviderToken = "expired_provider_token" }

    public let minimumInterval: Duration
    public let renewAfter: Duration
    private let signer: ProviderTokenSigner
    private let now: @Sendable () -> Date
    private let onMint: @Sendable (Trigger) -> Void
    private let current = Mutex<ProviderToken?>(nil)

    public init(signer: ProviderTokenSigner, renewAfter: Duration = .seconds(50 * 60), minimumInterval: Duration = .seconds(20 * 60),
                now: @escaping @Sendable () -> Date = Date.init, onMint: @escaping @Sendable (Trigger) -> Void = { _ in }) {
        precondition(renewAfter >= minimumInterval && renewAfter < .seconds(3600), "renew between 20 and 60 minutes")
        self.signer = signer
        self.renewAfter = renewAfter
        self.minimumInterval = minimumInterval
        self.now = now
        self.onMint = onMint
    }

    public func providerToken(rejected: String?) async throws -> ProviderToken {
        let at = now()
        let (token, trigger): (ProviderToken, Trigger?) = try current.withLock { current in
            let trigger: Trigger? = if let token = current {
                if age(token, at) >= renewAfter.seconds { .age }
                else if token.jwt == rejected, age(token, at) >= minimumInterval.seconds { .expiredProviderToken }
                else { nil }
            } else { .initial }
            if let trigger {
                current = ProviderToken(jwt: try signer.sign(issuedAt: at), issuedAt: at)
                return (current!, trigger)
            }
            return (current!, nil)
        }
        if let trigger { onMint(trigger) }
        return token
    }

    private func age(_ token: ProviderToken, _ at: Date) -> Double { at.timeIntervalSince(token.issuedAt) }
}

/// A worker's copy of the shared token: asks `upstream` (the broker) when it has none, when its copy
/// is `refreshAfter` old (the upstream has renewed by then), or when APNs refused its copy.
public final class CachedProviderTokens: ProviderTokenSource {
    private let upstream: any ProviderTokenSource
    private let refreshAfter: Duration
    private let now: @Sendable () -> Date
    private let cached = Mutex<ProviderToken?>(nil)

    public init(upstream: any ProviderTokenSource, refreshAfter: Duration = .seconds(50 * 60),
                now: @escaping @Sendable () -> Date = Date.init) {
        self.upstream = upstream
        self.refreshAfter = refreshAfter
        self.now = now
    }

    public func providerToken(rejected: String?) async throws -> ProviderToken {
        let at = now()
        if let token = cached.withLock({ $0 }), token.jwt != rejected,
           at.timeIntervalSince(token.issuedAt) < refreshAfter.seconds {
            return token
        }
        let fresh = try await upstream.providerToken(rejected: rejected)
        cached.withLock { $0 = fresh }
        return fresh
    }
}
