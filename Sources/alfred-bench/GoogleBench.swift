import AlfredCore
import AlfredTestCluster
import ArgumentParser
import Assistant
import Delivery
import Sealing
import AsyncHTTPClient
import Foundation
import GoogleAPI
import JobQueue
import Logging
import Metrics
import Prometheus
import Telemetry
import NIOCore
import PostgresNIO
import ServiceLifecycle
import Store
import WorkerProcess
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// `swift build -c release && swift run -c release alfred-bench google`
///
/// `calendar.sync` + `mail.check` for many users against the Google stand-in (`alfred-dev sandbox google`,
/// its own process, loopback), with the production Calendar and Gmail clients and a real worker
/// (in this process) on a private Postgres at default durability. Pass 1 is the first run of each
/// user (full calendar sync, Gmail starting point); pass 2 is the steady state (sync token, history).
/// Access tokens are minted once per user by the stand-in and cached, as the broker's warm cache
/// would serve them (the broker has its own benchmark). The last line is one JSON object.
struct GoogleBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "google", abstract: "User syncs per second and Google requests per user.")

    @Option(help: "Users (each with a calendar and a mailbox).") var users = 10_000
    @Option(help: "Jobs run at once by the worker.") var concurrency = 128
    @Option(help: "Path of the alfred executable (default: beside this one).") var alfred: String?
    @Option(help: "Pass 5: pushes per second arriving steadily (one new message each), for 20 seconds.") var pushRate = 50

    func run() async throws {
        let logger = { var l = Logger(label: "bench"); l.logLevel = .error; return l }()
        // Requests are counted by the clients' own metric (the stand-in keeps only its last 10,000).
        let prometheus = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(Telemetry.makeFactory(registry: prometheus))
        let binary = try alfredExecutable(alfred)
        let folder = URL(fileURLWithPath: "/tmp/alfred-gb-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("scenario.json")
        try Self.scenario(users: users).write(to: scenario)
        print("starting a private PostgreSQL and the Google stand-in (\(users) users)…")
        let cluster = try await EmbeddedPostgres(options: .init(durable: true))
        defer { cluster.stop() }
        let owner = try await cluster.createDatabase("bench", logger: logger)
        try await TestDatabase.migrate(owner, logger: logger)
        let port = try EmbeddedPostgres.freePort()
        let google = try ChildProcess(try siblingExecutable("alfred-dev", of: binary), ["sandbox", "google", "--port", "\(port)", "--scenario", scenario.path, "--log-level", "error"])
        defer { google.signal(SIGTERM) }
        let deadline = ContinuousClock.now + .seconds(120)
        while !google.output.contains("google stand-in") {
            guard ContinuousClock.now < deadline else { throw ValidationError("the stand-in did not start: \(google.output)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        let root = "http://127.0.0.1:\(port)"
        var workerURL = owner
        workerURL.username = "alfred_worker"
        let client = PostgresClient(configuration: workerURL.clientConfiguration(maxConnections: 12), backgroundLogger: logger)
        let http = HTTPClient(eventLoopGroupProvider: .singleton,
                              configuration: .init(connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency)))
        do {
            try await measure(users: users, root: root, http: http, client: client, owner: owner, workerURL: workerURL,
                              prometheus: prometheus, logger: logger)
        } catch {
            try? await http.shutdown()
            throw error
        }
        try await http.shutdown()
    }

    private func measure(users: Int, root: String, http: HTTPClient, client: PostgresClient, owner: DatabaseURL, workerURL: DatabaseURL,
                         prometheus: PrometheusCollectorRegistry, logger: Logger) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            let connectors = try await Self.seedUsers(users, client: client, owner: owner, logger: logger)
            print("minting one access token per user at the stand-in…")
            let tokens = try await Self.mint(connectors, root: root, http: http)
            // The worker as `alfred worker` builds it, with tokens minted up front instead of a broker.
            var assistant = AssistantParts(sealer: try HostSealer(keyBytes: HostSealer.generateKeyBytes()),
                                           google: GoogleAPIConfiguration(root: root), http: http, tokens: CachedTokens(tokens: tokens))
            assistant.gmailTopic = Self.topic
            assistant.startPlanner = false
            var configuration = WorkerConfiguration()
            configuration.concurrency = concurrency
            configuration.poolConnections = 12
            let worker = WorkerApp(database: workerURL, configuration: configuration, parts: WorkerParts(assistant: assistant),
                                   runtime: .live(logger: logger))
            let environment = worker.assistant!
            let services = ServiceGroup(services: [worker], logger: logger)
            let running = Task { try await services.run() }

            var passes: [(seconds: Double, requests: Int, calendarRequests: Int, gmailRequests: Int)] = []
            for pass in 1...2 {
                let before = Self.requestCounts(prometheus)
                let start = Date()
                if pass == 1 {
                    _ = try await PlannerHandler(environment: environment).sweep()
                } else {
                    _ = try await client.query(
                        "UPDATE jobs SET due_at = now() WHERE kind IN ('calendar.sync', 'mail.check') AND state = 'queued'",
                        logger: logger).collect()
                    _ = try await client.query("SELECT pg_notify('alfred_jobs', 'default 0')", logger: logger).collect()
                }
                while try await Self.done(since: start, kinds: ["calendar.sync", "mail.check"], client: client, logger: logger) < 2 * users {
                    try await Task.sleep(for: .milliseconds(100))
                }
                let seconds = Date().timeIntervalSince(start)
                let after = Self.requestCounts(prometheus)
                let counts = (total: after.total - before.total, calendar: after.calendar - before.calendar,
                              gmail: after.gmail - before.gmail)
                passes.append((seconds, counts.total, counts.calendar, counts.gmail))
                print(String(format: "pass %d (%@): %.0f user-syncs/s (%d calendar.sync + %d mail.check in %.1f s), "
                             + "%.2f Google requests per user (calendar %.2f, gmail %.2f)",
                             pass, pass == 1 ? "first sync" : "steady state", Double(users) / seconds, users, users, seconds,
                             Double(counts.total) / Double(users), Double(counts.calendar) / Double(users),
                             Double(counts.gmail) / Double(users)))
            }
            // Gmail push: every mailbox's watch renewed (pass 3), then one new message in every mailbox and
            // the check a push brings forward (pass 4; all at once: the worst case for latency).
            let push = try await measurePush(users: users, connectors: connectors, root: root, http: http, client: client,
                                             environment: environment,
                                             prometheus: prometheus, logger: logger)
            await services.triggerGracefulShutdown()
            try await running.value

            let steady = passes[1]
            let defaults = AssistantEnvironment.Intervals()
            let calendarPerHour = 3600 / defaults.calendarSync.seconds * Double(steady.calendarRequests) / Double(users)
            let gmailPerHour = 3600 / defaults.mailCheck.seconds * Double(steady.gmailRequests) / Double(users)
            print(String(format: "at the default intervals (calendar every %.0f s, mail every %.0f s): %.1f Google requests "
                         + "per user per hour when nothing changes (calendar %.1f, gmail %.1f)",
                         defaults.calendarSync.seconds, defaults.mailCheck.seconds, calendarPerHour + gmailPerHour,
                         calendarPerHour, gmailPerHour))
            var summary: [String: Any] = [
                "users": users,
                "first_pass_user_syncs_per_s": Int(Double(users) / passes[0].seconds),
                "steady_user_syncs_per_s": Int(Double(users) / steady.seconds),
                "steady_jobs_per_s": Int(Double(2 * users) / steady.seconds),
                "first_pass_requests_per_user": (Double(passes[0].requests) / Double(users) * 100).rounded() / 100,
                "steady_requests_per_user": (Double(steady.requests) / Double(users) * 100).rounded() / 100,
                "requests_per_user_per_hour_idle": ((calendarPerHour + gmailPerHour) * 10).rounded() / 10,
            ]
            let pushed = Self.pushSummary(idleCheck: Double(steady.gmailRequests) / Double(users), push: push)
            summary.merge(pushed) { _, new in new }
            print(String(decoding: try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys]), as: UTF8.self))
        }
    }

    /// Users `user<i>@bench.example`, each with three meetings and a few messages.
    static func scenario(users: Int) throws -> Data {
        var list: [[String: Any]] = []
        for index in 0..<users {
            list.append([
                "subject": "bench-\(index)", "email": "user\(index)@bench.example", "timeZone": "Europe/Zurich",
                "events": [
                    ["id": "e1", "summary": "Standup", "startInMinutes": 30, "selfResponse": "accepted"],
                    ["id": "e2", "summary": "Review", "startInMinutes": 150, "selfResponse": "accepted"],
                    ["id": "e3", "summary": "Lunch", "startInMinutes": 300, "selfResponse": "declined"],
                ],
                "messages": [
                    ["id": "m1", "from": "A <a@bench.example>", "subject": "hello", "arrivedMinutesAgo": 50],
                    ["id": "m2", "from": "B <b@bench.example>", "subject": "news", "arrivedMinutesAgo": 20],
                ],
            ])
        }
        return try JSONSerialization.data(withJSONObject: ["users": list])
    }

    /// Users, Google connectors and preferences, by index; returns connector id -> email.
    static func seedUsers(_ count: Int, client: PostgresClient, owner: DatabaseURL, logger: Logger) async throws -> [UUID: String] {
        var connectors: [UUID: String] = [:]
        var users: [UUID] = [], ids: [UUID] = []
        for index in 0..<count {
            let user = UUID(), connector = UUID()
            users.append(user); ids.append(connector)
            connectors[connector] = "user\(index)@bench.example"
        }
        let (userIDs, connectorIDs) = (users, ids)
        try await TestDatabase.withClient(owner) { owner in
            _ = try await owner.query("INSERT INTO users (id) SELECT unnest(\(userIDs)::uuid[])", logger: logger).collect()
            _ = try await owner.query("""
                INSERT INTO connectors (id, user_id, provider, scopes, refresh_token_ciphertext, token_key_id, status)
                SELECT c, u, 'google', '{calendar.readonly,gmail.metadata}', '\\x01', 'kek-main', 'ACTIVE'
                FROM unnest(\(connectorIDs)::uuid[], \(userIDs)::uuid[]) AS t(c, u)
                """, logger: logger).collect()
            _ = try await owner.query("""
                INSERT INTO preferences (user_id, time_zone) SELECT unnest(\(userIDs)::uuid[]), 'Europe/Zurich'
                """, logger: logger).collect()
        }
        return connectors
    }

    static func mint(_ connectors: [UUID: String], root: String, http: HTTPClient) async throws -> [UUID: String] {
        struct Minted: Decodable { let access_token: String }
        let scopes = "[\"https://www.googleapis.com/auth/calendar.readonly\",\"https://www.googleapis.com/auth/gmail.metadata\"]"
        return try await withThrowingTaskGroup(of: (UUID, String).self) { group in
            var tokens: [UUID: String] = [:]
            var pending = connectors.makeIterator()
            func next() -> Bool {
                guard let (id, email) = pending.next() else { return false }
                group.addTask {
                    var request = HTTPClientRequest(url: "\(root)/_fake/tokens")
                    request.method = .POST
                    request.headers.add(name: "Content-Type", value: "application/json")
                    request.body = .bytes(ByteBuffer(string: "{\"user\":\"\(email)\",\"scopes\":\(scopes)}"))
                    let response = try await http.execute(request, timeout: .seconds(30))
                    let body = try await response.body.collect(upTo: 1 << 16)
                    return (id, try JSONDecoder().decode(Minted.self, from: Data(buffer: body)).access_token)
                }
                return true
            }
            for _ in 0..<32 where next() {}
            while let (id, token) = try await group.next() {
                tokens[id] = token
                _ = next()
            }
            return tokens
        }
    }

    /// Recurring calendar and mail jobs that completed a run since `start`.
    static func done(since start: Date, kinds: [String], client: PostgresClient, logger: Logger) async throws -> Int {
        let rows = try await client.query("""
            SELECT count(*) FROM jobs WHERE kind = ANY(\(kinds)) AND state = 'queued'
               AND next_run_at IS NOT NULL AND updated_at >= \(start)
            """, logger: logger).collect()
        return try rows.first?.decode(Int.self) ?? 0
    }

    /// `alfred_google_requests_total` by API, summed over results, from the clients' own counters.
    static func requestCounts(_ registry: PrometheusCollectorRegistry) -> (total: Int, calendar: Int, gmail: Int) {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        var calendar = 0.0, gmail = 0.0
        for line in String(decoding: buffer, as: UTF8.self).split(separator: "\n")
        where line.hasPrefix(MetricName.googleRequests + "{") {
            let value = Double(line.split(separator: " ").last ?? "") ?? 0
            if line.contains("api=\"calendar\"") { calendar += value } else if line.contains("api=\"gmail\"") { gmail += value }
        }
        return (Int(calendar + gmail), Int(calendar), Int(gmail))
    }
}

