import AlfredCore
import AlfredTesting
import APNs
import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOCore
import ServiceLifecycle
import StandIns
import Testing

/// The APNs client's manners on a shared HTTP/2 connection, against the stand-in over TLS.
///
/// Issue #19's dropped connections: the client returned on a 200's status line and dropped the
/// answer, so every answer whose END_STREAM came in a later frame made it reset the stream.
/// NIO's servers (the stand-in's) allow 200 resets per 30 s, then send GOAWAY(ENHANCE_YOUR_CALM)
/// and close the connection, with every push in flight on it; Apple's servers guard against
/// rapid resets too.
@Suite(.timeLimit(.minutes(5))) struct APNsConnectionTests {
    static let teamID = "TEAMALFRED", keyID = "KEYALFRED1", topic = "com.example.alfred"

    /// Runs `body` with a stand-in whose 200s end `endStreamDelay` after their headers, and a client for it.
    private func withStandIn(endStreamDelay: Duration = .milliseconds(50),
                             _ body: (APNsStandIn, APNsClient, ProviderTokenMinter) async throws -> Void) async throws {
        let key = P256.Signing.PrivateKey()
        var configuration = APNsStandIn.Configuration(teamID: Self.teamID, providerKeys: [Self.keyID: key.publicKey],
                                                      tls: try TestCertificateAuthority.generate())
        configuration.endStreamDelay = endStreamDelay
        let apns = APNsStandIn(configuration: configuration, logger: TestDatabase.quietLogger)
        var client = APNsConfiguration(topic: Self.topic)
        client.extraTrustRootsPEM = [configuration.tls.caCertificatePEM]
        let http = try APNsClient.makeHTTPClient(configuration: client)
        try await withRunningServices([apns], logger: TestDatabase.quietLogger) {
            let root = try await apns.baseURL()
            client.sandboxURL = root
            client.productionURL = root
            let minter = ProviderTokenMinter(signer: ProviderTokenSigner(keyID: Self.keyID, teamID: Self.teamID, key: key),
                                             now: { apns.clock.now() })
            do {
                try await body(apns, APNsClient(http: http, configuration: client, tokens: minter, logger: TestDatabase.quietLogger), minter)
            } catch {
                try? await http.shutdown()
                throw error
            }
            try await http.shutdown()
        }
    }

    private static func token() -> String { (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined() }

    @Test func everyAnswerIsReadToItsEndSoPastTheServersResetLimitTheConnectionStays() async throws {
        try await withStandIn { apns, client, _ in
            let devices = (0..<300).map { _ in Self.token() }
            for device in devices { apns.register(deviceToken: device) }
            // 300 pushes, 8 at a time: well past the 200 resets a server takes in 30 s.
            let accepted = try await withThrowingTaskGroup(of: Bool.self) { group in
                var pending = devices.makeIterator(), accepted = 0
                func next() -> Bool {
                    guard let device = pending.next() else { return false }
                    group.addTask {
                        let response = try await client.send(APNsRequest(
                            deviceToken: device, environment: .sandbox, pushType: .alert, priority: 10, expiration: nil,
                            collapseID: nil, apnsID: UUID(), payload: APNsPayload.alert(title: "Standup in 10 min", body: "Room 2", threadID: "calendar", kind: "calendar", timeSensitive: true)))
                        if case .accepted = response { return true }
                        return false
                    }
                    return true
                }
                for _ in 0..<8 where next() {}
                while let ok = try await group.next() {
                    if ok { accepted += 1 }
                    _ = next()
                }
                return accepted
            }
            #expect(accepted == 300)
            #expect(apns.deliveries().count == 300)
            #expect(apns.abandonedAnswers() == 0, "the client reset streams it had an answer on")
        }
    }

    /// The control: the stand-in does see an answer dropped before its end (which comes 5 s after
    /// the headers here, so the client has surely dropped it by then).
    @Test func theStandInCountsAnAnswerDroppedBeforeItsEnd() async throws {
        try await withStandIn(endStreamDelay: .seconds(5)) { apns, client, minter in
            let device = Self.token()
            apns.register(deviceToken: device)
            // A push sent by hand, its answer dropped at the status line.
            var push = HTTPClientRequest(url: "\(try await apns.baseURL())/3/device/\(device)")
            push.method = .POST
            push.headers.add(name: "authorization", value: "bearer \(try await minter.providerToken(rejected: nil).jwt)")
            push.headers.add(name: "apns-topic", value: Self.topic)
            push.headers.add(name: "apns-push-type", value: "alert")
            push.body = .bytes(ByteBuffer(bytes: APNsPayload.alert(title: "Standup in 10 min", body: "Room 2", threadID: "calendar", kind: "calendar", timeSensitive: true)))
            do {
                let response = try await client.http.execute(push, timeout: .seconds(30))
                #expect(response.status == .ok)
            }  // the unread answer goes here
            #expect(try await eventually(timeout: .seconds(30)) { apns.abandonedAnswers() == 1 })
        }
    }
}
