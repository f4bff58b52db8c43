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
import Logging
import PostgresNIO
import Sealing
import ServiceLifecycle
import StandIns
import Store
import Synchronization
import TokenBroker
import WorkerProcess

/// Everything a test beyond the unit tier runs against, each piece opt-in, built one way: a fresh
/// migrated database (with a pool per role the test asks for), the host data key, captured logs,
/// counting metrics and the worker's events, the stand-ins for Google, APNs and Apple on real
/// sockets, the key service and token broker on Unix sockets, and an in-process worker wired by
/// `WorkerApp` exactly as `alfred worker` wires it. Everything stops in the reverse order it
/// started, clients before the servers they talk to, however the test ends.
///
/// ```swift
/// var world = World()
/// world.google = GoogleStandIn.Configuration(users: [user])
/// world.worker = WorkerSpec(assistant: true)
/// try await world.run { w in … w.events.first { $0.kind == "calendar.sync" && $0.what == .completed } … }
/// ```
public struct World: Sendable {
    /// Wall time for the world's clocks (the stand-ins', the worker's `now`); tests may pin it.
    public var now: @Sendable () -> Date = { Date() }
    /// A migrated database of the test's own (default: a fresh one in the shared cluster).
    public var database: DatabaseURL?
    /// Where every log line of our side goes.
    public var logs = LogCapture()
    /// Runs on the fresh database before anything connects (e.g. to pin its clock).
    public var prepareDatabase: (@Sendable (DatabaseURL) async throws -> Void)?
    /// Pools the test uses itself, by role (`alfred_worker`, `alfred_api`, `alfred_broker`): connections.
    /// The owner's pool (`owner`) is always there.
    public var pools: [String: Int] = [:]

    /// The Google stand-in, serving this scenario.
    public var google: GoogleStandIn.Configuration?
    /// What the Google stand-in's latency faults sleep on.
    public var googleLatencyClock: any Clock<Duration> = ContinuousClock()
    /// The APNs stand-in, with a test CA and a provider key it knows.
    public var apns: APNsSpec?
    /// The Apple stand-in (identity tokens and their keys).
    public var apple = false
    /// The key service and the token broker (as `alfred_broker`), on Unix sockets; needs `google`.
    public var broker: BrokerSpec?
    /// An in-process worker, `WorkerApp` as `alfred worker` builds it.
    public var worker: WorkerSpec?

    public init() {}

    /// The world as a test sees it while it runs.
    public struct Running: Sendable {
        public let database: DatabaseURL
        /// The database owner's pool (tests read and arrange rows with it).
        public let owner: PostgresClient
        public let logs: LogCapture
        /// Where the worker's (and any injected) metrics go.
        public let metrics: CountingMetrics
        /// The worker's events.
        public let events: EventLog<WorkerEvent>
        public let sealer: HostSealer
        public let sealerKey: [UInt8]
        public let now: @Sendable () -> Date
        public let google: GoogleStandIn?
        public let apns: APNsRunning?
        public let apple: AppleStandIn?
        public let broker: BrokerRunning?
        public let worker: WorkerApp<ContinuousClock>?
        let rolePools: [String: PostgresClient]

        /// The test's pool as `role` (one the world was asked for in `pools`).
        public func pool(_ role: String) -> PostgresClient {
            guard let pool = rolePools[role] else { preconditionFailure("World.pools has no \(role) pool") }
            return pool
        }

        /// The database URL as `role`.
        public func url(as role: String) -> DatabaseURL {
            var url = database
            url.username = role
            return url
        }

        /// A logger whose lines land in `logs`.
        public func logger(_ label: String) -> Logger { logs.logger(label) }
    }

    /// Starts what was asked for, runs `body`, and stops everything again. A few worlds run at a time
    /// in a test process (`Admission.worlds`); the others wait their turn.
    public func run<T: Sendable>(_ body: @Sendable (Running) async throws -> T) async throws -> T {
        try await Admission.worlds.run { try await runAdmitted(body) }
    }

    private func runAdmitted<T: Sendable>(_ body: @Sendable (Running) async throws -> T) async throws -> T {
        let logs = self.logs
        let quiet = TestDatabase.quietLogger
        let database: DatabaseURL
        if let given = self.database { database = given } else { database = try await TestDatabase.fresh() }
        try await prepareDatabase?(database)
        let sealerKey = HostSealer.generateKeyBytes()
        let sealer = try HostSealer(keyBytes: sealerKey)
        let owner = PostgresClient(configuration: database.clientConfiguration(maxConnections: 2), backgroundLogger: quiet)
        var rolePools: [String: PostgresClient] = [:]
        for (role, connections) in pools {
            var url = database
            url.username = role
            rolePools[role] = PostgresClient(configuration: url.clientConfiguration(maxConnections: connections), backgroundLogger: quiet)
        }
        let now = self.now
        let googleStandIn = google.map {
            GoogleStandIn(configuration: $0, clock: StandInClock(now: now), latencyClock: googleLatencyClock, logger: quiet)
        }
        let apnsStart = try apns.map { try $0.start(now: now, logger: quiet) }
        let appleStandIn = apple ? AppleStandIn(clock: StandInClock(now: now), logger: quiet) : nil
        let brokerStart = try broker.map { spec -> BrokerStart in
            guard let googleStandIn else { throw WorldError("World.broker needs World.google: the broker exchanges codes with it") }
            return try spec.start(database: database, google: googleStandIn, logs: logs)
        }

        var servers: [any Service] = [owner] + rolePools.keys.sorted().map { rolePools[$0]! as any Service }
        if let googleStandIn { servers.append(googleStandIn) }
        if let apnsStart { servers.append(apnsStart.standIn) }
        if let appleStandIn { servers.append(appleStandIn) }
        if let brokerStart { servers.append(contentsOf: brokerStart.servers) }
        let worker = self.worker
        return try await withRunningServices(servers, logger: quiet) {
            // Each server is listening before anything that talks to it starts.
            if let googleStandIn { _ = try await googleStandIn.port() }
            if let appleStandIn { _ = try await appleStandIn.port() }
            let apns = try await apnsStart?.running()
            let broker = try await brokerStart?.running()
            let metrics = CountingMetrics()
            let events = EventLog<WorkerEvent>()
            // The worker's own HTTP clients: they close after the worker stops, before the stand-ins do.
            var closers: [@Sendable () async -> Void] = []
            var app: WorkerApp<ContinuousClock>?
            if let worker {
                let built = try await worker.build(
                    database: database, sealer: sealer, google: googleStandIn, googleUser: google?.users.first?.email, apns: apns, broker: broker,
                    runtime: Runtime(clock: ContinuousClock(), now: now, random: AnyGenerator(SeededGenerator(seed: 7)),
                                     metrics: metrics, logger: logs.logger("alfred.worker"), events: WorkerEvents(events.record)))
                app = built.app
                closers = built.closers
            }
            let running = Running(database: database, owner: owner, logs: logs, metrics: metrics, events: events, sealer: sealer,
                                  sealerKey: sealerKey, now: now, google: googleStandIn, apns: apns, apple: appleStandIn,
                                  broker: broker, worker: app, rolePools: rolePools)
            let outcome: Result<T, any Error>
            do {
                outcome = .success(try await withRunningServices(app.map { [$0] } ?? [], logger: quiet) { try await body(running) })
            } catch {
                outcome = .failure(error)
            }
            for close in closers { await close() }
            await apns?.close()
            await broker?.close()
            return try outcome.get()
        }
    }
}

public struct WorldError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
