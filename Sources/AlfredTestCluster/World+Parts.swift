import AlfredCore
import APNs
import AsyncHTTPClient
import Attestation
import BrokerClient
import Crypto
import Foundation
import GoogleAPI
import JobQueue
import KeyService
import KeyServiceClient
import LocalIPC
import Logging
import PostgresNIO
import Sealing
import ServiceLifecycle
import StandIns
import Store
import Synchronization
import TokenBroker
import Urgency
import Assistant
import WorkerProcess

// MARK: APNs

/// The APNs stand-in over HTTP/2 + TLS with its own test CA, a P-256 provider key it knows, and the
/// production `APNsClient` pointed at it with a provider-token minter (as the broker would hold).
public struct APNsSpec: Sendable {
    public static let teamID = "TEAMALFRED"
    public static let keyID = "KEYALFRED1"
    public static let topic = "com.example.alfred"

    public var configure: @Sendable (inout APNsStandIn.Configuration) -> Void = { _ in }
    /// The provider's clock runs this far behind the stand-in's (a test of clock skew sets it).
    public var providerClockLag: TimeInterval = 0
    /// What the stand-in's latency sleeps on.
    public var latencyClock: any Clock<Duration> = ContinuousClock()
    /// The client's limit per exchange (generous: no test here is about APNs timing out unless it says so).
    public var timeout: Duration = .seconds(60)

    public init(configure: @escaping @Sendable (inout APNsStandIn.Configuration) -> Void = { _ in }) { self.configure = configure }

    func start(now: @escaping @Sendable () -> Date, logger: Logger) throws -> APNsStart {
        let key = P256.Signing.PrivateKey()
        var configuration = APNsStandIn.Configuration(teamID: Self.teamID, providerKeys: [Self.keyID: key.publicKey],
                                                      tls: try TestCertificateAuthority.generate())
        configure(&configuration)
        let standIn = APNsStandIn(configuration: configuration, clock: StandInClock(now: now), latencyClock: latencyClock, logger: logger)
        return APNsStart(spec: self, standIn: standIn, key: key, caPEM: configuration.tls.caCertificatePEM, logger: logger)
    }
}

struct APNsStart: Sendable {
    let spec: APNsSpec
    let standIn: APNsStandIn
    let key: P256.Signing.PrivateKey
    let caPEM: String
    let logger: Logger

    func running() async throws -> APNsRunning {
        let root = try await standIn.baseURL()
        let mints = MintLog()
        let lag = spec.providerClockLag
        let standIn = self.standIn
        let minter = ProviderTokenMinter(signer: ProviderTokenSigner(keyID: APNsSpec.keyID, teamID: APNsSpec.teamID, key: key),
                                         now: { standIn.clock.now().addingTimeInterval(-lag) }, onMint: { mints.append($0) })
        var configuration = APNsConfiguration(topic: APNsSpec.topic)
        configuration.extraTrustRootsPEM = [caPEM]
        configuration.timeout = spec.timeout
        configuration.productionURL = root
        configuration.sandboxURL = root
        let client = try APNsClient(configuration: configuration, tokens: minter, logger: logger)
        return APNsRunning(standIn: standIn, baseURL: root, caPEM: caPEM, key: key, minter: minter, mints: mints,
                           configuration: configuration, client: client)
    }
}

public struct APNsRunning: Sendable {
    public let standIn: APNsStandIn
    public let baseURL: String
    /// The stand-in's CA (what `--apns-ca-file` gets).
    public let caPEM: String
    /// The provider key the stand-in knows.
    public let key: P256.Signing.PrivateKey
    public let minter: ProviderTokenMinter
    /// Why provider tokens were minted, in order.
    public let mints: MintLog
    public let configuration: APNsConfiguration
    /// The production client pointed at the stand-in (the in-process worker's sender).
    public let client: APNsClient

    func close() async { await client.shutdown() }
}

