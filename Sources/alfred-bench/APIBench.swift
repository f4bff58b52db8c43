import AlfredCore
import AlfredTestCluster
import ArgumentParser
import Assistant
import Delivery
import Sealing
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import StandIns
import Store
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// `swift build -c release && swift run -c release alfred-bench api`
///
/// `alfred api` as it runs in production (its own process, its own database role, a private
/// PostgreSQL at the server's default durability), with the Apple stand-in serving the key set.
/// This process is the app fleet: an open-loop load generator that starts requests on a fixed
/// schedule (`--rate` per second, whatever the answers do), so a slow answer cannot hide the ones
/// queued behind it. Latency counts from each request's scheduled start. Three phases: sign-in
/// (identity token verified against the JWKS, user found, session written), GET /v1/preferences,
/// POST /v1/devices/apns (token sealed, row upserted). CPU per request is read from /proc for the API
/// process and for Postgres (postmaster and its backends). The last line is one JSON object.
struct APIBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "api", abstract: "Latency (p50/p99) and CPU per request of the app's API at a fixed offered rate.")

    @Option(help: "Requests per second offered in each phase but sign-in.") var rate = 1000
    @Option(help: "Sign-ins per second offered (each verifies an Apple identity token: ES256 and a key-set lookup).") var signInRate = 200
    @Option(help: "Requests in flight at once in the saturation phases (closed loop: each sends its next when answered), whose answered rate is the maximum.")
    var maxInFlight = 64
    @Option(help: "Seconds each phase lasts.") var seconds = 10
    @Option(help: "Distinct users (each signs in; requests rotate over them).") var users = 1000
    @Option(help: "HTTP/1.1 connections the load generator may open.") var connections = 64
    @Option(help: "Path of the alfred executable (default: beside this one).") var alfred: String?

    static let bundleID = "com.example.alfred"

    func run() async throws {
        let logger = { var l = Logger(label: "bench"); l.logLevel = .critical; return l }()
        let binary = try alfredExecutable(alfred)
        print("starting a private PostgreSQL (server defaults), the Apple stand-in and `alfred api` as a process…")
        try await EmbeddedPostgres.with(options: .init(durable: true)) { cluster in
            let url = try await cluster.createDatabase("bench", logger: logger)
            try await TestDatabase.migrate(url, logger: logger)
            let apple = AppleStandIn(configuration: .init(audience: Self.bundleID), logger: logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await apple.run() }
                defer { group.cancelAll() }
                try await measure(cluster: cluster, url: url, apple: apple, binary: binary, logger: logger)
            }
        }
    }

    private func measure(cluster: EmbeddedPostgres, url: DatabaseURL, apple: AppleStandIn, binary: String, logger: Logger) async throws {
        let directory = cluster.directory
        let (dataKey, sessionKey) = try Self.writeKeys(in: directory)
        var apiURL = url
        apiURL.username = "alfred_api"
        let port = try EmbeddedPostgres.freePort()
        let api = try await Self.startAPI(binary, port: port, url: url, apple: apple, dataKey: dataKey, sessionKey: sessionKey)
        defer { api.signal(SIGTERM) }
        // The reference routes, as a process of their own with the API's role and keys.
        let referencePort = try EmbeddedPostgres.freePort()
        let reference = try ChildProcess(try Self.ownExecutable(), [
            "reference-api", "--port", "\(referencePort)", "--session-key-file", sessionKey, "--data-key-file", dataKey,
        ], environment: ["ALFRED_DATABASE_URL": apiURL.secretString.unsafeValue])
        defer { reference.signal(SIGTERM) }

        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: {
            var c = HTTPClient.Configuration()
            c.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
            return c
        }())
        do {
            try await drive(api: api, reference: reference, http: http, port: port, referencePort: referencePort, apple: apple, directory: directory)
        } catch {
            try? await http.shutdown()
            throw error
        }
        try await http.shutdown()
    }

    private func drive(api: ChildProcess, reference: ChildProcess, http: HTTPClient, port: Int, referencePort: Int, apple: AppleStandIn,
                       directory: URL) async throws {
        let load = Load(http: http, base: "http://127.0.0.1:\(port)")
        let referenceLoad = Load(http: http, base: "http://127.0.0.1:\(referencePort)")
        for (process, candidate, name) in [(api, load, "alfred api"), (reference, referenceLoad, "the reference API")] {
            try await Self.waitUntilUp(process, candidate, name: name)
        }

        print("minting \(users) identity tokens and signing each user in once (warm-up)…")
        let (signIns, accessTokens) = try await Self.signIn(users: users, apple: apple, load: load)
        let devices = (0..<users).map { user in
            Self.json(["device_id": "iphone-\(user)", "apns_token": String(format: "%064llx", UInt64(user)),  // one phone per user
                       "environment": "production"])
        }

        let postgresPID = try Self.postmasterPID(directory)
        // Ours and the reference side by side, at the same offered rate, one after the other; then
        // each saturated, whose answered rate is its maximum here.
        let signIn: @Sendable (Int) -> Load.Request = { [signIns] i in .init(method: .POST, path: "/v1/auth/ios/session", body: signIns[i % signIns.count]) }
        let read: @Sendable (Int) -> Load.Request = { [accessTokens] i in .init(method: .GET, path: "/v1/preferences", token: accessTokens[i % accessTokens.count]) }
        let write: @Sendable (Int) -> Load.Request = { [accessTokens, devices] i in
            .init(method: .POST, path: "/v1/devices/apns", token: accessTokens[i % accessTokens.count], body: devices[i % devices.count]) }
        struct Step { let key: String; let name: String; let load: Load; let process: ChildProcess; let rate: Int; let request: @Sendable (Int) -> Load.Request }
        let steps = [
            Step(key: "sign_in", name: "sign-in (POST /v1/auth/ios/session)", load: load, process: api, rate: signInRate, request: signIn),
            Step(key: "get_preferences", name: "GET /v1/preferences", load: load, process: api, rate: rate, request: read),
            Step(key: "reference_read", name: "reference read (bare GET /v1/preferences)", load: referenceLoad, process: reference, rate: rate, request: read),
            Step(key: "register_device", name: "POST /v1/devices/apns", load: load, process: api, rate: rate, request: write),
            Step(key: "reference_write", name: "reference write (bare POST /v1/devices/apns)", load: referenceLoad, process: reference, rate: rate, request: write),
        ]
        var summary: [String: Any] = ["offered_per_s": rate, "sign_in_offered_per_s": signInRate, "max_in_flight": maxInFlight,
                                      "seconds": seconds, "users": users]
        var entries: [String: [String: Any]] = [:]
        for step in steps {
            let result = try await measure(step.name, step.load, step.process, postgresPID, rate: step.rate, step.request)
            guard step.process.poll() == nil, result.rejected + result.errors == 0 else {
                throw ValidationError("\(step.name): \(result.rejected) answers not 2xx, \(result.errors) failed; the server said: \(step.process.output.suffix(3000))")
            }
            entries[step.key] = [
                "offered_per_s": step.rate,
                "p50_ms": (result.percentile(0.5) * 100).rounded() / 100, "p99_ms": (result.percentile(0.99) * 100).rounded() / 100,
                "answered_per_s": result.answeredPerSecond.rounded(), "non_2xx": result.rejected, "errors": result.errors,
                "api_cpu_us_per_request": result.apiCPUMicros.rounded(), "postgres_cpu_us_per_request": result.postgresCPUMicros.rounded(),
            ]
        }
        // Saturated in a closed loop: as many answered per second as the machine gives, with no queue
        // building up in the load generator (an open loop above capacity ends in client timeouts and
        // reconnections, which measure the generator's collapse rather than the server's rate).
        for step in steps where step.key != "sign_in" {
            let result = try await measure("\(step.name) saturated (\(maxInFlight) in flight)", step.load, step.process, postgresPID,
                                           rate: nil, step.request)
            entries[step.key]?["max_answered_per_s"] = result.answeredPerSecond.rounded()
        }
        guard api.poll() == nil else { throw ValidationError("alfred api exited: \(api.output.suffix(2000))") }
        for (key, ours, theirs) in [("read", "get_preferences", "reference_read"), ("write", "register_device", "reference_write")] {
            guard let a = entries[ours], let b = entries[theirs],
                  let apiA = a["api_cpu_us_per_request"] as? Double, let apiB = b["api_cpu_us_per_request"] as? Double,
                  let pgA = a["postgres_cpu_us_per_request"] as? Double, let pgB = b["postgres_cpu_us_per_request"] as? Double else { continue }
            let ratio = (apiA + pgA) / max(1, apiB + pgB)
            summary["\(key)_cpu_vs_reference"] = (ratio * 100).rounded() / 100
            print(String(format: "%@: ours %.0f µs of CPU per request (api %.0f + postgres %.0f), the reference %.0f (%.0f + %.0f): %.2fx",
                         key, apiA + pgA, apiA, pgA, apiB + pgB, apiB, pgB, ratio))
        }
        for (key, entry) in entries { summary[key] = entry }
        print(String(decoding: try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys]), as: UTF8.self))
    }

    /// One open-loop phase against `process`, with its CPU and Postgres's per answered request.
    /// `rate` nil: closed loop, `maxInFlight` requests at a time.
    private func measure(_ name: String, _ load: Load, _ process: ChildProcess, _ postgresPID: pid_t, rate: Int?,
                         _ request: @escaping @Sendable (Int) -> Load.Request) async throws -> Phase.Result {
        let apiCPU = Self.cpuSeconds(process.pid), pgCPU = Self.cpuSecondsOfTree(postgresPID)
        var result: Phase.Result
        if let rate {
            result = try await Phase(rate: rate, seconds: seconds).run(load, request)
        } else {
            result = await Phase(rate: 0, seconds: seconds).runClosed(load, inFlight: maxInFlight, request)
        }
        let apiUsed = Self.cpuSeconds(process.pid) - apiCPU, pgUsed = Self.cpuSecondsOfTree(postgresPID) - pgCPU
        let total = Double(max(1, result.latencies.count))
        result.apiCPUMicros = apiUsed / total * 1e6
        result.postgresCPUMicros = pgUsed / total * 1e6
        print(String(format: "%@: %.0f req/s offered, %.0f answered/s; p50 %.2f ms, p99 %.2f ms, max %.1f ms; "
                     + "non-2xx %d, errors %d; CPU per request: server %.0f µs, postgres %.0f µs",
                     name, result.offered, result.answeredPerSecond, result.percentile(0.5), result.percentile(0.99),
                     result.percentile(1), result.rejected, result.errors, result.apiCPUMicros, result.postgresCPUMicros))
        return result
    }

    /// A data key and a session key, as hex files in `directory`.
    static func writeKeys(in directory: URL) throws -> (dataKey: String, sessionKey: String) {
        let dataKey = directory.appendingPathComponent("host.key").path
        let sessionKey = directory.appendingPathComponent("session.key").path
        try HostSealer.generateKeyBytes().map { String(format: "%02x", $0) }.joined().write(toFile: dataKey, atomically: true, encoding: .utf8)
        try (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max)) }.joined()
            .write(toFile: sessionKey, atomically: true, encoding: .utf8)
        return (dataKey, sessionKey)
    }

    /// `alfred api` as it runs in production: its own process and database role, the Apple stand-in's keys.
    static func startAPI(_ binary: String, port: Int, url: DatabaseURL, apple: AppleStandIn, dataKey: String, sessionKey: String) async throws -> ChildProcess {
        var apiURL = url
        apiURL.username = "alfred_api"
        return try ChildProcess(binary, [
            "api", "--port", "\(port)", "--bundle-id", bundleID, "--apple-keys-url", try await apple.keysURL(),
            "--data-key-file", dataKey, "--session-key-file", sessionKey, "--log-level", "warning",
            // One address stands for the whole fleet here; the per-user limit stays as shipped.
            "--address-rate", "1000000",
        ], environment: ["ALFRED_DATABASE_URL": apiURL.secretString.unsafeValue])
    }

    /// Waits until `process` answers `/healthz` on `load`.
    static func waitUntilUp(_ process: ChildProcess, _ load: Load, name: String) async throws {
        for _ in 0..<300 where process.poll() == nil {
            if (try? await load.send(.GET, "/healthz")) == 200 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ValidationError("\(name) did not come up: \(process.output.suffix(2000))")
    }

    /// Signs `users` users in through the real flow (an Apple identity token each): their sign-in
    /// bodies and access tokens. A user who signed in before gets a new session.
    static func signIn(users: Int, apple: AppleStandIn, load: Load) async throws -> (bodies: [String], accessTokens: [String]) {
        var signIns: [String] = []
        for user in 0..<users {
            let token = try apple.identityToken(.init(subject: "bench.\(user)", audience: bundleID, expiresIn: 3600))
            signIns.append(json(["apple_identity_token": token, "device_id": "iphone-\(user)"]))
        }
        var accessTokens: [String] = []
        for body in signIns {
            let (status, answer) = try await load.call(.POST, "/v1/auth/ios/session", body: body)
            guard status == 200, let access = answer["access_token"] as? String else {
                throw ValidationError("sign-in answered \(status): \(answer)")
            }
            accessTokens.append(access)
        }
        return (signIns, accessTokens)
    }

    /// This executable, which serves the reference routes (`reference-api`).
    static func ownExecutable() throws -> String {
        let path = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
        if FileManager.default.isExecutableFile(atPath: path) { return path }
        guard let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            throw ValidationError("cannot find this executable to start the reference routes")
        }
        return resolved
    }

    static func json(_ object: [String: Any]) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: object), as: UTF8.self)
    }

    /// The postmaster's pid, from the first line of `postmaster.pid` in the cluster's data directory.
    static func postmasterPID(_ directory: URL) throws -> pid_t {
        let file = directory.appendingPathComponent("data/postmaster.pid")
        guard let text = try? String(contentsOf: file, encoding: .utf8), let pid = text.split(separator: "\n").first.flatMap({ pid_t($0) })
        else { throw ValidationError("no postmaster.pid at \(file.path)") }
        return pid
    }

    /// User plus system CPU seconds of one process (fields 14 and 15 of /proc/PID/stat).
    static func cpuSeconds(_ pid: pid_t) -> Double {
        stat(pid).map { ($0[11] + $0[12]) / Double(sysconf(Int32(_SC_CLK_TCK))) } ?? 0
    }

    /// A process, its live children, and its reaped children (cutime, cstime): Postgres's backends.
    static func cpuSecondsOfTree(_ pid: pid_t) -> Double {
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        var total = stat(pid).map { ($0[11] + $0[12] + $0[13] + $0[14]) / ticks } ?? 0
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let child = pid_t(entry), let fields = stat(child), fields[1] == Double(pid) else { continue }
            total += (fields[11] + fields[12]) / ticks
        }
        return total
    }

    /// Numeric fields of /proc/PID/stat after the command name: [0] is the state (0 here), [1] the
    /// parent pid, [11] utime, [12] stime, [13] cutime, [14] cstime.
    private static func stat(_ pid: pid_t) -> [Double]? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return nil }
        return text[text.index(after: close)...].split(separator: " ").map { Double($0) ?? 0 }
    }
}

