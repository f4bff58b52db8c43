import AlfredCore
import AlfredTestCluster
import ArgumentParser
import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import PostgresNIO
import StandIns
import Store
import BrokerClient
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// `swift build -c release && swift run -c release alfred-bench broker`
///
/// The token broker as it runs in production: `alfred-key-service serve`, `alfred-attestor`, `alfred-dev sandbox google` and
/// `alfred-broker` as separate processes on a private Postgres; this process is the worker side,
/// calling the broker's socket. Cold: each call decrypts (attestation + key service) and refreshes
/// at Google. Warm: cached tokens. The last line is one JSON object.
struct BrokerBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "broker", abstract: "access_token throughput (warm) and latency (cold).")

    @Option(help: "Connectors to create (the stand-in keeps at most 100 refresh tokens per user).") var connectors = 90
    @Option(help: "Warm requests in total.") var requests = 200_000
    @Option(help: "Concurrent callers for the warm run.") var concurrency = 64
    @Option(help: "Socket connections the client uses.") var connections = 4
    @Option(help: "Path of the alfred executable (default: beside this one).") var alfred: String?

    func run() async throws {
        let logger = { var l = Logger(label: "bench"); l.logLevel = .error; return l }()
        let binary = try alfredExecutable(alfred)
        print("starting a private PostgreSQL, the key service, the Google stand-in and the broker as processes…")
        let stack = try await BrokerStack.start(binary: binary, logger: logger)
        defer { stack.stop() }
        let userID = try await stack.newUser()
        func startBroker() async throws -> ChildProcess { try await stack.startBroker() }
        let base = stack.googleBase
        let brokerSocket = stack.brokerSocket
        var broker = try await startBroker()
        let client = BrokerClient(configuration: { var c = BrokerClient.Configuration(socketPath: brokerSocket); c.connectionCount = connections; return c }())

        var ids: [String] = []
        for _ in 0..<connectors {
            let (code, verifier) = try await BrokerStack.consent(base)
            let connected = try await client.exchangeCode(CodeExchange(
                userID: userID.uuidString, code: Redacted(code), codeVerifier: Redacted(verifier),
                redirectURI: "http://127.0.0.1:9/oauth/google/callback"))
            ids.append(connected.connectorID)
        }

        // Cold: a restarted broker has no cached token, so each first call decrypts and refreshes.
        var cold: [Double] = []
        for _ in 0..<2 {
            broker.signal(SIGTERM)
            _ = await broker.exitCode()
            broker = try await startBroker()
            for id in ids {
                let start = ContinuousClock.now
                _ = try await client.accessToken(connectorID: id)
                cold.append(start.duration(to: .now).seconds * 1000)
            }
        }
        cold.sort()
        let p50 = cold[cold.count / 2], p99 = cold[min(cold.count - 1, Int(Double(cold.count) * 0.99))], coldMax = cold.last ?? 0
        print(String(format: "cold access_token (key service + Google refresh), %d calls: p50 %.1f ms, p99 %.1f ms, max %.1f ms",
                     cold.count, p50, p99, coldMax))

        // Warm: every token cached in the broker.
        let perCaller = requests / concurrency
        let connectorIDs = ids
        let start = ContinuousClock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for caller in 0..<concurrency {
                group.addTask {
                    for n in 0..<perCaller { _ = try await client.accessToken(connectorID: connectorIDs[(caller + n) % connectorIDs.count]) }
                }
            }
            try await group.waitForAll()
        }
        let warm = Double(perCaller * concurrency) / start.duration(to: .now).seconds
        print(String(format: "warm access_token over the socket: %.0f requests/s (%d callers, %d connections)", warm, concurrency, connections))
        await client.close()
        broker.signal(SIGTERM)
        _ = await broker.exitCode()
        let summary: [String: Any] = [
            "warm_access_token_per_s": Int(warm), "cold_p50_ms": (p50 * 10).rounded() / 10, "cold_p99_ms": (p99 * 10).rounded() / 10,
            "cold_max_ms": (coldMax * 10).rounded() / 10, "cold_samples": cold.count,
        ]
        print(String(decoding: try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys]), as: UTF8.self))
    }
}

/// The broker as it runs in production, for benchmarks: a private durable Postgres (migrated),
/// `alfred-key-service serve`, `alfred-dev sandbox google` and `alfred-broker` as separate processes.
struct BrokerStack {
    let binary: String
    let folder: URL
    let cluster: EmbeddedPostgres
    let owner: DatabaseURL
    let keyService: ChildProcess
    let attestor: ChildProcess
    let google: ChildProcess
    let googleBase: String
    let brokerSocket: String
    let environment: [String: String]
    let logger: Logger