/// What provider-token mints happened, and why.
public final class MintLog: Sendable {
    private let log = Mutex<[ProviderTokenMinter.Trigger]>([])
    public init() {}
    public func append(_ trigger: ProviderTokenMinter.Trigger) { log.withLock { $0.append(trigger) } }
    public var all: [ProviderTokenMinter.Trigger] { log.withLock { $0 } }
}

// MARK: Key service and broker

/// The key service and the token broker, each on its Unix socket in a private folder, the broker on
/// its own database role, a local attestation authority signing its evidence, and the Google stand-in
/// as its Google. Reached through `BrokerClient` as workers and the API reach it.
public struct BrokerSpec: Sendable {
    /// The OAuth client the broker uses (registered with the Google stand-in by the test's scenario).
    public var clientID: String
    public var clientSecret: String
    /// An iOS client id the broker also exchanges codes for (no secret).
    public var iosClientID: String?
    /// False: the key policy allows another binary, so the key service refuses this broker's evidence.
    public var allowExecutable = true
    public var configuration = GoogleTokenBroker.Configuration()
    /// The broker's pool size (as alfred-broker sizes it).
    public var poolConnections = 8
    /// The key service client's limit per request.
    public var keyTimeout: Duration = .seconds(60)
    /// Files made before the world runs (see `BrokerFiles.make`); nil makes fresh ones.
    public var files: BrokerFiles?
    /// The broker's wall time (default: a manual clock pinned when the world starts).
    public var clock: ManualClock?

    public init(clientID: String, clientSecret: String) {
        self.clientID = clientID
        self.clientSecret = clientSecret
    }

    func start(database: DatabaseURL, google: GoogleStandIn, logs: LogCapture) throws -> BrokerStart {
        let files = try self.files ?? BrokerFiles.make(allowExecutable: allowExecutable)
        let keyListening = AsyncStream<Void>.makeStream()
        let keyServer = try KeyServer(configuration: .init(socketPath: files.keySocket, directory: files.keys), logger: logs.logger("keys"),
                                      onListening: { keyListening.continuation.yield() })
        var url = database
        url.username = "alfred_broker"
        let pool = PostgresClient(configuration: url.clientConfiguration(maxConnections: poolConnections),
                                  backgroundLogger: TestDatabase.quietLogger)
        return BrokerStart(spec: self, files: files, google: google, pool: pool, keyServer: keyServer, keyListening: keyListening.stream,
                           logger: logs.logger("alfred.broker"), ownsFiles: self.files == nil)
    }
}

/// The broker's files: a private folder with the key directory, the attestation authority, a stand-in
/// "broker executable" whose measurement the key policy allows (or not), and the sockets' paths.
public struct BrokerFiles: Sendable {
    public let folder: URL
    public let keys: KeyDirectory
    public let authority: LocalAttestation.Authority
    /// The file the evidence measures.
    public let executable: URL
    public var keySocket: String { folder.appendingPathComponent("ks.sock").path }
    public var brokerSocket: String { folder.appendingPathComponent("broker.sock").path }

    public static func make(allowExecutable: Bool = true) throws -> BrokerFiles {
        // Short, so socket paths stay under sun_path's 108 bytes.
        let folder = URL(fileURLWithPath: "/tmp/alfred-bw-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let executable = folder.appendingPathComponent("broker-binary")
        try Data("pretend broker binary \(UUID())".utf8).write(to: executable)
        let authority = try LocalAttestation.Authority.create()
        let measured = allowExecutable ? executable : folder.appendingPathComponent("some-other-binary")
        if !allowExecutable { try Data("another binary".utf8).write(to: measured) }
        let keys = try KeyDirectory.initialize(at: folder.appendingPathComponent("keys"), brokerExecutable: measured,
                                               authority: authority).directory
        return BrokerFiles(folder: folder, keys: keys, authority: authority, executable: executable)
    }

    public func remove() { try? FileManager.default.removeItem(at: folder) }
}

struct BrokerStart: Sendable {
    let spec: BrokerSpec
    let files: BrokerFiles
    let google: GoogleStandIn
    let pool: PostgresClient
    let keyServer: KeyServer
    let keyListening: AsyncStream<Void>
    let logger: Logger
    let ownsFiles: Bool

