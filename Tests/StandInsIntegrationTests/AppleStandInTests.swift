import AlfredCore
import AlfredTestCluster
@testable import API
import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import StandIns
import Testing

/// The Apple stand-in over real sockets, checked by the API's own verifier (`AppleIdentityVerifier`,
/// `JWKSet`, `JWKSCache`): the key set it serves, the tokens it mints, key rotation, each
/// negative case, and its control plane.
@Suite(.timeLimit(.minutes(5))) struct AppleStandInTests {
    typealias Reason = AppleIdentityVerifier.Rejection.Reason

    @Test func theKeySetListsTwoRSASigningKeysNewestFirst() async throws {
        try await AppleHarness.with { apple in
            let reply = try await apple.send(.GET, "/auth/keys")
            #expect(reply.status == 200)
            #expect(reply.headers["content-type"] == "application/json")
            let keys = try #require(reply.json["keys"] as? [[String: Any]])
            #expect(keys.count == 2)
            for key in keys {
                #expect(key["kty"] as? String == "RSA")
                #expect(key["use"] as? String == "sig")
                #expect(key["alg"] as? String == "RS256")
                #expect(key["e"] as? String == "AQAB")
                let n = try #require(key["n"] as? String)
                let modulus = try #require(Base64URL.decode(n))
                #expect(modulus.count == 256 && modulus.first != 0, "a 2048-bit modulus, minimal big-endian")
            }
            let kids = keys.compactMap { $0["kid"] as? String }
            #expect(kids == apple.standIn.publishedKeyIDs && Set(kids).count == 2)
            #expect(kids.first == apple.standIn.signingKeyID)
            // The API's parser takes every key.
            #expect(Set(try JWKSet(jwks: Array(reply.body.utf8)).keys.keys) == Set(kids))
            #expect(apple.standIn.keySetFetches == 1)
            let status = try await apple.send(.GET, "/_fake/keys")
            #expect(status.json["keySetFetches"] as? Int == 1)
            #expect(status.json["signingKeyID"] as? String == kids.first)
        }
    }

    @Test func aMintedTokenVerifiesWithTheFetchedKeysAndCarriesApplesClaims() async throws {
        try await AppleHarness.with { apple in
            let keys = try await apple.fetchKeys()
            let token = try apple.standIn.identityToken(.init(subject: "001842.alice", audience: AppleHarness.bundleID,
                                                              nonce: "raw-nonce-1", email: "alice@example.com"))
            #expect(try apple.verify(token, with: keys, rawNonce: "raw-nonce-1") == "001842.alice")

            let (header, claims) = try AppleHarness.decode(token)
            #expect(header.count == 2 && header["alg"] as? String == "RS256" && header["kid"] as? String == apple.standIn.signingKeyID)
            #expect(Set(claims.keys) == ["iss", "aud", "exp", "iat", "sub", "nonce", "nonce_supported", "email",
                                         "email_verified", "is_private_email", "auth_time", "real_user_status"])
            #expect(claims["iss"] as? String == "https://appleid.apple.com")
            #expect(claims["aud"] as? String == AppleHarness.bundleID)
            let nonceHex = SHA256.hash(data: Data("raw-nonce-1".utf8)).map { String(format: "%02x", $0) }.joined()
            #expect(claims["nonce"] as? String == nonceHex)
            #expect(claims["nonce_supported"] as? Bool == true)
            #expect(claims["email"] as? String == "alice@example.com")
            #expect(claims["email_verified"] as? Bool == true && claims["is_private_email"] as? Bool == false)
            #expect(claims["real_user_status"] as? Int == 2)
            let issuedAt = try #require(claims["iat"] as? Int)
            #expect(issuedAt == Int(AppleHarness.start.timeIntervalSince1970), "iat comes from the stand-in's clock")
            #expect(claims["exp"] as? Int == issuedAt + 600 && claims["auth_time"] as? Int == issuedAt)

            // The same over the control route; an already-hashed nonce goes in as is.
            let minted = try await apple.postJSON("/_fake/identity-token",
                                                  #"{"subject": "001842.bob", "hashedNonce": "\#(nonceHex)", "expiresIn": 120}"#)
            #expect(minted.status == 200, "\(minted.body)")
            let routed = try #require(minted.json["identityToken"] as? String)
            #expect(minted.json["kid"] as? String == apple.standIn.signingKeyID)
            #expect(minted.json["expiresAt"] as? Int == issuedAt + 120)
            #expect(try apple.verify(routed, with: keys, rawNonce: "raw-nonce-1") == "001842.bob")
            // Defaults: the configured test user, for the configured bundle id.
            let plain = try apple.standIn.identityToken(.init(nonceSupported: false))
            #expect(try apple.verify(plain, with: keys) == AppleStandIn.Configuration().subject)
            #expect(apple.standIn.recordedRequests().map(\.path) == ["/auth/keys"], "control calls are not recorded")
        }
    }

    /// Only the newest key signs; rotation publishes a new one first and drops the oldest, so a
    /// verifier must refetch for the new `kid`, and a token whose key was dropped stops verifying.
    @Test func rotationPublishesTheNewKeyFirstAndDropsTheOldest() async throws {
        try await AppleHarness.with { apple in
            let before = try await apple.fetchKeys()
            let first = apple.standIn.publishedKeyIDs
            let oldToken = try apple.standIn.identityToken(.init(audience: AppleHarness.bundleID, nonceSupported: false))
            #expect(AppleIdentityVerifier.keyID(of: oldToken) == first[0])

            let rotated = try await apple.send(.POST, "/_fake/rotate-keys")
            #expect(rotated.status == 200)
            let second = try #require(rotated.json["publishedKeyIDs"] as? [String])
            #expect(second.count == 2 && second[1] == first[0] && !first.contains(second[0]))
            #expect(rotated.json["signingKeyID"] as? String == second[0])
            let newToken = try apple.standIn.identityToken(.init(audience: AppleHarness.bundleID, nonceSupported: false))
            #expect(AppleIdentityVerifier.keyID(of: newToken) == second[0])
            #expect(apple.rejection(of: newToken, with: before) == .unknownKey, "the old key set does not know the new kid")
            let refetched = try await apple.fetchKeys()
            #expect(try apple.verify(newToken, with: refetched) == AppleStandIn.Configuration().subject)
            #expect(try apple.verify(oldToken, with: refetched) == AppleStandIn.Configuration().subject,
                    "the previous key stays published for one more rotation")

            let third = apple.standIn.rotateKeys()
            #expect(apple.standIn.publishedKeyIDs == [third, second[0]], "the old token's key is dropped")
            let latest = try await apple.fetchKeys()
            #expect(Set(latest.keys.keys) == [third, second[0]])
            #expect(apple.rejection(of: oldToken, with: latest) == .unknownKey)
            #expect(try apple.verify(newToken, with: latest) == AppleStandIn.Configuration().subject)
            #expect(apple.standIn.keySetFetches == 3)
        }
    }

    /// Each override fails exactly the check it names, minted through the control route.
    @Test(arguments: [
        ("wrong_issuer", Reason.wrongIssuer), ("wrong_audience", .wrongAudience), ("expired", .expired),
        ("unknown_kid", .unknownKey), ("bad_signature", .badSignature), ("HS256", .unsupportedAlgorithm),
        ("none", .unsupportedAlgorithm),
    ])
    func eachOverrideFailsItsCheck(override: String, reason: Reason) async throws {
        try await AppleHarness.with { apple in
            let keys = try await apple.fetchKeys()
            let minted = try await apple.postJSON("/_fake/identity-token",
                                                  #"{"audience": "\#(AppleHarness.bundleID)", "nonce": "n-1", "overrides": ["\#(override)"]}"#)
            #expect(minted.status == 200, "\(minted.body)")
            let token = try #require(minted.json["identityToken"] as? String)
            #expect(apple.rejection(of: token, with: keys, rawNonce: "n-1") == reason)
            // The same request without the override verifies: the override alone breaks it.
            let good = try await apple.postJSON("/_fake/identity-token", #"{"audience": "\#(AppleHarness.bundleID)", "nonce": "n-1"}"#)
            let goodToken = try #require(good.json["identityToken"] as? String)
            #expect(apple.rejection(of: goodToken, with: keys, rawNonce: "n-1") == nil)
        }
    }

    @Test func theOverridesFromSwiftMatchTheVerifiersReasons() async throws {
        try await AppleHarness.with { apple in
            let keys = try await apple.fetchKeys()
            let expected: [AppleStandIn.Override: Reason] = [
                .wrongIssuer: .wrongIssuer, .wrongAudience: .wrongAudience, .expired: .expired, .unknownKeyID: .unknownKey,
                .badSignature: .badSignature, .hs256: .unsupportedAlgorithm, .algorithmNone: .unsupportedAlgorithm,
            ]
            #expect(Set(expected.keys) == Set(AppleStandIn.Override.allCases))
            for (override, reason) in expected {
                let token = try apple.standIn.identityToken(.init(audience: AppleHarness.bundleID, nonce: "n", overrides: [override]))
                #expect(apple.rejection(of: token, with: keys, rawNonce: "n") == reason, "\(override)")
            }
            let (header, _) = try AppleHarness.decode(try apple.standIn.identityToken(.init(overrides: [.algorithmNone])))
            #expect(header["alg"] as? String == "none")
        }
    }

    @Test func theNonceMustMatchAndMayBeMissingOnlyWhereUnsupported() async throws {
        try await AppleHarness.with { apple in
            let keys = try await apple.fetchKeys()
            let bound = try apple.standIn.identityToken(.init(audience: AppleHarness.bundleID, nonce: "raw-1"))
            #expect(apple.rejection(of: bound, with: keys, rawNonce: "raw-1") == nil)
            #expect(apple.rejection(of: bound, with: keys, rawNonce: "raw-2") == .nonceMismatch)
            #expect(apple.rejection(of: bound, with: keys, rawNonce: nil) == .nonceMissing, "the app sent none")
            let unbound = try apple.standIn.identityToken(.init(audience: AppleHarness.bundleID))
            #expect(try AppleHarness.decode(unbound).claims["nonce_supported"] as? Bool == true)
            #expect(apple.rejection(of: unbound, with: keys, rawNonce: "raw-1") == .nonceMissing,
                    "nonce_supported: true and no nonce in the token")
            let legacy = try apple.standIn.identityToken(.init(audience: AppleHarness.bundleID, nonceSupported: false))
            #expect(apple.rejection(of: legacy, with: keys, rawNonce: "raw-1") == nil, "a device that cannot carry a nonce")
            // Claims set last win over everything: here `sub` removed.
            let anonymous = try apple.standIn.identityToken(.init(audience: AppleHarness.bundleID, nonce: "raw-1",
                                                                  claims: ["sub": .null]))
            #expect(apple.rejection(of: anonymous, with: keys, rawNonce: "raw-1") == .missingSubject)
        }
    }

    @Test func theControlRouteRejectsMalformedRequestsWith400() async throws {
        try await AppleHarness.with { apple in
            let bad: [(String, String)] = [
                ("not json", "not a valid"),
                (#"{"expiresIn": "soon"}"#, "not a valid"),
                (#"{"aud": "com.example.alfred"}"#, "unknown field(s) aud"),
                (#"{"overrides": ["forged"]}"#, "not a valid"),
                (#"{"claims": {"sub": {"nested": 1}}}"#, "not a valid"),
                (#"{"nonce": "a", "hashedNonce": "b"}"#, "not both"),
                (#"{"expiresIn": 0}"#, "expiresIn must be > 0"),
                (#"{"realUserStatus": 7}"#, "realUserStatus"),
            ]
            for (body, message) in bad {
                let reply = try await apple.postJSON("/_fake/identity-token", body)
                #expect(reply.status == 400, "\(body): \(reply.body)")
                #expect((reply.json["error"] as? String)?.contains(message) == true, "\(body): \(reply.body)")
            }
            #expect(throws: AppleStandIn.MintError.self) {
                try apple.standIn.identityToken(.init(nonce: "a", hashedNonce: "b"))
            }
            #expect(try await apple.postJSON("/_fake/clock", #"{"advanceSeconds": -1}"#).status == 400)
            #expect(try await apple.postJSON("/_fake/faults", #"{"times": 1}"#).status == 400, "a fault that does nothing")
            #expect(try await apple.send(.DELETE, "/_fake/faults/fault-99").status == 404)
        }
    }

    /// The counter a test reads to see the API's key cache at work: an unknown `kid` refetches at
    /// most once per interval, failed fetches (a 503 from "Apple") included.
    @Test func keySetFetchesCountEveryFetchAnUnknownKeyIDCauses() async throws {
        try await AppleHarness.with { apple in
            let clock = ManualClock()
            let cache = JWKSCache(source: JWKSDownload(url: try await apple.standIn.keysURL(), http: apple.client),
                                      clock: clock, refetchInterval: .seconds(60))
            let token = try apple.standIn.identityToken(.init(overrides: [.unknownKeyID]))
            let kid = try #require(AppleIdentityVerifier.keyID(of: token))
            #expect(try await cache.key(apple.standIn.signingKeyID) != nil)
            #expect(apple.standIn.keySetFetches == 1)
            for _ in 0..<3 { #expect(try await cache.key(kid) == nil) }
            let afterMisses = apple.standIn.keySetFetches
            #expect(afterMisses <= 2, "at most one refetch for an unknown kid within the interval")
            for _ in 0..<3 { #expect(try await cache.key(kid) == nil) }
            #expect(apple.standIn.keySetFetches == afterMisses, "and no more while the interval lasts")

            clock.advance(by: .seconds(61))
            #expect(try await cache.key(kid) == nil)
            #expect(apple.standIn.keySetFetches == afterMisses + 1, "one refetch once the interval has passed")

            try apple.standIn.injectFault(FaultRule(match: .init(path: "/auth/keys"), response: CannedResponse(status: 503)))
            clock.advance(by: .seconds(61))
            await #expect(throws: (any Error).self) { try await cache.key(kid) }
            #expect(apple.standIn.keySetFetches == afterMisses + 2, "a fetch that failed counts")
            let statuses = apple.standIn.recordedRequests().map(\.status)
            #expect(statuses == Array(repeating: 200, count: afterMisses + 1) + [503])
            let status = try await apple.send(.GET, "/_fake/keys")
            #expect(status.json["keySetFetches"] as? Int == afterMisses + 2)
        }
    }
}

/// An Apple stand-in on an ephemeral loopback port for one test, a real HTTP client pointed at it,
/// and the API's verifier configured for the test bundle id.
struct AppleHarness {
    static let bundleID = "com.example.alfred.tests"
    /// The stand-in's clock is pinned here, so `iat` and `exp` are known.
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    let standIn: AppleStandIn
    let client: HTTPClient
    let baseURL: String
    let verifier = AppleIdentityVerifier(configuration: .init(audience: bundleID))

    static func with(_ body: (AppleHarness) async throws -> Void) async throws {
        let logger = Logger(label: "alfred.standin.apple.test")
        let standIn = AppleStandIn(configuration: .init(audience: bundleID), clock: StandInClock(now: { start }), logger: logger)
        try await withRunningServices([standIn], logger: logger) {
            let baseURL = try await standIn.baseURL()
            let client = TestHTTP.client()
            // The client goes first: its connections close before the server stops.
            do {
                try await body(AppleHarness(standIn: standIn, client: client, baseURL: baseURL))
            } catch {
                try? await client.shutdown()
                throw error
            }
            try await client.shutdown()
        }
    }

    struct Reply {
        var status: Int
        var headers: [String: String]
        var body: String
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
    }

    func send(_ method: HTTPMethod, _ path: String, body: String? = nil) async throws -> Reply {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await client.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 1 << 22)
        var headers: [String: String] = [:]
        for header in response.headers { headers[header.name.lowercased()] = header.value }
        return Reply(status: Int(response.status.code), headers: headers, body: String(buffer: bytes))
    }

    func postJSON(_ path: String, _ json: String) async throws -> Reply { try await send(.POST, path, body: json) }

    /// `GET /auth/keys`, parsed by the API's own parser.
    func fetchKeys() async throws -> JWKSet {
        let reply = try await send(.GET, "/auth/keys")
        guard reply.status == 200 else { throw AppleHarnessError("GET /auth/keys answered \(reply.status): \(reply.body)") }
        return try JWKSet(jwks: Array(reply.body.utf8))
    }

    /// The API's verification at the stand-in's (pinned) now: the subject, or the rejection.
    func verify(_ token: String, with keys: JWKSet, rawNonce: String? = nil) throws(AppleIdentityVerifier.Rejection) -> String {
        let key = AppleIdentityVerifier.keyID(of: token).flatMap { keys.keys[$0] }
        return try verifier.verify(token, key: key, rawNonce: rawNonce, now: standIn.clock.now()).subject
    }

    func rejection(of token: String, with keys: JWKSet, rawNonce: String? = nil) -> AppleIdentityVerifier.Rejection.Reason? {
        do {
            _ = try verify(token, with: keys, rawNonce: rawNonce)
            return nil
        } catch {
            return error.reason
        }
    }

    /// Header and claims of a compact JWS, decoded independently of the verifier.
    static func decode(_ token: String) throws -> (header: [String: Any], claims: [String: Any]) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw AppleHarnessError("not a compact JWS: \(parts.count) parts") }
        func object(_ part: Substring) throws -> [String: Any] {
            var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            guard let data = Data(base64Encoded: base64),
                  let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            else { throw AppleHarnessError("a JWS part is not base64url JSON") }
            return object
        }
        return (try object(parts[0]), try object(parts[1]))
    }
}

struct AppleHarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
