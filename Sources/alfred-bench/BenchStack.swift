import AlfredCore
import AlfredTestCluster
import ArgumentParser
import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import Sealing
import Store

/// The system as the chaos and Gmail push runs start it, each part its own process on this machine:
/// a private Postgres at default durability, the Google stand-in (seeded with a scenario) and the
/// APNs stand-in, `alfred-key-service`, `alfred-attestor` and `alfred-broker`. The runs add the
/// workers (and the API) themselves.
struct BenchStack: Sendable {
    static let clientID = "alfred-local.apps.googleusercontent.com", redirect = "http://127.0.0.1:9/oauth/google/callback"
    static let teamID = "CHAOSTEAM1", keyID = "CHAOSKEY01", topic = "com.example.alfred"

    let folder: URL
    let cluster: EmbeddedPostgres
    /// The database, as its owner.
    let owner: DatabaseURL
    let fleet: Fleet
    let googleRoot: String
    let apnsRoot: String
    /// A client for both stand-ins' control planes and the consent pages (it trusts the APNs stand-in's CA).
    let http: HTTPClient
    /// The workers' host data key (sealed device tokens are sealed with it).
    let sealer: HostSealer
    let alfredPath: String
    /// When the Google stand-in started: its scenario's event times count from here.
    let standInsStarted: Date

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func executable(_ name: String) throws -> String { try siblingExecutable(name, of: alfredPath) }

    /// Starts everything, runs `body`, and stops everything (also when `body` throws).
    static func with<T: Sendable>(alfred: String?, scenario: Data, logs: String?, logger: Logger,
                                  _ body: (BenchStack) async throws -> T) async throws -> T {
        let alfredPath = try alfredExecutable(alfred)
        let dev = try siblingExecutable("alfred-dev", of: alfredPath)
        let folder = URL(fileURLWithPath: "/tmp/alfred-bench-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try scenario.write(to: URL(fileURLWithPath: path("scenario.json")))
        let apnsKey = P256.Signing.PrivateKey()
        try apnsKey.pemRepresentation.write(toFile: path("apns.p8"), atomically: true, encoding: .utf8)
        let hostKey = HostSealer.generateKeyBytes()
        try PrivateFile.create(URL(fileURLWithPath: path("host.key")), contents: Data(hostKey.map { String(format: "%02x", $0) }.joined().utf8))

        print("starting a private PostgreSQL, the stand-ins, the key service, the attestor and the broker…")
        let cluster = try await EmbeddedPostgres(options: .init(durable: true))
        defer { cluster.stop() }
        let owner = try await cluster.createDatabase("bench", logger: logger)
        try await TestDatabase.migrate(owner, logger: logger)
        let googlePort = try EmbeddedPostgres.freePort(), apnsPort = try EmbeddedPostgres.freePort()
        let googleRoot = "http://127.0.0.1:\(googlePort)", apnsRoot = "https://127.0.0.1:\(apnsPort)"
        let logFolder = try logs.map { directory in
            let url = URL(fileURLWithPath: directory)
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return url
        }
        let fleet = Fleet(logs: logFolder)
        defer { fleet.stopAll() }
        let standInsStarted = Date()
        try fleet.add("google", dev, ["sandbox", "google", "--port", "\(googlePort)", "--scenario", path("scenario.json"), "--log-level", "error"])
        try fleet.add("apns", dev, ["sandbox", "apns", "--port", "\(apnsPort)", "--team-id", teamID, "--key", "\(keyID)=\(path("apns.p8"))",
                                    "--ca-out", path("apns-ca.pem"), "--log-level", "error"])
        let keys = try siblingExecutable("alfred-key-service", of: alfredPath), broker = try siblingExecutable("alfred-broker", of: alfredPath)
        let initialized = try await AlfredTestCluster.run(keys, [
            "init", "--dir", path("keys"), "--attestor-dir", path("attestor"), "--broker-executable", broker])
        guard initialized.code == 0 else { throw ValidationError("alfred-key-service init failed: \(initialized.output)") }
        try fleet.add("keys", keys, ["serve", "--dir", path("keys"), "--socket", path("keys.sock"), "--log-level", "error"])
        try fleet.add("attestor", try siblingExecutable("alfred-attestor", of: alfredPath),
                      ["--dir", path("attestor"), "--socket", path("attestor.sock"), "--allow-uid", "\(getuid())", "--log-level", "error"])
        var brokerDB = owner
        brokerDB.username = "alfred_broker"
        try fleet.add("broker", broker, [], environment: [
            "ALFRED_DATABASE_URL": brokerDB.secretString.unsafeValue, "ALFRED_BROKER_SOCKET": path("broker.sock"),
            "ALFRED_KEY_SERVICE_SOCKET": path("keys.sock"), "ALFRED_ATTESTOR_SOCKET": path("attestor.sock"),
            "GOOGLE_TOKEN_URL": googleRoot + "/token", "GOOGLE_REVOKE_URL": googleRoot + "/revoke", "GOOGLE_CLIENT_ID": clientID,
            "GOOGLE_CLIENT_SECRET": "alfred-local-secret", "APNS_KEY_FILE": path("apns.p8"), "APNS_KEY_ID": keyID,
            "APNS_TEAM_ID": teamID, "ALFRED_LOG_LEVEL": "error",
        ])
        try await AlfredBench.waitUntil("the stand-ins, key service, attestor and broker", timeout: .seconds(120)) {
            fleet.output("google").contains("google stand-in") && fleet.output("apns").contains("apns stand-in listening")
                && ["keys.sock", "attestor.sock", "broker.sock"].allSatisfy { FileManager.default.fileExists(atPath: path($0)) }
        }
        let http = try TestHTTP.client(trusting: [try String(contentsOfFile: path("apns-ca.pem"), encoding: .utf8)])
        let stack = BenchStack(folder: folder, cluster: cluster, owner: owner, fleet: fleet, googleRoot: googleRoot, apnsRoot: apnsRoot,
                               http: http, sealer: try HostSealer(keyBytes: hostKey), alfredPath: alfredPath, standInsStarted: standInsStarted)
        do {
            let value = try await body(stack)
            try await http.shutdown()
            return value
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    /// `alfred worker` on both queues as the runs start it (`extra` adds options), on the worker's role.
    func addWorker(_ name: String, verbose: Bool, extra: [String] = []) throws {
        var workerDB = owner
        workerDB.username = "alfred_worker"
        try fleet.add(name, alfredPath, [
            "worker", "--queue", "default", "--queue", "delivery", "--broker-socket", path("broker.sock"), "--data-key-file", path("host.key"),
            "--google-base-url", googleRoot, "--apns-topic", Self.topic, "--apns-url", apnsRoot, "--apns-ca-file", path("apns-ca.pem"),
            "--no-metrics", "--log-level", verbose ? "notice" : "error",
        ] + extra, environment: ["ALFRED_DATABASE_URL": workerDB.secretString.unsafeValue])
    }
}
