import AlfredCore
import AsyncHTTPClient
import Assistant
import BrokerClient
import Delivery
import Foundation
import GoogleAPI
import JobQueue
import Logging
import PostgresNIO
import Privacy
import Sealing
import ServiceLifecycle
import Store
import Urgency

/// How a worker process runs its queues: what `alfred worker`'s options set. Plain values, so the
/// executable, `alfred-dev`, the benchmarks and the tests describe a worker the same way.
public struct WorkerConfiguration: Sendable {
    /// The queues this worker claims from, one `Worker` each.
    public var queues = ["default"]
    /// Jobs run at once per queue while they take time (I/O); cheap jobs in a backlog get up to
    /// `maxConcurrency` (`InFlightLimit`).
    public var concurrency = 32
    /// Jobs held at once per queue while cheap jobs are backlogged; nil: 1,024 (or `concurrency`).
    public var maxConcurrency: Int?
    /// Pushes in hand at once on the delivery queue, including those claimed ahead and waiting for their time.
    public var deliveryConcurrency = 10_000
    /// How early pushes are claimed and prepared; at most half the lease.
    public var claimAhead: Duration = .seconds(10)
    public var claimBatch = 100
    public var lease: Duration = .seconds(30)
    /// Default: a third of the lease.
    public var heartbeat: Duration?
    /// Fallback poll; NOTIFY and the next-due timer are the mechanism.
    public var pollInterval: Duration = .seconds(5)
    public var shutdownGrace: Duration = .seconds(20)
    public var retry = RetryPolicy.default
    /// `host:pid:random` by default; each queue's worker adds nothing to it.
    public var owner = Worker<ContinuousClock>.defaultOwner()
    /// How often the rescuer looks for jobs whose worker is gone: a killed worker's jobs wait at
    /// most about this long (its presence lock is dropped at once); a stuck one's, their lease.
    public var rescueInterval: Duration = .seconds(1)
    /// Finished jobs are kept this long.
    public var retention: Duration = .seconds(72 * 3600)
    /// Audit events are kept this long (each user's chain stays verifiable from its anchor).
    public var auditRetention: Duration = .seconds(400 * 86_400)
    /// A user's tally of routine successes (Google fetches, token refreshes) becomes one audit event
    /// once its first is this old (migration 0026).
    public var auditTallyWindow: Duration = .seconds(24 * 3600)
    /// Connections of the claims' pool: a few for the maintenance loops and two per queue.
    public var poolConnections: Int?

    public init() {}

    /// One queue's worker settings.
    public func worker<C>(queue: String) -> Worker<C>.Configuration {
        var c = Worker<C>.Configuration()
        c.queue = queue
        if queue == DeliveryKind.pushDeliver.queue {
            // Pushes wait on APNs: their limit is already the burst's size, and stays fixed.
            c.concurrency = deliveryConcurrency
            c.maxConcurrency = deliveryConcurrency
        } else {
            c.concurrency = concurrency
            c.maxConcurrency = maxConcurrency
        }
        c.claimBatch = claimBatch
        c.lease = lease
        c.heartbeatInterval = heartbeat ?? lease / 3
        c.pollInterval = pollInterval
        c.shutdownGrace = shutdownGrace
        // A job claimed ahead waits on its lease: keep half of it for the work after the due time.
        c.claimAhead = min(claimAhead, lease / 2)
        c.retry = retry
        c.owner = owner
        return c
    }
}

/// What the worker's jobs talk to besides the database. Each part switches on the kinds that need it.
public struct WorkerParts: Sendable {
    /// The token broker: key-rotation rewraps, and Google revocations for delete-all.
    public var broker: BrokerClient?
    /// Who revokes Google grants for delete-all (default: the broker; none parks them for a worker that has one).
    public var revoker: (any ConnectorRevoker)?
    /// Calendar sync, reminders, briefs, urgent mail, relay and watches.
    public var assistant: AssistantParts?
    /// `push.deliver` on the `delivery` queue.
    public var delivery: DeliveryParts?
    /// More kinds (a bench's or a test's own); they may use the worker's pool and job store.
    public var handlers: (@Sendable (inout JobRegistry, WorkerHandlerContext) -> Void)?

    public init(broker: BrokerClient? = nil, revoker: (any ConnectorRevoker)? = nil, assistant: AssistantParts? = nil,
                delivery: DeliveryParts? = nil, handlers: (@Sendable (inout JobRegistry, WorkerHandlerContext) -> Void)? = nil) {
        self.broker = broker; self.revoker = revoker; self.assistant = assistant; self.delivery = delivery; self.handlers = handlers
    }
}