/// The load generator's HTTP side.
struct Load: Sendable {
    let http: HTTPClient
    let base: String

    struct Request: Sendable {
        var method: HTTPMethod
        var path: String
        var token: String?
        var body: String?
    }

    func send(_ method: HTTPMethod, _ path: String, token: String? = nil, body: String? = nil) async throws -> Int {
        try await call(method, path, token: token, body: body, decode: false).0
    }

    func call(_ method: HTTPMethod, _ path: String, token: String? = nil, body: String? = nil, decode: Bool = true)
        async throws -> (Int, [String: Any])
    {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await http.execute(request, timeout: .seconds(30))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        let object = decode ? (try? JSONSerialization.jsonObject(with: Data(buffer: bytes))) as? [String: Any] ?? [:] : [:]
        return (Int(response.status.code), object)
    }
}

/// One open-loop phase: request `i` starts at `start + i / rate`, whether or not earlier ones answered.
struct Phase {
    let rate: Int
    let seconds: Int

    struct Result: Sendable {
        var latencies: [Double] = []
        var rejected = 0
        var errors = 0
        var offered = 0.0
        var answeredPerSecond = 0.0
        var apiCPUMicros = 0.0
        var postgresCPUMicros = 0.0

        func percentile(_ p: Double) -> Double {
            let sorted = latencies.sorted()
            return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
        }
    }

