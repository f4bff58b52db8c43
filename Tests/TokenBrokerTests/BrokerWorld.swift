import AlfredCore
import AlfredTesting
import AsyncHTTPClient
import Crypto
import Foundation
import KeyService
import Logging
import NIOCore
import PostgresNIO
import ServiceLifecycle
import StandIns
import Store
import Synchronization
@testable import BrokerClient
import Attestation
import KeyServiceClient
import LocalIPC
@testable import TokenBroker

/// Everything the broker talks to, for real: a Postgres database (the broker connects as its own
/// role), the key service on a Unix socket, and the Google stand-in on loopback; plus the broker
/// itself on its socket, reached through `BrokerClient` as workers reach it.
struct BrokerWorld: Sendable {
    static let clientID = "alfred-broker-test.apps.googleusercontent.com"
    static let clientSecret = "GOCSPX-broker-test-secret"
    static let redirectURI = "http://127.0.0.1:9/oauth/google/callback"
    static let subject = "100000000000000000042"
    static let calendar = "https://www.googleapis.com/auth/calendar.readonly"

    let folder: URL
    let ownerURL: DatabaseURL
    let brokerURL: DatabaseURL
    let keys: KeyDirectory
    let authority: LocalAttestation.Authority
    let executable: URL
    let userID = UUID()
    let logs = LogCapture()
    /// The in-process broker's wall time (token expiry, the cache's forced-refresh floor): pinned at
    /// the world's creation, moved only by the test.
    let clock = ManualClock(start: Date())

    var keySocket: String { folder.appendingPathComponent("ks.sock").path }
    var brokerSocket: String { folder.appendingPathComponent("broker.sock").path }

    /// `database`: a migrated database of the test's own (default: a fresh one in the shared cluster).
    static func make(allowExecutable: Bool = true, database: DatabaseURL? = nil) async throws -> BrokerWorld {
        let folder = URL(fileURLWithPath: "/tmp/alfred-bw-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let executable = folder.appendingPathComponent("broker-binary")
        try Data("pretend broker binary \(UUID())".utf8).write(to: executable)
        let authority = try LocalAttestation.Authority.create()
        let measured = allowExecutable ? executable : folder.appendingPathComponent("some-other-binary")
        if !allowExecutable { try Data("another binary".utf8).write(to: measured) }
        let keys = try KeyDirectory.initialize(at: folder.appendingPathComponent("keys"), brokerExecutable: measured,
                                               authority: authority).directory
        let owner: DatabaseURL
        if let database { owner = database } else { owner = try await TestDatabase.fresh() }
        var broker = owner
        broker.username = "alfred_broker"
        let world = BrokerWorld(folder: folder, ownerURL: owner, brokerURL: broker, keys: keys, authority: authority,
                                executable: executable)
        try await TestDatabase.withClient(owner) { client in
            _ = try await client.query("INSERT INTO users (id) VALUES (\(world.userID))", logger: TestDatabase.quietLogger).collect()
        }
        return world
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    static func googleConfiguration() -> GoogleStandIn.Configuration {
        GoogleStandIn.Configuration(
            clients: [.init(id: clientID, secret: clientSecret, redirectURIs: [redirectURI])],
            users: [.init(subject: subject, email: "ada@example.com")])
    }

    /// A running world: stand-in, key service, database pool and broker; `body` gets a client of the
    /// broker socket and handles to the parts. Everything stops when `body` returns.
    func run<T: Sendable>(_ body: @Sendable (Running) async throws -> T) async throws -> T {
        let logger = logs.logger("broker")
        let google = GoogleStandIn(configuration: Self.googleConfiguration(), logger: Logger(label: "google", factory: { _ in SwiftLogNoOpLogHandler() }))
        let keyListening = AsyncStream<Void>.makeStream()
        let keyServer = try KeyServer(configuration: .init(socketPath: keySocket, directory: keys), logger: logs.logger("keys"),
                                      onListening: { keyListening.continuation.yield() })
        // The broker's own pool size (alfred-broker): with 4, a hundred concurrent requests under the
        // full suite's load once waited past the pooled-connection bound (15 s) for their status read.
        let pool = PostgresClient(configuration: brokerURL.clientConfiguration(maxConnections: 8), backgroundLogger: TestDatabase.quietLogger)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await google.run() }
            group.addTask { try await keyServer.run() }
            group.addTask { await pool.run() }
            defer { group.cancelAll() }
            for await _ in keyListening.stream { break }
            let endpoints = try await google.endpoints()
            let running = Running(world: self, google: google, pool: pool, endpoints: endpoints, logger: logger)
            let brokerListening = AsyncStream<Void>.makeStream()
            let server = BrokerServer(configuration: .init(socketPath: brokerSocket), handler: running.makeHandler(),
                                      logger: logger, onListening: { brokerListening.continuation.yield() })
            group.addTask { try await server.run() }
            for await _ in brokerListening.stream { break }
            // Generous limits (not production's 10 s): a starved test process must not fail on speed.
            var clientConfiguration = BrokerClient.Configuration(socketPath: brokerSocket)
            clientConfiguration.requestTimeout = .seconds(120)
            let client = BrokerClient(configuration: clientConfiguration)
            defer { Task { await client.close() } }
            return try await body(running.with(client: client))
        }
    }

