import AlfredCore
import AlfredTestCluster
import APNs
import AsyncHTTPClient
import NIOCore
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle
import Testing
import Attestation
import BrokerClient
import KeyServiceClient
import TokenBroker
#if canImport(Glibc)
import Glibc
#endif

/// Real `alfred worker` processes on the delivery queue, getting the provider token from a broker
/// socket (only its `apns_token` op is used here), killed the way machines die.
@Suite(.timeLimit(.minutes(10))) struct DeliveryProcessTests {
    /// A broker that can only mint APNs provider tokens.
    struct ProviderTokensOnly: BrokerRequestHandler {
        func accessToken(connectorID: String, forceRefresh: Bool, context: BrokerRequestContext) async throws -> BrokerAccessToken {
            throw BrokerError(code: .notFound, message: "no connectors here", retryable: false)
        }
        func exchangeCode(_ exchange: CodeExchange, context: BrokerRequestContext) async throws -> ConnectedConnector {
            throw BrokerError(code: .notFound, message: "no connectors here", retryable: false)
        }
        func revoke(connectorID: String, context: BrokerRequestContext) async throws {}
        func rewrap(connectorID: String, context: BrokerRequestContext) async throws -> Int { 1 }
    }

    @Test func aWorkerKilledAfterAPNsAcceptedAndBeforeTheRecordIsResentAndShownOnce() async throws {
        var world = DeliveryWorld()
        world.inProcessWorker = false
        try await world.run { w in
            try await WorkerProcesses.with(w) { processes in
                func worker() throws -> ChildProcess { try processes.worker() }

                let phone = try await w.device()
                // Apple accepts the push, then the answer takes 30 s: the worker is killed in between.
                w.apns.inject(.latency(.seconds(30), count: 1))
                let doomed = try worker()
                let key = try await w.notify(title: "Board sync in 10 min")
                #expect(try await eventually { w.deliveries(to: phone.token).count == 1 }, "\(doomed.output)")
                doomed.signal(SIGKILL)
                _ = await doomed.exitCode()
                #expect(try await w.state(key) == "pending", "the killed worker recorded nothing")

                let rescuer = try worker()
                #expect(try await w.waitForState(key) == "delivered", "\(rescuer.output)")
                // The rescuer cannot know Apple had it: it sends again under the same collapse id.
                #expect(w.deliveries(to: phone.token).count == 2, "APNs got a second copy")
                #expect(w.apns.shown(to: phone.token).count == 1, "the device shows it once")
                // The stand-in logs a request when it answers; the killed one never got its answer.
                #expect(w.requests(to: phone.token).map(\.status) == [200], "the rescuer's copy")
                #expect(try await w.jobPayload(key).isEmpty, "the text is gone")

                // The rescuer delivers what comes next, with the provider token from the broker.
                let next = try await w.notify(title: "Design review in 10 min")
                #expect(try await w.waitForState(next) == "delivered", "\(rescuer.output)")
                #expect(w.apns.shown(to: phone.token).count == 2)
                #expect(w.mints() == [.initial], "both workers used the broker's one token")
                rescuer.signal(SIGTERM)
                #expect(await rescuer.waitForExit(timeout: .seconds(60)) == 0)
            }
        }
    }

    /// A worker killed while it holds a push claimed ahead (prepared, its `sending` mark written,
    /// waiting for its instant): the push is rescued once the lease runs out and goes out once,
    /// never before its time.
    @Test func aWorkerKilledWhileHoldingAPushClaimedAheadIsRescuedAndSentOnceNeverEarly() async throws {
        var world = DeliveryWorld()
        world.inProcessWorker = false
        try await world.run { w in
            try await WorkerProcesses.with(w) { processes in
                func worker() throws -> ChildProcess { try processes.worker(leaseSeconds: 12, claimAheadSeconds: 6) }
                func marks(_ key: String) async throws -> [String] {
                    try await w.owner.query("SELECT state FROM push_sends WHERE idempotency_key = \(key)", logger: TestDatabase.quietLogger)
                        .collect().map { try $0.decode(String.self) }
                }
                let phone = try await w.device()
                let doomed = try worker()
                let due = Date().addingTimeInterval(8)
                let key = try await w.notify(title: "Board sync in 10 min", scheduledAt: due, at: due)
                // Claimed up to 6 s ahead and prepared: its mark is written before its time.
                #expect(try await eventually { try await marks(key) == ["sending"] }, "\(doomed.output)")
                doomed.signal(SIGKILL)
                _ = await doomed.exitCode()
                #expect(w.deliveries(to: phone.token).isEmpty, "nothing went out before its time")

                let rescuer = try worker()
                #expect(try await w.waitForState(key) == "delivered", "\(rescuer.output)")
                let deliveries = w.deliveries(to: phone.token)
                #expect(deliveries.count == 1, "the killed worker never sent it; the rescuer sent it once")
                #expect(w.apns.shown(to: phone.token).count == 1)
                #expect(deliveries.allSatisfy { $0.receivedAt >= due }, "never before its time")
                #expect(try await marks(key) == ["accepted"])
                rescuer.signal(SIGTERM)
                #expect(await rescuer.waitForExit(timeout: .seconds(60)) == 0)
            }
        }
    }

    /// A real Prometheus (Debian's package) with the repository's ops/prometheus config and rules,
    /// pointed at a real worker: the lateness histogram and the SLO recording rules through its API.
    @Test func prometheusScrapesTheWorkerAndEvaluatesTheSLORules() async throws {
        var world = DeliveryWorld()
        world.inProcessWorker = false
        try await world.run { w in
            try await WorkerProcesses.with(w) { processes in
                let worker = try processes.worker(metrics: true)
                defer { worker.signal(SIGKILL) }
                var metricsPort: Int?
                _ = try await eventually {
                    metricsPort = worker.output.firstMatch(of: /alfred.port=(\d+)/).flatMap { Int($0.1) }
                    return metricsPort != nil
                }
                let port = try #require(metricsPort, "\(worker.output)")
                _ = try await w.device()
                #expect(try await w.waitForState(try await w.notify()) == "delivered")

                try await RealPrometheus.with(folder: processes.folder, target: "127.0.0.1:\(port)") { prometheus in
                    #expect(try await eventually { try await prometheus.value("alfred_reminder_delivery_seconds_count") == 1 },
                            "\(prometheus.process.output.suffix(2000))")
                    // Two more after the first scrape, one of them 90 s late: the rates see them.
                    #expect(try await w.waitForState(try await w.notify()) == "delivered")
                    #expect(try await w.waitForState(try await w.notify(scheduledAt: Date().addingTimeInterval(-90))) == "delivered")
                    #expect(try await eventually { try await prometheus.value("alfred_reminder_delivery_seconds_count") == 3 })
                    #expect(try await prometheus.value(#"sum(alfred_reminder_delivery_seconds_bucket{le=~"60(\\.0)?"})"#) == 2)
                    // (A query string's "+" would arrive as a space, so no le="+Inf" here.)
                    #expect(try await prometheus.value(
                        #"sum(alfred_reminder_delivery_seconds_count) - sum(alfred_reminder_delivery_seconds_bucket{le=~"60(\\.0)?"})"#) == 1)
                    #expect(try await prometheus.value(#"sum(alfred_push_deliveries_total{kind="meeting.reminder",result="delivered"})"#) == 3)
                    // The recording rules: an error ratio strictly between 0 and 1 (one of the two newer ones was late).
                    var ratio: Double?
                    #expect(try await eventually {
                        ratio = try await prometheus.value("alfred:reminder_slo_errors:ratio_rate5m")
                        return (ratio ?? 0) > 0
                    }, "\(String(describing: ratio))")
                    #expect((ratio ?? 1) < 1)
                    #expect(try await prometheus.value("alfred:reminder_events:rate5m") ?? 0 > 0)

                    // promtool accepts the worker's exposition as it is.
                    let text = try await RealPrometheus.get("http://127.0.0.1:\(port)/metrics")
                    let file = processes.folder.appendingPathComponent("metrics.txt").path
                    try text.write(toFile: file, atomically: true, encoding: .utf8)
                    let check = try await AlfredTestCluster.run("/bin/sh", ["-c", "'\(try await Prerequisites.path(of: .promtool))' check metrics < '\(file)'"])
                    #expect(check.code == 0, "\(check.output)")
                    #expect(text.contains("alfred_reminder_delivery_seconds_bucket{le=\"60.0\"}") || text.contains("alfred_reminder_delivery_seconds_bucket{le=\"60\"}"))
                }
            }
        }
    }
}

