import CommandSupport
import AlfredCore
import APNs
import ArgumentParser
import Assistant
import Delivery
import Sealing
import AsyncHTTPClient
import GoogleAPI
import Urgency
import Foundation
import JobQueue
import Logging
import Metrics
import PostgresNIO
import Privacy
import Prometheus
import ServiceLifecycle
import Store
import Telemetry
import BrokerClient

struct WorkerOptions: ParsableArguments {
    @Option(help: "Jobs run at once per queue.") var concurrency = 32
    @Option(help: "Pushes in hand at once on the delivery queue, including those claimed ahead of their time and waiting for it.")
    var deliveryConcurrency = 10_000
    @Option(help: "Seconds before their due time pushes are claimed and prepared (ledger marks, text, device tokens), so that at the due instant only the APNs request and its record are left; 0 claims them when due. At most half the lease.")
    var claimAheadSeconds = 10.0
    @Option(help: "APNs requests in flight at once; the rest of a burst waits its turn here rather than in the HTTP client.")
    var apnsRequestsInFlight = 256
    @Option(name: .customLong("queue"), help: "Queue to work (repeat for several).") var queues: [String] = ["default"]
    @Option(help: "Port for /metrics, /healthz, /readyz (0 picks a free one).") var metricsPort = 9464
    @Flag(help: "Serve no metrics endpoint.") var noMetrics = false
    @Option(help: "Address the metrics endpoint binds.") var metricsHost = "0.0.0.0"
    @Option(help: "Lease length in seconds; heartbeats extend it while a job runs.") var leaseSeconds = 30.0
    @Option(help: "Seconds between lease heartbeats (default: a third of the lease).") var heartbeatSeconds: Double?
    @Option(help: "Seconds between rescues of expired leases.") var rescueSeconds = 10.0
    @Option(help: "Fallback poll interval in seconds (NOTIFY and due-time timers are the mechanism).") var pollSeconds = 5.0
    @Option(help: "Seconds running jobs get to finish after SIGTERM before they are released.") var shutdownGrace = 20.0
    @Option(help: "Hours finished jobs are kept before pruning.") var retentionHours = 72.0
    @Option(help: "Days audit events are kept; older ones are pruned and each user's chain stays verifiable from its anchor.")
    var auditRetentionDays = 400.0
    @Option(help: "Jobs claimed per statement.") var claimBatch = 100
    @Option(help: "The token broker's socket (env: ALFRED_BROKER_SOCKET); enables the jobs that need the broker.")
    var brokerSocket: String?
    @Option(help: "Host data key file (32 bytes or 64 hex; env: ALFRED_DATA_KEY_FILE): seals payloads, cursors and push text. With --broker-socket it enables the assistant's jobs.")
    var dataKeyFile: String?
    @Option(help: "Serve Calendar and Gmail from this root (the stand-in: http://127.0.0.1:8085); default: Google, or GOOGLE_CALENDAR_BASE_URL and GMAIL_BASE_URL.")
    var googleBaseURL: String?
    @Option(help: "Urgency rule set JSON (default: the built-in versioned set).") var urgencyRules: String?
    @Option(help: "Pub/Sub topic Gmail watches publish to, projects/P/topics/T (env: GMAIL_PUBSUB_TOPIC): mailboxes are watched and polled only hourly while their watch lives.")
    var gmailTopic: String?
    @Option(help: "The app's bundle id, APNs topic (env: APNS_TOPIC). With --broker-socket and --data-key-file it enables delivery (push.deliver, queue 'delivery').")
    var apnsTopic: String?
    @Option(help: "Send every push to this APNs base URL, both environments (the stand-in: https://127.0.0.1:2197).") var apnsURL: String?
    @Option(help: "APNs production base URL.") var apnsProductionURL = "https://api.push.apple.com"
    @Option(help: "APNs sandbox base URL.") var apnsSandboxURL = "https://api.sandbox.push.apple.com"
    @Option(help: "Extra CA certificate (PEM) to trust for APNs: the stand-in's test CA.") var apnsCAFile: String?

    func validate() throws {
        guard claimAheadSeconds >= 0 else { throw ValidationError("--claim-ahead-seconds must not be negative") }
        guard apnsRequestsInFlight > 0 else { throw ValidationError("--apns-requests-in-flight must be at least 1") }
        guard auditRetentionDays >= 30 else {
            throw ValidationError("--audit-retention-days must be at least 30: the database keeps the last 30 days of every chain")
        }
    }

