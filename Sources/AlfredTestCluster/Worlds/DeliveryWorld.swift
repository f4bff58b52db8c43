import AlfredCore
import APNs
import Delivery
import Foundation
import JobQueue
import Logging
import PostgresNIO
import Sealing
import StandIns
import Store
import WorkerProcess

/// Delivery for real: a `World` with the APNs stand-in over HTTP/2 + TLS (its own test CA, a provider
/// key it knows), the production `APNsClient` with a provider-token minter, and the in-process worker
/// on the `delivery` queue as `alfred worker` builds it (or none, for tests that start worker processes).
public struct DeliveryWorld: Sendable {
    public static let teamID = APNsSpec.teamID
    public static let keyID = APNsSpec.keyID
    public static let topic = APNsSpec.topic

    /// The provider's clock runs this far behind the stand-in's (a test of clock skew sets it).
    public var providerClockLag: TimeInterval = 0
    public var retry = RetryPolicy(base: .milliseconds(50), cap: .milliseconds(400))
    public var configure: @Sendable (inout APNsStandIn.Configuration) -> Void = { _ in }
    /// False: no worker here; a test starts `alfred worker` processes itself (see `Running.workerURL`).
    public var inProcessWorker = true
    /// The in-process worker's `claimAhead` (as `alfred worker --claim-ahead-seconds`).
    public var claimAhead: Duration = .zero
    /// Finished notifications append their `DELIVERY` audit events (as in `alfred worker`).
    public var auditing = false

    public init() {}

    public struct Running: Sendable {
        public let world: World.Running
        public let userID: UUID

        public var apns: APNsStandIn { world.apns!.standIn }
        public var owner: PostgresClient { world.owner }
        /// The test's stores, as `alfred_worker` (delivery's statements, the outbox producers use).
        public var store: PostgresDeliveryStore { PostgresDeliveryStore(client: world.pool("alfred_worker"), logger: logger) }
        public var assistant: PostgresAssistantStore { PostgresAssistantStore(client: world.pool("alfred_worker"), jobs: jobs, logger: logger) }
        public var jobs: PostgresJobStore { PostgresJobStore(client: world.pool("alfred_worker"), logger: logger) }
        public var logger: Logger { world.logger("alfred.delivery") }
        public var sealer: HostSealer { world.sealer }
        public var logs: LogCapture { world.logs }
        public var events: EventLog<WorkerEvent> { world.events }
        public var metrics: CountingMetrics { world.metrics }
        /// Why provider tokens were minted, in order.
        public func mints() -> [ProviderTokenMinter.Trigger] { world.apns!.mints.all }
        /// For worker processes: their database URL, the host key, the stand-in's URL and CA, and
        /// the provider-token minter a broker would hold.
        public var workerURL: DatabaseURL { world.url(as: "alfred_worker") }
        public var sealerKey: [UInt8] { world.sealerKey }
        public var apnsURL: String { world.apns!.baseURL }
        public var caPEM: String { world.apns!.caPEM }
        public var minter: ProviderTokenMinter { world.apns!.minter }

        /// Registers a device for the user (sealed, as the API would) and, unless `knownToApple` is
        /// false, on the stand-in.
        @discardableResult
        public func device(_ token: String = Self.randomToken(), environment: APNsStandIn.Environment = .sandbox,
                           knownToApple: Bool = true) async throws -> (id: UUID, token: String) {
            if knownToApple { apns.register(deviceToken: token, environment: environment) }
            let sealed = try sealer.seal(Array(token.utf8), purpose: .deviceToken, userID: userID)
            let id = try await store.registerDevice(userID: userID, tokenKey: sealer.keyedHash("device", token), tokenSealed: sealed,
                                                    environment: environment.rawValue)
            return (id, token)
        }

        public static func randomToken() -> String { (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined() }

        /// What a reminder job hands to delivery.
        @discardableResult
        public func notify(kind: String = "meeting.reminder", title: String = "Board sync in 10 min", body: String = "Room 4.12",
                           key: String = UUID().uuidString.lowercased(), scheduledAt: Date = Date(),
                           deadline: Date? = Date().addingTimeInterval(600), at: Date? = nil) async throws -> String {
            let content = PushContent(kind: kind, title: title, body: body, scheduledAt: scheduledAt, collapseID: key)
            try await world.notify(content, userID: userID, key: key, deadline: deadline, at: at)
            return key
        }

        public func state(_ key: String) async throws -> String? { try await world.notificationState(key) }

        /// The notification's state once it left `pending` (polls the ledger row).
        public func waitForState(_ key: String, timeout: Duration = .seconds(60)) async throws -> String? {
            try await world.settledState(key, timeout: timeout)
        }

        public func jobPayload(_ key: String) async throws -> [UInt8] {
            let rows = try await owner.query("SELECT j.payload FROM jobs j JOIN notifications n ON n.job_id = j.id WHERE n.idempotency_key = \(key)",
                                             logger: TestDatabase.quietLogger).collect()
            return try rows.first.map { Array(buffer: try $0.decode(ByteBuffer.self)) } ?? []
        }

        public func retired(_ device: UUID) async throws -> String? {
            try await owner.query("SELECT retired_reason FROM devices WHERE id = \(device)", logger: TestDatabase.quietLogger)
                .collect().first?.decode(String?.self)
        }

        public func requests(to token: String) -> [APNsRequestRecord] { apns.requests().filter { $0.deviceToken == token } }
        public func deliveries(to token: String) -> [APNsDelivery] { apns.deliveries().filter { $0.deviceToken == token } }
    }

    public func run<T: Sendable>(_ body: @Sendable (Running) async throws -> T) async throws -> T {
        var world = World()
        world.pools = ["alfred_worker": 6]
        var apns = APNsSpec(configure: configure)
        apns.providerClockLag = providerClockLag
        world.apns = apns
        if inProcessWorker {
            var worker = WorkerSpec(queues: ["delivery"], delivery: true)
            worker.configuration.pollInterval = .milliseconds(100)
            worker.configuration.retry = retry
            worker.configuration.claimAhead = claimAhead
            worker.deliveryAuditing = auditing
            world.worker = worker
        }
        return try await world.run { world in
            let userID = UUID()
            _ = try await world.owner.query("INSERT INTO users (id) VALUES (\(userID))", logger: TestDatabase.quietLogger).collect()
            return try await body(Running(world: world, userID: userID))
        }
    }
}
