import AlfredCore
import AlfredTestCluster
import APNs
import ArgumentParser
import Assistant
import Delivery
import Sealing
import AsyncHTTPClient
import Crypto
import Foundation
import GoogleAPI
import JobQueue
import Logging
import Metrics
import NIOCore
import PostgresNIO
import Prometheus
import ServiceLifecycle
import Store
import WorkerProcess
import Telemetry
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// `swift build -c release && swift run -c release alfred-bench burst`
///
/// The top of the hour: every user has a meeting starting at the same instant, so every reminder is
/// due in the same second; with `--with-briefs` every user's morning brief is due in that second too.
/// The bench fixes that second itself (a whole minute a little over two minutes ahead) and every
/// user's brief time, so the result never depends on the hour it runs at. The Google and APNs stand-ins run as their own processes on loopback with
/// 20 ms added to every answer; a real worker (in this process) works both queues on a private
/// Postgres at default durability, with the production Calendar and APNs (HTTP/2 + TLS) clients.
///
/// Calendar syncs plan the reminders first (not measured); then reminder jobs re-fetch their events
/// 30 s ahead and brief jobs compose their briefs 30 s ahead, both queueing their pushes for the due
/// second, and the measured part is the burst of pushes. Lateness is the SLI: first APNs acceptance minus the scheduled reminder time, from the
/// notification ledger. The last line is one JSON object.
struct BurstBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "burst", abstract: "Top-of-the-hour reminder burst: lateness p50/p99/max.")

    @Option(help: "Users, each with one meeting starting at the same instant.") var users = 10_000
    @Option(help: "Milliseconds added to every Google and APNs answer.") var latencyMs = 20
    @Option(help: "Jobs run at once on the default queue (calendar syncs, reminder checks).") var concurrency = 256
    @Option(help: "Pushes in hand at once on the delivery queue (alfred worker's --delivery-concurrency).") var deliveryConcurrency = 10_000
    @Option(help: "Seconds before their due time pushes are claimed and prepared (alfred worker's --claim-ahead-seconds).")
    var claimAheadSeconds = 10.0
    @Option(help: "APNs requests in flight at once (alfred worker's --apns-requests-in-flight).") var apnsRequestsInFlight = 256
    @Option(help: "Minutes before the meeting that its reminder is due.") var reminderMinutes = 10
    @Flag(help: "Every user's morning brief is due in the same second as the reminders (otherwise twelve hours away).")
    var withBriefs = false
    @Option(help: "Seconds from start to the burst, for the set-up (default: 120 plus 10 ms a user, plus the briefs' compose lead with --with-briefs); rounded up to a whole minute.")
    var leadSeconds: Double?
    @Flag(help: "Plant a fault the run must report: one planned reminder is deleted before the burst, so one push is missing.")
    var plantLostReminder = false
    @Option(help: "Path of the alfred executable (default: beside this one).") var alfred: String?
    @Flag(help: "Load pg_stat_statements and print the statements that took the most time during the burst; log plans of statements over 300 ms (auto_explain, without analyze).") var profile = false

    static let teamID = "BENCHTEAM1", keyID = "BENCHKEY01", topic = "com.example.alfred"

    func run() async throws {
        let logger = { var l = Logger(label: "bench"); l.logLevel = .error; return l }()
        MetricsSystem.bootstrap(Telemetry.makeFactory(registry: PrometheusCollectorRegistry()))
        let binary = try alfredExecutable(alfred)
        let folder = URL(fileURLWithPath: "/tmp/alfred-burst-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        // The burst: a whole minute (so a brief time, HH:MM, can name it too) far enough ahead for the
        // set-up. The meeting starts the reminder lead after it.
        let burstAt = Self.burstInstant(after: Date().addingTimeInterval(
            leadSeconds ?? 120 + Double(users) / 100 + (withBriefs ? BriefSchedule.composeAhead : 0)))
        let scenario = folder.appendingPathComponent("scenario.json")
        try Self.scenario(users: users, start: burstAt.addingTimeInterval(Double(reminderMinutes) * 60)).write(to: scenario)
        let key = P256.Signing.PrivateKey()
        let keyFile = folder.appendingPathComponent("apns.p8").path, caFile = folder.appendingPathComponent("ca.pem").path
        try key.pemRepresentation.write(toFile: keyFile, atomically: true, encoding: .utf8)

        print("starting a private PostgreSQL, the Google stand-in (\(users) users) and the APNs stand-in…")
        var options = EmbeddedPostgres.Options(durable: true)
        if profile {
            // auto_explain: plans of statements over 300 ms go to the server log (kept with ALFRED_KEEP_PG_LOGS=<dir>).
            // Without `log_analyze`: timing every plan node of every statement would slow the run it profiles.
            options.extraSettings = ["shared_preload_libraries = 'pg_stat_statements,auto_explain'", "pg_stat_statements.track_planning = on",
                                     "auto_explain.log_min_duration = '300ms'", "auto_explain.log_nested_statements = on"]
        }
        let cluster = try await EmbeddedPostgres(options: options)
        defer { cluster.stop() }
        let owner = try await cluster.createDatabase("bench", logger: logger)
        try await TestDatabase.migrate(owner, logger: logger)
        if profile {
            try await TestDatabase.withClient(owner) { _ = try await $0.query("CREATE EXTENSION pg_stat_statements", logger: logger).collect() }
        }
        let googlePort = try EmbeddedPostgres.freePort(), apnsPort = try EmbeddedPostgres.freePort()
        let google = try ChildProcess(try siblingExecutable("alfred-dev", of: binary), ["sandbox", "google", "--port", "\(googlePort)", "--scenario", scenario.path, "--log-level", "error"])
        defer { google.signal(SIGTERM) }
        let apnsProcess = try ChildProcess(try siblingExecutable("alfred-dev", of: binary), [
            "sandbox", "apns", "--port", "\(apnsPort)", "--team-id", Self.teamID, "--key", "\(Self.keyID)=\(keyFile)",
            "--ca-out", caFile, "--latency-ms", "\(latencyMs)", "--log-level", "error",
        ])
        defer { apnsProcess.signal(SIGTERM) }
        try await Self.waitFor(google, "google stand-in")
        try await Self.waitFor(apnsProcess, "apns stand-in listening")
        let googleRoot = "http://127.0.0.1:\(googlePort)", apnsRoot = "https://127.0.0.1:\(apnsPort)"

        var workerURL = owner
        workerURL.username = "alfred_worker"
        let client = PostgresClient(configuration: workerURL.clientConfiguration(maxConnections: 20), backgroundLogger: logger)
        let http = HTTPClient(eventLoopGroupProvider: .singleton,
                              configuration: .init(connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency)))
        var apnsConfiguration = APNsConfiguration(topic: Self.topic)
        apnsConfiguration.productionURL = apnsRoot
        apnsConfiguration.sandboxURL = apnsRoot
        apnsConfiguration.extraTrustRootsPEM = [try String(contentsOfFile: caFile, encoding: .utf8)]
        let apnsHTTP = try TestHTTP.client(trusting: apnsConfiguration.extraTrustRootsPEM)
        do {
            try await burst(owner: owner, workerURL: workerURL, client: client, http: http, apnsHTTP: apnsHTTP,
                            apnsConfiguration: apnsConfiguration, key: key, googleRoot: googleRoot, apnsRoot: apnsRoot,
                            burstAt: burstAt,
                            processes: .init(postgres: try APIBench.postmasterPID(cluster.directory), apns: apnsProcess.pid, google: google.pid),
                            logger: logger)
        } catch {
            try? await apnsHTTP.shutdown()
            try? await http.shutdown()
            throw error
        }
        try await apnsHTTP.shutdown()
        try await http.shutdown()
    }

    private func burst(owner: DatabaseURL, workerURL: DatabaseURL, client: PostgresClient, http: HTTPClient, apnsHTTP: HTTPClient,
                       apnsConfiguration: APNsConfiguration, key: P256.Signing.PrivateKey, googleRoot: String, apnsRoot: String,
                       burstAt: Date, processes: Processes, logger: Logger) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            let sealer = try HostSealer(keyBytes: HostSealer.generateKeyBytes())
            let connectors = try await GoogleBench.seedUsers(users, client: client, owner: owner, logger: logger)
            // Briefs in the burst's second, or twelve hours away from it: never at whatever hour this runs.
            let briefTime = Self.utcTime(withBriefs ? burstAt : burstAt.addingTimeInterval(12 * 3600))
            let tokens = try await Self.seedDevices(owner: owner, sealer: sealer, reminderMinutes: reminderMinutes, briefTime: briefTime,
                                                    apnsRoot: apnsRoot, apnsHTTP: apnsHTTP, logger: logger)
            print("registered \(tokens.count) devices; minting one Google access token per user…")
            let accessTokens = try await GoogleBench.mint(connectors, root: googleRoot, http: http)

            let minter = ProviderTokenMinter(signer: ProviderTokenSigner(keyID: Self.keyID, teamID: Self.teamID, key: key))
            let sender = try APNsClient(configuration: apnsConfiguration, tokens: minter, logger: logger)
            // The worker as `alfred worker` builds it (delivery's own pool, audit events in the finishing
            // statements), with Google tokens minted up front instead of a broker.
            var assistant = AssistantParts(sealer: sealer, google: GoogleAPIConfiguration(root: googleRoot), http: http,
                                           tokens: CachedTokens(tokens: accessTokens))
            assistant.startPlanner = false
            var delivery = DeliveryParts(sender: sender, sealer: sealer)
            delivery.requestsInFlight = apnsRequestsInFlight
            var configuration = WorkerConfiguration()
            configuration.queues = ["default", "delivery"]
            configuration.concurrency = concurrency
            configuration.deliveryConcurrency = deliveryConcurrency
            configuration.claimAhead = .seconds(claimAheadSeconds)
            let worker = WorkerApp(database: workerURL, configuration: configuration,
                                   parts: WorkerParts(assistant: assistant, delivery: delivery), runtime: .live(logger: logger))
            let environment = worker.assistant!
            let services = ServiceGroup(services: [worker], logger: logger)
            let running = Task { try await services.run() }

            print("syncing every calendar (plans the reminders\(withBriefs ? " and the briefs" : ""))…")
            _ = try await PlannerHandler(environment: environment).sweep()
            while try await Self.count("SELECT count(*) FROM jobs WHERE kind = 'meeting.reminder'", client) < users {
                try await Task.sleep(for: .milliseconds(200))
            }
            let briefsDue = try await Self.count("""
                SELECT count(*) FROM jobs WHERE kind = 'morning.brief' AND due_at < '\(Self.sqlTimestamp(burstAt))'::timestamptz
                """, client)
            guard briefsDue == (withBriefs ? users : 0) else {
                throw ValidationError("\(briefsDue) briefs are planned before the burst, not \(withBriefs ? users : 0)")
            }
            // From here every Google answer takes latencyMs too (the APNs stand-in adds it throughout).
            var fault = HTTPClientRequest(url: "\(googleRoot)/_fake/faults")
            fault.method = .POST
            fault.headers.add(name: "content-type", value: "application/json")
            fault.body = .bytes(ByteBuffer(string: #"{"match": {}, "delayMs": \#(latencyMs)}"#))
            _ = try await http.execute(fault, timeout: .seconds(10)).body.collect(upTo: 1 << 16)
            if plantLostReminder {
                _ = try await Self.count("""
                    WITH gone AS (DELETE FROM jobs WHERE id = (SELECT id FROM jobs WHERE kind = 'meeting.reminder' ORDER BY id LIMIT 1)
                                  RETURNING 1) SELECT count(*) FROM gone
                    """, client)
                print("planted: one planned reminder deleted; the run must report a push missing")
            }
            let remindAt = burstAt
            guard remindAt.timeIntervalSinceNow > 40 else {
                throw ValidationError("the set-up outlasted the lead: the burst is due in \(Int(remindAt.timeIntervalSinceNow)) s; give a larger --lead-seconds")
            }
            let expected = users * (withBriefs ? 2 : 1)
            print(String(format: "planned; the burst is due in %.0f s (%d pushes in the same second)…", remindAt.timeIntervalSinceNow, expected))
            let rssBefore = Self.peakRSS()
            // CPU is counted from here (everything planned) to the burst's end: the brief jobs that
            // compose ahead, the reminder jobs 30 s ahead, and the sends. What each process spends.
            if profile {
                try await TestDatabase.withClient(owner) { _ = try await $0.query("SELECT pg_stat_statements_reset()", logger: logger).collect() }
            }
            let cpuBefore = processes.cpu()
            // Done when every due push is finished, or (a push missing: the check below reports it) when
            // nothing has finished for 15 s after the burst. Polled once a second, with one count: the
            // poll runs on the same cores as the burst.
            var finished = 0, progressAt = Date()
            while finished < expected {
                try await Task.sleep(for: .seconds(1))
                let now = try await Self.count("SELECT count(*) FROM notifications WHERE state <> 'pending'", client)
                if now != finished { finished = now; progressAt = Date() }
                if Date() > remindAt.addingTimeInterval(15), Date().timeIntervalSince(progressAt) > 15 { break }
                if Date().timeIntervalSince(remindAt) > 600 { throw ValidationError("the burst did not finish within 10 minutes") }
            }
            let cpu = processes.cpu().minus(cpuBefore)
            let rows = try await client.query("""
                SELECT kind, extract(epoch FROM first_accepted_at - scheduled_at)::float8, state,
                       extract(epoch FROM created_at - scheduled_at)::float8 FROM notifications
                """, logger: logger).collect()
            var byKind: [String: [Double]] = [:], states: [String: Int] = [:], queuedAt: [Double] = []
            for row in rows {
                let (kind, late, state, queued) = try row.decode((String, Double?, String, Double?).self)
                states[state, default: 0] += 1
                if let queued { queuedAt.append(queued) }
                if let late { byKind[kind, default: []].append(late) }
            }
            queuedAt.sort()
            let lateness = byKind.values.flatMap { $0 }.sorted()
            func percentile(_ values: [Double], _ p: Double) -> Double {
                values.isEmpty ? .nan : (values[min(values.count - 1, Int(Double(values.count) * p))] * 1000).rounded() / 1000
            }
            func percentile(_ p: Double) -> Double { percentile(lateness, p) }
            let perKind = byKind.mapValues { values -> [String: Double] in
                let sorted = values.sorted()
                return ["p50_s": percentile(sorted, 0.5), "p99_s": percentile(sorted, 0.99), "max_s": percentile(sorted, 1)]
            }
            let accepted = try await Self.countStandIn(apnsRoot, "deliveries", http: apnsHTTP)
            // What the devices show: copies resent under one collapse id count once.
            let shown = try await Self.countStandIn(apnsRoot, "shown", http: apnsHTTP)
            // Statements Postgres aborted to break a lock cycle (each costs its caller a retry after
            // `deadlock_timeout`, 1 s).
            let deadlocks = try await Self.count("SELECT deadlocks::int FROM pg_stat_database WHERE datname = current_database()", client)
            if profile {
                try await TestDatabase.withClient(owner) { owner in
                    let rows = try await owner.query("""
                        SELECT calls, (total_exec_time + total_plan_time)::float8, total_plan_time::float8, left(regexp_replace(query, '\\s+', ' ', 'g'), 110)
                        FROM pg_stat_statements ORDER BY total_exec_time + total_plan_time DESC LIMIT 12
                        """, logger: logger).collect()
                    print("statements by time during the burst (calls, total ms, of which planning ms, query):")
                    for row in rows {
                        let (calls, total, plan, query) = try row.decode((Int64, Double, Double, String).self)
                        print(String(format: "%8d %9.0f %8.0f  ", calls, total, plan) + query)
                    }
                }
            }
            await services.triggerGracefulShutdown()
            try? await running.value
            await sender.shutdown()
            let summary: [String: Any] = [
                "users": users, "latency_ms": latencyMs, "concurrency": concurrency, "delivery_concurrency": deliveryConcurrency,
                "claim_ahead_s": claimAheadSeconds, "apns_requests_in_flight": apnsRequestsInFlight,
                "delivered": states["delivered"] ?? 0, "states": states, "apns_accepted": accepted, "shown_on_devices": shown,
                "with_briefs": withBriefs, "burst_at": Self.sqlTimestamp(burstAt), "expected_pushes": expected,
                "lateness_p50_s": percentile(0.50), "lateness_p99_s": percentile(0.99), "lateness_max_s": percentile(1),
                "lateness_by_kind": perKind,
                // When the pushes were queued (ledger row written), against their due time: negative is
                // ahead. What the reminder and brief jobs before the burst left for the sends.
                "queued_vs_due_s": ["p50": percentile(queuedAt, 0.5), "p99": percentile(queuedAt, 0.99), "max": percentile(queuedAt, 1)],
                "over_60_s": lateness.filter { $0 > 60 }.count, "deadlocks": deadlocks,
                "worker_peak_rss_mb": Self.peakRSS(), "rss_before_burst_mb": rssBefore,
                "cpu_ms_per_push": cpu.perPush(expected),
            ]
            print(String(decoding: try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys]), as: UTF8.self))
            // Every notification shown once on its device (the stand-in's view, not ours).
            guard shown == expected, states["delivered"] == expected else {
                throw ValidationError("\(expected) pushes were due; the devices show \(shown) and \(states["delivered"] ?? 0) are delivered")
            }
        }
    }

    /// The first whole UTC minute at or after `date`.
    static func burstInstant(after date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 60).rounded(.up) * 60)
    }

    /// `HH:MM` of `date` in UTC (the bench's users live in UTC).
    static func utcTime(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    static func sqlTimestamp(_ date: Date) -> String {
        date.formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false).timeZone(separator: .omitted))
    }

    /// The processes whose CPU the burst costs: ours (this process's worker, Postgres) and the stand-ins'.
    struct Processes {
        let postgres: pid_t, apns: pid_t, google: pid_t

        struct CPU {
            var worker = 0.0, postgres = 0.0, apns = 0.0, google = 0.0
            func minus(_ other: CPU) -> CPU {
                CPU(worker: worker - other.worker, postgres: postgres - other.postgres, apns: apns - other.apns, google: google - other.google)
            }
            /// Milliseconds per push, rounded to 0.01 ms.
            func perPush(_ pushes: Int) -> [String: Double] {
                func ms(_ seconds: Double) -> Double { (seconds * 1000 / Double(max(1, pushes)) * 100).rounded() / 100 }
                return ["worker": ms(worker), "postgres": ms(postgres), "ours": ms(worker + postgres),
                        "apns_stand_in": ms(apns), "google_stand_in": ms(google)]
            }
        }

        func cpu() -> CPU {
            CPU(worker: APIBench.cpuSeconds(getpid()), postgres: APIBench.cpuSecondsOfTree(postgres),
                apns: APIBench.cpuSeconds(apns), google: APIBench.cpuSeconds(google))
        }
    }

    static func scenario(users: Int, start: Date) throws -> Data {
        let startText = sqlTimestamp(start)
        let list: [[String: Any]] = (0..<users).map { index in
            ["subject": "bench-\(index)", "email": "user\(index)@bench.example", "timeZone": "UTC",
             "events": [["id": "top-of-hour", "summary": "All hands", "location": "Room \(index % 50)",
                         "start": startText, "durationMinutes": 30, "selfResponse": "accepted"]],
             "messages": [] as [Any]]
        }
        return try JSONSerialization.data(withJSONObject: ["users": list])
    }

    /// One iPhone per user: sealed in the database, registered at the APNs stand-in. Returns each
    /// user's device token.
    /// `briefTime` ("HH:MM", UTC) sets every user's brief time; nil leaves them as they are.
    static func seedDevices(owner: DatabaseURL, sealer: HostSealer, reminderMinutes: Int, briefTime: String? = nil, apnsRoot: String,
                            apnsHTTP: HTTPClient, logger: Logger) async throws -> [UUID: String] {
        try await TestDatabase.withClient(owner) { owner in
            _ = try await owner.query("""
                UPDATE preferences SET meeting_reminder_minutes = \(Int32(reminderMinutes)), quiet_hours_start = NULL,
                    quiet_hours_end = NULL, time_zone = 'UTC',
                    morning_brief_local_time = coalesce(\(briefTime)::time, morning_brief_local_time)
                """, logger: logger).collect()
            let users = try await owner.query("SELECT id FROM users ORDER BY id", logger: logger).collect().map { try $0.decode(UUID.self) }
            var ids: [UUID] = [], sealed: [ByteBuffer] = [], keys: [String] = [], tokens: [String] = []
            for user in users {
                let token = (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
                ids.append(UUID()); tokens.append(token); keys.append(sealer.keyedHash("device", token))
                sealed.append(ByteBuffer(bytes: try sealer.seal(Array(token.utf8), purpose: .deviceToken, userID: user)))
            }
            for start in stride(from: 0, to: users.count, by: 1000) {
                let end = min(users.count, start + 1000)
                let (i, u, s, k) = (Array(ids[start..<end]), Array(users[start..<end]), Array(sealed[start..<end]), Array(keys[start..<end]))
                _ = try await owner.query("""
                    INSERT INTO devices (id, user_id, apns_token_ciphertext, environment, token_key)
                    SELECT i, u, s, 'sandbox', k FROM unnest(\(i)::uuid[], \(u)::uuid[], \(s)::bytea[], \(k)::text[]) AS t(i, u, s, k)
                    """, logger: logger).collect()
            }
            try await withThrowingTaskGroup(of: Void.self) { group in
                var pending = tokens.makeIterator()
                func next() -> Bool {
                    guard let token = pending.next() else { return false }
                    group.addTask {
                        var request = HTTPClientRequest(url: "\(apnsRoot)/_fake/devices")
                        request.method = .POST
                        request.headers.add(name: "content-type", value: "application/json")
                        request.body = .bytes(ByteBuffer(string: #"{"token":"\#(token)","environment":"sandbox"}"#))
                        // Registration is idempotent: a stream the connection drops is simply sent again.
                        for attempt in 1...5 {
                            do {
                                let response = try await apnsHTTP.execute(request, timeout: .seconds(30))
                                // Read to the end: a response dropped before its END_STREAM makes the
                                // client reset the stream, and the server counts resets.
                                _ = try await response.body.collect(upTo: 1 << 20)
                                guard (200..<300).contains(response.status.code) else { throw ValidationError("device registration: HTTP \(response.status.code)") }
                                return
                            } catch let error as ValidationError { throw error } catch where attempt < 5 {
                                print("device registration attempt \(attempt) failed (\(String(reflecting: error))); again")
                            }
                        }
                    }
                    return true
                }
                for _ in 0..<64 where next() {}
                while try await group.next() != nil { _ = next() }
            }
            return Dictionary(uniqueKeysWithValues: zip(users, tokens))
        }
    }

    /// The length of a stand-in control list: `deliveries` (pushes accepted) or `shown` (what the
    /// devices show, one per collapse id).
    static func countStandIn(_ root: String, _ list: String, http: HTTPClient) async throws -> Int {
        let response = try await http.execute(HTTPClientRequest(url: "\(root)/_fake/\(list)"), timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 512 << 20)
        return (try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [Any])?.count ?? -1
    }

    static func count(_ sql: String, _ client: PostgresClient) async throws -> Int {
        try await client.query(PostgresQuery(unsafeSQL: sql), logger: Logger(label: "bench")).collect().first?.decode(Int.self) ?? 0
    }

    static func waitFor(_ process: ChildProcess, _ text: String) async throws {
        let deadline = ContinuousClock.now + .seconds(120)
        while !process.output.contains(text) {
            guard ContinuousClock.now < deadline, process.poll() == nil else { throw ValidationError("a stand-in did not start: \(process.output)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// This process's peak resident set (VmHWM), in MB.
    static func peakRSS() -> Int { Int(AlfredBench.peakRSSMegabytes(getpid())) }
}
