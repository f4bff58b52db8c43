import AlfredCore
import AlfredTestCluster
import ArgumentParser
import Foundation
import Logging
import PostgresNIO
import Store
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// `swift build -c release && swift run -c release alfred-bench queue`
///
/// Measures the queue against a private PostgreSQL at the server's default durability (fsync and
/// synchronous_commit on), with real `alfred worker` processes. The last line is one JSON object.
@main
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alfred-bench", abstract: "Benchmarks for Alfred's worker service.", subcommands: [QueueBench.self, ScaleBench.self, BrokerBench.self, GoogleBench.self, BurstBench.self, ChaosBench.self, GmailPushBench.self, PrivacyBench.self, RestartBench.self, APIBench.self, UrgencyBench.self, ReferenceAPI.self])
}

/// The `alfred` executable the benchmarks start: `--alfred PATH`, else the one built beside this one.
func alfredExecutable(_ override: String?) throws -> String {
    let path = override ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("alfred").path
    guard FileManager.default.isExecutableFile(atPath: path) else {
        throw ValidationError("no alfred executable at \(path); build it first: swift build -c release --product alfred")
    }
    return path
}

/// Another executable of the package (`alfred-broker`, `alfred-dev`, …), beside the `alfred` one in use.
func siblingExecutable(_ name: String, of alfred: String) throws -> String {
    let path = URL(fileURLWithPath: alfred).deletingLastPathComponent().appendingPathComponent(name).path
    guard FileManager.default.isExecutableFile(atPath: path) else {
        throw ValidationError("no \(name) executable at \(path); build it first: swift build -c release --product \(name)")
    }
    return path
}

struct QueueBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "queue", abstract: "Enqueue rate, drain throughput and start lateness.")

    @Option(help: "Jobs enqueued for the enqueue-rate measurement.") var enqueueJobs = 200_000
    @Option(help: "Rows per enqueue statement.") var enqueueBatch = 1000
    @Option(help: "Jobs drained per drain measurement.") var drainJobs = 50_000
    @Option(help: "Concurrency of each worker process (default: the worker's own default, as shipped).") var concurrency: Int?
    @Option(help: "Offered load for the lateness measurement (jobs/s).") var rate = 5000
    @Option(help: "Seconds of steady load for the lateness measurement.") var seconds = 15
    @Option(help: "Milliseconds before their due time the lateness run's jobs are enqueued, as Alfred plans reminders and briefs ahead; 0: due at enqueue, so the enqueue's own commit (and its wait for the CPU) counts as lateness.")
    var leadMs = 50
    @Option(help: "Path of the alfred executable (default: beside this one).") var alfred: String?
    @Option(help: "A Python with PgQueuer and asyncpg (default: a private venv, created the first time).") var python: String?
    @Flag(help: "Skip the references (PgQueuer, the pgbench lease/ack limit).") var noReferences = false

    func run() async throws {
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let worker = try alfredExecutable(alfred)
        print("starting a private PostgreSQL (server defaults: fsync on, synchronous_commit on)…")
        let cluster = try await EmbeddedPostgres(options: .init(durable: true))
        defer { cluster.stop() }
        let url = try await cluster.createDatabase("bench", logger: logger)
        try await TestDatabase.migrate(url, logger: logger)
        let client = PostgresClient(configuration: url.clientConfiguration(maxConnections: 4), backgroundLogger: logger)

        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            let store = PostgresJobStore(client: client, logger: logger)
            let bench = Measurements(store: store, client: client, url: url, worker: worker, logger: logger)

            let enqueueRate = try await bench.enqueueRate(jobs: enqueueJobs, batch: enqueueBatch)
            print(String(format: "enqueue: %.0f jobs/s (%d jobs in statements of %d)", enqueueRate, enqueueJobs, enqueueBatch))

            var rss: [Double] = []
            var drain: [Int: Double] = [:]
            let settings = concurrency.map { "--concurrency \($0)" } ?? "default settings"
            for processes in [1, 2] {
                let (rate, peak) = try await bench.drain(jobs: drainJobs, processes: processes, concurrency: concurrency)
                drain[processes] = rate
                rss += peak
                print(String(format: "drain: %.0f noop jobs/s with %d worker process%@ (%d jobs, %@)", rate, processes,
                             processes == 1 ? "" : "es", drainJobs, settings))
            }
            var references: [String: Any] = [:]
            if !noReferences {
                let refs = QueueReferences(client: client, url: url, logger: logger)
                let pgqueuer = try await refs.pgqueuerDrain(python: try await QueueReferences.pgqueuerPython(python), jobs: drainJobs, batch: 100)
                print(String(format: "reference: PgQueuer %@ (1 worker, batch_size 100) drains %.0f noop jobs/s: alfred is %.2fx",
                             QueueReferences.pgqueuerVersion, pgqueuer, (drain[1] ?? 0) / pgqueuer))
                let limit = try await refs.leaseAckLimit(jobs: drainJobs) { jobs in
                    try await bench.reset()
                    try await bench.enqueueAll(jobs)
                }
                print(String(format: "reference: raw lease/ack limit (pgbench, 100 jobs per lease and per ack, %d clients): %.0f jobs/s: "
                             + "alfred reaches %.0f%% with 1 worker, %.0f%% with 2", limit.clients, limit.rate,
                             (drain[1] ?? 0) / limit.rate * 100, (drain[2] ?? 0) / limit.rate * 100))
                references = [
                    "pgqueuer_drain_jobs_per_s": Int(pgqueuer), "drain_vs_pgqueuer": ((drain[1] ?? 0) / pgqueuer * 100).rounded() / 100,
                    "lease_ack_limit_jobs_per_s": Int(limit.rate), "lease_ack_limit_clients": limit.clients,
                    "drain_share_of_lease_ack_limit": ((drain[1] ?? 0) / limit.rate * 100).rounded() / 100,
                ]
            }

            let (lateness, offered, peak) = try await bench.lateness(rate: rate, seconds: seconds, lead: .milliseconds(leadMs), concurrency: concurrency)
            rss += peak
            print(String(format: "start lateness at %.0f jobs/s offered (1 worker, enqueued %d ms ahead): p50 %.1f ms, p99 %.1f ms, max %.1f ms",
                         offered, leadMs, lateness.p50, lateness.p99, lateness.max))
            if !noReferences {
                let floor = try await QueueReferences(client: client, url: url, logger: logger).commitLatencyFloor()
                print(String(format: "reference: one-row INSERT and commit at 200/s (pgbench, this machine's floor): p50 %.1f ms, p99 %.1f ms",
                             floor.p50, floor.p99))
                references["commit_floor_p50_ms"] = (floor.p50 * 10).rounded() / 10
                references["commit_floor_p99_ms"] = (floor.p99 * 10).rounded() / 10
            }
            print(String(format: "worker peak RSS: %.1f MB", rss.max() ?? 0))

            var summary: [String: Any] = [
                "drain_settings": settings,
                "enqueue_jobs_per_s": Int(enqueueRate),
                "drain_jobs_per_s_1_worker": Int(drain[1] ?? 0),
                "drain_jobs_per_s_2_workers": Int(drain[2] ?? 0),
                "lateness_offered_jobs_per_s": Int(offered.rounded()),
                "lateness_lead_ms": leadMs,
                "lateness_p50_ms": (lateness.p50 * 10).rounded() / 10,
                "lateness_p99_ms": (lateness.p99 * 10).rounded() / 10,
                "lateness_max_ms": (lateness.max * 10).rounded() / 10,
                "worker_peak_rss_mb": ((rss.max() ?? 0) * 10).rounded() / 10,
            ]
            summary.merge(references) { a, _ in a }
            let json = try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys])
            print(String(decoding: json, as: UTF8.self))
        }
    }
}