    func workerConfiguration(queue: String) -> Worker<ContinuousClock>.Configuration {
        var c = Worker<ContinuousClock>.Configuration()
        c.queue = queue
        c.concurrency = queue == AssistantKind.pushDeliver.queue ? deliveryConcurrency : concurrency
        c.claimBatch = claimBatch
        c.lease = .seconds(leaseSeconds)
        c.heartbeatInterval = .seconds(heartbeatSeconds ?? leaseSeconds / 3)
        c.pollInterval = .seconds(pollSeconds)
        c.shutdownGrace = .seconds(shutdownGrace)
        // A job claimed ahead waits on its lease: keep half of it for the work after the due time.
        c.claimAhead = .seconds(min(claimAheadSeconds, leaseSeconds / 2))
        return c
    }
}

struct WorkerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Claim and run jobs until SIGTERM/SIGINT, serving /metrics, /healthz and /readyz.")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var options: WorkerOptions

    func run() async throws {
        let logger = database.bootstrapLogging()
        let environment = ProcessInfo.processInfo.environment
        // One client (and its connections) for every job that asks the broker something.
        let broker = (options.brokerSocket ?? environment["ALFRED_BROKER_SOCKET"]).map {
            BrokerClient(configuration: .init(socketPath: $0))
        }
        let assistant = try AssistantSetup(options: options, broker: broker, logger: logger)
        // Delivery's statements run on their own small pool (generic plans; see DeliverySQL).
        let url = try database.database()
        let deliveryPool = assistant?.delivery == nil ? nil : PostgresClient(
            // Few: a burst's reads and writes share statements (see PostgresDeliveryStore).
            configuration: url.preparedStatementsConfiguration(maxConnections: 8),
            backgroundLogger: { var l = logger; l.logLevel = max(logger.logLevel, .warning); return l }())
        if options.queues.contains(AssistantKind.pushDeliver.queue), assistant?.delivery == nil {
            // Without a sender every push.deliver job would be discarded as having no handler.
            await assistant?.shutdown()
            throw ValidationError("--queue delivery needs --apns-topic (or APNS_TOPIC), --broker-socket and --data-key-file")
        }
        let runtime = try WorkerRuntime(database: url, options: options, logger: logger) { client, jobs in
            var registry = JobRegistry.builtIn()
            if let broker {
                // Key rotation: the worker lists connectors by key version (its role may) and asks
                // the broker to rewrap each one; it never sees a key or a token.
                registry.register(RewrapJobs.SweepHandler(connectors: PostgresConnectorStore(client: client, logger: logger), jobs: jobs))
                registry.register(RewrapJobs.RewrapHandler(broker: broker))
            }
            // Delete-all runs on every worker; without a broker its revocations are parked for one that has it.
            let privacy = PostgresPrivacyStore(client: client, logger: logger)
            registry.register(DeleteAllHandler(store: privacy, revoker: broker.map(BrokerRevoker.init), jobs: jobs))
            registry.register(RevokeParkedHandler(store: privacy, revoker: broker.map(BrokerRevoker.init)))
            assistant?.register(in: &registry, client: client, jobs: jobs, deliveryPool: deliveryPool)
            return registry
        }
        do {
            try await runtime.run(pools: deliveryPool.map { [$0] } ?? [], extraServices: []) { jobs in await assistant?.startPlanner(jobs) }
        } catch {
            await assistant?.shutdown()
            throw error
        }
        await assistant?.shutdown()
    }
}

/// The assistant's jobs (calendar sync, reminders, brief, mail check), when the worker has a broker
/// to get Google access tokens from and a host data key to seal what it keeps.
struct AssistantSetup: Sendable {
    let sealer: HostSealer
    let google: GoogleAPIConfiguration
    let ruleSet: RuleSet
    let gmailTopic: String?
    let http: HTTPClient
    let tokens: any TokenSource
    let logger: Logger
    /// Present when the worker delivers pushes (`--apns-topic`).
    let delivery: APNsClient?
    let apnsRequestsInFlight: Int

