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

    @Option(help: "Requests per second offered in each phase.") var rate = 1000
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
        let dataKey = directory.appendingPathComponent("host.key").path
        let sessionKey = directory.appendingPathComponent("session.key").path
        try HostSealer.generateKeyBytes().map { String(format: "%02x", $0) }.joined().write(toFile: dataKey, atomically: true, encoding: .utf8)
        try (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max)) }.joined()
            .write(toFile: sessionKey, atomically: true, encoding: .utf8)
        var apiURL = url
        apiURL.username = "alfred_api"
        let port = try EmbeddedPostgres.freePort()
        let api = try ChildProcess(binary, [
            "api", "--port", "\(port)", "--bundle-id", Self.bundleID, "--apple-keys-url", try await apple.keysURL(),
            "--data-key-file", dataKey, "--session-key-file", sessionKey, "--log-level", "warning",
            // One address stands for the whole fleet here; the per-user limit stays as shipped.
            "--address-rate", "1000000",
        ], environment: ["ALFRED_DATABASE_URL": apiURL.secretString.unsafeValue])
        defer { api.signal(SIGTERM) }

        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: {
            var c = HTTPClient.Configuration()
            c.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)
            return c
        }())
        do {
            try await drive(api: api, http: http, port: port, apple: apple, directory: directory)
        } catch {
            try? await http.shutdown()
            throw error
        }
        try await http.shutdown()
    }

    private func drive(api: ChildProcess, http: HTTPClient, port: Int, apple: AppleStandIn, directory: URL) async throws {
        let base = "http://127.0.0.1:\(port)"
        let load = Load(http: http, base: base)
        var up = false
        for _ in 0..<300 where api.poll() == nil {
            if (try? await load.send(.GET, "/healthz")) == 200 { up = true; break }
            try await Task.sleep(for: .milliseconds(100))
        }
        guard up else { throw ValidationError("alfred api did not come up: \(api.output.suffix(2000))") }

        print("minting \(users) identity tokens and signing each user in once (warm-up)…")
        var signIns: [String] = []
        for user in 0..<users {
            let token = try apple.identityToken(.init(subject: "bench.\(user)", audience: Self.bundleID, expiresIn: 3600))
            signIns.append(Self.json(["apple_identity_token": token, "device_id": "iphone-\(user)"]))
        }
        var accessTokens: [String] = []
        for body in signIns {
            let (status, answer) = try await load.call(.POST, "/v1/auth/ios/session", body: body)
            guard status == 200, let access = answer["access_token"] as? String else {
                throw ValidationError("warm-up sign-in answered \(status): \(answer)")
            }
            accessTokens.append(access)
        }
        let devices = (0..<users).map { user in
            Self.json(["device_id": "iphone-\(user)", "apns_token": String(repeating: String(format: "%02x", user % 256), count: 32),
                       "environment": "production"])
        }

        let postgresPID = try Self.postmasterPID(directory)
        var results: [(String, Phase.Result)] = []
        let phases: [(String, @Sendable (Int) -> Load.Request)] = [
            ("sign-in (POST /v1/auth/ios/session)", { [signIns] i in .init(method: .POST, path: "/v1/auth/ios/session", body: signIns[i % signIns.count]) }),
            ("GET /v1/preferences", { [accessTokens] i in .init(method: .GET, path: "/v1/preferences", token: accessTokens[i % accessTokens.count]) }),
            ("POST /v1/devices/apns", { [accessTokens, devices] i in
                .init(method: .POST, path: "/v1/devices/apns", token: accessTokens[i % accessTokens.count], body: devices[i % devices.count]) }),
        ]
        for (name, request) in phases {
            let apiCPU = Self.cpuSeconds(api.pid), pgCPU = Self.cpuSecondsOfTree(postgresPID)
            let result = try await Phase(rate: rate, seconds: seconds).run(load, request)
            let apiUsed = Self.cpuSeconds(api.pid) - apiCPU, pgUsed = Self.cpuSecondsOfTree(postgresPID) - pgCPU
            let total = Double(result.latencies.count)
            var measured = result
            measured.apiCPUMicros = apiUsed / total * 1e6
            measured.postgresCPUMicros = pgUsed / total * 1e6
            results.append((name, measured))
            print(String(format: "%@: %.0f req/s offered, %.0f answered/s; p50 %.2f ms, p99 %.2f ms, max %.1f ms; "
                         + "non-2xx %d, errors %d; CPU per request: api %.0f µs, postgres %.0f µs",
                         name, result.offered, result.answeredPerSecond, result.percentile(0.5), result.percentile(0.99),
                         result.percentile(1), result.rejected, result.errors, measured.apiCPUMicros, measured.postgresCPUMicros))
        }
        guard api.poll() == nil else { throw ValidationError("alfred api exited: \(api.output.suffix(2000))") }
        var summary: [String: Any] = ["offered_per_s": rate, "seconds": seconds, "users": users]
        for ((_, result), key) in zip(results, ["sign_in", "get_preferences", "register_device"]) {
            summary[key] = [
                "p50_ms": (result.percentile(0.5) * 100).rounded() / 100, "p99_ms": (result.percentile(0.99) * 100).rounded() / 100,
                "answered_per_s": result.answeredPerSecond.rounded(), "non_2xx": result.rejected, "errors": result.errors,
                "api_cpu_us_per_request": result.apiCPUMicros.rounded(), "postgres_cpu_us_per_request": result.postgresCPUMicros.rounded(),
            ] as [String: Any]
        }
        print(String(decoding: try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys]), as: UTF8.self))
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
