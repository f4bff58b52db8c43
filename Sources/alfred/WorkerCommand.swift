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
import WorkerProcess

struct WorkerOptions: ParsableArguments {
    @Option(help: "Jobs run at once per queue while they take time (Google, APNs, the database).") var concurrency = 32
    @Option(help: "Jobs held at once per queue while a backlog of cheap jobs (mean run time under 5 ms) is waiting: the limit grows from --concurrency up to this, claims grow with it (half the limit, at least --claim-batch), and both fall back as soon as jobs take time or the backlog is gone (default: 1024; equal to --concurrency, the limit is fixed).")
    var maxConcurrency: Int?
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
    @Option(help: "Seconds between rescues of jobs whose worker is gone (its presence ended, or its lease expired).")
    var rescueSeconds = 1.0
    @Option(help: "Fallback poll interval in seconds (NOTIFY and due-time timers are the mechanism).") var pollSeconds = 5.0
    @Option(help: "Seconds running jobs get to finish after SIGTERM before they are released.") var shutdownGrace = 20.0
    @Option(help: "Hours finished jobs are kept before pruning.") var retentionHours = 72.0
    @Option(help: "Days audit events are kept; older ones are pruned and each user's chain stays verifiable from its anchor.")
    var auditRetentionDays = 400.0
    @Option(help: "Hours a user's routine successes (Google fetches, token refreshes) are tallied before each tally becomes one audit event with the count.")
    var auditTallyHours = 24.0
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
        if let maxConcurrency, maxConcurrency < concurrency {
            throw ValidationError("--max-concurrency (\(maxConcurrency)) must be at least --concurrency (\(concurrency))")
        }
        guard claimAheadSeconds >= 0 else { throw ValidationError("--claim-ahead-seconds must not be negative") }
        guard apnsRequestsInFlight > 0 else { throw ValidationError("--apns-requests-in-flight must be at least 1") }
        guard auditRetentionDays >= 30 else {
            throw ValidationError("--audit-retention-days must be at least 30: the database keeps the last 30 days of every chain")
        }
        guard auditTallyHours > 0, auditTallyHours <= 24 * 7 else {
            throw ValidationError("--audit-tally-hours must be more than 0 and at most a week (168)")
        }
    }

    /// The options as the worker library takes them.
    var configuration: WorkerConfiguration {
        var c = WorkerConfiguration()
        c.queues = queues
        c.concurrency = concurrency
        c.maxConcurrency = maxConcurrency
        c.deliveryConcurrency = deliveryConcurrency
        c.claimAhead = .seconds(claimAheadSeconds)
        c.claimBatch = claimBatch
        c.lease = .seconds(leaseSeconds)
        c.heartbeat = heartbeatSeconds.map { .seconds($0) }
        c.pollInterval = .seconds(pollSeconds)
        c.shutdownGrace = .seconds(shutdownGrace)
        c.rescueInterval = .seconds(rescueSeconds)
        c.retention = .seconds(retentionHours * 3600)
        c.auditRetention = .seconds(auditRetentionDays * 86_400)
        c.auditTallyWindow = .seconds(auditTallyHours * 3600)
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
        // First: everything below takes its metrics from the process's factory when it is built.
        let prometheus = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(Telemetry.makeFactory(registry: prometheus))
        let environment = ProcessInfo.processInfo.environment
        // One client (and its connections) for every job that asks the broker something.
        let broker = (options.brokerSocket ?? environment["ALFRED_BROKER_SOCKET"]).map {
            BrokerClient(configuration: .init(socketPath: $0))
        }
        let assistant = try AssistantSetup(options: options, broker: broker, logger: logger)
        if options.queues.contains(DeliveryKind.pushDeliver.queue), assistant?.delivery == nil {
            // Without a sender every push.deliver job would be discarded as having no handler.
            await assistant?.shutdown()
            throw ValidationError("--queue delivery needs --apns-topic (or APNS_TOPIC), --broker-socket and --data-key-file")
        }
        let worker = WorkerApp(database: try database.database(), configuration: options.configuration,
                               parts: WorkerParts(broker: broker, assistant: assistant?.parts, delivery: assistant?.deliveryParts),
                               runtime: .live(logger: logger))
        var services: [any Service] = [worker]
        if !options.noMetrics {
            // Last, so it stops first.
            services.append(MetricsEndpoint(
                host: options.metricsHost, port: options.metricsPort, registry: prometheus, logger: logger,
                ready: { worker.readinessProblem },
                onListening: { port in logger.info("metrics endpoint listening", metadata: ["alfred.port": "\(port)"]) }))
        }
        do {
            try await ServiceGroup(configuration: .init(services: services.map { .init(service: $0) },
                                                        gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)).run()
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

    /// The assistant's part of the worker.
    var parts: AssistantParts {
        var parts = AssistantParts(sealer: sealer, google: google, http: http, tokens: tokens)
        parts.ruleSet = ruleSet
        parts.gmailTopic = gmailTopic
        return parts
    }

    /// Delivery's part, when the worker delivers pushes.
    var deliveryParts: DeliveryParts? {
        delivery.map {
            var parts = DeliveryParts(sender: $0, sealer: sealer)
            parts.requestsInFlight = apnsRequestsInFlight
            return parts
        }
    }

    func shutdown() async {
        try? await http.shutdown()
        await delivery?.shutdown()
    }
}

