import AlfredCore
import AlfredTesting
import APNs
import AsyncHTTPClient
import Crypto
import Foundation
import JobQueue
import Logging
import NIOCore
import PostgresNIO
import ServiceLifecycle
import StandIns
import Synchronization
import Store
@testable import Assistant
@testable import Delivery
@testable import Sealing

/// Delivery for real: a fresh database (the worker connects as `alfred_worker`), the APNs stand-in
/// over HTTP/2 + TLS with its own test CA, the production `APNsClient` with a provider token minted
/// from a P-256 key the stand-in knows, and an in-process worker on the `delivery` queue.
struct DeliveryWorld {
    static let teamID = "TEAMALFRED"
    static let keyID = "KEYALFRED1"
    static let topic = "com.example.alfred"

    /// The provider's clock runs this far behind the stand-in's (a test of clock skew sets it).
    var providerClockLag: TimeInterval = 0
    var retry = RetryPolicy(base: .milliseconds(50), cap: .milliseconds(400))
    var configure: @Sendable (inout APNsStandIn.Configuration) -> Void = { _ in }
    /// False: no worker here; a test starts `alfred worker` processes itself (see `Running.process`).
    var inProcessWorker = true
    /// The in-process worker's `claimAhead` (as `alfred worker --claim-ahead-seconds`).
    var claimAhead: Duration = .zero
    /// Finished notifications append their `DELIVERY` audit events (as in `alfred worker`).
    var auditing = false

    struct Running: Sendable {
        let apns: APNsStandIn
        let owner: PostgresClient
        let store: PostgresDeliveryStore
        let assistant: PostgresAssistantStore
        let jobs: PostgresJobStore
        let logger: Logger
        let sealer: HostSealer
        let userID: UUID
        let logs: LogCapture
        let mints: @Sendable () -> [ProviderTokenMinter.Trigger]
        /// For worker processes: their database URL, the host key, the stand-in's URL and CA, and
        /// the provider-token minter a broker would hold.
        let workerURL: DatabaseURL
        let sealerKey: [UInt8]
        let apnsURL: String
        let caPEM: String
        let minter: ProviderTokenMinter

        /// Registers a device for the user (sealed, as the API would) and, unless `knownToApple` is
        /// false, on the stand-in.
        @discardableResult
        func device(_ token: String = Self.randomToken(), environment: APNsStandIn.Environment = .sandbox,
                    knownToApple: Bool = true) async throws -> (id: UUID, token: String) {
            if knownToApple { apns.register(deviceToken: token, environment: environment) }
            let sealed = try sealer.seal(Array(token.utf8), purpose: .deviceToken, userID: userID)
            let id = try await store.registerDevice(userID: userID, tokenKey: sealer.keyedHash("device", token), tokenSealed: sealed,
                                                    environment: environment.rawValue)
            return (id, token)
        }

        static func randomToken() -> String { (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined() }

        /// What a reminder job hands to delivery.
        @discardableResult
        func notify(kind: String = "meeting.reminder", title: String = "Board sync in 10 min", body: String = "Room 4.12",
                    key: String = UUID().uuidString.lowercased(), scheduledAt: Date = Date(),
                    deadline: Date? = Date().addingTimeInterval(600), at: Date? = nil) async throws -> String {
            let content = PushContent(kind: kind, title: title, body: body, scheduledAt: scheduledAt, collapseID: key)
            _ = try await assistant.notify(try Outbox(sealer: sealer).notification(content, userID: userID, idempotencyKey: key,
                                                                                   deadline: deadline, at: at))
            return key
        }

        func state(_ key: String) async throws -> String? {
            try await owner.query("SELECT state FROM notifications WHERE idempotency_key = \(key)", logger: TestDatabase.quietLogger)
                .collect().first?.decode(String.self)
        }

        func waitForState(_ key: String, timeout: Duration = .seconds(60)) async throws -> String? {
            _ = try await eventually(timeout: timeout) { (try await state(key)) != "pending" }
            return try await state(key)
        }

        func jobPayload(_ key: String) async throws -> [UInt8] {
            let rows = try await owner.query("SELECT j.payload FROM jobs j JOIN notifications n ON n.job_id = j.id WHERE n.idempotency_key = \(key)",
                                             logger: TestDatabase.quietLogger).collect()
            return try rows.first.map { Array(buffer: try $0.decode(ByteBuffer.self)) } ?? []
        }

        func retired(_ device: UUID) async throws -> String? {
            try await owner.query("SELECT retired_reason FROM devices WHERE id = \(device)", logger: TestDatabase.quietLogger)
                .collect().first?.decode(String?.self)
        }

        func requests(to token: String) -> [APNsRequestRecord] { apns.requests().filter { $0.deviceToken == token } }
        func deliveries(to token: String) -> [APNsDelivery] { apns.deliveries().filter { $0.deviceToken == token } }
    }

