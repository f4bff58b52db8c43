import AlfredCore
import AlfredTestCluster
import APNs
import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import StandIns
import Synchronization
import Testing

/// The APNs client's manners on its HTTP/2 connections, against the stand-in over TLS: answers read
/// to their end, GOAWAY, dropped connections, timeouts, a server that is down and comes back.
///
/// Issue #19's dropped connections: the client returned on a 200's status line and dropped the
/// answer, so every answer whose END_STREAM came in a later frame made it reset the stream.
/// NIO's servers (the stand-in's) allow 200 resets per 30 s, then send GOAWAY(ENHANCE_YOUR_CALM)
/// and close the connection, with every push in flight on it; Apple's servers guard against
/// rapid resets too.
@Suite(.timeLimit(.minutes(5))) struct APNsConnectionTests {
    static let teamID = "TEAMALFRED", keyID = "KEYALFRED1", topic = "com.example.alfred"

    struct Harness {
        let apns: APNsStandIn
        let client: APNsClient
        let minter: ProviderTokenMinter
        let caPEM: String
    }

    /// Runs `body` with a stand-in whose 200s end `endStreamDelay` after their headers, and a client for it.
    private func withStandIn(endStreamDelay: Duration = .milliseconds(50), port: Int = 0,
                             key: P256.Signing.PrivateKey = .init(), ca: TestCertificateAuthority? = nil,
                             connectionsPerHost: Int = 2, timeout: Duration = .seconds(10), byName: Bool = false,
                             latencyClock: any Clock<Duration> = ContinuousClock(),
                             _ body: (Harness) async throws -> Void) async throws {
        var configuration = APNsStandIn.Configuration(teamID: Self.teamID, providerKeys: [Self.keyID: key.publicKey],
                                                      tls: try ca ?? TestCertificateAuthority.generate())
        configuration.endStreamDelay = endStreamDelay
        configuration.port = port
        let apns = APNsStandIn(configuration: configuration, latencyClock: latencyClock, logger: TestDatabase.quietLogger)
        var client = APNsConfiguration(topic: Self.topic)
        client.extraTrustRootsPEM = [configuration.tls.caCertificatePEM]
        client.connectionsPerHost = connectionsPerHost
        client.timeout = timeout
        try await withRunningServices([apns], logger: TestDatabase.quietLogger) {
            // By name, the client sends SNI and checks the name against the certificate; by address, the address.
            let address = try await apns.baseURL()
            let root = byName ? address.replacingOccurrences(of: "127.0.0.1", with: "localhost") : address
            client.sandboxURL = root
            client.productionURL = root
            let minter = ProviderTokenMinter(signer: ProviderTokenSigner(keyID: Self.keyID, teamID: Self.teamID, key: key),
                                             now: { apns.clock.now() })
            let sender = try APNsClient(configuration: client, tokens: minter, logger: TestDatabase.quietLogger)
            do {
                try await body(Harness(apns: apns, client: sender, minter: minter, caPEM: configuration.tls.caCertificatePEM))
            } catch {
                await sender.shutdown()
                throw error
            }
            await sender.shutdown()
        }
    }

    private static func token() -> String { (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined() }

    private static func push(to device: String) -> APNsRequest {
        APNsRequest(deviceToken: device, environment: .sandbox, pushType: .alert, priority: 10, expiration: nil,
                    collapseID: nil, apnsID: UUID(),
                    payload: APNsPayload.alert(title: "Standup in 10 min", body: "Room 2", threadID: "calendar", kind: "calendar",
                                               timeSensitive: true))
    }

    /// Sends one push to each device, `width` at a time; returns how many were accepted.
    private static func sendAll(_ devices: [String], width: Int, with client: APNsClient) async throws -> Int {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            var pending = devices.makeIterator(), accepted = 0
            func next() -> Bool {
                guard let device = pending.next() else { return false }
                group.addTask {
                    if case .accepted = try await client.send(Self.push(to: device)) { return true }
                    return false
                }
                return true
            }
            for _ in 0..<width where next() {}
            while let ok = try await group.next() {
                if ok { accepted += 1 }
                _ = next()
            }
            return accepted
        }
    }

    private static func register(_ count: Int, at apns: APNsStandIn) -> [String] {
        let devices = (0..<count).map { _ in Self.token() }
        for device in devices { apns.register(deviceToken: device) }
        return devices
    }

    @Test func everyAnswerIsReadToItsEndSoPastTheServersResetLimitTheConnectionStays() async throws {
        try await withStandIn { h in
            let devices = Self.register(300, at: h.apns)
            // 300 pushes, 8 at a time: well past the 200 resets a server takes in 30 s.
            let accepted = try await Self.sendAll(devices, width: 8, with: h.client)
            #expect(accepted == 300)
            #expect(h.apns.deliveries().count == 300)
            #expect(h.apns.abandonedAnswers() == 0, "the client reset streams it had an answer on")
        }
    }

    /// The control: the stand-in does see an answer dropped before its end (which comes 5 s after
    /// the headers here, so the client has surely dropped it by then).
    @Test func theStandInCountsAnAnswerDroppedBeforeItsEnd() async throws {
        try await withStandIn(endStreamDelay: .seconds(5)) { h in
            let device = Self.token()
            h.apns.register(deviceToken: device)
            // A push sent by hand with another client, its answer dropped at the status line.
            var push = HTTPClientRequest(url: "\(try await h.apns.baseURL())/3/device/\(device)")
            push.method = .POST
            push.headers.add(name: "authorization", value: "bearer \(try await h.minter.providerToken(rejected: nil).jwt)")
            push.headers.add(name: "apns-topic", value: Self.topic)
            push.headers.add(name: "apns-push-type", value: "alert")
            push.body = .bytes(ByteBuffer(bytes: Self.push(to: device).payload))
            let http = try TestHTTP.client(trusting: [h.caPEM])
            do {
                let response = try await http.execute(push, timeout: .seconds(30))
                #expect(response.status == .ok)
            }  // the unread answer goes here
            #expect(try await eventually(timeout: .seconds(30)) { h.apns.abandonedAnswers() == 1 })
            try await http.shutdown()
        }
    }

    /// A server going away says which streams it did not process (those above its GOAWAY's last
    /// stream id). The client sends exactly those again on a new connection: every push arrives,
    /// none twice, and none is left in doubt.
    @Test func afterGoAwayWhatTheServerDidNotProcessIsSentOnANewConnectionAndNothingTwice() async throws {
        try await withStandIn(endStreamDelay: .zero, connectionsPerHost: 1) { h in
            let devices = Self.register(200, at: h.apns)
            let before = try await Self.sendAll(Array(devices[..<40]), width: 16, with: h.client)
            #expect(before == 40)
            // Alone in flight, this push makes the server go away: it is not processed, for sure.
            h.apns.inject(.goAway(deviceToken: devices[40]))
            guard case .accepted = try await h.client.send(Self.push(to: devices[40])) else {
                Issue.record("the push the server went away on was not accepted on the next connection")
                return
            }
            #expect(h.apns.droppedByGoAway() == 1)
            // Then again with 16 in flight: whatever it did not process is sent again.
            h.apns.inject(.goAway())
            let after = try await Self.sendAll(Array(devices[41...]), width: 16, with: h.client)
            #expect(after == 159)
            #expect(h.apns.goAwaysSent() == 2)
            let delivered = h.apns.deliveries().map(\.deviceToken)
            #expect(delivered.count == 200, "a push was lost or shown twice")
            #expect(Set(delivered) == Set(devices))
        }
    }

    /// A host name (SNI, and the name checked against the certificate) works as an address does.
    @Test func aHostByNameIsCheckedAgainstTheCertificate() async throws {
        try await withStandIn(byName: true) { h in
            let device = Self.token()
            h.apns.register(deviceToken: device)
            guard case .accepted = try await h.client.send(Self.push(to: device)) else {
                Issue.record("not accepted by name")
                return
            }
        }
    }

    /// The control for the test above: a certificate that does not name the host is refused (the
    /// TLS handshake fails, nothing is sent), so that test's acceptance says the name was checked.
    @Test func aCertificateForAnotherHostNameIsRefusedAndNothingIsSent() async throws {
        try await withStandIn(ca: try TestCertificateAuthority.generate(hosts: ["apns.example.org"]), byName: true) { h in
            let device = Self.token()
            h.apns.register(deviceToken: device)
            await #expect(throws: APNsClientError.self) { try await h.client.send(Self.push(to: device)) }
            #expect(h.apns.deliveries().isEmpty && h.apns.requests().isEmpty, "no request reached the server")
        }
    }

    /// By address the same: a certificate that names `localhost` but not 127.0.0.1 is refused there.
    @Test func aCertificateWithoutTheAddressIsRefusedAtTheAddress() async throws {
        try await withStandIn(ca: try TestCertificateAuthority.generate(hosts: ["localhost"])) { h in
            let device = Self.token()
            h.apns.register(deviceToken: device)
            await #expect(throws: APNsClientError.self) { try await h.client.send(Self.push(to: device)) }
            #expect(h.apns.deliveries().isEmpty)
        }
    }

    /// A connection that drops after the push was written leaves it in doubt (APNs may have it); the
    /// next push goes on a new connection.
    @Test func aDroppedConnectionLeavesItsPushInDoubtAndTheNextOneReconnects() async throws {
        try await withStandIn { h in
            let devices = Self.register(2, at: h.apns)
            h.apns.inject(.acceptThenReset())
            await #expect(throws: APNsClientError.inDoubt("connection closed (by the server)")) {
                try await h.client.send(Self.push(to: devices[0]))
            }
            let next = try await h.client.send(Self.push(to: devices[1]))
            #expect(next == .accepted(apnsID: h.apns.deliveries().last?.apnsID ?? "none"))
            #expect(h.apns.deliveries().map(\.deviceToken) == devices)
        }
    }

    /// No answer in time: in doubt, and only its stream is reset; the connection stays. (The answer
    /// is held on a clock the test moves only after the client gave up: however slow this machine,
    /// it never comes first.)
    @Test func aPushWithoutAnAnswerInTimeIsInDoubtAndOnlyItsStreamIsReset() async throws {
        let held = ManualClock()
        try await withStandIn(connectionsPerHost: 1, timeout: .seconds(2), latencyClock: held) { h in
            let device = Self.token()
            h.apns.register(deviceToken: device)
            h.apns.inject(.latency(.seconds(10)))
            await #expect(throws: APNsClientError.inDoubt("no answer in time")) {
                try await h.client.send(Self.push(to: device))
            }
            #expect(h.client.openConnections(.sandbox) == 1, "the connection was kept")
            // Let the held answer go (once it is really held), so the stand-in can stop.
            await held.waitForSleepers(1)
            held.advance(by: .seconds(10))
        }
    }

    /// Nothing listening: not sent (safe to retry). Once a server is back on that port, the same
    /// client connects again.
    @Test func aServerThatIsDownMeansNotSentAndTheClientReconnectsOnceItIsBack() async throws {
        let key = P256.Signing.PrivateKey(), ca = try TestCertificateAuthority.generate()
        var root = ""
        try await withStandIn(key: key, ca: ca) { h in root = try await h.apns.baseURL() }
        let port = try #require(URLComponents(string: root)?.port)
        var configuration = APNsConfiguration(topic: Self.topic)
        configuration.sandboxURL = root
        configuration.extraTrustRootsPEM = [ca.caCertificatePEM]
        let clock = StandInClock()
        let sender = try APNsClient(configuration: configuration, tokens: ProviderTokenMinter(
            signer: ProviderTokenSigner(keyID: Self.keyID, teamID: Self.teamID, key: key), now: { clock.now() }),
            logger: TestDatabase.quietLogger)
        let device = Self.token()
        do {
            _ = try await sender.send(Self.push(to: device))
            Issue.record("a push with no server was answered")
        } catch let APNsClientError.network(reason) {
            #expect(reason.hasPrefix("could not connect"))
        }
        try await withStandIn(port: port, key: key, ca: ca) { h in
            h.apns.register(deviceToken: device)
            guard case .accepted = try await sender.send(Self.push(to: device)) else {
                Issue.record("not accepted after the server came back")
                return
            }
        }
        await sender.shutdown()
    }

    /// A server that takes the connection and never answers (not even the TLS handshake): the push
    /// is not written, so once its time is up it fails as not sent (safe to retry), and the stuck
    /// connection is closed rather than reused.
    @Test func aServerThatNeverAnswersTheHandshakeMeansNotSent() async throws {
        let connections = Atomic<Int>(0)
        let silent = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                connections.add(1, ordering: .relaxed)
                return channel.eventLoop.makeSucceededVoidFuture()
            }
            .bind(host: "127.0.0.1", port: 0).get()
        var configuration = APNsConfiguration(topic: Self.topic)
        configuration.sandboxURL = "https://127.0.0.1:\(try #require(silent.localAddress?.port))"
        configuration.timeout = .milliseconds(500)
        let sender = try APNsClient(configuration: configuration, tokens: ProviderTokenMinter(
            signer: ProviderTokenSigner(keyID: Self.keyID, teamID: Self.teamID, key: .init())), logger: TestDatabase.quietLogger)
        do {
            _ = try await sender.send(Self.push(to: Self.token()))
            Issue.record("a server that never answered accepted a push")
        } catch let APNsClientError.network(reason) {
            #expect(reason == "no answer in time")
        }
        #expect(sender.openConnections(.sandbox) == 0, "the stuck connection was closed")
        // Past its deadline it is not tried again on another connection: its caller's retry decides.
        #expect(connections.load(ordering: .relaxed) == 1)
        await sender.shutdown()
        try await silent.close()
    }
}