/// Access tokens minted once per connector: the broker's warm cache, without the broker.
struct CachedTokens: TokenSource {
    let tokens: [UUID: String]
    func accessToken(for connector: UUID, forceRefresh: Bool) async throws -> AccessToken {
        guard let token = tokens[connector] else { throw ValidationError("no token for connector") }
        return AccessToken(token: Redacted(token), expiresAt: Date().addingTimeInterval(3000))
    }
}

extension HTTPClientRequest {
    static func delete(_ url: String) -> HTTPClientRequest {
        var request = HTTPClientRequest(url: url)
        request.method = .DELETE
        return request
    }
}

extension GoogleBench {
    static let topic = "projects/alfred-bench/topics/gmail-events"

    struct PushNumbers {
        var watchRequests: Double
        var pushedCheckRequests: Double
        var latencyP50: Double
        var latencyP99: Double
        var seconds: Double
        var steadyP50 = 0.0
        var steadyP99 = 0.0
    }

    /// Pass 3: every user's `gmail.watch` renewed (the first ran in pass 1). Pass 4: one message lands in every
    /// mailbox, then every user's check is brought forward as a push does (by unique key), and the
    /// time from that moment to each check's completion is read from the jobs table.
    func measurePush(users: Int, connectors: [UUID: String], root: String, http: HTTPClient, client: PostgresClient,
                     environment: AssistantEnvironment,
                     prometheus: PrometheusCollectorRegistry, logger: Logger) async throws -> PushNumbers {
        var before = Self.requestCounts(prometheus)
        var start = Date()
        // The first watch ran in pass 1 (the planner queues it with the others); this is a renewal.
        _ = try await client.query("UPDATE jobs SET due_at = now() WHERE kind = 'gmail.watch' AND state = 'queued'", logger: logger).collect()
        _ = try await client.query("SELECT pg_notify('alfred_jobs', 'default 0')", logger: logger).collect()
        while try await Self.done(since: start, kinds: ["gmail.watch"], client: client, logger: logger) < users {
            try await Task.sleep(for: .milliseconds(100))
        }
        var after = Self.requestCounts(prometheus)
        let watch = Double(after.gmail - before.gmail) / Double(users)
        print(String(format: "pass 3 (gmail.watch renewal): %d mailboxes watched again in %.1f s, %.2f Gmail requests per user",
                     users, Date().timeIntervalSince(start), watch))

        print("delivering one message to every mailbox at the stand-in…")
        try await Self.deliverOneMessageEach(users: users, root: root, http: http)
        before = Self.requestCounts(prometheus)
        start = Date()
        let hinted = try await client.query("""
            UPDATE jobs SET due_at = now() WHERE kind = 'mail.check' AND state = 'queued' RETURNING now()
            """, logger: logger).collect().first?.decode(Date.self) ?? start
        _ = try await client.query("SELECT pg_notify('alfred_jobs', 'default 0')", logger: logger).collect()
        while try await Self.done(since: start, kinds: ["mail.check"], client: client, logger: logger) < users {
            try await Task.sleep(for: .milliseconds(100))
        }
        let seconds = Date().timeIntervalSince(start)
        after = Self.requestCounts(prometheus)
        let pushed = Double(after.gmail - before.gmail) / Double(users)
        // Completion is the check's own update of its row (it runs again later, so it stays queued).
        let (p50, p99) = try await client.query("""
            SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY extract(epoch FROM updated_at - \(hinted))),
                   percentile_cont(0.99) WITHIN GROUP (ORDER BY extract(epoch FROM updated_at - \(hinted)))
            FROM jobs WHERE kind = 'mail.check' AND updated_at >= \(start)
            """, logger: logger).collect().first?.decode((Double, Double).self) ?? (0, 0)
        print(String(format: "pass 4 (a push for every mailbox at once): %d checks in %.1f s, %.2f Gmail requests per check; "
                     + "push to check done p50 %.2f s, p99 %.2f s", users, seconds, pushed, p50, p99))
        var numbers = PushNumbers(watchRequests: watch, pushedCheckRequests: pushed, latencyP50: p50, latencyP99: p99, seconds: seconds)
        (numbers.steadyP50, numbers.steadyP99) = try await steadyPushes(users: users, connectorEmails: connectors, root: root, http: http,
                                                                        client: client, logger: logger)
        return numbers
    }

