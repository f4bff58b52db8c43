import AlfredCore
import AlfredTestCluster
import APNs
import ArgumentParser
import AsyncHTTPClient
import BrokerClient
import Crypto
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import PostgresNIO
import Sealing
import StandIns
import Synchronization
import Store
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// `swift build -c release && swift run -c release alfred-bench chaos [--users 2000] [--minutes 10]`
///
/// The whole system as separate processes on this machine — a private Postgres at default
/// durability, two `alfred worker`s, `alfred-broker`, `alfred-key-service`, `alfred-attestor`, and
/// the Google and APNs stand-ins — with meetings, briefs and urgent mail arriving for `--minutes`,
/// while a seeded schedule of faults runs: a random worker SIGKILLed every 30–60 s and restarted,
/// the broker and the key service SIGKILLed once each, Postgres restarted twice (fast, then
/// immediate shutdown), error bursts at both stand-ins (429 with Retry-After, 500, 503, slow
/// answers, dropped APNs connections), a few users' grants revoked at Google and a few devices
/// unregistered. It then drains, and prints (and writes as JSON) what a user would have seen.
struct ChaosBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "chaos", abstract: "The whole system under faults: lost, late, doubled, stuck.")

    @Option(help: "Users, each with meetings during the run, a morning brief and sometimes urgent mail.") var users = 2000
    @Option(help: "Minutes the load and the faults run.") var minutes = 10.0
    @Option(help: "Meetings per user during the run.") var meetings = 2
    @Option(help: "Seed of the fault schedule and the load.") var seed: UInt64 = 1
    @Option(help: "Seconds to let the system settle after the run before counting.") var drainSeconds = 150
    @Option(help: "Where to write the JSON summary.") var output = "chaos.json"
    @Option(help: "A directory to keep every process's output in (name.N.log, N counting its starts), workers logging from 'notice' up; by default it is discarded and workers log errors only.") var logs: String?
    @Option(help: "Path of the alfred executable (default: beside this one).") var alfred: String?

    static let clientID = BenchStack.clientID, redirect = BenchStack.redirect, topic = BenchStack.topic

    func run() async throws {
        let logger = { var l = Logger(label: "chaos"); l.logLevel = .critical; return l }()
        var rng = SeededGenerator(seed: seed)
        // The run starts once every user is connected and planned; meetings and briefs fall inside it.
        let runSeconds = minutes * 60
        let setupSeconds = 90 + Double(users) * 0.02
        let plan = LoadPlan(users: users, meetings: meetings, setupSeconds: setupSeconds, runSeconds: runSeconds, rng: &rng)
        try await BenchStack.with(alfred: alfred, scenario: try plan.scenario(), logs: logs, logger: logger) { stack in
            try await drive(plan: plan, rng: &rng, stack: stack, setupSeconds: setupSeconds, runSeconds: runSeconds, logger: logger)
        }
    }

    /// Connects the users, starts the workers, runs the load and the faults, drains, and reports.
    private func drive(plan: LoadPlan, rng: inout SeededGenerator, stack: BenchStack, setupSeconds: Double, runSeconds: Double,
                       logger: Logger) async throws {
        let (fleet, cluster, owner, http) = (stack.fleet, stack.cluster, stack.owner, stack.http)
        let (googleRoot, apnsRoot, standInsStarted) = (stack.googleRoot, stack.apnsRoot, stack.standInsStarted)
        let path: @Sendable (String) -> String = { stack.path($0) }

        print("connecting \(users) users through the broker (consent at the Google stand-in, code exchange, attested key)…")
        let (ids, tokens) = try await Self.seedUsers(plan, owner: owner, sealer: stack.sealer, broker: path("broker.sock"), googleRoot: googleRoot,
                                           apnsRoot: apnsRoot, http: http, logger: logger)
        for index in 1...2 { try stack.addWorker("worker-\(index)", verbose: logs != nil) }
        // The meetings and briefs were planned from the stand-in's start; the run (mail, faults) starts
        // when planned, or later on a machine slower than planned: reminders due meanwhile are then
        // late, and the report says by how much set-up overran rather than aborting.
        let plannedStart = standInsStarted.addingTimeInterval(setupSeconds)
        let setupOverrun = max(0, Date().addingTimeInterval(20).timeIntervalSince(plannedStart))
        let runStart = plannedStart.addingTimeInterval(setupOverrun)
        if setupOverrun > 0 {
            print(String(format: "set-up took %.0f s, %.0f s longer than planned: reminders due meanwhile will be late (setup_overrun_s)",
                         Date().timeIntervalSince(standInsStarted), setupOverrun))
        }
        print(String(format: "workers up; the run starts in %.0f s and lasts %.0f s (%d reminders, %d briefs due)…",
                     runStart.timeIntervalSinceNow, runSeconds, plan.remindersDue(excluding: []), plan.briefs.count))
        try await Task.sleep(for: .seconds(max(0, runStart.timeIntervalSinceNow)))

        // The run: mail arrives, faults happen, a sampler records each process's peak memory.
        let faults = FaultLog()
        let schedule = FaultSchedule(runSeconds: runSeconds, rng: &rng)
        let revoked = Set(plan.pick(5, rng: &rng)), unregistered = Set(plan.pick(5, rng: &rng).filter { !revoked.contains($0) })
        // Peak memory is sampled through the drain too, until the report is made.
        let sampler = Task { try await fleet.sample(until: .distantFuture) }
        defer { sampler.cancel() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await Self.mail(plan, until: runStart.addingTimeInterval(runSeconds), googleRoot: googleRoot, http: http, seed: seed)
            }
            group.addTask {
                try await Self.errorBursts(until: runStart.addingTimeInterval(runSeconds), googleRoot: googleRoot, apnsRoot: apnsRoot,
                                           http: http, faults: faults, seed: seed)
            }
            group.addTask {
                try await Self.runFaults(schedule, start: runStart, fleet: fleet, cluster: cluster, owner: owner, faults: faults, tokens: tokens,
                                         revoked: revoked, unregistered: unregistered, googleRoot: googleRoot, apnsRoot: apnsRoot, http: http,
                                         path: path)
            }
            try await group.waitForAll()
        }
        print("the run is over; letting the system settle for \(drainSeconds) s…")
        try await Task.sleep(for: .seconds(drainSeconds))
        // Nothing is counted while a worker could still change it.
        await fleet.stop(["worker-1", "worker-2"])

        let excluded = revoked.union(unregistered)
        let (json, failures) = try await TestDatabase.withClient(owner) { client in
            let measured = try await ChaosReport.measure(
                plan: plan, ids: ids, tokens: tokens, runStart: runStart, runSeconds: runSeconds, setupOverrun: setupOverrun, revoked: revoked,
                unregistered: unregistered, faults: faults.all, mailSent: Self.mailSent.load(ordering: .relaxed), client: client,
                apnsRoot: apnsRoot, http: http, fleet: fleet, logger: logger)
            // Each check shown to fail on the real data: faults planted after the counting.
            var apns = APNsConfiguration(topic: Self.topic)
            apns.extraTrustRootsPEM = [try String(contentsOfFile: path("apns-ca.pem"), encoding: .utf8)]
            apns.productionURL = apnsRoot
            apns.sandboxURL = apnsRoot
            let deviceOf = Dictionary(uniqueKeysWithValues: zip(ids, tokens).filter { !$0.1.isEmpty })
            let detected = try await PlantedFaults.plantAndAudit(
                before: measured.device, shown: measured.shown, ledger: measured.ledger, missingBefore: measured.missing,
                missing: { client in try await ChaosReport.missingFromLedger(client, plan: plan, ids: ids, excluded: excluded, logger: logger) },
                client: client, apns: apns, brokerSocket: path("broker.sock"), apnsRoot: apnsRoot, http: http,
                deviceOf: deviceOf, unregistered: Set(unregistered.map { tokens[$0] }), fleet: fleet, logger: logger)
            var report = measured.report
            report["planted_faults"] = detected.json
            report["planted_duplicate_apns_answer"] = detected.duplicateAnswer
            var failures: [String] = []
            if let unconfirmed = report["faults_unconfirmed"] as? [String], !unconfirmed.isEmpty {
                failures.append("faults not confirmed from outside: \(unconfirmed)")
            }
            if !detected.all { failures.append("a planted fault went unseen: \(detected.json)") }
            return (try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys, .prettyPrinted]), failures)
        }
        try json.write(to: URL(fileURLWithPath: output))
        print(String(decoding: json, as: UTF8.self))
        print("written to \(output)")
        // A fault that did not happen, or a check that cannot fail, fails the run.
        guard failures.isEmpty else { throw ValidationError(failures.joined(separator: "; ")) }
    }

    // MARK: Set-up

    /// Users in the database (preferences: reminders a minute ahead, the brief at the planned time, no
    /// quiet hours), one device each (sealed, and registered at the APNs stand-in), and a Google
    /// connector each through the real consent flow and the broker's code exchange.
    static func seedUsers(_ plan: LoadPlan, owner: DatabaseURL, sealer: HostSealer, broker: String, googleRoot: String, apnsRoot: String,
                          http: HTTPClient, logger: Logger) async throws -> (ids: [UUID], tokens: [String]) {
        let ids = (0..<plan.users).map { _ in UUID() }
        let times = (0..<plan.users).map { plan.briefTimes[$0] }
        try await TestDatabase.withClient(owner) { client in
            _ = try await client.query("INSERT INTO users (id) SELECT unnest(\(ids)::uuid[])", logger: logger).collect()
            _ = try await client.query("""
                INSERT INTO preferences (user_id, time_zone, meeting_reminder_minutes, morning_brief_local_time, quiet_hours_start, quiet_hours_end)
                SELECT u, 'UTC', 1, t::time, NULL, NULL FROM unnest(\(ids)::uuid[], \(times)::text[]) AS p(u, t)
                """, logger: logger).collect()
        }
        let devices = try await BurstBench.seedDevices(owner: owner, sealer: sealer, reminderMinutes: 1, apnsRoot: apnsRoot, apnsHTTP: http,
                                                       logger: logger)
        let tokens = ids.map { devices[$0] ?? "" }
        var configuration = BrokerClient.Configuration(socketPath: broker)
        configuration.requestTimeout = .seconds(60)
        let client = BrokerClient(configuration: configuration)
        defer { Task { await client.close() } }
        try await withThrowingTaskGroup(of: Void.self) { group in
            var next = 0
            func add() {
                guard next < plan.users else { return }
                let index = next
                next += 1
                group.addTask {
                    let (code, verifier) = try await ConsentBrowser.authorize(
                        authorizationURL: googleRoot + "/o/oauth2/v2/auth", clientID: clientID, redirectURI: redirect,
                        scopes: GoogleScope.required, loginHint: LoadPlan.subject(index), state: "chaos")
                    _ = try await client.exchangeCode(CodeExchange(userID: ids[index].uuidString, code: Redacted(code),
                                                                   codeVerifier: Redacted(verifier), redirectURI: redirect,
                                                                   requiredScopes: GoogleScope.required))
                }
            }
            for _ in 0..<16 { add() }
            while try await group.next() != nil { add() }
        }
        return (ids, tokens)
    }

    // MARK: The run

    /// Urgent mail for random users, one message every 2 s on average.
    static let mailSent = Atomic<Int>(0)

    static func mail(_ plan: LoadPlan, until end: Date, googleRoot: String, http: HTTPClient, seed: UInt64) async throws {
        var rng = SeededGenerator(seed: seed &+ 17)
        var n = 0
        while Date() < end {
            let user = Int.random(in: 0..<plan.users, using: &rng)
            n += 1
            let body = LoadPlan.urgentMessage(to: user, id: "chaos-\(n)")
            if (try? await post(googleRoot + "/_fake/state/messages", body, http: http)) == 201 { mailSent.add(1, ordering: .relaxed) }
            try await Task.sleep(for: .milliseconds(Int.random(in: 1000...3000, using: &rng)))
        }
    }

    /// Every 10 s, a burst of failures at one stand-in: about one request in ten of the run fails or is slow.
    static func errorBursts(until end: Date, googleRoot: String, apnsRoot: String, http: HTTPClient, faults: FaultLog, seed: UInt64) async throws {
        var rng = SeededGenerator(seed: seed &+ 29)
        let google = [#"{"match": {}, "fault": "rate_limited", "retryAfterSeconds": 2, "times": 15}"#,
                      #"{"match": {}, "fault": "internal_failure", "times": 15}"#,
                      #"{"match": {}, "fault": "unavailable", "times": 15}"#,
                      #"{"match": {}, "delayMs": 5000, "times": 10}"#]
        let apns = [#"{"status": 429, "reason": "TooManyRequests", "retry_after_seconds": 2, "count": 15}"#,
                    #"{"status": 500, "reason": "InternalServerError", "count": 15}"#,
                    #"{"status": 503, "reason": "ServiceUnavailable", "count": 15}"#,
                    #"{"reset_connection": true, "count": 3}"#,
                    #"{"reset_connection": true, "accept_before_reset": true, "count": 3}"#]
        while Date() < end {
            try await Task.sleep(for: .seconds(10))
            // Confirmed by the stand-in's answer: it took the fault.
            if Bool.random(using: &rng) {
                let fault = google.randomElement(using: &rng)!
                faults.record("google: \(fault)", burst: true, await Self.taken(googleRoot + "/_fake/faults", fault, http: http))
            } else {
                let fault = apns.randomElement(using: &rng)!
                faults.record("apns: \(fault)", burst: true, await Self.taken(apnsRoot + "/_fake/faults", fault, http: http))
            }
        }
    }

    static func runFaults(_ schedule: FaultSchedule, start: Date, fleet: Fleet, cluster: EmbeddedPostgres, owner: DatabaseURL, faults: FaultLog,
                          tokens: [String], revoked: Set<Int>, unregistered: Set<Int>, googleRoot: String, apnsRoot: String, http: HTTPClient,
                          path: @Sendable (String) -> String) async throws {
        for fault in schedule.faults {
            try await Task.sleep(for: .seconds(max(0, start.addingTimeInterval(fault.at).timeIntervalSinceNow)))
            switch fault.kind {
            case .killWorker(let index, let downSeconds):
                // Back when the database sees both workers' presence again.
                let started = Date()
                let confirmation = try await fleet.kill("worker-\(index)", restartAfter: downSeconds) {
                    (try? await TestDatabase.withClient(owner) { try await PostgresPresence.held(client: $0, logger: TestDatabase.quietLogger) }) == 2
                }
                faults.record("SIGKILL worker-\(index)", startedAt: started, over: started, confirmation)
            case .kill(let name):
                // Back when its socket accepts a connection again (the key service: it answers again).
                let started = Date(), socket = path(name == "keys" ? "keys.sock" : "\(name).sock")
                let confirmation = try await fleet.kill(name, restartAfter: 2) { Fleet.answers(socket) }
                faults.record("SIGKILL \(name)", startedAt: started, over: started, confirmation)
            case .restartPostgres(let immediate):
                let started = Date()
                let before = try? await Self.postmasterStart(owner)
                try await cluster.stopServer(mode: immediate ? "immediate" : "fast")
                try await Task.sleep(for: .seconds(2))
                try await cluster.startServer()
                let after = try? await Self.postmasterStart(owner)
                let restarted = before != nil && after != nil && after! > before!
                faults.record(immediate ? "Postgres restart (immediate shutdown, down 2 s)" : "Postgres restart (fast shutdown, down 2 s)",
                              startedAt: started, Confirmation(confirmed: restarted, evidence: "pg_postmaster_start_time \(before.map { "\($0)" } ?? "unread") → \(after.map { "\($0)" } ?? "unread")"))
            case .revokeAndUnregister:
                var answers: [Confirmation] = []
                for user in revoked {
                    answers.append(await Self.taken(googleRoot + "/_fake/oauth/revoke", #"{"subject": "\#(LoadPlan.subject(user))"}"#, http: http))
                }
                for user in unregistered {
                    answers.append(await Self.taken(apnsRoot + "/_fake/devices/unregister", #"{"token": "\#(tokens[user])"}"#, http: http))
                }
                faults.record("revoked \(revoked.count) grants at Google, unregistered \(unregistered.count) devices",
                              Confirmation(confirmed: answers.allSatisfy(\.confirmed), evidence: answers.map(\.evidence).joined(separator: ", ")))
            }
        }
    }

    /// When the Postgres server now answering started (its own clock): changes only if it restarted.
    static func postmasterStart(_ owner: DatabaseURL) async throws -> Date {
        try await TestDatabase.withClient(owner) { client in
            try await client.query("SELECT pg_postmaster_start_time()", logger: TestDatabase.quietLogger).collect().first!.decode(Date.self)
        }
    }

    /// A control request, confirmed when the stand-in answers 2xx.
    static func taken(_ url: String, _ body: String, http: HTTPClient) async -> Confirmation {
        do {
            let status = try await post(url, body, http: http)
            return Confirmation(confirmed: (200..<300).contains(status), evidence: "HTTP \(status)")
        } catch {
            return Confirmation(confirmed: false, evidence: "no answer: \(error)")
        }
    }

    // MARK: Helpers

    @discardableResult
    static func post(_ url: String, _ body: String, method: HTTPMethod = .POST, http: HTTPClient) async throws -> Int {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(string: body))
        let response = try await http.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        return Int(response.status.code)
    }
}