struct Measurements {
    let store: PostgresJobStore
    let client: PostgresClient
    let url: DatabaseURL
    let worker: String
    let logger: Logger
    /// The `jobs` table holds other rows than the bench's (`alfred-bench scale`): a reset deletes
    /// only the bench queue's, where otherwise it empties the table.
    var shared = false

    static let kind = JobKind("noop")

    /// Empties the bench queue; returns the database's time after it, from which the bench's
    /// completions are counted (a shared table's history finished before it).
    @discardableResult
    func reset() async throws -> Date {
        if shared {
            _ = try await client.query("DELETE FROM jobs WHERE queue = 'bench'", logger: logger).collect()
        } else {
            _ = try await client.query("TRUNCATE jobs", logger: logger).collect()
        }
        _ = try await client.query("VACUUM ANALYZE jobs", logger: logger).collect()
        for try await now in try await client.query("SELECT now()", logger: logger).decode(Date.self) { return now }
        throw ValidationError("the database did not say what time it is")
    }

    /// Jobs per second inserted by one client in batched statements (each its own transaction).
    func enqueueRate(jobs: Int, batch: Int) async throws -> Double {
        try await reset()
        var job = NewJob(kind: .noop)
        job.queue = "bench"
        let start = ContinuousClock.now
        var left = jobs
        while left > 0 {
            let n = min(batch, left)
            _ = try await store.enqueue(Array(repeating: job, count: n), onConflict: .keep)
            left -= n
        }
        return Double(jobs) / start.duration(to: .now).seconds
    }

    /// `concurrency` nil: the worker's own defaults, as an operator who sets nothing gets them.
    func startWorkers(_ count: Int, concurrency: Int?) async throws -> [ChildProcess] {
        let settings = concurrency.map { ["--concurrency", "\($0)"] } ?? []
        let workers = try (0..<count).map { _ in
            try ChildProcess(worker, ["worker", "--queue", "bench", "--no-metrics", "--log-level", "warning"] + settings,
                             environment: ["ALFRED_DATABASE_URL": url.secretString.unsafeValue])
        }
        // Ready when every worker's LISTEN connection is up.
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if try await listeners() >= count { return workers }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ValidationError("workers did not start: \(workers.map(\.output).joined(separator: "\n"))")
    }

