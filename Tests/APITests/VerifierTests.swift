import AlfredCore
@testable import API
import Crypto
import CryptoExtras
import Foundation
import Testing

/// The two new signed-token checks of issue #30, each refusal on its own, without a network: the
/// relay mailbox's Google ID token and Sign in with Apple's account notifications.
@Suite(.timeLimit(.minutes(5))) struct VerifierTests {
    static let key = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let other = try! _RSA.Signing.PrivateKey(keySize: .bits2048)
    static let now = Date(timeIntervalSince1970: 1_795_000_000)

    static func token(_ claims: [String: Any], alg: String = "RS256", signer: _RSA.Signing.PrivateKey = key) throws -> String {
        let header = Base64URL.encode(try JSONSerialization.data(withJSONObject: ["alg": alg, "kid": "k1"]))
        let body = Base64URL.encode(try JSONSerialization.data(withJSONObject: claims))
        let input = "\(header).\(body)"
        let signature = try signer.signature(for: SHA256.hash(data: Data(input.utf8)), padding: .insecurePKCS1v1_5)
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }

    static var proof: [String: Any] { [
        "iss": "https://accounts.google.com", "aud": "ios-client", "email": "Ada@Example.com", "email_verified": true,
        "iat": Int(now.timeIntervalSince1970) - 10, "exp": Int(now.timeIntervalSince1970) + 3600,
    ] }

    /// A claim's value as JSON text (arguments must be Sendable).
    static func json(_ text: String) -> Any { try! JSONSerialization.jsonObject(with: Data(text.utf8), options: .fragmentsAllowed) }

    @Test(arguments: [
        ("email", #""eve@example.com""#, "for another address"),
        ("aud", #""another-app""#, "issued to another app"),
        ("iss", #""https://evil.example.com""#, "not issued by Google"),
        ("email_verified", "false", "the address is not verified"),
        ("exp", "\(Int(now.timeIntervalSince1970) - 3600)", "expired"),
        ("iat", "\(Int(now.timeIntervalSince1970) + 3600)", "issued in the future"),
    ])
    func aMailboxProofFailsEachCheckOnItsOwn(claim: String, value: String, check: String) throws {
        let verifier = MailboxProofVerifier(audiences: ["ios-client", "web-client"])
        #expect(throws: Never.self) { try verifier.verify(try Self.token(Self.proof), address: "ada@example.com",
                                                          key: Self.key.publicKey, now: Self.now) }
        var claims = Self.proof
        claims[claim] = Self.json(value)
        let refused = try Self.token(claims)
        #expect(throws: MailboxProofVerifier.Rejection(check: check)) {
            try verifier.verify(refused, address: "ada@example.com", key: Self.key.publicKey, now: Self.now)
        }
    }

    @Test func aMailboxProofNeedsGooglesKeyAndRS256() throws {
        let verifier = MailboxProofVerifier(audiences: ["ios-client"])
        #expect(throws: MailboxProofVerifier.Rejection(check: "the signature does not verify")) {
            try verifier.verify(try Self.token(Self.proof, signer: Self.other), address: "ada@example.com", key: Self.key.publicKey, now: Self.now)
        }
        #expect(throws: MailboxProofVerifier.Rejection(check: "signed with a key Google does not publish")) {
            try verifier.verify(try Self.token(Self.proof), address: "ada@example.com", key: nil, now: Self.now)
        }
        #expect(throws: MailboxProofVerifier.Rejection(check: "not signed with RS256")) {
            try verifier.verify(try Self.token(Self.proof, alg: "HS256"), address: "ada@example.com", key: Self.key.publicKey, now: Self.now)
        }
    }

    static var event: [String: Any] { [
        "iss": "https://appleid.apple.com", "aud": "com.example.alfred", "iat": Int(now.timeIntervalSince1970) - 5, "jti": "j1",
        "events": #"{"type":"consent-revoked","sub":"001842.ada","event_time":1795000000000}"#,
    ] }

    @Test func anAppleAccountEventNamesItsTypeAndAccountAndFailsEachCheck() throws {
        let verifier = AppleAccountEventVerifier(configuration: .init(audience: "com.example.alfred"))
        #expect(try verifier.verify(try Self.token(Self.event), key: Self.key.publicKey, now: Self.now)
                == .init(type: "consent-revoked", subject: "001842.ada"))
        var object = Self.event
        object["events"] = ["type": "account-delete", "sub": "001842.ada"]
        #expect(try verifier.verify(try Self.token(object), key: Self.key.publicKey, now: Self.now).type == "account-delete",
                "events as an object too")
        for (claim, value, check) in [("aud", "another" as Any, "for another app"), ("iss", "https://appleid.example.com", "not issued by Apple"),
                                      ("iat", Int(Self.now.timeIntervalSince1970) - 3 * 86_400, "issued too long ago or in the future"),
                                      ("events", #"{"type":"consent-revoked"}"#, "no event type and account")] {
            var claims = Self.event
            claims[claim] = value
            #expect(throws: AppleAccountEventVerifier.Rejection(check: check)) {
                try verifier.verify(try Self.token(claims), key: Self.key.publicKey, now: Self.now)
            }
        }
        #expect(throws: AppleAccountEventVerifier.Rejection(check: "the signature does not verify")) {
            try verifier.verify(try Self.token(Self.event, signer: Self.other), key: Self.key.publicKey, now: Self.now)
        }
    }
}