    private enum Outcome: Sendable { case answered(Double, Int), failed }

    /// Closed loop: `inFlight` senders, each sending its next request when the last is answered,
    /// for `seconds`. Latency counts from each request's send.
    func runClosed(_ load: Load, inFlight: Int, _ request: @escaping @Sendable (Int) -> Load.Request) async -> Result {
        let clock = ContinuousClock()
        let start = clock.now
        let end = start.advanced(by: .seconds(seconds))
        var result = Result()
        await withTaskGroup(of: [Outcome].self) { group in
            for sender in 0..<inFlight {
                group.addTask {
                    var outcomes: [Outcome] = []
                    var i = sender
                    while clock.now < end {
                        let r = request(i)
                        let sent = clock.now
                        do {
                            let status = try await load.send(r.method, r.path, token: r.token, body: r.body)
                            outcomes.append(.answered(sent.duration(to: clock.now).seconds * 1000, status))
                        } catch {
                            outcomes.append(.failed)
                        }
                        i += inFlight
                    }
                    return outcomes
                }
            }
            for await outcomes in group {
                for outcome in outcomes {
                    switch outcome {
                    case .answered(let ms, let status):
                        result.latencies.append(ms)
                        if !(200..<300).contains(status) { result.rejected += 1 }
                    case .failed: result.errors += 1
                    }
                }
            }
        }
        let elapsed = start.duration(to: clock.now).seconds
        result.offered = Double(result.latencies.count + result.errors) / elapsed
        result.answeredPerSecond = Double(result.latencies.count) / elapsed
        return result
    }

    func run(_ load: Load, _ request: @escaping @Sendable (Int) -> Load.Request) async throws -> Result {
        let clock = ContinuousClock()
        let total = rate * seconds
        let interval = Duration.seconds(1) / rate
        let start = clock.now.advanced(by: .milliseconds(50))
        var result = Result()
        await withTaskGroup(of: Outcome.self) { group in
            for i in 0..<total {
                let due = start.advanced(by: interval * i)
                try? await clock.sleep(until: due, tolerance: .microseconds(200))
                let r = request(i)
                group.addTask {
                    do {
                        let status = try await load.send(r.method, r.path, token: r.token, body: r.body)
                        return .answered(due.duration(to: clock.now).seconds * 1000, status)
                    } catch {
                        return .failed
                    }
                }
            }
            result.offered = Double(total) / start.duration(to: clock.now).seconds
            for await outcome in group {
                switch outcome {
                case .answered(let ms, let status):
                    result.latencies.append(ms)
                    if !(200..<300).contains(status) { result.rejected += 1 }
                case .failed: result.errors += 1
                }
            }
        }
        result.answeredPerSecond = Double(result.latencies.count) / start.duration(to: clock.now).seconds
        return result
    }
}