    /// Pass 5: mail arriving steadily, `pushRate` a second for 20 s, each to its own user; every
    /// arrival is followed at once by what its push does (the check brought forward), and each
    /// check's latency is its completion minus its own push.
    func steadyPushes(users: Int, connectorEmails: [UUID: String], root: String, http: HTTPClient, client: PostgresClient,
                      logger: Logger) async throws -> (Double, Double) {
        let count = min(users, pushRate * 20)
        let ids = try await client.query("""
            SELECT j.user_id, c.id FROM jobs j JOIN connectors c ON c.user_id = j.user_id
            WHERE j.kind = 'mail.check' AND j.state = 'queued' ORDER BY j.user_id LIMIT \(count)
            """, logger: logger).collect().map { try $0.decode((UUID, UUID).self) }
        let emails = connectorEmails
        let clock = ContinuousClock()
        let begin = clock.now
        var pushedAt: [UUID: Date] = [:]
        for (index, (user, connector)) in ids.enumerated() {
            try await clock.sleep(until: begin + .milliseconds(index * 1000 / pushRate))
            // The message lands, then its push brings the check forward.
            if let email = emails[connector] { try await Self.deliverMessage(to: email, root: root, http: http) }
            let key = "mail.check:\(user.uuidString.lowercased())"
            let at = try await client.query("""
                UPDATE jobs SET due_at = now() WHERE unique_key = \(key) AND state = 'queued' RETURNING now()
                """, logger: logger).collect().first?.decode(Date.self)
            _ = try await client.query("SELECT pg_notify('alfred_jobs', 'default 0')", logger: logger).collect()
            if let at { pushedAt[user] = at }
        }
        var latencies: [Double] = []
        let deadline = clock.now + .seconds(120)
        while clock.now < deadline {
            let rows = try await client.query("""
                SELECT user_id, updated_at FROM jobs WHERE kind = 'mail.check' AND user_id = ANY(\(Array(pushedAt.keys)))
                   AND state = 'queued' AND due_at > now() + interval '30 minutes'
                """, logger: logger).collect()
            latencies = try rows.map { row in
                let (user, done) = try row.decode((UUID, Date).self)
                return done.timeIntervalSince(pushedAt[user] ?? done)
            }
            if latencies.count == pushedAt.count { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        latencies.sort()
        let p50 = latencies.isEmpty ? 0 : latencies[latencies.count / 2]
        let p99 = latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * 0.99))]
        print(String(format: "pass 5 (%d pushes a second for 20 s, one check each): %d checks, push to check done p50 %.2f s, p99 %.2f s",
                     pushRate, latencies.count, p50, p99))
        return (p50, p99)
    }

    /// Gmail requests per user per day, polling every 5 minutes (before) against push with an
    /// hourly safety net and a daily watch (now), for a quiet mailbox and for 20 and 50 new
    /// messages a day (each a push and a check; polling fetches each message once in some check).
    static func pushSummary(idleCheck: Double, push: PushNumbers) -> [String: Any] {
        let defaults = AssistantEnvironment.Intervals()
        let polls = 86_400 / defaults.mailCheck.seconds, safety = 86_400 / defaults.mailSafetyNet.seconds
        let watches = 86_400 / defaults.gmailWatchRenewal.seconds
        let perMessage = max(0, push.pushedCheckRequests - idleCheck)
        var summary: [String: Any] = [
            "push_to_check_done_p50_s": (push.latencyP50 * 100).rounded() / 100,
            "push_to_check_done_p99_s": (push.latencyP99 * 100).rounded() / 100,
            "steady_push_to_check_done_p50_s": (push.steadyP50 * 100).rounded() / 100,
            "steady_push_to_check_done_p99_s": (push.steadyP99 * 100).rounded() / 100,
            "gmail_requests_per_watch": (push.watchRequests * 100).rounded() / 100,
            "gmail_requests_per_pushed_check": (push.pushedCheckRequests * 100).rounded() / 100,
        ]
        for messages in [0.0, 20, 50] {
            let polling = polls * idleCheck + messages * perMessage
            let pushing = safety * idleCheck + watches * push.watchRequests + messages * push.pushedCheckRequests
            print(String(format: "Gmail requests per user per day with %.0f new messages: polling every %.0f s %.0f, "
                         + "push %.0f (%.1f times fewer)", messages, defaults.mailCheck.seconds, polling, pushing, polling / pushing))
            summary["gmail_requests_per_day_\(Int(messages))_messages_polling"] = Int(polling.rounded())
            summary["gmail_requests_per_day_\(Int(messages))_messages_push"] = Int(pushing.rounded())
        }
        return summary
    }

    static func deliverOneMessageEach(users: Int, root: String, http: HTTPClient) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            func add() -> Bool {
                guard next < users else { return false }
                let index = next
                next += 1
                group.addTask { try await deliverMessage(to: "user\(index)@bench.example", root: root, http: http) }
                return true
            }
            for _ in 0..<32 where add() {}
            while try await group.next() != nil { _ = add() }
        }
    }
}

extension GoogleBench {
    /// One new inbox message for `email` at the stand-in (its control plane).
    static func deliverMessage(to email: String, root: String, http: HTTPClient) async throws {
        var request = HTTPClientRequest(url: "\(root)/_fake/state/messages")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: #"{"user": "\#(email)", "message": {"from": "C <c@bench.example>", "subject": "new", "labelIds": ["INBOX", "UNREAD"]}}"#))
        let response = try await http.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 16)
        guard response.status.code == 201 else { throw ValidationError("delivering a message answered \(response.status.code)") }
    }
}
