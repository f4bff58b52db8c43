import AlfredCore
import Crypto
import CryptoExtras
import Foundation

/// Verifies Sign in with Apple identity tokens (docs/external-apis.md §5): an RS256 JWS signed by
/// one of Apple's published keys (`kid`), from `https://appleid.apple.com`, for this app's bundle
/// id, not expired, issued in the past, and bound to the app's nonce when it sent one.
struct AppleIdentityVerifier: Sendable {
    typealias PublicKey = _RSA.Signing.PublicKey

    struct Configuration: Sendable {
        /// The app's bundle id: the only accepted `aud`.
        var audience: String
        var issuer = "https://appleid.apple.com"
        /// Allowed clock difference for `exp` and `iat`.
        var skew: Duration = .seconds(60)
    }

    /// Why a token was refused. The description names the check, never the token or its claims.
    struct Rejection: Error, Equatable, CustomStringConvertible {
        enum Reason: String, Sendable {
            case malformed, unsupportedAlgorithm = "unsupported_algorithm", unknownKey = "unknown_key",
                 badSignature = "bad_signature", wrongIssuer = "wrong_issuer", wrongAudience = "wrong_audience",
                 expired, issuedInFuture = "issued_in_future", missingSubject = "missing_subject",
                 nonceMismatch = "nonce_mismatch", nonceMissing = "nonce_missing"
        }
        let reason: Reason
        var description: String {
            switch reason {
            case .malformed: "the identity token is not a well-formed JWS"
            case .unsupportedAlgorithm: "the identity token is not signed with RS256"
            case .unknownKey: "the identity token is signed with a key Apple does not publish"
            case .badSignature: "the identity token's signature does not verify"
            case .wrongIssuer: "the identity token was not issued by Apple"
            case .wrongAudience: "the identity token is for another app"
            case .expired: "the identity token has expired"
            case .issuedInFuture: "the identity token is issued in the future"
            case .missingSubject: "the identity token names no account"
            case .nonceMismatch: "the identity token's nonce does not match the request's"
            case .nonceMissing: "the identity token carries a nonce but the request sent none (or the other way round)"
            }
        }
    }

    let configuration: Configuration

    /// The key id the token names, to look its key up before `verify`.
    static func keyID(of token: String) -> String? { CompactJWS(token)?.header["kid"] as? String }

    /// Who a verified identity token names: the Apple account id, and the email when Apple says it is verified.
    struct Identity: Equatable {
        let subject: String
        let verifiedEmail: String?
    }

    /// The token's Apple account id (`sub`) once every check passed. `key` is Apple's key for the
    /// token's `kid` (nil: Apple does not publish it); `rawNonce` is what the app sent, whose SHA-256
    /// hex the token must carry.
    func verify(_ token: String, key: _RSA.Signing.PublicKey?, rawNonce: String?, now: Date) throws(Rejection) -> Identity {
        let jws: CompactJWS
        do { jws = try CompactJWS.verifiedRS256(token, key: key) } catch { throw Rejection(reason: .init(error)) }
        guard jws.string("iss") == configuration.issuer else { throw Rejection(reason: .wrongIssuer) }
        guard jws.audiences.contains(configuration.audience) else { throw Rejection(reason: .wrongAudience) }
        do { try jws.checkLifetime(now: now, skew: configuration.skew) } catch {
            throw Rejection(reason: error == .expired ? .expired : .issuedInFuture)
        }
        guard let subject = jws.string("sub"), !subject.isEmpty else { throw Rejection(reason: .missingSubject) }
        switch (rawNonce, jws.string("nonce")) {
        case (let raw?, let claimed?):
            let expected = Hex.encode(SHA256.hash(data: Data(raw.utf8)))
            guard Self.equal(Array(expected.utf8), Array(claimed.utf8)) else { throw Rejection(reason: .nonceMismatch) }
        case (.some, nil):
            // The app asked for a nonce and the token has none: only a device that cannot carry one
            // (`nonce_supported: false`) may go on without it (Apple's guidance).
            if jws.bool("nonce_supported") != false { throw Rejection(reason: .nonceMissing) }
        case (nil, .some):
            // A token bound to a nonce the request does not present (a token lifted from another sign-in).
            throw Rejection(reason: .nonceMissing)
        case (nil, nil):
            break
        }
        // Apple sends `email_verified` as a boolean or as the string "true".
        let verified = jws.bool("email_verified") == true || jws.string("email_verified") == "true"
        return Identity(subject: subject, verifiedEmail: verified ? jws.string("email").map { $0.lowercased() } : nil)
    }

    /// Constant-time comparison.
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        return zip(a, b).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}


/// Verifies Sign in with Apple's server-to-server notifications (`{"payload": "<JWT>"}`): RS256 by
/// a key Apple publishes, `iss` Apple, `aud` this app's bundle id, `iat` within the last day (and
/// not in the future), and an `events` claim (a JSON string, or an object) naming the event's `type`
/// and the account's `sub`.
struct AppleAccountEventVerifier: Sendable {
    struct Event: Equatable, Sendable {
        let type: String
        let subject: String
    }

    struct Rejection: Error, Equatable, CustomStringConvertible {
        let check: String
        var description: String { "the account notification was refused (\(check))" }
    }

    let configuration: AppleIdentityVerifier.Configuration
    /// How old a notification may be (Apple delivers in real time; duplicates come soon after).
    var maxAge: TimeInterval = 86_400

    func verify(_ token: String, key: AppleIdentityVerifier.PublicKey?, now: Date) throws(Rejection) -> Event {
        let jws: CompactJWS
        do { jws = try CompactJWS.verifiedRS256(token, key: key) } catch {
            throw Rejection(check: error.check(issuer: "Apple", noun: "JWS"))
        }
        guard jws.string("iss") == configuration.issuer else { throw Rejection(check: "not issued by Apple") }
        guard jws.audiences.contains(configuration.audience) else { throw Rejection(check: "for another app") }
        guard let issued = jws.date("iat"), issued.timeIntervalSince(now) <= configuration.skew.seconds,
              now.timeIntervalSince(issued) <= maxAge
        else { throw Rejection(check: "issued too long ago or in the future") }
        let events: [String: Any]? = switch jws.claims["events"] {
        case let text as String: (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
        case let object as [String: Any]: object
        default: nil
        }
        guard let events, let type = events["type"] as? String, !type.isEmpty, type.count <= 64,
              let subject = events["sub"] as? String, !subject.isEmpty
        else { throw Rejection(check: "no event type and account") }
        return Event(type: type, subject: subject)
    }
}

extension AppleIdentityVerifier.Rejection.Reason {
    init(_ failure: CompactJWS.SignatureFailure) {
        switch failure {
        case .malformed: self = .malformed
        case .unsupportedAlgorithm: self = .unsupportedAlgorithm
        case .unknownKey: self = .unknownKey
        case .badSignature: self = .badSignature
        }
    }
}

extension CompactJWS.SignatureFailure {
    /// The check as the verifiers whose refusals are sentences name it.
    func check(issuer: String, noun: String) -> String {
        switch self {
        case .malformed: "not a \(noun)"
        case .unsupportedAlgorithm: "not signed with RS256"
        case .unknownKey: "signed with a key \(issuer) does not publish"
        case .badSignature: "the signature does not verify"
        }
    }
}