/// The assistant's jobs: the host key that seals what they keep, and Google (base URL, HTTP client,
/// and where access tokens come from: the broker in production).
public struct AssistantParts: Sendable {
    public var sealer: HostSealer
    public var google: GoogleAPIConfiguration
    /// Shared by every Google request; owned (and shut down) by whoever made it.
    public var http: HTTPClient
    public var tokens: any TokenSource
    public var ruleSet: RuleSet = .standard
    /// Gmail watches publish here (`projects/P/topics/T`); nil polls only.
    public var gmailTopic: String?
    public var intervals = AssistantEnvironment.Intervals()
    /// Enqueue the planner (one recurring system job) at start.
    public var startPlanner = true

    public init(sealer: HostSealer, google: GoogleAPIConfiguration, http: HTTPClient, tokens: any TokenSource) {
        self.sealer = sealer; self.google = google; self.http = http; self.tokens = tokens
    }
}

/// Delivery: who sends to APNs (the APNs client, owned by the caller) and with which key.
public struct DeliveryParts: Sendable {
    public var sender: any PushSender
    public var sealer: HostSealer
    /// Finished notifications append their `DELIVERY` audit events.
    public var auditing = true
    public var requestsInFlight = 256
    /// Delivery's own pool (generic plans; see DeliverySQL): a burst must not queue on the claims' pool.
    public var poolConnections = 8

    public init(sender: any PushSender, sealer: HostSealer) {
        self.sender = sender; self.sealer = sealer
    }
}

/// What a handler registered through `WorkerParts.handlers` may use.
public struct WorkerHandlerContext: Sendable {
    public let client: PostgresClient
    public let jobs: PostgresJobStore
    public let logger: Logger
}

/// The worker process as a `Service`: its database pools, the wake-up listener, one `Worker` per
/// queue, every handler its parts switch on, and the maintenance loops (rescue, prune, gauges, audit
/// pruning, parked revocations, privacy gauges), all built from one configuration and one runtime.
/// `alfred worker`, `alfred-dev`, the benchmarks and the tests run this same value; the executable
/// adds only signals and the metrics endpoint.
public final class WorkerApp<C: Clock<Duration>>: Service, Sendable {
    public let configuration: WorkerConfiguration
    public let registry: JobRegistry
    /// The claims' pool's job store (as the worker role).
    public let jobs: PostgresJobStore
    /// The assistant's jobs' environment, when the worker runs them (a bench or test may run the planner's sweep itself).
    public let assistant: AssistantEnvironment?
    private let runtime: Runtime<C>
    private let listener: PostgresWakeupListener
    private let presence: PostgresPresence
    private let workers: [Worker<C>]
    private let services: [any Service]