    func run<T: Sendable>(_ body: @Sendable (Running) async throws -> T) async throws -> T {
        let logs = LogCapture()
        let logger = logs.logger("alfred.delivery")
        let url = try await TestDatabase.fresh()
        var workerURL = url
        workerURL.username = "alfred_worker"
        let owner = PostgresClient(configuration: url.clientConfiguration(maxConnections: 2), backgroundLogger: TestDatabase.quietLogger)
        let client = PostgresClient(configuration: workerURL.clientConfiguration(maxConnections: 6), backgroundLogger: TestDatabase.quietLogger)
        let jobs = PostgresJobStore(client: client, logger: logger)
        let sealerKey = HostSealer.generateKeyBytes()
        let sealer = try HostSealer(keyBytes: sealerKey)
        let key = P256.Signing.PrivateKey()
        var configuration = APNsStandIn.Configuration(teamID: Self.teamID, providerKeys: [Self.keyID: key.publicKey],
                                                      tls: try TestCertificateAuthority.generate())
        configure(&configuration)
        let apns = APNsStandIn(configuration: configuration, logger: TestDatabase.quietLogger)
        let lag = providerClockLag
        let mints = MintLog()
        let minter = ProviderTokenMinter(signer: ProviderTokenSigner(keyID: Self.keyID, teamID: Self.teamID, key: key),
                                         now: { apns.clock.now().addingTimeInterval(-lag) }, onMint: { mints.append($0) })
        var apnsConfiguration = APNsConfiguration(topic: Self.topic)
        apnsConfiguration.extraTrustRootsPEM = [configuration.tls.caCertificatePEM]
        apnsConfiguration.timeout = .seconds(60)  // generous: no test here is about APNs timing out
        let userID = UUID()
        let retry = self.retry
        let inProcessWorker = self.inProcessWorker
        let (claimAhead, auditing) = (self.claimAhead, self.auditing)

        let result = try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { await owner.run() }
            tasks.addTask { await client.run() }
            let apnsGroup = ServiceGroup(services: [apns], logger: TestDatabase.quietLogger)
            let apnsRunning = Task { try await apnsGroup.run() }
            let root = try await apns.baseURL()
            apnsConfiguration.productionURL = root
            apnsConfiguration.sandboxURL = root
            let sender = try APNsClient(configuration: apnsConfiguration, tokens: minter, logger: logger)
            _ = try await owner.query("INSERT INTO users (id) VALUES (\(userID))", logger: TestDatabase.quietLogger).collect()
            let store = PostgresDeliveryStore(client: client, logger: logger)
            var registry = JobRegistry()
            registry.register(PushDeliveryHandler(store: store, sender: sender, sealer: sealer, auditing: auditing))
            let listener = PostgresWakeupListener(database: workerURL, logger: logger)
            var workerConfiguration = Worker<ContinuousClock>.Configuration()
            workerConfiguration.queue = "delivery"
            workerConfiguration.pollInterval = .milliseconds(100)
            workerConfiguration.retry = retry
            workerConfiguration.claimAhead = claimAhead
            let worker = Worker(store: jobs, registry: registry, wakeups: listener, configuration: workerConfiguration,
                                clock: ContinuousClock(), logger: logger)
            let group = ServiceGroup(services: inProcessWorker ? [listener, worker] : [], logger: logger)
            let running = Task { try await group.run() }
            let outcome: Result<T, any Error>
            do {
                outcome = .success(try await body(Running(
                    apns: apns, owner: owner, store: store, assistant: PostgresAssistantStore(client: client, jobs: jobs, logger: logger),
                    jobs: jobs, logger: logger,
                    sealer: sealer, userID: userID, logs: logs, mints: { mints.all }, workerURL: workerURL, sealerKey: sealerKey,
                    apnsURL: root, caPEM: configuration.tls.caCertificatePEM, minter: minter)))
            } catch {
                outcome = .failure(error)
            }
            await group.triggerGracefulShutdown()
            try await running.value
            // The client's HTTP/2 connections close before the stand-in stops (see `withRunningServices`).
            await sender.shutdown()
            await apnsGroup.triggerGracefulShutdown()
            try? await apnsRunning.value
            tasks.cancelAll()
            return try outcome.get()
        }
        return result
    }
}

final class MintLog: Sendable {
    private let log = Mutex<[ProviderTokenMinter.Trigger]>([])
    func append(_ trigger: ProviderTokenMinter.Trigger) { log.withLock { $0.append(trigger) } }
    var all: [ProviderTokenMinter.Trigger] { log.withLock { $0 } }
}
