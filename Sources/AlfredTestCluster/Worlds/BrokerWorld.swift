import AlfredCore
import Attestation
import BrokerClient
import Foundation
import KeyService
import Logging
import PostgresNIO
import StandIns
import Store
import TokenBroker

/// Everything the broker talks to, for real: a database (the broker connects as its own role), the
/// key service on a Unix socket and the Google stand-in on loopback; plus the broker itself on its
/// socket, reached through `BrokerClient` as workers reach it. A `World` with `google` and `broker`,
/// whose files, database and user exist before it runs (`make`), for tests that also start processes.
public struct BrokerWorld: Sendable {
    public static let clientID = "alfred-broker-test.apps.googleusercontent.com"
    public static let clientSecret = "GOCSPX-broker-test-secret"
    public static let redirectURI = "http://127.0.0.1:9/oauth/google/callback"
    public static let subject = "100000000000000000042"
    public static let calendar = "https://www.googleapis.com/auth/calendar.readonly"

    public let files: BrokerFiles
    public let ownerURL: DatabaseURL
    public let userID = UUID()
    public let logs = LogCapture()
    /// The in-process broker's wall time (token expiry, the cache's forced-refresh floor): pinned at
    /// the world's creation, moved only by the test.
    public let clock = ManualClock(start: Date())
    /// What the Google stand-in's latency faults sleep on: a manual clock holds a request until the test advances it.
    public var googleLatencyClock: any Clock<Duration> = ContinuousClock()

    public var folder: URL { files.folder }
    public var keys: KeyDirectory { files.keys }
    public var authority: LocalAttestation.Authority { files.authority }
    public var executable: URL { files.executable }
    public var keySocket: String { files.keySocket }
    public var brokerSocket: String { files.brokerSocket }
    public var brokerURL: DatabaseURL {
        var url = ownerURL
        url.username = "alfred_broker"
        return url
    }

    /// `database`: a migrated database of the test's own (default: a fresh one in the shared cluster).
    public static func make(allowExecutable: Bool = true, database: DatabaseURL? = nil) async throws -> BrokerWorld {
        let files = try BrokerFiles.make(allowExecutable: allowExecutable)
        let owner: DatabaseURL
        if let database { owner = database } else { owner = try await TestDatabase.fresh() }
        let world = BrokerWorld(files: files, ownerURL: owner)
        try await TestDatabase.withClient(owner) { client in
            _ = try await client.query("INSERT INTO users (id) VALUES (\(world.userID))", logger: TestDatabase.quietLogger).collect()
        }
        return world
    }

    public func remove() { files.remove() }

    public static func googleConfiguration() -> GoogleStandIn.Configuration {
        GoogleStandIn.Configuration(
            clients: [.init(id: clientID, secret: clientSecret, redirectURIs: [redirectURI])],
            users: [.init(subject: subject, email: "ada@example.com")])
    }

    /// A running world: stand-in, key service, database pool and broker; `body` gets a client of the
    /// broker socket and handles to the parts. Everything stops when `body` returns.
    public func run<T: Sendable>(_ body: @Sendable (Running) async throws -> T) async throws -> T {
        var world = World()
        world.database = ownerURL
        world.logs = logs
        world.google = Self.googleConfiguration()
        world.googleLatencyClock = googleLatencyClock
        var broker = BrokerSpec(clientID: Self.clientID, clientSecret: Self.clientSecret)
        broker.files = files
        broker.clock = clock
        world.broker = broker
        return try await world.run { running in
            try await body(Running(world: self, running: running))
        }
    }

    public struct Running: Sendable {
        public let world: BrokerWorld
        let running: World.Running

        public var google: GoogleStandIn { running.google! }
        /// The broker's pool (as `alfred_broker`).
        public var pool: PostgresClient { running.broker!.pool }
        public var endpoints: OAuthEndpoints { running.broker!.endpoints }
        public var logger: Logger { running.logger("broker") }
        /// A client of the broker's socket.
        public var broker: BrokerClient { running.broker!.client }

        /// A handler with an empty access-token cache, as a restarted broker has (see `BrokerRunning.makeHandler`).
        public func makeHandler(keySocket: String? = nil, keyTimeout: Duration = .seconds(60),
                                configuration: GoogleTokenBroker.Configuration = .init(),
                                clock: any Clock<Duration> = ContinuousClock()) -> GoogleTokenBroker {
            running.broker!.makeHandler(keySocket: keySocket, keyTimeout: keyTimeout, configuration: configuration, clock: clock)
        }

        /// What the app does at connect time: the user consents in the browser, Google redirects back
        /// with a code, and the app hands code and PKCE verifier to the backend.
        public func consentCode() async throws -> (code: String, verifier: String) {
            try await ConsentBrowser.authorize(authorizationURL: endpoints.authorizationURL, clientID: BrokerWorld.clientID,
                                               redirectURI: BrokerWorld.redirectURI, scopes: [BrokerWorld.calendar],
                                               loginHint: BrokerWorld.subject, state: "s1")
        }

        public func connect() async throws -> UUID {
            let (code, verifier) = try await consentCode()
            let connected = try await broker.exchangeCode(CodeExchange(
                userID: world.userID.uuidString, code: Redacted(code), codeVerifier: Redacted(verifier), redirectURI: BrokerWorld.redirectURI))
            return UUID(uuidString: connected.connectorID)!
        }

        /// Refresh-token grants Google served so far.
        public func refreshRequests() -> Int {
            google.recordedRequests().filter { request in
                request.path == OAuthEndpoints.tokenPath
                    && (request.form ?? []).contains { $0.name == "grant_type" && $0.value == "refresh_token" }
            }.count
        }

        public func status(_ id: UUID) async throws -> String? {
            try await TestDatabase.withClient(world.ownerURL) { owner in
                for try await status in try await owner.query("SELECT status FROM connectors WHERE id = \(id)", logger: TestDatabase.quietLogger).decode(String.self) {
                    return status
                }
                return nil
            }
        }
    }
}