    var servers: [any Service] { [pool, keyServer] }

    func running() async throws -> BrokerRunning {
        for await _ in keyListening { break }
        let endpoints = try await google.endpoints()
        let clock = spec.clock ?? ManualClock(start: Date())
        let partial = BrokerRunning(spec: spec, files: files, google: google, pool: pool, endpoints: endpoints, clock: clock,
                                    logger: logger, client: nil, server: nil, ownsFiles: ownsFiles)
        let listening = AsyncStream<Void>.makeStream()
        let server = BrokerServer(configuration: .init(socketPath: files.brokerSocket), handler: partial.makeHandler(),
                                  logger: logger, onListening: { listening.continuation.yield() })
        let task = Task { try await server.run() }
        for await _ in listening.stream { break }
        // Generous limits (not production's 10 s): a starved test process must not fail on speed.
        var configuration = BrokerClient.Configuration(socketPath: files.brokerSocket)
        configuration.requestTimeout = .seconds(120)
        return BrokerRunning(spec: spec, files: files, google: google, pool: pool, endpoints: endpoints, clock: clock, logger: logger,
                             client: BrokerClient(configuration: configuration), server: task, ownsFiles: ownsFiles)
    }
}

public struct BrokerRunning: Sendable {
    let spec: BrokerSpec
    public let files: BrokerFiles
    let google: GoogleStandIn
    /// The broker's pool (as `alfred_broker`).
    public let pool: PostgresClient
    public let endpoints: OAuthEndpoints
    /// The broker's wall time (token expiry, the cache's forced-refresh floor): pinned at the start,
    /// moved only by the test.
    public let clock: ManualClock
    let logger: Logger
    let clientOrNil: BrokerClient?
    let server: Task<Void, any Error>?
    let ownsFiles: Bool

    init(spec: BrokerSpec, files: BrokerFiles, google: GoogleStandIn, pool: PostgresClient, endpoints: OAuthEndpoints, clock: ManualClock,
         logger: Logger, client: BrokerClient?, server: Task<Void, any Error>?, ownsFiles: Bool) {
        self.spec = spec; self.files = files; self.google = google; self.pool = pool; self.endpoints = endpoints; self.clock = clock
        self.logger = logger; clientOrNil = client; self.server = server; self.ownsFiles = ownsFiles
    }

    /// A client of the broker's socket, as workers and the API have.
    public var client: BrokerClient { clientOrNil! }

    /// A handler with an empty access-token cache, as a restarted broker has. Its wall time is the
    /// world's broker clock; `clock` times its refresh deadline.
    public func makeHandler(keySocket: String? = nil, keyTimeout: Duration? = nil, configuration: GoogleTokenBroker.Configuration? = nil,
                            clock: any Clock<Duration> = ContinuousClock()) -> GoogleTokenBroker {
        var oauth = GoogleOAuthClient.Configuration(tokenURL: endpoints.tokenURL, revokeURL: endpoints.revokeURL,
                                                    clientID: spec.clientID, clientSecret: Redacted(spec.clientSecret))
        oauth.iosClientID = spec.iosClientID
        // The fixture's executable is a small file; measuring it cannot fail.
        // swiftlint:disable:next force_try
        let evidence = try! AuthoritySignedEvidence(authority: files.authority, executable: files.executable)
        return GoogleTokenBroker(
            configuration: configuration ?? spec.configuration,
            connectors: PostgresConnectorStore(client: pool, logger: logger),
            keys: KeyServiceClient(socketPath: keySocket ?? files.keySocket, timeout: keyTimeout ?? spec.keyTimeout),
            google: GoogleOAuthClient(configuration: oauth, http: HTTPClient.shared, logger: logger),
            evidence: evidence, logger: logger, now: self.clock.nowDate, clock: clock)
    }