/// The contract's limits on urgency preferences, checked here because the generated decoder does not.
@Suite(.timeLimit(.minutes(5))) struct UrgencyPreferenceCheckTests {
    @Test func sendersAreAddressesOrDomainsLowercasedWithoutDuplicates() throws {
        #expect(try Check.vipSenders(["Boss@Example.COM", "@school.example.org", "boss@example.com"]) == ["boss@example.com", "@school.example.org"])
        for bad in ["boss", "boss@localhost", "a@b@example.com", " boss@example.com", "boss@exa mple.com", "boss@-.", "bøss@example.com"] {
            #expect(throws: APIError.self, "\(bad)") { try Check.vipSenders([bad]) }
        }
        #expect(throws: APIError.self) { try Check.vipSenders(Array(repeating: "a@example.com", count: 101)) }
    }

    @Test func keywordsAreShortPhrasesWithoutControlCharacters() throws {
        #expect(try Check.keywords(["fermo linea", "Fermo Linea", "Notfall"]) == ["fermo linea", "Notfall"])
        for bad in ["x", String(repeating: "a", count: 65), "tab\there", "bell\u{7}"] {
            #expect(throws: APIError.self, "\(bad)") { try Check.keywords([bad]) }
        }
        #expect(throws: APIError.self) { try Check.keywords((0..<51).map { "k\($0)" }) }
    }
}

/// `Allow` for a path two templates match names the more specific one's methods.
@Suite(.timeLimit(.minutes(5))) struct RouteTableTests {
    @Test func theMostSpecificTemplateWins() throws {
        let table = try RouteTable(openAPI: try APIServer.document())
        #expect(table.methods(at: "/v1/devices/apns") == ["POST"])
        #expect(table.methods(at: "/v1/devices/0b0e4a6c-1f7a-4a49-8f1e-3a7c2f0e9d11") == ["DELETE"])
        #expect(table.methods(at: "/v1/devices") == ["GET"])
        #expect(table.methods(at: "/v1/nothing-here") == nil)
    }
}

/// The shared first steps of every third-party token check, in their order.
@Suite(.timeLimit(.minutes(5))) struct VerifiedRS256Tests {
    @Test func eachStepFailsOnItsOwnInOrder() throws {
        let good = try VerifierTests.token(["iss": "x"])
        #expect(try CompactJWS.verifiedRS256(good, key: VerifierTests.key.publicKey).string("iss") == "x")
        #expect(throws: CompactJWS.SignatureFailure.malformed) { try CompactJWS.verifiedRS256("a.b", key: VerifierTests.key.publicKey) }
        // An HS256 header is refused before any key is looked at (no algorithm confusion).
        #expect(throws: CompactJWS.SignatureFailure.unsupportedAlgorithm) {
            try CompactJWS.verifiedRS256(try VerifierTests.token(["iss": "x"], alg: "HS256"), key: nil)
        }
        #expect(throws: CompactJWS.SignatureFailure.unknownKey) { try CompactJWS.verifiedRS256(good, key: nil) }
        #expect(throws: CompactJWS.SignatureFailure.badSignature) {
            try CompactJWS.verifiedRS256(good, key: VerifierTests.other.publicKey)
        }
    }

    /// `exp` and `iat`, each with the skew on the lenient side only, and both required.
    @Test func theLifetimeCheckAllowsTheSkewAndNoMore() throws {
        let now = VerifierTests.now.timeIntervalSince1970
        func lifetime(_ claims: [String: Any]) throws -> CompactJWS.LifetimeFailure? {
            let jws = try #require(CompactJWS(try VerifierTests.token(claims)))
            do { try jws.checkLifetime(now: VerifierTests.now, skew: .seconds(60)) } catch { return error }
            return nil
        }
        #expect(try lifetime(["iat": now - 10, "exp": now + 10]) == nil)
        #expect(try lifetime(["iat": now + 60, "exp": now - 59]) == nil, "within the skew on both sides")
        #expect(try lifetime(["iat": now - 10, "exp": now - 60]) == .expired)
        #expect(try lifetime(["iat": now + 61, "exp": now + 3600]) == .issuedInFuture)
        #expect(try lifetime(["iat": now]) == .expired, "no exp")
        #expect(try lifetime(["exp": now + 10]) == .issuedInFuture, "no iat")
    }

    @Test func sentenceVerifiersNameTheIssuerAndTheirNoun() {
        #expect(CompactJWS.SignatureFailure.unknownKey.check(issuer: "Google", noun: "JWT") == "signed with a key Google does not publish")
        #expect(CompactJWS.SignatureFailure.malformed.check(issuer: "Apple", noun: "JWS") == "not a JWS")
        #expect(PushTokenVerifier.Rejection.Reason(.badSignature) == .badSignature)
        #expect(AppleIdentityVerifier.Rejection.Reason(.unsupportedAlgorithm) == .unsupportedAlgorithm)
    }
}