/// The broker (provider tokens only) on a socket, and `alfred worker` processes on the delivery queue.
struct WorkerProcesses: Sendable {
    let folder: URL
    let socket: String
    let keyFile: String
    let caFile: String
    let world: DeliveryWorld.Running
    let broker: Task<Void, any Error>

    /// Runs `body` with the broker up; stops it (awaited, not from a `defer`) however `body` ends.
    static func with<T>(_ w: DeliveryWorld.Running, _ body: (WorkerProcesses) async throws -> T) async throws -> T {
        let processes = try await start(w)
        let outcome: Result<T, any Error>
        do { outcome = .success(try await body(processes)) } catch { outcome = .failure(error) }
        await processes.stop()
        return try outcome.get()
    }

    static func start(_ w: DeliveryWorld.Running) async throws -> WorkerProcesses {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alfred-dp-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let keyFile = folder.appendingPathComponent("host.key").path, caFile = folder.appendingPathComponent("ca.pem").path
        try Data(w.sealerKey).write(to: URL(fileURLWithPath: keyFile))
        try w.caPEM.write(toFile: caFile, atomically: true, encoding: .utf8)
        let socket = folder.appendingPathComponent("broker.sock").path
        var configuration = BrokerServer<DeliveryProcessTests.ProviderTokensOnly>.Configuration(socketPath: socket)
        configuration.providerTokens = w.minter
        let listening = AsyncStream<Void>.makeStream()
        let server = BrokerServer(configuration: configuration, handler: DeliveryProcessTests.ProviderTokensOnly(),
                                  logger: TestDatabase.quietLogger, onListening: { listening.continuation.yield() })
        let group = ServiceGroup(services: [server], logger: TestDatabase.quietLogger)
        let broker = Task { try await group.run() }
        for await _ in listening.stream { break }
        return WorkerProcesses(folder: folder, socket: socket, keyFile: keyFile, caFile: caFile, world: w, broker: broker)
    }