    struct Running: Sendable {
        let world: BrokerWorld
        let google: GoogleStandIn
        let pool: PostgresClient
        let endpoints: OAuthEndpoints
        let logger: Logger
        var client: BrokerClient?

        func with(client: BrokerClient) -> Running {
            var copy = self
            copy.client = client
            return copy
        }

        var broker: BrokerClient { client! }

        /// A handler with an empty access-token cache, as a restarted broker has. Its wall time is the
        /// world's clock; `clock` times its refresh deadline.
        /// `keyTimeout`: the key service client's limit per request (connecting is retried within it),
        /// generous unless a test wants an absent key service to be given up on.
        func makeHandler(keySocket: String? = nil, keyTimeout: Duration = .seconds(60),
                         configuration: GoogleTokenBroker.Configuration = .init(),
                         clock: any Clock<Duration> = ContinuousClock()) -> GoogleTokenBroker {
            // The fixture's executable is a small file; measuring it cannot fail.
            // swiftlint:disable:next force_try
            let oauth = GoogleOAuthClient(
                configuration: .init(tokenURL: endpoints.tokenURL, revokeURL: endpoints.revokeURL, clientID: BrokerWorld.clientID,
                                     clientSecret: Redacted(BrokerWorld.clientSecret)),
                http: HTTPClient.shared, logger: logger)
            return GoogleTokenBroker(
                configuration: configuration,
                connectors: PostgresConnectorStore(client: pool, logger: logger),
                keys: KeyServiceClient(socketPath: keySocket ?? world.keySocket, timeout: keyTimeout),
                google: oauth,
                evidence: try! AuthoritySignedEvidence(authority: world.authority, executable: world.executable),
                logger: logger, now: world.clock.nowDate, clock: clock)
        }

        /// What the app does at connect time: the user consents in the browser, Google redirects back
        /// with a code, and the app hands code and PKCE verifier to the backend.
        func consentCode() async throws -> (code: String, verifier: String) {
            try await ConsentBrowser.authorize(authorizationURL: endpoints.authorizationURL, clientID: BrokerWorld.clientID,
                                               redirectURI: BrokerWorld.redirectURI, scopes: [BrokerWorld.calendar],
                                               loginHint: BrokerWorld.subject, state: "s1")
        }

        func connect() async throws -> UUID {
            let (code, verifier) = try await consentCode()
            let connected = try await broker.exchangeCode(CodeExchange(
                userID: world.userID.uuidString, code: Redacted(code), codeVerifier: Redacted(verifier), redirectURI: BrokerWorld.redirectURI))
            return UUID(uuidString: connected.connectorID)!
        }

        func refreshRequests() -> Int {
            google.recordedRequests().filter { request in
                request.path == OAuthEndpoints.tokenPath
                    && (request.form ?? []).contains { $0.name == "grant_type" && $0.value == "refresh_token" }
            }.count
        }

        func status(_ id: UUID) async throws -> String? {
            try await TestDatabase.withClient(world.ownerURL) { owner in
                for try await status in try await owner.query("SELECT status FROM connectors WHERE id = \(id)", logger: TestDatabase.quietLogger).decode(String.self) {
                    return status
                }
                return nil
            }
        }
    }
}


extension PeerCredentials {
    /// This test process, as an in-process caller of the handler.
    static var current: PeerCredentials { PeerCredentials(uid: UInt32(getuid()), gid: UInt32(getgid()), pid: getpid()) }
}
