import AlfredCore
import AlfredTestCluster
import ArgumentParser
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import PostgresNIO
import StandIns
import Store
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// `swift build -c release && swift run -c release alfred-bench gmail-push [--users 2000]`
///
/// Urgent mail from arrival to the alert, through the path production uses, every part its own
/// process: a message lands in a watched mailbox at the Google stand-in, whose Pub/Sub push (with its
/// signed OIDC token) goes to `alfred api`; the API verifies it and brings the user's `mail.check`
/// forward; an `alfred worker` reads the history and the message's metadata (tokens from the broker),
/// the rules find it urgent, and the push is sent to the APNs stand-in. Arrival is when the bench
/// posts the message; the alert is when the APNs stand-in accepted it.
///
/// Two phases: a steady rate (one message a user), then a burst (every message at once). Gmail
/// requests are counted at the stand-in by method, for the whole run and per pushed message; the
/// last line is one JSON object.
struct GmailPushBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "gmail-push",
                                                    abstract: "Urgent mail from arrival to alert, through Pub/Sub push, the API and a worker.")

    @Option(help: "Users, each with a watched mailbox and one device.") var users = 2000
    @Option(help: "Steady phase: messages a second, each to its own user.") var rate = 20
    @Option(help: "Steady phase: seconds it lasts.") var seconds = 60
    @Option(help: "Burst phase: messages posted at once, each to its own user.") var burst = 1000
    @Option(help: "Worker processes.") var workers = 1
    @Option(help: "Seconds an alert may take before the message counts as lost.") var timeout = 120.0
    @Option(help: "A directory to keep every process's output in; by default it is discarded.") var logs: String?
    @Option(help: "Path of the alfred executable (default: beside this one).") var alfred: String?

    static let topicName = "projects/alfred-local/topics/gmail-events"
    static let pushAccount = "gmail-push@alfred-local.iam.gserviceaccount.com"

    func validate() throws {
        guard users > 0, rate > 0, seconds > 0, burst > 0, workers > 0 else { throw ValidationError("every count must be above 0") }
        guard rate * seconds + burst + Self.planted < users else {
            throw ValidationError("each message goes to its own user, and some get none: --users must be above --rate × --seconds + --burst + \(Self.planted)")
        }
    }

    func run() async throws {
        let logger = { var l = Logger(label: "gmail-push"); l.logLevel = .critical; return l }()
        var rng = SeededGenerator(seed: 7)
        // No meetings, and briefs planned hours after the run: the only alerts are the urgent mail's.
        let plan = LoadPlan(users: users, meetings: 0, setupSeconds: 6 * 3600, runSeconds: 600, rng: &rng)
        let (summary, failures) = try await BenchStack.with(alfred: alfred, scenario: try plan.scenario(), logs: logs, logger: logger) { stack in
            let report = try await measure(plan: plan, stack: stack, logger: logger)
            var failures: [String] = []
            if let lost = report["not_alerted"] as? Int, lost > 0 { failures.append("\(lost) urgent messages were never alerted") }
            if (report["planted_wrong_audience"] as? [String: Any])?["seen"] as? Bool != true {
                failures.append("the planted pushes for another audience were not all refused, or an alert followed them")
            }
            return (try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]), failures)
        }
        print(String(decoding: summary, as: UTF8.self))
        // A message never alerted, or a planted push the API let through, fails the run.
        guard failures.isEmpty else { throw ValidationError(failures.joined(separator: "; ")) }
    }

    private func measure(plan: LoadPlan, stack: BenchStack, logger: Logger) async throws -> [String: Any] {
        print("connecting \(users) users through the broker…")
        let (ids, tokens) = try await ChaosBench.seedUsers(plan, owner: stack.owner, sealer: stack.sealer, broker: stack.path("broker.sock"),
                                                           googleRoot: stack.googleRoot, apnsRoot: stack.apnsRoot, http: stack.http,
                                                           logger: logger)
        let api = try startAPI(stack)
        for index in 1...workers { try stack.addWorker("worker-\(index)", verbose: logs != nil, extra: ["--gmail-topic", Self.topicName]) }

        // Every mailbox watched (the workers' gmail.watch jobs), then pushes switched on at the stand-in.
        let started = Date()
        try await TestDatabase.withClient(stack.owner) { client in
            while try await ChaosReport.count(client, "SELECT count(*)::int FROM gmail_watches WHERE failed_at IS NULL", logger) < users {
                guard Date().timeIntervalSince(started) < 600 else { throw ValidationError("the mailboxes were not all watched within 600 s") }
                try await Task.sleep(for: .milliseconds(250))
            }
        }
        print(String(format: "every mailbox watched in %.0f s; Gmail push on, to %@", Date().timeIntervalSince(started), api.pushURL))
        try await Self.send(.PUT, stack.googleRoot + "/_fake/pubsub/subscription",
                                #"{"endpoint": "\#(api.pushURL)", "serviceAccount": "\#(Self.pushAccount)"}"#, http: stack.http)
        let before = try await Self.gmailRequests(stack)

        // Steady: `rate` a second; then a burst, all at once. Each message goes to a user of its own.
        var next = 0
        let steadyUsers = (0..<(rate * seconds)).map { _ in defer { next += 1 }; return next }
        let burstUsers = (0..<burst).map { _ in defer { next += 1 }; return next }
        print("steady: \(rate) urgent messages a second for \(seconds) s…")
        let steady = try await phase(steadyUsers, every: .milliseconds(1000 / rate), stack: stack, tokens: tokens)
        print("burst: \(burst) urgent messages at once…")
        let burstResult = try await phase(burstUsers, every: nil, stack: stack, tokens: tokens)
        let after = try await Self.gmailRequests(stack)
        // Planted: pushes whose token names another audience. The API must refuse each, and no alert
        // may follow: the alerts above came through the push, not around it (the hourly safety net).
        let plantedUsers = (0..<Self.planted).map { _ in defer { next += 1 }; return next }
        let planted = try await plantWrongAudience(plantedUsers, pushURL: api.pushURL, stack: stack, tokens: tokens)
        // The safety net: the hourly check of a watched mailbox in which nothing changed, for users
        // who got no mail. Their checks are made due as the hour passing would.
        let quiet = Array(ids[next..<min(users, next + 500)])  // validate() leaves at least one
        let idle = try await costOfARun("mail.check", for: quiet, stack: stack, logger: logger)
        // The daily watch renewal, run now for the same users.
        let watch = try await costOfARun("gmail.watch", for: quiet, stack: stack, logger: logger)

        let pushes = try await ChaosReport.fetch(stack.googleRoot + "/_fake/pubsub/pushes", http: stack.http)
        let acknowledged = pushes.filter { push in
            guard let status = (push["status"] as? String).flatMap({ Int($0) }) else { return false }
            return (200..<300).contains(status)
        }.count
        let messages = steadyUsers.count + burstUsers.count
        var used: [String: Int] = [:]
        for (method, count) in after { used[method] = count - (before[method] ?? 0) }
        let total = used.values.reduce(0, +)
        var summary: [String: Any] = [
            "users": users, "workers": workers,
            "steady": steady.json(rate: rate), "burst": burstResult.json(rate: nil),
            "pubsub_pushes_sent": pushes.count,
            "pubsub_pushes_acknowledged": acknowledged,
            "gmail_requests_during_pushes_by_method": used,
            "gmail_requests_per_message": Self.round2(Double(total) / Double(messages)),
            "gmail_requests_per_user_setup": Self.round2(Double(before.values.reduce(0, +)) / Double(users)),
        ]
        // A day of a watched mailbox, from the costs measured here: 24 hourly safety-net checks, one
        // watch renewal, and each message's share.
        summary["gmail_requests_per_safety_net_check"] = Self.round2(idle)
        summary["gmail_requests_per_watch"] = Self.round2(watch)
        let perMessage = Double(total) / Double(messages)
        for perDay in [20, 100] {
            let day: Double = 24 * idle + watch + Double(perDay) * perMessage
            summary["gmail_requests_per_user_per_day_at_\(perDay)_messages"] = (day * 10).rounded() / 10
        }
        summary["not_alerted"] = steady.lost + burstResult.lost
        summary["planted_wrong_audience"] = planted
        api.process.signal(SIGTERM)
        return summary
    }

    /// Messages sent under the planted fault.
    static let planted = 5

    /// Switches the subscription's token to another audience, lets `users` get a message each, waits
    /// until the stand-in has given up on each of their pushes, and reports what the API answered and
    /// whether any alert followed (none may).
    private func plantWrongAudience(_ users: [Int], pushURL: String, stack: BenchStack, tokens: [String]) async throws -> [String: Any] {
        try await Self.send(.PUT, stack.googleRoot + "/_fake/pubsub/subscription",
                                #"{"endpoint": "\#(pushURL)", "audience": "https://elsewhere.example/push", "serviceAccount": "\#(Self.pushAccount)"}"#,
                                http: stack.http)
        let emails = Set(users.map(LoadPlan.email))
        for user in users {
            _ = try await ChaosBench.post(stack.googleRoot + "/_fake/state/messages", LoadPlan.urgentMessage(to: user, id: "planted-\(user)"), http: stack.http)
        }
        // The stand-in records a push once it stopped trying (four tries over 3.5 s).
        var answered: [String] = []
        let deadline = Date().addingTimeInterval(timeout)
        while answered.count < users.count, Date() < deadline {
            try await Task.sleep(for: .milliseconds(250))
            answered = try await ChaosReport.fetch(stack.googleRoot + "/_fake/pubsub/pushes", http: stack.http)
                .filter { emails.contains($0["email"] as? String ?? "") }.compactMap { $0["status"] as? String }
        }
        let devices = Set(users.map { tokens[$0] })
        let alerted = try await Self.alerts(stack).filter { devices.contains($0.deviceToken) }.count
        return ["pushes": users.count, "api_answers": answered.sorted(), "alerts": alerted,
                "seen": answered.count == users.count && answered.allSatisfy { $0 == "401" || $0 == "403" } && alerted == 0]
    }

    /// Gmail requests per run of the recurring `kind` (a mail check in which nothing changed, a watch
    /// renewal): the jobs of `users` made due at once, as the hour or the day passing would, and
    /// counted at the stand-in once each has run.
    private func costOfARun(_ kind: String, for users: [UUID], stack: BenchStack, logger: Logger) async throws -> Double {
        let before = try await Self.gmailRequests(stack).values.reduce(0, +)
        let since = Date()
        try await TestDatabase.withClient(stack.owner) { client in
            _ = try await client.query("""
                UPDATE jobs SET due_at = now() WHERE kind = \(kind) AND state = 'queued' AND user_id = ANY(\(users))
                """, logger: logger).collect()
            _ = try await client.query("SELECT pg_notify('alfred_jobs', 'default 0')", logger: logger).collect()
            while try await ChaosReport.count(client, """
                SELECT count(*)::int FROM jobs WHERE kind = \(kind) AND user_id = ANY(\(users)) AND last_run_at > \(since)
                    AND state <> 'running'
                """, logger) < users.count {
                guard Date().timeIntervalSince(since) < timeout else { throw ValidationError("the \(kind) jobs did not all run") }
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        return Double(try await Self.gmailRequests(stack).values.reduce(0, +) - before) / Double(users.count)
    }

    /// One phase: the messages land (at `every`, or all at once), then the alerts are awaited.
    private func phase(_ recipients: [Int], every interval: Duration?, stack: BenchStack, tokens: [String]) async throws -> PhaseResult {
        let clock = ContinuousClock()
        let begin = clock.now
        var arrived: [String: Date] = [:]  // device token → when its message landed
        try await withThrowingTaskGroup(of: (String, Date)?.self) { group in
            for (index, user) in recipients.enumerated() {
                if let interval { try await clock.sleep(until: begin + interval * index) }
                group.addTask {
                    let at = Date()
                    let status = try await ChaosBench.post(stack.googleRoot + "/_fake/state/messages", LoadPlan.urgentMessage(to: user, id: "push-\(user)"),
                                                           http: stack.http)
                    return status == 201 ? (tokens[user], at) : nil
                }
                if interval == nil, index % 64 == 63 {  // the burst, 64 posts at a time
                    while let landed = try await group.next() { if let landed { arrived[landed.0] = landed.1 } }
                }
            }
            for try await landed in group { if let landed { arrived[landed.0] = landed.1 } }
        }
        let posted = (clock.now - begin).seconds
        var latencies: [String: Double] = [:]
        let deadline = Date().addingTimeInterval(timeout)
        while latencies.count < arrived.count, Date() < deadline {
            try await Task.sleep(for: .milliseconds(250))
            for delivery in try await Self.alerts(stack) {
                guard let at = arrived[delivery.deviceToken], latencies[delivery.deviceToken] == nil, delivery.receivedAt >= at else { continue }
                latencies[delivery.deviceToken] = delivery.receivedAt.timeIntervalSince(at)
            }
        }
        return PhaseResult(messages: recipients.count, landed: arrived.count, latencies: latencies.values.sorted(), postingSeconds: posted)
    }

    struct PhaseResult {
        let messages: Int
        let landed: Int
        let latencies: [Double]
        let postingSeconds: Double
        var lost: Int { messages - latencies.count }

        func percentile(_ p: Double) -> Double {
            guard !latencies.isEmpty else { return -1 }
            return (latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] * 1000).rounded() / 1000
        }

        func json(rate: Int?) -> [String: Any] {
            var json: [String: Any] = [
                "messages": messages, "landed": landed, "alerted": latencies.count, "not_alerted": lost,
                "arrival_to_alert_p50_s": percentile(0.5), "arrival_to_alert_p99_s": percentile(0.99),
                "arrival_to_alert_max_s": latencies.last.map { ($0 * 1000).rounded() / 1000 } ?? -1,
                "posting_s": (postingSeconds * 1000).rounded() / 1000,
            ]
            if let rate { json["rate_per_s"] = rate }
            return json
        }
    }

    /// `alfred api` on its own role, with Pub/Sub push verified against the stand-in's keys.
    private func startAPI(_ stack: BenchStack) throws -> (process: ChildProcess, pushURL: String) {
        let port = try EmbeddedPostgres.freePort()
        let pushURL = "http://127.0.0.1:\(port)/v1/google/pubsub/push"
        try (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max)) }.joined()
            .write(toFile: stack.path("session.key"), atomically: true, encoding: .utf8)
        chmod(stack.path("session.key"), 0o600)
        var apiDB = stack.owner
        apiDB.username = "alfred_api"
        try stack.fleet.add("api", stack.alfredPath, [
            "api", "--port", "\(port)", "--bundle-id", BenchStack.topic, "--apple-keys-url", stack.googleRoot + "/oauth2/v3/certs",
            "--data-key-file", stack.path("host.key"), "--session-key-file", stack.path("session.key"),
            "--broker-socket", stack.path("broker.sock"),
            "--pubsub-audience", pushURL, "--pubsub-service-account", Self.pushAccount, "--google-jwks-url", stack.googleRoot + "/oauth2/v3/certs",
            "--pubsub-topic", Self.topicName, "--log-level", logs == nil ? "error" : "notice",
        ], environment: ["ALFRED_DATABASE_URL": apiDB.secretString.unsafeValue])
        return (try stack.fleet.process("api"), pushURL)
    }

    /// Alerts the APNs stand-in accepted so far.
    static func alerts(_ stack: BenchStack) async throws -> [APNsDelivery] {
        let response = try await stack.http.execute(HTTPClientRequest(url: stack.apnsRoot + "/_fake/deliveries"), timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 1 << 30)
        return try JSONDecoder().decode([APNsDelivery].self, from: Data(buffer: body)).filter { $0.pushType == "alert" }
    }

    /// Gmail API requests the stand-in has served, by method.
    static func gmailRequests(_ stack: BenchStack) async throws -> [String: Int] {
        let response = try await stack.http.execute(HTTPClientRequest(url: stack.googleRoot + "/_fake/requests/counts"), timeout: .seconds(30))
        let counts = try JSONDecoder().decode([String: Int].self, from: Data(buffer: try await response.body.collect(upTo: 1 << 20)))
        return counts.filter { $0.key.hasPrefix("gmail.") }
    }

    static func round2(_ value: Double) -> Double { (value * 100).rounded() / 100 }

    /// A control request that must succeed.
    static func send(_ method: HTTPMethod, _ url: String, _ body: String, http: HTTPClient) async throws {
        let status = try await ChaosBench.post(url, body, method: method, http: http)
        guard (200..<300).contains(status) else { throw ValidationError("\(method) \(url): HTTP \(status)") }
    }

}
