import AlfredCore
import AlfredTestCluster
import ArgumentParser
import Foundation
import Logging
import PostgresNIO
import Store

/// `swift run -c release alfred-bench restart`
///
/// How soon a working `alfred worker` process resumes after Postgres restarts under it: the time
/// from the restarted server's start (`pg_postmaster_start_time()`) to the worker's first claim
/// afterwards (`last_run_at`) and to its first completed job (`finished_at`), all by the database clock. Each round gives the worker a
/// backlog of due jobs, lets it work, stops Postgres (fast shutdown: every connection drops), starts it
/// again after `--down-ms`, and waits until the backlog is done. Also checks that no job ran twice.
struct RestartBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restart", abstract: "Time from a Postgres restart to the worker's first claim and completion.")

    @Option(help: "Restarts.") var restarts = 5
    @Option(help: "Milliseconds Postgres stays down.") var downMs = 1000
    @Option(help: "Jobs in each round's backlog.") var jobs = 400
    @Option(help: "Milliseconds each job sleeps (the worker is busy when Postgres goes).") var jobMs = 20
    @Option(help: "Concurrency of the worker process.") var concurrency = 8
    @Option(help: "Path of the alfred executable (default: beside this one).") var alfred: String?

    func run() async throws {
        var logger = Logger(label: "bench")
        logger.logLevel = .critical
        let executable = try alfredExecutable(alfred)
        print("starting a private PostgreSQL (server defaults) and one worker process…")
        try await EmbeddedPostgres.with(options: .init(durable: true)) { cluster in
            let url = try await cluster.createDatabase("bench", logger: logger)
            try await TestDatabase.migrate(url, logger: logger)
            let worker = try ChildProcess(executable, [
                "worker", "--queue", "bench", "--concurrency", "\(concurrency)", "--no-metrics", "--log-level", "warning",
            ], environment: ["ALFRED_DATABASE_URL": url.secretString.unsafeValue])
            var claims: [Double] = [], completions: [Double] = []
            for round in 1...restarts {
                try await Self.enqueueBacklog(url, jobs: jobs, sleepMilliseconds: jobMs, logger: logger)
                // Wait until the worker is in the middle of the backlog, then take Postgres away.
                try await Self.waitFor(url, logger: logger) { $0.completed >= (round - 1) * jobs + jobs / 4 }
                try await cluster.stopServer()
                try await Task.sleep(for: .milliseconds(downMs))
                try await cluster.startServer()
                try await Self.waitFor(url, logger: logger) { $0.completed == round * jobs }
                let (claim, completion) = try await Self.recovery(url, logger: logger)
                claims.append(claim)
                completions.append(completion)
                print(String(format: "restart %d: first claim %.2f s, first completion %.2f s after Postgres started again",
                             round, claim, completion))
                guard worker.poll() == nil else { throw ValidationError("the worker exited: \(worker.output.suffix(2000))") }
            }
            let twice = try await Self.query(url, "SELECT count(*)::int8 FROM jobs WHERE attempts > 1", logger: logger)
            await worker.terminate()
            claims.sort()
            completions.sort()
            print(String(format: "after a restart (%d restarts, down %d ms): first claim median %.2f s, max %.2f s; "
                         + "first completion median %.2f s, max %.2f s; jobs attempted more than once: %d",
                         restarts, downMs, claims[claims.count / 2], claims.last ?? 0,
                         completions[completions.count / 2], completions.last ?? 0, twice))
            let summary: [String: Any] = [
                "restarts": restarts, "down_ms": downMs,
                "first_claim_median_s": (claims[claims.count / 2] * 100).rounded() / 100,
                "first_claim_max_s": ((claims.last ?? 0) * 100).rounded() / 100,
                "first_completion_median_s": (completions[completions.count / 2] * 100).rounded() / 100,
                "first_completion_max_s": ((completions.last ?? 0) * 100).rounded() / 100,
                "jobs_attempted_more_than_once": twice,
            ]
            print(String(decoding: try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys]), as: UTF8.self))
        }
    }

    static func enqueueBacklog(_ url: DatabaseURL, jobs: Int, sleepMilliseconds: Int, logger: Logger) async throws {
        var job = NewJob(kind: .noop, payload: Array(#"{"sleepMilliseconds": \#(sleepMilliseconds)}"#.utf8))
        job.queue = "bench"
        let backlog = Array(repeating: job, count: jobs)
        try await TestDatabase.withClient(url, maxConnections: 1) { client in
            _ = try await PostgresJobStore(client: client, logger: logger).enqueue(backlog, onConflict: .keep)
        }
    }

    struct Progress { var completed: Int }

    /// Polls on a fresh connection each time (the server may be down), until `done` holds.
    static func waitFor(_ url: DatabaseURL, logger: Logger, _ done: (Progress) -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(300)
        while ContinuousClock.now < deadline {
            if let completed = try? await query(url, "SELECT count(*)::int8 FROM jobs WHERE state = 'completed'", logger: logger),
               done(Progress(completed: completed)) { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw ValidationError("the worker made no progress for 5 minutes")
    }

    /// Seconds from the server's start to the first claim and to the first completion after it.
    static func recovery(_ url: DatabaseURL, logger: Logger) async throws -> (claim: Double, completion: Double) {
        try await TestDatabase.withClient(url, maxConnections: 1) { client in
            let rows = try await client.query("""
                SELECT extract(epoch FROM min(last_run_at) FILTER (WHERE last_run_at > pg_postmaster_start_time())
                                          - pg_postmaster_start_time())::float8,
                       extract(epoch FROM min(finished_at) FILTER (WHERE finished_at > pg_postmaster_start_time())
                                          - pg_postmaster_start_time())::float8
                FROM jobs
                """, logger: logger)
            for try await (claim, completion) in rows.decode((Double?, Double?).self) {
                guard let claim, let completion else { break }
                return (claim, completion)
            }
            throw ValidationError("no job was claimed and completed after the restart")
        }
    }

    static func query(_ url: DatabaseURL, _ sql: String, logger: Logger) async throws -> Int {
        try await TestDatabase.withClient(url, maxConnections: 1) { client in
            for try await n in try await client.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(Int.self) { return n }
            return 0
        }
    }
}
