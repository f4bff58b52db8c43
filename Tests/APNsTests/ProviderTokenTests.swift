import AlfredCore
import AlfredTestKit
import APNs
import Crypto
import Foundation
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(5))) struct ProviderTokenTests {
    static let key = P256.Signing.PrivateKey()
    static let signer = ProviderTokenSigner(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", key: key)

    static func decodeSegment(_ segment: Substring) throws -> [String: Any] {
        var text = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        let data = try #require(Data(base64Encoded: text))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func theTokenIsAnES256JWTWithKidIssAndIatThatVerifiesWithThePublicKey() throws {
        let jwt = try Self.signer.sign(issuedAt: Date(timeIntervalSince1970: 1_800_000_123))
        let parts = jwt.split(separator: ".")
        #expect(parts.count == 3)
        #expect(!jwt.contains("="), "base64url without padding")
        let header = try Self.decodeSegment(parts[0]), claims = try Self.decodeSegment(parts[1])
        #expect(header["alg"] as? String == "ES256")
        #expect(header["kid"] as? String == "ABC123DEFG")
        #expect(claims["iss"] as? String == "DEF123GHIJ")
        #expect(claims["iat"] as? Int == 1_800_000_123)
        #expect(claims.count == 2, "nothing else is needed")
        var sig = String(parts[2]).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while sig.count % 4 != 0 { sig += "=" }
        let raw = try #require(Data(base64Encoded: sig))
        #expect(raw.count == 64, "JOSE raw r||s, not DER")
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: raw)
        #expect(Self.key.publicKey.isValidSignature(signature, for: Data("\(parts[0]).\(parts[1])".utf8)))
    }

    @Test func readsApplesP8KeyFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKey-\(UUID()).p8").path
        try Self.key.pemRepresentation.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let signer = try ProviderTokenSigner(keyID: "ABC123DEFG", teamID: "DEF123GHIJ", p8Path: path)
        #expect(try signer.sign(issuedAt: Date()).split(separator: ".").count == 3)
        #expect(throws: ProviderTokenError.self) { try ProviderTokenSigner(keyID: "K", teamID: "T", p8Path: path + ".missing") }
    }

    @Test func oneTokenIsReusedAndRenewedAfterFiftyMinutes() async throws {
        let clock = ManualClock()
        let mints = Mutex<[ProviderTokenMinter.Trigger]>([])
        let minter = ProviderTokenMinter(signer: Self.signer, now: clock.nowDate, onMint: { t in mints.withLock { $0.append(t) } })
        let first = try await minter.providerToken(rejected: nil)
        for _ in 0..<49 {
            clock.advance(by: .seconds(60))
            #expect(try await minter.providerToken(rejected: nil) == first)
        }
        clock.advance(by: .seconds(60))
        let second = try await minter.providerToken(rejected: nil)
        #expect(second != first)
        #expect(second.issuedAt.timeIntervalSince(first.issuedAt) == 50 * 60)
        #expect(mints.withLock { $0 } == [.initial, .age])
    }

    @Test func anExpiredRejectionRenewsOnlyTheCurrentTokenAndNeverWithinTwentyMinutes() async throws {
        let clock = ManualClock()
        let minter = ProviderTokenMinter(signer: Self.signer, now: clock.nowDate)
        let first = try await minter.providerToken(rejected: nil)
        clock.advance(by: .seconds(5 * 60))
        // Young token refused as expired: the clocks disagree; minting again would only earn a 429.
        #expect(try await minter.providerToken(rejected: first.jwt) == first)
        clock.advance(by: .seconds(16 * 60))
        let renewed = try await minter.providerToken(rejected: first.jwt)
        #expect(renewed != first, "21 minutes old and refused: renewed")
        // Another worker reports the same old token: it gets the current one, no second mint.
        #expect(try await minter.providerToken(rejected: first.jwt) == renewed)
    }

    /// Whatever sequence of calls and rejections arrives, mints are 20–60 minutes apart and no token
    /// handed out is an hour old.
    @Test func overADayOfRandomRejectionsRenewalStaysInsideTheWindow() async throws {
        let clock = ManualClock()
        let minter = ProviderTokenMinter(signer: Self.signer, now: clock.nowDate)
        var rng = SystemRandomNumberGenerator()
        var last = try await minter.providerToken(rejected: nil)
        var mintTimes = [last.issuedAt]
        for _ in 0..<(24 * 60 * 2) {
            clock.advance(by: .seconds(30))
            let token = try await minter.providerToken(rejected: Bool.random(using: &rng) ? last.jwt : nil)
            #expect(clock.date.timeIntervalSince(token.issuedAt) < 3600)
            if token != last { mintTimes.append(token.issuedAt); last = token }
        }
        let gaps = zip(mintTimes.dropFirst(), mintTimes).map { $0.timeIntervalSince($1) / 60 }
        #expect(gaps.count >= 24, "renewed at least every hour: \(gaps.count) mints")
        #expect(gaps.allSatisfy { $0 >= 20 && $0 <= 60 }, "\(gaps)")
    }

    @Test func aWorkersCacheAsksUpstreamOnlyWhenOldOrRejected() async throws {
        let clock = ManualClock()
        let calls = Mutex(0)
        struct Counting: ProviderTokenSource {
            let minter: ProviderTokenMinter
            let calls: @Sendable () -> Void
            func providerToken(rejected: String?) async throws -> ProviderToken { calls(); return try await minter.providerToken(rejected: rejected) }
        }
        let upstream = Counting(minter: ProviderTokenMinter(signer: Self.signer, now: clock.nowDate), calls: { calls.withLock { $0 += 1 } })
        let cache = CachedProviderTokens(upstream: upstream, now: clock.nowDate)
        let first = try await cache.providerToken(rejected: nil)
        for _ in 0..<100 { _ = try await cache.providerToken(rejected: nil) }
        #expect(calls.withLock { $0 } == 1)
        clock.advance(by: .seconds(25 * 60))
        _ = try await cache.providerToken(rejected: first.jwt)
        #expect(calls.withLock { $0 } == 2, "a rejection goes upstream")
        clock.advance(by: .seconds(26 * 60))
        let renewed = try await cache.providerToken(rejected: nil)
        #expect(renewed != first)
    }
}

