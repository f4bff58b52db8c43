import AlfredTestKit
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import StandIns
import Testing

private typealias AH = APNsHarness

/// The APNs stand-in against external-apis §4.6: Apple's checks, answers, device registry, faults and
/// records, through its responder in-process (HTTP/2, TLS and connection resets: StandInsIntegrationTests).
@Suite(.timeLimit(.minutes(5))) struct APNsStandInTests {
    // MARK: Success

    @Test func echoesTheRequestsApnsIDLowercased() async throws {
        try await AH.with { apns in
            let id = "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0"
            let reply = try await apns.push(headers: ["apns-id": id])
            #expect(reply.status == 200)
            #expect(reply.apnsID == id.lowercased())
            // Errors carry it too.
            let bad = try await apns.push(headers: ["apns-id": id, "apns-topic": "com.other.app"])
            #expect(bad.apnsID == id.lowercased())
        }
    }

    @Test func silentBackgroundPushWithPriority5IsAccepted() async throws {
        try await AH.with { apns in
            let reply = try await apns.push(headers: ["apns-push-type": "background", "apns-priority": "5"],
                                            payload: #"{"aps":{"content-available":1},"alfred":{"kind":"sync"}}"#)
            #expect(reply.status == 200, "\(reply.body)")
            #expect(apns.standIn.deliveries().first?.pushType == "background")
            #expect(apns.standIn.deliveries().first?.priority == 5)
        }
    }

    @Test func payloadOfExactly4096BytesIsAccepted() async throws {
        try await AH.with { apns in
            let reply = try await apns.push(payload: Self.payload(bytes: 4096))
            #expect(reply.status == 200, "\(reply.body)")
        }
    }

    // MARK: Path and method

    @Test func pathsAndMethods() async throws {
        try await AH.with { apns in
            let badPath = try await apns.push(path: "/3/devices/\(AH.device)")
            #expect(badPath.status == 404 && badPath.reason == "BadPath")
            #expect(badPath.apnsID != nil)
            let deeper = try await apns.push(path: "/3/device/\(AH.device)/x")
            #expect(deeper.status == 404 && deeper.reason == "BadPath")
            let get = try await apns.push(method: .GET)
            #expect(get.status == 405 && get.reason == "MethodNotAllowed")
            #expect(get.apnsID != nil)
            for path in ["/3/device/", "/3/device"] {
                let missing = try await apns.push(path: path)
                #expect(missing.status == 400 && missing.reason == "MissingDeviceToken", "\(path)")
            }
        }
    }

    // MARK: Provider token

    @Test func missingProviderToken() async throws {
        try await AH.with { apns in
            let reply = try await apns.push(authorization: .some(nil))
            #expect(reply.status == 403 && reply.reason == "MissingProviderToken")
            let empty = try await apns.push(authorization: "bearer ")
            #expect(empty.status == 403 && empty.reason == "MissingProviderToken")
        }
    }

    static let invalidTokens: [(String, @Sendable () throws -> String)] = [
        ("wrong key", { try AH.jwt(key: P256.Signing.PrivateKey()) }),
        ("unknown key id", { try AH.jwt(keyID: "KEY0000000") }),
        ("wrong team", { try AH.jwt(teamID: "OTHER12345") }),
        ("alg HS256", { try AH.jwt(alg: "HS256") }),
        ("alg none", { try AH.jwt(alg: "none") }),
        ("not a JWT", { "not-a-jwt" }),
        ("truncated signature", { String(try AH.jwt().dropLast(4)) }),
        ("iat as string", {
            let header = AH.base64URL(Data(#"{"alg":"ES256","kid":"\#(AH.keyID)"}"#.utf8))
            let claims = AH.base64URL(Data(#"{"iss":"\#(AH.teamID)","iat":"1772323200"}"#.utf8))
            let signature = try AH.signingKey.signature(for: Data("\(header).\(claims)".utf8))
            return "\(header).\(claims).\(AH.base64URL(signature.rawRepresentation))"
        }),
    ]

    @Test(arguments: invalidTokens.indices)
    func invalidProviderToken(_ index: Int) async throws {
        let (name, mint) = Self.invalidTokens[index]
        try await AH.with { apns in
            let reply = try await apns.push(token: try mint())
            #expect(reply.status == 403, "\(name)")
            #expect(reply.reason == "InvalidProviderToken", "\(name): \(reply.body)")
        }
    }

    @Test func nonBearerSchemeIsInvalid() async throws {
        try await AH.with { apns in
            let reply = try await apns.push(authorization: "Basic dXNlcjpwYXNz")
            #expect(reply.status == 403 && reply.reason == "InvalidProviderToken")
        }
    }

    @Test func tokenExpiresAfterAnHourOnTheStandInClock() async throws {
        try await AH.with { apns in
            apns.standIn.clock.advance(bySeconds: 59 * 60)
            #expect(try await apns.push().status == 200)
            apns.standIn.clock.advance(bySeconds: 2 * 60)  // 61 minutes after iat
            let reply = try await apns.push()
            #expect(reply.status == 403 && reply.reason == "ExpiredProviderToken")
            // A fresh token works again.
            #expect(try await apns.push(token: try AH.jwt(issuedAt: apns.standIn.clock.now())).status == 200)
        }
    }

    @Test func tooManyProviderTokenUpdates() async throws {
        try await AH.with { apns in
            let second = try AH.jwt(issuedAt: AH.pinned.addingTimeInterval(-1))
            let third = try AH.jwt(issuedAt: AH.pinned.addingTimeInterval(-2))
            #expect(try await apns.push().status == 200)
            #expect(try await apns.push(token: second).status == 200)
            let refused = try await apns.push(token: third)
            #expect(refused.status == 429 && refused.reason == "TooManyProviderTokenUpdates")
            // Tokens already seen do not count again.
            #expect(try await apns.push().status == 200)
            #expect(try await apns.push(token: second).status == 200)
            // Twenty minutes later the window has room.
            apns.standIn.clock.advance(bySeconds: 20 * 60 + 1)
            #expect(try await apns.push(token: third).status == 200)
            #expect(apns.standIn.distinctProviderTokens() == 3)
        }
    }

    // MARK: Headers and payload

    struct HeaderCase: Sendable, CustomTestStringConvertible {
        var name: String
        var reason: String
        var status = 400
        var headers: [String: String?] = [:]
        var extraHeaders: [(String, String)] = []
        var payload = AH.alertPayload
        var testDescription: String { "\(reason): \(name)" }
    }

    static let headerCases: [HeaderCase] = [
        HeaderCase(name: "no apns-topic", reason: "MissingTopic", headers: ["apns-topic": nil]),
        HeaderCase(name: "another app", reason: "BadTopic", headers: ["apns-topic": "com.other.app"]),
        HeaderCase(name: "voip without .voip", reason: "BadTopic", headers: ["apns-push-type": "voip"]),
        HeaderCase(name: "unknown type", reason: "InvalidPushType", headers: ["apns-push-type": "fax"]),
        HeaderCase(name: "background with an alert", reason: "InvalidPushType",
                   headers: ["apns-push-type": "background", "apns-priority": "5"],
                   payload: #"{"aps":{"content-available":1,"alert":"hi"}}"#),
        HeaderCase(name: "background without content-available", reason: "InvalidPushType",
                   headers: ["apns-push-type": "background", "apns-priority": "5"], payload: #"{"aps":{}}"#),
        HeaderCase(name: "7", reason: "BadPriority", headers: ["apns-priority": "7"]),
        HeaderCase(name: "not a number", reason: "BadPriority", headers: ["apns-priority": "high"]),
        HeaderCase(name: "10 for background", reason: "BadPriority",
                   headers: ["apns-push-type": "background", "apns-priority": "10"],
                   payload: #"{"aps":{"content-available":1}}"#),
        HeaderCase(name: "not an integer", reason: "BadExpirationDate", headers: ["apns-expiration": "tomorrow"]),
        HeaderCase(name: "65 bytes", reason: "BadCollapseId", headers: ["apns-collapse-id": String(repeating: "c", count: 65)]),
        HeaderCase(name: "not a UUID", reason: "BadMessageId", headers: ["apns-id": "message-1"]),
        HeaderCase(name: "apns-priority twice", reason: "DuplicateHeaders", extraHeaders: [("apns-priority", "5")]),
        HeaderCase(name: "empty body", reason: "PayloadEmpty", payload: ""),
        HeaderCase(name: "a JSON array", reason: "PayloadEmpty", payload: "[1,2]"),
        HeaderCase(name: "not JSON", reason: "PayloadEmpty", payload: "hello"),
        HeaderCase(name: "4097 bytes", reason: "PayloadTooLarge", status: 413, payload: payload(bytes: 4097)),
    ]

    @Test(arguments: headerCases)
    func malformedRequest(_ test: HeaderCase) async throws {
        try await AH.with { apns in
            let reply = try await apns.push(headers: test.headers, extraHeaders: test.extraHeaders, payload: test.payload)
            #expect(reply.status == test.status, "\(reply.body)")
            #expect(reply.reason == test.reason)
            #expect(reply.headers.first(name: "content-type") == "application/json")
            #expect(apns.standIn.deliveries().isEmpty)
            #expect(apns.standIn.requests().map(\.reason) == [test.reason])
        }
    }

    @Test func checksRunInApplesOrder() async throws {
        try await AH.with { apns async throws in
            // Bad path beats a missing token; a missing token beats a bad topic; headers beat the payload.
            #expect(try await apns.push(authorization: .some(nil), path: "/3/x").reason == "BadPath")
            #expect(try await apns.push(authorization: .some(nil), headers: ["apns-topic": "x"]).reason == "MissingProviderToken")
            #expect(try await apns.push(headers: ["apns-topic": "x"], payload: "").reason == "BadTopic")
            #expect(try await apns.push(device: "unknown", payload: "").reason == "PayloadEmpty")
        }
    }

    // MARK: Device registry

    @Test func deviceRegistry() async throws {
        try await AH.with { apns in
            let unknown = try await apns.push(device: "ffff0000")
            #expect(unknown.status == 400 && unknown.reason == "BadDeviceToken")

            apns.standIn.register(deviceToken: "prod0001", environment: .production)
            let otherEnvironment = try await apns.push(device: "prod0001")
            #expect(otherEnvironment.status == 400 && otherEnvironment.reason == "BadDeviceToken")

            apns.standIn.register(deviceToken: "otherapp", topic: "com.other.app")
            let otherTopic = try await apns.push(device: "otherapp")
            #expect(otherTopic.status == 400 && otherTopic.reason == "DeviceTokenNotForTopic")

            let gone = Date(timeIntervalSince1970: 1_772_441_112)
            apns.standIn.unregister(deviceToken: AH.device, at: gone)
            let unregistered = try await apns.push()
            #expect(unregistered.status == 410)
            #expect(unregistered.reason == "Unregistered")
            #expect((unregistered.json["timestamp"] as? Int) == 1_772_441_112_000)

            apns.standIn.register(deviceToken: AH.device)  // the app registered again
            #expect(try await apns.push().status == 200)
        }
    }

    @Test func perDeviceRateLimit() async throws {
        try await AH.with({ $0.perDeviceLimit = (count: 2, window: .seconds(60)) }) { apns in
            apns.standIn.register(deviceToken: "other")
            #expect(try await apns.push().status == 200)
            #expect(try await apns.push().status == 200)
            let limited = try await apns.push()
            #expect(limited.status == 429 && limited.reason == "TooManyRequests")
            #expect(try await apns.push(device: "other").status == 200)  // per device
            apns.standIn.clock.advance(bySeconds: 61)
            #expect(try await apns.push().status == 200)
            #expect(apns.standIn.deliveries().count == 4)
        }
    }

    // MARK: Faults

    @Test(arguments: [(500, "InternalServerError"), (503, "ServiceUnavailable"), (503, "Shutdown")])
    func injectedErrorAnswersOnce(status: Int, reason: String) async throws {
        try await AH.with { apns in
            apns.standIn.inject(.reason(reason, status: status))
            let faulted = try await apns.push()
            #expect(faulted.status == status && faulted.reason == reason)
            #expect(faulted.apnsID != nil)
            #expect(try await apns.push().status == 200)
            #expect(apns.standIn.deliveries().count == 1)
        }
    }

    @Test func injected429CarriesRetryAfter() async throws {
        try await AH.with { apns in
            apns.standIn.inject(.reason("TooManyRequests", status: 429, count: 2, retryAfterSeconds: 3))
            for _ in 0..<2 {
                let reply = try await apns.push()
                #expect(reply.status == 429 && reply.reason == "TooManyRequests")
                #expect(reply.headers.first(name: "retry-after") == "3")
            }
            #expect(try await apns.push().status == 200)
        }
    }

    @Test func faultsCountOnlyRequestsThatWouldSucceedAndCanTargetOneDevice() async throws {
        try await AH.with { apns async throws in
            apns.standIn.register(deviceToken: "other")
            apns.standIn.inject(.reason("ServiceUnavailable", status: 503, deviceToken: "other"))
            #expect(try await apns.push(headers: ["apns-topic": "x"]).reason == "BadTopic")  // not consumed
            #expect(try await apns.push(device: "other", payload: "").reason == "PayloadEmpty")  // not consumed
            #expect(try await apns.push().status == 200)  // another device
            #expect(try await apns.push(device: "other").status == 503)
            #expect(try await apns.push(device: "other").status == 200)
        }
    }

    /// The latency sleeps on a manual clock: the answer is held (the push accepted, nothing answered
    /// yet) until the test moves the clock by exactly the injected delay.
    @Test func injectedLatencyDelaysASuccessfulAnswer() async throws {
        let latency = ManualClock()
        try await AH.with(latencyClock: latency) { apns in
            apns.standIn.inject(.latency(.milliseconds(300)))
            let pushing = Task { try await apns.push() }
            await latency.waitForSleepers(1)
            #expect(latency.sleeps == [.milliseconds(300)])
            #expect(apns.standIn.deliveries().count == 1, "accepted before the delay")
            #expect(apns.standIn.requests().isEmpty, "not answered during it")
            latency.advance(by: .milliseconds(299))
            #expect(latency.suspendedSleepers == 1, "still held")
            latency.advance(by: .milliseconds(1))
            let reply = try await pushing.value
            #expect(reply.status == 200)
            #expect(apns.standIn.requests().map(\.status) == [200])
            #expect(apns.standIn.deliveries().count == 1)
        }
    }

    @Test func configuredLatencyDelaysEveryAnswer() async throws {
        let latency = ManualClock()
        try await AH.with({ $0.latency = .milliseconds(150) }, latencyClock: latency) { apns in
            for (index, headers) in ([[:], ["apns-topic": "x"]] as [[String: String?]]).enumerated() {
                let pushing = Task { try await apns.push(headers: headers) }
                await latency.waitForSleepers(1)
                #expect(latency.sleeps.count == index + 1 && latency.sleeps.last == .milliseconds(150))
                #expect(apns.standIn.requests().count == index, "held before anything is checked or answered")
                latency.advance(by: .milliseconds(150))
                _ = try await pushing.value
                #expect(apns.standIn.requests().count == index + 1)
            }
            #expect(apns.standIn.requests().map(\.status) == [200, 400], "the good push and the bad topic, each held first")
        }
    }

    // MARK: Control plane

    @Test func controlPlaneRejectsMistakes() async throws {
        try await AH.with { apns in
            #expect(try await apns.control(.POST, "/_fake/devices", json: #"{"environment":"sandbox"}"#).status == 400)
            #expect(try await apns.control(.POST, "/_fake/devices", json: #"{"token":"x","environment":"staging"}"#).status == 400)
            #expect(try await apns.control(.POST, "/_fake/faults", json: #"{"count":0,"status":500,"reason":"X"}"#).status == 400)
            #expect(try await apns.control(.POST, "/_fake/faults", json: #"{"count":1}"#).status == 400)
            let unknown = try await apns.control(.GET, "/_fake/nothing")
            #expect(unknown.status == 404 && (unknown.json["error"] as? String)?.isEmpty == false)
            #expect(try await apns.push().status == 200)  // no fault was queued
        }
    }

    @Test func recordsAreJSONCodableIndependentlyOfEncoderStrategies() throws {
        let fault = APNsFault.reason("TooManyRequests", status: 429, count: 2, deviceToken: "ab", retryAfterSeconds: 5)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        #expect(try JSONDecoder().decode(APNsFault.self, from: encoder.encode(fault)) == fault)
        let latency = APNsFault.latency(.milliseconds(250), count: 3)
        #expect(try JSONDecoder().decode(APNsFault.self, from: encoder.encode(latency)) == latency)
    }

    // MARK: Logs

    @Test func logsCarryNoDeviceTokenJWTOrPayload() async throws {
        let log = LogCapture()
        let secret = "Oncology consult at 15:45"
        let token = try AH.jwt(issuedAt: AH.pinned)
        try await AH.with(logger: log.logger("alfred.standin.apns.test")) { apns async throws in
            #expect(try await apns.push(payload: #"{"aps":{"alert":"\#(secret)"}}"#).status == 200)
            #expect(try await apns.push(headers: ["apns-topic": "x"]).status == 400)
            #expect(try await apns.push(device: "deadbeef00").status == 400)
        }
        let lines = log.all
        #expect(lines.contains { $0.contains("apns stand-in push") })
        for leak in [AH.device, "deadbeef00", secret, String(token.suffix(40))] {
            #expect(!lines.contains { $0.contains(leak) }, "a log line leaked \(leak.prefix(12))…")
        }
    }

    // MARK: Helpers

    /// A JSON object of exactly `bytes` bytes.
    static func payload(bytes: Int) -> String {
        let frame = #"{"aps":{"alert":""}}"#
        return #"{"aps":{"alert":"\#(String(repeating: "x", count: bytes - frame.utf8.count))"}}"#
    }
}