    public init(database: DatabaseURL, configuration: WorkerConfiguration, parts: WorkerParts, runtime: Runtime<C>) {
        self.configuration = configuration
        self.runtime = runtime
        let logger = runtime.logger
        // The pool logs every reconnect attempt at info; our own code already logs what an operator needs.
        var poolLogger = logger
        poolLogger.logLevel = max(logger.logLevel, .warning)
        let client = PostgresClient(
            configuration: database.clientConfiguration(maxConnections: configuration.poolConnections ?? 4 + configuration.queues.count * 2),
            backgroundLogger: poolLogger)
        let jobs = PostgresJobStore(client: client, logger: logger)
        self.jobs = jobs
        let deliveryPool = parts.delivery.map {
            PostgresClient(configuration: database.preparedStatementsConfiguration(maxConnections: $0.poolConnections),
                           backgroundLogger: poolLogger)
        }

        var registry = JobRegistry()
        registry.register(NoopHandler(clock: runtime.clock))
        let privacy = PostgresPrivacyStore(client: client, logger: logger)
        let revoker = parts.revoker ?? parts.broker.map(BrokerRevoker.init)
        // Delete-all runs on every worker; without a revoker its revocations are parked for one that has it.
        registry.register(DeleteAllHandler(store: privacy, revoker: revoker, jobs: jobs, clock: runtime.clock, metrics: runtime.metrics))
        registry.register(RevokeParkedHandler(store: privacy, revoker: revoker))
        if let broker = parts.broker {
            // Key rotation: the worker lists connectors by key version (its role may) and asks the
            // broker to rewrap each one; it never sees a key or a token.
            registry.register(RewrapJobs.SweepHandler(connectors: PostgresConnectorStore(client: client, logger: logger), jobs: jobs))
            registry.register(RewrapJobs.RewrapHandler(broker: broker))
        }
        let audit = PostgresAuditStore(client: client, logger: logger)
        var assistantEnvironment: AssistantEnvironment?
        if let assistant = parts.assistant {
            let environment = AssistantEnvironment(
                store: PostgresAssistantStore(client: client, jobs: jobs, logger: logger), jobs: jobs,
                readers: GoogleAPIReaders(configuration: assistant.google, http: assistant.http, tokens: assistant.tokens, logger: logger,
                                          clock: runtime.clock, now: runtime.now, random: runtime.random, metrics: runtime.metrics),
                sealer: assistant.sealer, ruleSet: assistant.ruleSet, intervals: assistant.intervals, gmailTopic: assistant.gmailTopic,
                audit: audit, logger: logger, now: runtime.now, metrics: runtime.metrics)
            environment.register(in: &registry)
            assistantEnvironment = environment
            // A data-key rotation's last step: values sealed under older keys move to the active one.
            registry.register(DataKeyReseal.Handler(store: PostgresSealedDataStore(client: client, logger: logger), sealer: assistant.sealer))
        }
        if let delivery = parts.delivery, let deliveryPool {
            registry.register(PushDeliveryHandler(store: PostgresDeliveryStore(client: deliveryPool, logger: logger), sender: delivery.sender,
                                                  sealer: delivery.sealer, auditing: delivery.auditing,
                                                  maxRequestsInFlight: delivery.requestsInFlight, now: runtime.now, metrics: runtime.metrics))
        }
        parts.handlers?(&registry, WorkerHandlerContext(client: client, jobs: jobs, logger: logger))
        self.registry = registry
        self.assistant = assistantEnvironment

        let listener = PostgresWakeupListener(database: database, logger: logger, clock: runtime.clock)
        self.listener = listener
        // One presence for the process: its claims, on every queue, are made under its session.
        let presence = PostgresPresence(database: database, logger: logger, clock: runtime.clock)
        self.presence = presence
        let workers = Set(configuration.queues).sorted().map { queue in
            Worker(store: jobs, registry: registry, wakeups: listener, configuration: configuration.worker(queue: queue), runtime: runtime,
                   presence: presence)
        }
        self.workers = workers

        // Started together; stopped in reverse: the workers first (stop claiming, let running jobs
        // finish within the grace), then the maintenance loops, then the listener and the pools.
        var services: [any Service] = [client]
        if let deliveryPool { services.append(deliveryPool) }
        services.append(listener)
        services.append(presence)
        services.append(Maintenance.rescuer(store: jobs, kinds: registry.kinds, interval: configuration.rescueInterval, runtime: runtime))
        services.append(Maintenance.pruner(store: jobs, retention: configuration.retention, interval: .seconds(300), runtime: runtime))
        services.append(Maintenance.gauges(store: jobs, queues: configuration.queues, interval: .seconds(5), runtime: runtime))
        let auditRetention = configuration.auditRetention.seconds
        let now = runtime.now
        services.append(PeriodicService(name: "audit-prune", interval: .seconds(3600), runtime: runtime) {
            while try await audit.prune(before: now().addingTimeInterval(-auditRetention), limit: 5000) == 5000 {}
        })
        let tallyWindow = configuration.auditTallyWindow.seconds
        services.append(PeriodicService(name: "audit-fold", interval: min(.seconds(300), configuration.auditTallyWindow / 4), runtime: runtime) {
            while try await audit.fold(before: now().addingTimeInterval(-tallyWindow), limit: 5000) == 5000 {}
        })
        services.append(ParkedRevocations.sweeper(privacy: privacy, jobs: jobs, runtime: runtime))
        services.append(PrivacyGauges.sampler(privacy: privacy, runtime: runtime))
        if parts.assistant?.startPlanner == true { services.append(PlannerStart(jobs: jobs, logger: logger)) }
        services += workers as [any Service]
        self.services = services
    }

    /// Why the worker is not ready, or nil (`/readyz`).
    public var readinessProblem: String? {
        if !listener.isConnected { return "database listener not connected" }
        if presence.current == nil { return "worker presence not held in the database" }
        if workers.contains(where: { !$0.isHealthy }) { return "database unreachable" }
        return nil
    }

    /// Runs until graceful shutdown (or cancellation). On shutdown the workers hear it first, so they
    /// stop claiming at once, however long a maintenance loop's statement takes; their pools close last.
    public func run() async throws {
        let logger = runtime.logger
        logger.info("worker starting", metadata: [
            "alfred.queues": "\(configuration.queues.joined(separator: ","))", "alfred.concurrency": "\(configuration.concurrency)"])
        try await ServiceGroup(configuration: .init(services: services.map { .init(service: $0) }, logger: logger)).run()
        logger.info("worker stopped")
    }
}

/// The planner is one recurring system job; its unique key makes starting it from every worker harmless.
struct PlannerStart: Service {
    let jobs: any JobStore
    let logger: Logger

    func run() async throws {
        do {
            _ = try await jobs.enqueue([NewJob(kind: AssistantKind.plan, uniqueKey: AssistantKind.plan.name)], onConflict: .keep)
        } catch {
            logger.error("could not start the assistant planner", metadata: ["alfred.error": "\(type(of: error))"])
        }
        try? await gracefulShutdown()
    }
}