@Suite(.timeLimit(.minutes(5))) struct APNsPayloadTests {
    @Test func anAlertCarriesTitleBodyThreadAndNoIdentifiers() throws {
        let bytes = APNsPayload.alert(title: "Board sync in 10 min", body: "Room 4.12", threadID: "calendar", kind: "calendar",
                                      timeSensitive: true)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let aps = try #require(json["aps"] as? [String: Any])
        let alert = try #require(aps["alert"] as? [String: String])
        #expect(alert == ["title": "Board sync in 10 min", "body": "Room 4.12"])
        #expect(aps["interruption-level"] as? String == "time-sensitive")
        #expect(aps["thread-id"] as? String == "calendar")
        #expect((json["alfred"] as? [String: String]) == ["kind": "calendar"])
    }

    @Test func theAppsFieldsRideAlongAndAreNeverShortened() throws {
        let join = "https://meet.example.com/abc-defg-hij"
        let bytes = APNsPayload.alert(title: String(repeating: "Planning ", count: 400), body: String(repeating: "Room ", count: 800),
                                      threadID: "calendar", kind: "calendar", timeSensitive: true,
                                      app: .init(category: "ALFRED_REMINDER_JOIN", notificationID: "0123456789abcdef0123456789abcdef",
                                                 link: "alfred://reminder/0123456789abcdef0123456789abcdef", joinURL: join))
        #expect(bytes.count <= APNsClient.maxPayloadBytes)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect((json["aps"] as? [String: Any])?["category"] as? String == "ALFRED_REMINDER_JOIN")
        #expect((json["alfred"] as? [String: String]) == ["kind": "calendar", "notification_id": "0123456789abcdef0123456789abcdef",
                                                          "link": "alfred://reminder/0123456789abcdef0123456789abcdef", "join_url": join])
    }

    @Test func aLongAlertIsShortenedToFitFourKilobytesNeverRefused() throws {
        let title = String(repeating: "Quarterly planning 🗓️ ", count: 300)
        let body = String(repeating: "Zürich HQ · ", count: 600)
        let bytes = APNsPayload.alert(title: title, body: body, threadID: "calendar", kind: "calendar", timeSensitive: true)
        #expect(bytes.count <= APNsClient.maxPayloadBytes)
        #expect(bytes.count > APNsClient.maxPayloadBytes - 64, "uses the room it has")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let alert = try #require((json["aps"] as? [String: Any])?["alert"] as? [String: String])
        #expect(alert["body"]?.hasSuffix("…") == true)
    }

    @Test func aBackgroundPushIsContentAvailableOnly() throws {
        let json = try #require(try JSONSerialization.jsonObject(with: Data(APNsPayload.background(kind: "sync"))) as? [String: Any])
        #expect((json["aps"] as? [String: Int]) == ["content-available": 1])
    }
}

@Suite(.timeLimit(.minutes(5))) struct APNsPayloadLimitTests {
    /// One "character" of thousands of combining marks (anyone can put that in an invitation's place).
    @Test func aSingleHugeCharacterStillFitsAndTheLoopEnds() throws {
        let zalgo = "a" + String(repeating: "\u{0301}", count: 5000)
        for (title, body) in [(zalgo, zalgo), ("Board sync", zalgo), (zalgo, "")] {
            let bytes = APNsPayload.alert(title: title, body: body, threadID: "calendar", kind: "calendar", timeSensitive: true)
            #expect(bytes.count <= APNsClient.maxPayloadBytes)
            #expect(try JSONSerialization.jsonObject(with: Data(bytes)) is [String: Any])
        }
    }
}