    func worker(metrics: Bool = false, leaseSeconds: Int = 2, claimAheadSeconds: Int = 1) throws -> ChildProcess {
        try ChildProcess(AlfredBinary.path, [
            "worker", "--queue", "delivery", "--lease-seconds", "\(leaseSeconds)", "--claim-ahead-seconds", "\(claimAheadSeconds)",
            "--rescue-seconds", "1", "--poll-seconds", "1",
            "--broker-socket", socket, "--data-key-file", keyFile, "--apns-topic", DeliveryWorld.topic,
            "--apns-url", world.apnsURL, "--apns-ca-file", caFile,
        ] + (metrics ? ["--metrics-port", "0", "--metrics-host", "127.0.0.1"] : ["--no-metrics"]),
        environment: ["ALFRED_DATABASE_URL": world.workerURL.secretString.unsafeValue, "ALFRED_LOG_LEVEL": "info"])
    }

    /// Stops the broker and waits for it to end, then removes the folder (its socket included).
    func stop() async {
        broker.cancel()
        _ = try? await broker.value
        try? FileManager.default.removeItem(at: folder)
    }
}

/// Debian's `prometheus` on loopback, with a copy of ops/prometheus whose worker target is ours and
/// whose intervals are one second.
struct RealPrometheus: Sendable {
    let process: ChildProcess
    let port: Int

    init(folder: URL, target: String, executable: String) throws {
        let ops = Repository.url("ops/prometheus")
        let copy = folder.appendingPathComponent("prometheus")
        try FileManager.default.createDirectory(at: copy.appendingPathComponent("rules"), withIntermediateDirectories: true)
        var config = try String(contentsOf: ops.appendingPathComponent("prometheus.yml"), encoding: .utf8)
        guard config.contains(#"["worker-1:9464", "worker-2:9464"]"#) else { throw TestSetupError("ops/prometheus/prometheus.yml changed its worker targets") }
        config = config.replacingOccurrences(of: #"["worker-1:9464", "worker-2:9464"]"#, with: "[\"\(target)\"]")
            .replacingOccurrences(of: "scrape_interval: 15s", with: "scrape_interval: 1s")
            .replacingOccurrences(of: "evaluation_interval: 30s", with: "evaluation_interval: 1s")
        try config.write(to: copy.appendingPathComponent("prometheus.yml"), atomically: true, encoding: .utf8)
        for rule in try FileManager.default.contentsOfDirectory(atPath: ops.appendingPathComponent("rules").path) where rule.hasSuffix(".yml") {
            let text = try String(contentsOf: ops.appendingPathComponent("rules/\(rule)"), encoding: .utf8)
                .replacing(/interval: \d+[sm]/, with: "interval: 1s")
            try text.write(to: copy.appendingPathComponent("rules/\(rule)"), atomically: true, encoding: .utf8)
        }
        port = try EmbeddedPostgres.freePort()
        process = try ChildProcess(executable, [
            "--config.file=\(copy.appendingPathComponent("prometheus.yml").path)",
            "--storage.tsdb.path=\(copy.appendingPathComponent("data").path)",
            "--web.listen-address=127.0.0.1:\(port)",
        ])
    }

    /// Runs `body` with Prometheus started; stops it however `body` ends.
    static func with<T>(folder: URL, target: String, _ body: (RealPrometheus) async throws -> T) async throws -> T {
        let prometheus = try RealPrometheus(folder: folder, target: target, executable: try await Prerequisites.path(of: .prometheus))
        let outcome: Result<T, any Error>
        do { outcome = .success(try await body(prometheus)) } catch { outcome = .failure(error) }
        await prometheus.stop()
        return try outcome.get()
    }

    /// SIGTERM, and the exit awaited without blocking a thread (SIGKILL if it takes over a minute).
    func stop() async {
        await process.terminate(with: SIGTERM, grace: .seconds(60))
    }

    /// The value of an instant query's single sample, or nil when the result is empty.
    func value(_ query: String) async throws -> Double? {
        var components = URLComponents(string: "http://127.0.0.1:\(port)/api/v1/query")!
        components.queryItems = [.init(name: "query", value: query)]
        guard let body = try? await Self.get(components.url!.absoluteString),
              // Not JSON while Prometheus is still starting ("Service Unavailable"): no value yet.
              let json = (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any],
              let data = json["data"] as? [String: Any], let result = data["result"] as? [[String: Any]],
              let sample = result.first?["value"] as? [Any], let text = sample.last as? String
        else { return nil }
        return Double(text)
    }

    static func get(_ url: String) async throws -> String {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(60))
        return String(buffer: try await response.body.collect(upTo: 8 << 20))
    }
}

struct TestSetupError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