    init?(options: WorkerOptions, broker: BrokerClient?, logger: Logger) throws {
        let environment = ProcessInfo.processInfo.environment
        apnsRequestsInFlight = options.apnsRequestsInFlight
        guard let broker, let keyFile = options.dataKeyFile ?? environment["ALFRED_DATA_KEY_FILE"] else {
            if options.dataKeyFile != nil {
                throw ValidationError("--data-key-file needs --broker-socket: the assistant's jobs get Google tokens from the broker")
            }
            return nil
        }
        do { sealer = try HostSealer(keyFile: keyFile) } catch { throw ValidationError("\(error)") }
        google = options.googleBaseURL.map(GoogleAPIConfiguration.init(root:)) ?? GoogleAPIConfiguration(environment: environment)
        gmailTopic = (options.gmailTopic ?? environment["GMAIL_PUBSUB_TOPIC"]).flatMap { $0.isEmpty ? nil : $0 }
        do { ruleSet = try options.urgencyRules.map(RuleSet.init(contentsOfFile:)) ?? .standard } catch {
            throw ValidationError("\(error)")
        }
        http = HTTPClient(eventLoopGroupProvider: .singleton)
        tokens = BrokerTokenSource(client: broker)
        self.logger = logger
        if let topic = options.apnsTopic ?? environment["APNS_TOPIC"] {
            var apns = APNsConfiguration(topic: topic)
            apns.productionURL = options.apnsURL ?? options.apnsProductionURL
            apns.sandboxURL = options.apnsURL ?? options.apnsSandboxURL
            if let caFile = options.apnsCAFile {
                guard let pem = FileManager.default.contents(atPath: caFile) else {
                    throw ValidationError("cannot read --apns-ca-file \(caFile)")
                }
                apns.extraTrustRootsPEM = [String(decoding: pem, as: UTF8.self)]
            }
            do {
                delivery = try APNsClient(configuration: apns, tokens: CachedProviderTokens(upstream: BrokerProviderTokenSource(client: broker)),
                                          logger: logger)
            } catch {
                throw ValidationError("APNs: \(error) (check --apns-url and --apns-ca-file)")
            }
        } else {
            delivery = nil
        }
    }

    func register(in registry: inout JobRegistry, client: PostgresClient, jobs: PostgresJobStore, deliveryPool: PostgresClient?) {
        let audit = PostgresAuditStore(client: client, logger: logger)
        let environment = AssistantEnvironment(
            store: PostgresAssistantStore(client: client, jobs: jobs, logger: logger), jobs: jobs,
            readers: GoogleAPIReaders(configuration: google, http: http, tokens: tokens, logger: logger),
            sealer: sealer, ruleSet: ruleSet,
            gmailTopic: gmailTopic,
            audit: audit, logger: logger)
        environment.register(in: &registry)
        // A data-key rotation's last step: values sealed under older keys move to the active one.
        registry.register(DataKeyReseal.Handler(store: PostgresSealedDataStore(client: client, logger: logger), sealer: sealer))
        if let delivery {
            // Delivery's own pool: a burst must not queue on the claims' pool. Its audit events go in
            // the statements that finish notifications.
            let pool = deliveryPool ?? client
            registry.register(PushDeliveryHandler(store: PostgresDeliveryStore(client: pool, logger: logger), sender: delivery,
                                                  sealer: sealer, auditing: true, maxRequestsInFlight: apnsRequestsInFlight))
        }
    }

    /// The planner is one recurring system job; its unique key makes starting it from every worker harmless.
    func startPlanner(_ jobs: any JobStore) async {
        do {
            _ = try await jobs.enqueue([NewJob(kind: AssistantKind.plan, uniqueKey: AssistantKind.plan.name)], onConflict: .keep)
        } catch {
            logger.error("could not start the assistant planner", metadata: ["alfred.error": "\(type(of: error))"])
        }
    }

    func shutdown() async {
        try? await http.shutdown()
        await delivery?.shutdown()
    }
}

extension JobRegistry {
    /// The kinds every worker can run.
    static func builtIn() -> JobRegistry {
        var registry = JobRegistry()
        registry.register(NoopHandler(clock: ContinuousClock()))
        return registry
    }
}

