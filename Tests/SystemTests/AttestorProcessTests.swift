import AlfredCore
import AlfredTestCluster
import AsyncHTTPClient
import Attestation
import BrokerClient
import Foundation
import Logging
import StandIns
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The trust boundary the key service enforces, with every party its own process: `alfred-key-service`,
/// `alfred-attestor` and `alfred-broker` as built, on Unix sockets, with the Google stand-in and a
/// real database. The attestor measures whoever connects to it, so only the broker executable the
/// key policy allows can get a refresh token stored or decrypted.
@Suite(.timeLimit(.minutes(10))) struct AttestorProcessTests {
    struct Stack {
        let folder: URL
        let world: BrokerWorld
        let keyDirectory: String
        let attestorSocket: String
        let keySocket: String
        let brokerSocket: String
        let google: GoogleStandIn
        let children: [ChildProcess]
        var auditLog: String { (try? String(contentsOfFile: keyDirectory + "/audit.log", encoding: .utf8)) ?? "" }
    }

    /// Keys made by `alfred-key-service init` for the real `alfred-broker`, then the key service, the
    /// attestor (allowing `attestorUID`) and `brokerExecutable` started as processes.
    static func withStack(brokerExecutable: String? = nil, attestorUID: UInt32 = UInt32(getuid()), keyMetricsPort: Int? = nil,
                          _ body: (Stack) async throws -> Void) async throws {
        let world = try await BrokerWorld.make()
        defer { world.remove() }
        let folder = world.folder
        let keys = folder.appendingPathComponent("proc-keys").path, attestorDir = folder.appendingPathComponent("proc-attestor").path
        let initialized = try await run(AlfredBinary.keyService, ["init", "--dir", keys, "--attestor-dir", attestorDir])
        #expect(initialized.code == 0, "\(initialized.output)")
        #expect(initialized.output.contains(try AlfredBinary.broker), "the policy allows the alfred-broker beside it by default")
        let keySocket = folder.appendingPathComponent("k.sock").path, attestorSocket = folder.appendingPathComponent("a.sock").path
        let brokerSocket = folder.appendingPathComponent("b.sock").path
        let keyService = try ChildProcess(AlfredBinary.keyService, ["serve", "--dir", keys, "--socket", keySocket]
                                          + (keyMetricsPort.map { ["--metrics-port", "\($0)"] } ?? []))
        defer { keyService.signal(SIGTERM) }
        let attestor = try ChildProcess(AlfredBinary.attestor, ["--dir", attestorDir, "--socket", attestorSocket,
                                                                "--allow-uid", "\(attestorUID)"])
        defer { attestor.signal(SIGTERM) }
        let google = GoogleStandIn(configuration: BrokerWorld.googleConfiguration(), logger: TestDatabase.quietLogger)
        try await withRunningServices([google], logger: TestDatabase.quietLogger) {
            let endpoints = try await google.endpoints()
            let broker = try ChildProcess(brokerExecutable ?? AlfredBinary.broker, [], environment: [
                "ALFRED_DATABASE_URL": world.brokerURL.secretString.unsafeValue, "ALFRED_BROKER_SOCKET": brokerSocket,
                "ALFRED_KEY_SERVICE_SOCKET": keySocket, "ALFRED_ATTESTOR_SOCKET": attestorSocket,
                "GOOGLE_CLIENT_ID": BrokerWorld.clientID, "GOOGLE_CLIENT_SECRET": BrokerWorld.clientSecret,
                "GOOGLE_TOKEN_URL": endpoints.tokenURL, "GOOGLE_REVOKE_URL": endpoints.revokeURL,
            ])
            defer { broker.signal(SIGTERM) }
            let children = [keyService, attestor, broker]
            #expect(try await eventually { [keySocket, attestorSocket, brokerSocket].allSatisfy { FileManager.default.fileExists(atPath: $0) } },
                    "\(children.map(\.output).joined(separator: "\n"))")
            try await body(Stack(folder: folder, world: world, keyDirectory: keys, attestorSocket: attestorSocket, keySocket: keySocket,
                                 brokerSocket: brokerSocket, google: google, children: children))
        }
    }

    static func connect(_ stack: Stack) async throws -> ConnectedConnector {
        let endpoints = try await stack.google.endpoints()
        let (code, verifier) = try await ConsentBrowser.authorize(
            authorizationURL: endpoints.authorizationURL, clientID: BrokerWorld.clientID, redirectURI: BrokerWorld.redirectURI,
            scopes: [BrokerWorld.calendar], loginHint: BrokerWorld.subject, state: "s1")
        var configuration = BrokerClient.Configuration(socketPath: stack.brokerSocket)
        configuration.requestTimeout = .seconds(120)
        let client = BrokerClient(configuration: configuration)
        defer { Task { await client.close() } }
        let connected = try await client.exchangeCode(CodeExchange(
            userID: stack.world.userID.uuidString, code: Redacted(code), codeVerifier: Redacted(verifier), redirectURI: BrokerWorld.redirectURI))
        _ = try await client.accessToken(connectorID: connected.connectorID)
        // The decrypt path too: revoking at Google needs the refresh token opened.
        try await client.revoke(connectorID: connected.connectorID)
        return connected
    }

    static func revocations(_ stack: Stack) -> Int {
        stack.google.recordedRequests().filter { $0.path == OAuthEndpoints.revokePath }.count
    }

    /// The key service also exports when the chain it verified expires, which the renewal alert watches.
    @Test func theAllowedBrokerExecutableStoresAndOpensARefreshToken() async throws {
        let port = try EmbeddedPostgres.freePort()
        try await Self.withStack(keyMetricsPort: port) { stack in
            let connected = try await Self.connect(stack)
            #expect(!connected.connectorID.isEmpty)
            #expect(Self.revocations(stack) == 1)
            // The broker restricted itself: no new privileges for anything it runs.
            let status = try String(contentsOfFile: "/proc/\(stack.children[2].pid)/status", encoding: .utf8)
            #expect(status.contains("NoNewPrivs:\t1"), "\(status)")
            let audit = stack.auditLog
            #expect(audit.contains(#""operation":"generate_data_key""#) && audit.contains(#""operation":"decrypt""#), "\(audit)")
            #expect(!audit.contains(#""decision":"deny""#), "\(audit)")
            #expect(audit.contains(#""runtime":"alfred-local""#))
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/metrics")
            request.method = .GET
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            let metrics = String(buffer: try await response.body.collect(upTo: 1 << 20))
            let line = metrics.split(separator: "\n").first { $0.hasPrefix("alfred_attestation_chain_expiry_timestamp_seconds") }
            let expiry = line.flatMap { $0.split(separator: " ").last }.flatMap { Double($0) }
            // The authority `init` made lasts two years; its root ten.
            #expect(expiry.map { $0 > Date().addingTimeInterval(700 * 86_400).timeIntervalSince1970 } == true, "\(line ?? "no line")")
        }
    }

    /// One byte appended to the broker's executable: it still runs, but the attestor measures the
    /// modified file, the key service denies it, and the grant Google gave is revoked, not kept.
    @Test func aModifiedBrokerExecutableIsDenied() async throws {
        let folder = URL(fileURLWithPath: "/tmp/alfred-mod-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let modified = folder.appendingPathComponent("alfred-broker").path
        var bytes = try Data(contentsOf: URL(fileURLWithPath: try AlfredBinary.broker))
        bytes.append(0)
        try bytes.write(to: URL(fileURLWithPath: modified))
        chmod(modified, 0o755)
        try await Self.withStack(brokerExecutable: modified) { stack in
            await #expect(throws: BrokerError.self) { _ = try await Self.connect(stack) }
            let audit = stack.auditLog
            #expect(audit.contains(#""reason":"measurement_not_allowed""#), "\(audit)")
            #expect(!audit.contains(#""decision":"permit""#), "\(audit)")
            #expect(try await eventually { Self.revocations(stack) == 1 }, "the grant is revoked at Google")
            let rows = try await TestDatabase.withClient(stack.world.ownerURL) { client in
                var count = -1
                for try await value in try await client.query("SELECT count(*)::int FROM connectors", logger: TestDatabase.quietLogger)
                    .decode(Int.self) { count = value }
                return count
            }
            #expect(rows == 0)
        }
    }

    /// The attestor gives evidence only to the broker's OS user: another user's process (here the real
    /// broker, when the attestor allows a different uid) gets none, whatever it runs.
    @Test func anotherUsersProcessGetsNoEvidence() async throws {
        try await Self.withStack(attestorUID: UInt32(getuid()) + 1) { (stack: Stack) async throws in
            await #expect(throws: BrokerError.self) { _ = try await Self.connect(stack) }
            #expect(!stack.auditLog.contains(#""decision":"permit""#))
            #expect(try await eventually { Self.revocations(stack) == 1 }, "the grant is revoked at Google")
            // Asked directly, the attestor says why.
            let error = await #expect(throws: AttestorError.self) {
                _ = try await AttestorClient(socketPath: stack.attestorSocket).evidence(nonce: [1, 2, 3])
            }
            #expect(error?.code == .denied)
        }
    }

    /// The attestor gone (killed): a connect gets a retryable "unavailable", not an internal error, and
    /// the grant Google issued is revoked rather than dropped.
    @Test func anAbsentAttestorIsRetryableAndTheGrantIsRevoked() async throws {
        try await Self.withStack { (stack: Stack) async throws in
            stack.children[1].signal(SIGKILL)
            _ = await stack.children[1].waitForExit(timeout: .seconds(30))
            let error = await #expect(throws: BrokerError.self) { _ = try await Self.connect(stack) }
            #expect(error?.code == .upstreamUnavailable && error?.retryable == true, "\(String(describing: error))")
            #expect(try await eventually { Self.revocations(stack) == 1 }, "the grant is revoked at Google")
            #expect(!stack.auditLog.contains(#""decision":"permit""#))
        }
    }

    /// A process the attestor does allow, but which is not the broker (this test process), gets
    /// evidence naming its own executable and user: never the broker's measurement.
    @Test func evidenceNamesTheCallersOwnExecutableNotTheBrokers() async throws {
        try await Self.withStack { stack in
            let client = AttestorClient(socketPath: stack.attestorSocket)
            let document = try AttestationDocument(bytes: try await client.evidence(nonce: [7, 7, 7]))
            let mine = try LocalAttestation.measure(LocalAttestation.currentExecutable)
            #expect(document.pcrs[0] == mine)
            #expect(document.pcrs[0] != (try LocalAttestation.measure(URL(fileURLWithPath: try AlfredBinary.broker))))
            #expect(document.pcrs[3] == LocalAttestation.userMeasurement(uid: UInt32(getuid())))
            #expect(document.nonce == [7, 7, 7])
            #expect(document.publicKey == Array(client.recipientKey.publicKey.derRepresentation))
            // The key service's own check: this evidence is authentic but not the allowed broker.
            let root = try String(contentsOfFile: stack.keyDirectory + "/attestation-root.pem", encoding: .utf8)
            let policy = try String(contentsOfFile: stack.keyDirectory + "/key-policy.json", encoding: .utf8)
            let rules = try JSONDecoder().decode(PolicyFile.self, from: Data(policy.utf8))
            let verifier = try AttestationVerifier(rootPEM: root)
            let evidence = try await client.evidence(nonce: [1])
            let error = #expect(throws: AttestationError.self) {
                _ = try verifier.verify(evidence, policy: rules.attestation, at: Date())
            }
            #expect(error?.reason == .measurementNotAllowed)
        }
    }

    struct PolicyFile: Decodable {
        let attestation: AttestationPolicy
        init(from decoder: any Decoder) throws { attestation = try AttestationPolicy(from: decoder) }
    }
}