    func close() async {
        await clientOrNil?.close()
        server?.cancel()
        _ = await server?.result
        if ownsFiles { files.remove() }
    }
}

// MARK: The worker

/// An in-process worker: `WorkerApp` with the parts the world has. The assistant's jobs get their
/// access tokens from the broker when the world runs one, else minted by the Google stand-in for
/// `tokenUser` (the broker has end-to-end tests of its own); delivery sends through the APNs stand-in.
public struct WorkerSpec: Sendable {
    public var configuration: WorkerConfiguration = {
        var configuration = WorkerConfiguration()
        // Prompt, so a test waiting on the worker waits for it, not for a fallback poll or a rescue.
        configuration.pollInterval = .milliseconds(250)
        configuration.rescueInterval = .seconds(1)
        return configuration
    }()
    /// Calendar sync, reminders, briefs, urgent mail (needs the Google stand-in).
    public var assistant = false
    public var intervals = AssistantEnvironment.Intervals()
    public var gmailTopic: String?
    public var ruleSet: RuleSet = .standard
    /// Whose access tokens the stand-in mints when there is no broker.
    public var tokenUser: String?
    /// `push.deliver` on the `delivery` queue (needs the APNs stand-in).
    public var delivery = false
    /// Finished notifications append their `DELIVERY` audit events.
    public var deliveryAuditing = true
    /// Revokes Google grants for delete-all (default: the broker's, if the world has one).
    public var revoker: (any ConnectorRevoker)?
    /// More kinds (a test's own handlers).
    public var handlers: (@Sendable (inout JobRegistry, WorkerHandlerContext) -> Void)?

    public init(queues: [String] = ["default"], assistant: Bool = false, delivery: Bool = false) {
        configuration.queues = queues
        self.assistant = assistant
        self.delivery = delivery
    }

    func build(database: DatabaseURL, sealer: HostSealer, google: GoogleStandIn?, googleUser: String?, apns: APNsRunning?,
               broker: BrokerRunning?, runtime: Runtime<ContinuousClock>) async throws -> (app: WorkerApp<ContinuousClock>, closers: [@Sendable () async -> Void]) {
        var parts = WorkerParts(broker: broker?.client, revoker: revoker, handlers: handlers)
        var closers: [@Sendable () async -> Void] = []
        if assistant {
            guard let google else { throw WorldError("WorkerSpec.assistant needs World.google") }
            let http = TestHTTP.client()
            closers.append { try? await http.shutdown() }
            let tokens: any TokenSource
            if let broker {
                tokens = BrokerTokenSource(client: broker.client)
            } else {
                guard let user = tokenUser ?? googleUser else { throw WorldError("WorkerSpec.tokenUser: whose tokens to mint") }
                tokens = MintingTokenSource(google: google, user: user)
            }
            var assistant = AssistantParts(sealer: sealer, google: GoogleAPIConfiguration(root: try await google.baseURL()), http: http,
                                           tokens: tokens)
            assistant.intervals = intervals
            assistant.gmailTopic = gmailTopic
            assistant.ruleSet = ruleSet
            assistant.startPlanner = false
            parts.assistant = assistant
        }
        if delivery {
            guard let apns else { throw WorldError("WorkerSpec.delivery needs World.apns") }
            var delivery = DeliveryParts(sender: apns.client, sealer: sealer)
            delivery.auditing = deliveryAuditing
            parts.delivery = delivery
        }
        var url = database
        url.username = "alfred_worker"
        return (WorkerApp(database: url, configuration: configuration, parts: parts, runtime: runtime), closers)
    }
}

/// Stands in for the token broker where it is not the subject: access tokens minted by the Google
/// stand-in for the user, a new one on every call.
public struct MintingTokenSource: TokenSource {
    public static let scopes = ["https://www.googleapis.com/auth/calendar.readonly", "https://www.googleapis.com/auth/gmail.metadata"]
    let google: GoogleStandIn
    let user: String

    public init(google: GoogleStandIn, user: String) {
        self.google = google
        self.user = user
    }

    public func accessToken(for connector: UUID, forceRefresh: Bool) async throws -> AccessToken {
        AccessToken(token: Redacted(try google.mintAccessToken(forUser: user, scopes: Self.scopes)),
                    expiresAt: Date().addingTimeInterval(3000))
    }
}