    func listeners() async throws -> Int {
        let rows = try await client.query(
            "SELECT count(*)::int8 FROM pg_stat_activity WHERE query LIKE 'LISTEN%'", logger: logger)
        for try await n in rows.decode(Int.self) { return n }
        return 0
    }

    func stop(_ workers: [ChildProcess]) async -> [Double] {
        let peaks = workers.map { Self.peakRSSMegabytes($0.pid) }
        for worker in workers { worker.signal(SIGTERM) }
        for worker in workers { _ = await worker.waitForExit(timeout: .seconds(30)) }
        return peaks
    }

    /// The bench queue's jobs completed since `since` (by the finished-jobs index, whatever else the table holds).
    func completed(since: Date) async throws -> Int {
        let rows = try await client.query("""
            SELECT count(*)::int8 FROM jobs WHERE state = 'completed' AND finished_at >= \(since) AND queue = 'bench'
            """, logger: logger)
        for try await n in rows.decode(Int.self) { return n }
        return 0
    }

    /// Jobs per second drained by `processes` idle workers after `jobs` jobs appear in one commit.
    /// `randomIDs`: the jobs get random (version 4) ids, as every job did before ids were time-ordered.
    func drain(jobs: Int, processes: Int, concurrency: Int?, randomIDs: Bool = false) async throws -> (Double, [Double]) {
        let since = try await reset()
        let workers = try await startWorkers(processes, concurrency: concurrency)
        try await enqueueAll(jobs, randomIDs: randomIDs)
        let start = ContinuousClock.now
        while try await completed(since: since) < jobs {
            try await Task.sleep(for: .milliseconds(20))
            if start.duration(to: .now) > .seconds(600) { throw ValidationError("drain did not finish in 10 minutes") }
        }
        let rate = Double(jobs) / start.duration(to: .now).seconds
        return (rate, await stop(workers))
    }

    /// `jobs` no-op jobs of the bench queue, due now, in one commit.
    func enqueueAll(_ jobs: Int, randomIDs: Bool = false) async throws {
        var job = NewJob(kind: .noop)
        job.queue = "bench"
        try await client.withTransaction(logger: logger) { connection in
            var left = jobs
            while left > 0 {
                let n = min(5000, left)
                let batch = randomIDs ? (0..<n).map { _ in var j = job; j.id = JobID(UUID()); return j } : Array(repeating: job, count: n)
                _ = try await store.enqueue(batch, onConflict: .keep, on: connection)
                left -= n
            }
        }
    }

    struct Percentiles { var p50 = 0.0, p99 = 0.0, max = 0.0 }

    /// Offers `rate` jobs/s in 10 ms ticks for `seconds`, to one worker, each due `lead` after its
    /// enqueue; lateness is claim time minus due time, both by the database clock.
    func lateness(rate: Int, seconds: Int, lead: Duration, concurrency: Int?) async throws -> (Percentiles, Double, [Double]) {
        let since = try await reset()
        let workers = try await startWorkers(1, concurrency: concurrency)
        var job = NewJob(kind: .noop, schedule: lead > .zero ? .after(lead) : .now)
        job.queue = "bench"
        let perTick = max(1, rate / 100)
        let clock = ContinuousClock()
        let start = clock.now
        var tick = 0
        var sent = 0
        while start.duration(to: clock.now) < .seconds(seconds) {
            tick += 1
            _ = try await store.enqueue(Array(repeating: job, count: perTick), onConflict: .keep)
            sent += perTick
            try await clock.sleep(until: start.advanced(by: .milliseconds(10 * tick)), tolerance: nil)
        }
        let offered = Double(sent) / start.duration(to: clock.now).seconds
        let drainDeadline = clock.now + .seconds(30)
        while try await completed(since: since) < sent, clock.now < drainDeadline { try await Task.sleep(for: .milliseconds(20)) }
        let peaks = await stop(workers)
        let rows = try await client.query("""
            SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY l), percentile_cont(0.99) WITHIN GROUP (ORDER BY l), max(l)
            FROM (SELECT extract(epoch FROM last_run_at - due_at)::float8 * 1000 AS l FROM jobs
                  WHERE state = 'completed' AND finished_at >= \(since) AND queue = 'bench') s
            """, logger: logger)
        var result = Percentiles()
        for try await (p50, p99, max) in rows.decode((Double, Double, Double).self) {
            result = Percentiles(p50: p50, p99: p99, max: max)
        }
        return (result, offered, peaks)
    }

    static func peakRSSMegabytes(_ pid: pid_t) -> Double { AlfredBench.peakRSSMegabytes(pid) }
}

/// What the benchmarks share.
enum AlfredBench {
    /// Peak resident set (VmHWM) of a process, in MB (0 when it is gone).
    static func peakRSSMegabytes(_ pid: pid_t) -> Double {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            let kb = line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Double($0) } ?? 0
            return kb / 1024
        }
        return 0
    }

    /// Polls `condition` every 20 ms until it holds; `what` names it in the error after `timeout`.
    static func waitUntil(_ what: String, timeout: Duration, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            guard ContinuousClock.now < deadline else { throw ValidationError("\(what) did not come up within \(timeout)") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