    static func start(binary: String, logger: Logger) async throws -> BrokerStack {
        let folder = URL(fileURLWithPath: "/tmp/alfred-bb-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let cluster = try await EmbeddedPostgres(options: .init(durable: true))
        let owner = try await cluster.createDatabase("bench", logger: logger)
        try await TestDatabase.migrate(owner, logger: logger)
        var brokerDB = owner
        brokerDB.username = "alfred_broker"
        let keys = folder.appendingPathComponent("keys").path
        let keySocket = folder.appendingPathComponent("ks.sock").path
        let brokerSocket = folder.appendingPathComponent("broker.sock").path
        let attestorDir = folder.appendingPathComponent("attestor").path
        let attestorSocket = folder.appendingPathComponent("attestor.sock").path
        let brokerBinary = try siblingExecutable("alfred-broker", of: binary)
        let keyBinary = try siblingExecutable("alfred-key-service", of: binary)
        let initialized = try await AlfredTestCluster.run(keyBinary, ["init", "--dir", keys, "--attestor-dir", attestorDir,
                                                                  "--broker-executable", brokerBinary])
        guard initialized.code == 0 else { throw ValidationError("alfred-key-service init failed: \(initialized.output)") }
        let keyService = try ChildProcess(keyBinary, ["serve", "--dir", keys, "--socket", keySocket, "--log-level", "error"])
        let attestor = try ChildProcess(try siblingExecutable("alfred-attestor", of: binary), [
            "--dir", attestorDir, "--socket", attestorSocket, "--allow-uid", "\(getuid())", "--log-level", "error"])
        let port = try EmbeddedPostgres.freePort()
        let google = try ChildProcess(try siblingExecutable("alfred-dev", of: binary),
                                      ["sandbox", "google", "--port", "\(port)", "--log-level", "error"])
        try await waitFor {
            FileManager.default.fileExists(atPath: keySocket) && FileManager.default.fileExists(atPath: attestorSocket)
                && google.output.contains("google stand-in")
        }
        let base = "http://127.0.0.1:\(port)"
        let environment = [
            "ALFRED_DATABASE_URL": brokerDB.secretString.unsafeValue, "ALFRED_BROKER_SOCKET": brokerSocket,
            "ALFRED_KEY_SERVICE_SOCKET": keySocket, "ALFRED_ATTESTOR_SOCKET": attestorSocket, "GOOGLE_TOKEN_URL": base + "/token",
            "GOOGLE_REVOKE_URL": base + "/revoke", "GOOGLE_CLIENT_ID": "alfred-local.apps.googleusercontent.com",
            "GOOGLE_CLIENT_SECRET": "alfred-local-secret", "ALFRED_LOG_LEVEL": "error",
        ]
        return BrokerStack(binary: brokerBinary, folder: folder, cluster: cluster, owner: owner, keyService: keyService,
                           attestor: attestor, google: google,
                           googleBase: base, brokerSocket: brokerSocket, environment: environment, logger: logger)
    }

    func newUser() async throws -> UUID {
        let userID = UUID()
        try await TestDatabase.withClient(owner) { client in
            _ = try await client.query("INSERT INTO users (id) VALUES (\(userID))", logger: logger).collect()
        }
        return userID
    }

    func startBroker() async throws -> ChildProcess {
        try? FileManager.default.removeItem(atPath: brokerSocket)
        let broker = try ChildProcess(binary, [], environment: environment)
        try await Self.waitFor { FileManager.default.fileExists(atPath: brokerSocket) }
        return broker
    }

    func stop() {
        keyService.signal(SIGTERM)
        attestor.signal(SIGTERM)
        google.signal(SIGTERM)
        cluster.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    /// The browser half of connect: consent at the stand-in returns a code for our PKCE challenge.
    static func consent(_ base: String) async throws -> (String, String) {
        try await ConsentBrowser.authorize(
            authorizationURL: base + "/o/oauth2/v2/auth", clientID: "alfred-local.apps.googleusercontent.com",
            redirectURI: "http://127.0.0.1:9/oauth/google/callback", scopes: ["https://www.googleapis.com/auth/calendar.readonly"],
            state: "bench")
    }

    static func waitFor(_ condition: () -> Bool) async throws {
        try await AlfredBench.waitUntil("a service", timeout: .seconds(30), condition)
    }
}