/// The worker process: a ServiceGroup of the Postgres pool, the wake-up listener, one worker per
/// queue, the rescuer, pruner and gauges, and (last, so it stops first) the metrics endpoint.
struct WorkerRuntime {
    let database: DatabaseURL
    let options: WorkerOptions
    let makeRegistry: @Sendable (PostgresClient, PostgresJobStore) -> JobRegistry
    let logger: Logger
    let prometheus = PrometheusCollectorRegistry()

    /// - Parameter registry: the kinds this worker runs; handlers may use the worker's pool and store.
    init(database: DatabaseURL, options: WorkerOptions, logger: Logger,
         registry: @escaping @Sendable (PostgresClient, PostgresJobStore) -> JobRegistry) throws {
        self.database = database
        self.options = options
        self.makeRegistry = registry
        self.logger = logger
        MetricsSystem.bootstrap(Telemetry.makeFactory(registry: prometheus))
    }

    /// - Parameter pools: more database pools; they start before the workers and stop after them.
    func run(pools: [any Service] = [], extraServices: [any Service], onStarted: @escaping @Sendable (any JobStore) async -> Void = { _ in }) async throws {
        // The pool logs every reconnect attempt at info; our own code already logs what an operator needs.
        var poolLogger = logger
        poolLogger.logLevel = max(logger.logLevel, .warning)
        let client = PostgresClient(
            configuration: database.clientConfiguration(maxConnections: 4 + options.queues.count * 2),
            backgroundLogger: poolLogger)
        let store = PostgresJobStore(client: client, logger: logger)
        let registry = makeRegistry(client, store)
        let listener = PostgresWakeupListener(database: database, logger: logger)
        let clock = ContinuousClock()
        let workers = Set(options.queues).sorted().map { queue in
            Worker(store: store, registry: registry, wakeups: listener,
                   configuration: options.workerConfiguration(queue: queue), clock: clock, logger: logger)
        }
        var services: [any Service] = [client] + pools + [listener]
        services += workers
        services.append(Maintenance.rescuer(store: store, kinds: registry.kinds, interval: .seconds(options.rescueSeconds),
                                            clock: clock, logger: logger))
        services.append(Maintenance.pruner(store: store, retention: .seconds(options.retentionHours * 3600),
                                           interval: .seconds(300), clock: clock, logger: logger))
        services.append(Maintenance.gauges(store: store, queues: options.queues, interval: .seconds(5),
                                           clock: clock, logger: logger))
        let audit = PostgresAuditStore(client: client, logger: logger)
        let auditRetention = options.auditRetentionDays * 86_400
        services.append(PeriodicService(name: "audit-prune", interval: .seconds(3600), clock: clock, logger: logger) {
            while try await audit.prune(before: Date().addingTimeInterval(-auditRetention), limit: 5000) == 5000 {}
        })
        let privacy = PostgresPrivacyStore(client: client, logger: logger)
        services.append(ParkedRevocations.sweeper(privacy: privacy, jobs: store, clock: clock, logger: logger))
        services.append(PrivacyGauges.sampler(privacy: privacy, clock: clock, logger: logger))
        services += extraServices
        services.append(StartupNotice(store: store, logger: logger, onStarted: onStarted))
        if !options.noMetrics {
            services.append(MetricsEndpoint(
                host: options.metricsHost, port: options.metricsPort, registry: prometheus, logger: logger,
                ready: {
                    if !listener.isConnected { return "database listener not connected" }
                    if workers.contains(where: { !$0.isHealthy }) { return "database unreachable" }
                    return nil
                },
                onListening: { port in
                    logger.info("metrics endpoint listening", metadata: ["alfred.port": "\(port)"])
                }))
        }
        let group = ServiceGroup(configuration: .init(
            services: services.map { .init(service: $0) },
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        logger.info("worker starting", metadata: [
            "alfred.queues": "\(options.queues.joined(separator: ","))", "alfred.concurrency": "\(options.concurrency)",
            "alfred.database": "\(database)"])
        try await group.run()
        logger.info("worker stopped")
    }
}

/// Calls `onStarted` once the group is up, then idles until shutdown.
struct StartupNotice: Service {
    let store: any JobStore
    let logger: Logger
    let onStarted: @Sendable (any JobStore) async -> Void

    func run() async throws {
        await onStarted(store)
        try? await gracefulShutdown()
    }
}
