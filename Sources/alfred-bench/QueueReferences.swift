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

/// What `alfred-bench queue` measures its drain against, on the same Postgres in the same run:
///
/// - **PgQueuer** (Python, asyncpg), a Postgres-backed queue in wide use, draining the same number of
///   no-op jobs with `batch_size` 100 in one worker process. Installed from PyPI into a private
///   virtual environment (`~/.cache/alfred-bench/pgqueuer-<version>`) the first time.
/// - **The raw lease/ack limit**: pgbench running the two statements every queue needs per batch (lease
///   100 due jobs with `FOR UPDATE SKIP LOCKED`, then mark them done), each its own transaction, on
///   our own `jobs` table, with no worker in between. No queue can drain faster than this on the
///   machine; it says how much of it our worker's bookkeeping leaves unused.
///
/// Both drains are timed from the outside: from the commit of the jobs to the moment the database
/// holds none left to do.
struct QueueReferences {
    static let pgqueuerVersion = "1.6.0"

    let client: PostgresClient
    let url: DatabaseURL
    let logger: Logger

    // MARK: PgQueuer

    /// The worker and the enqueuer, one script: `worker DSN BATCH` runs a PgQueuer worker with a no-op
    /// entrypoint until stopped; `enqueue DSN N` installs PgQueuer's schema if missing and enqueues N
    /// jobs in one transaction (PgQueuer's own batched enqueue).
    static let pgqueuerScript = """
        import asyncio, sys
        import asyncpg
        from pgqueuer.db import AsyncpgDriver
        from pgqueuer.qm import QueueManager
        from pgqueuer.queries import Queries

        async def worker(dsn, batch):
            qm = QueueManager(Queries(AsyncpgDriver(await asyncpg.connect(dsn))))

            @qm.entrypoint("noop")
            async def noop(job):
                pass

            await qm.run(batch_size=batch)

        async def enqueue(dsn, n):
            connection = await asyncpg.connect(dsn)
            queries = Queries(AsyncpgDriver(connection))
            if not await queries.schema_is_installed():
                await queries.install()
            async with connection.transaction():
                left = n
                while left > 0:
                    k = min(5000, left)
                    await queries.enqueue(["noop"] * k, [None] * k, [0] * k)
                    left -= k
            await connection.close()

        if sys.argv[1] == "worker":
            asyncio.run(worker(sys.argv[2], int(sys.argv[3])))
        else:
            asyncio.run(enqueue(sys.argv[2], int(sys.argv[3])))
        """

    /// A Python with PgQueuer: `--python` if given, else the private virtual environment, created now
    /// if it is missing (needs `python3 -m venv` and PyPI).
    static func pgqueuerPython(_ override: String?) async throws -> String {
        if let override { return override }
        let home = ProcessInfo.processInfo.environment["HOME"] ?? "/tmp"
        let venv = "\(home)/.cache/alfred-bench/pgqueuer-\(pgqueuerVersion)"
        let python = "\(venv)/bin/python"
        if FileManager.default.isExecutableFile(atPath: python),
           try await run(python, ["-c", "import pgqueuer, asyncpg"]) == 0 {
            return python
        }
        print("installing PgQueuer \(pgqueuerVersion) into \(venv) (python3 -m venv, pip)…")
        guard try await run("/usr/bin/env", ["python3", "-m", "venv", venv]) == 0,
              try await run("\(venv)/bin/pip", ["install", "--quiet", "pgqueuer==\(pgqueuerVersion)", "asyncpg"]) == 0 else {
            throw ValidationError("could not install PgQueuer into \(venv): python3 with venv and PyPI are needed (or pass --python)")
        }
        return python
    }

    /// Jobs per second one PgQueuer worker (batch `batch`) drains after `jobs` jobs appear in one commit.
    func pgqueuerDrain(python: String, jobs: Int, batch: Int) async throws -> Double {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("alfred-bench-pgqueuer.py").path
        try Self.pgqueuerScript.write(toFile: script, atomically: true, encoding: .utf8)
        // asyncpg takes no libpq connection options (connect_timeout) in the URL.
        let dsn = String(url.secretString.unsafeValue.prefix { $0 != "?" })
        // The schema first (and an empty table), so the worker finds it when it starts.
        guard try await Self.run(python, [script, "enqueue", dsn, "0"]) == 0 else {
            throw ValidationError("PgQueuer could not install its schema")
        }
        _ = try await client.query("TRUNCATE pgqueuer, pgqueuer_log", logger: logger).collect()
        let worker = try ChildProcess(python, [script, "worker", dsn, "\(batch)"])
        defer { worker.signal(SIGKILL); _ = worker.waitForExit() }
        // Ready when it has taken a probe job (its LISTEN does not show in pg_stat_activity: the same
        // connection runs its queries).
        guard try await Self.run(python, [script, "enqueue", dsn, "1"]) == 0 else { throw ValidationError("PgQueuer could not enqueue") }
        let deadline = ContinuousClock.now + .seconds(30)
        while try await count("SELECT count(*)::int8 FROM pgqueuer") > 0 {
            guard worker.poll() == nil, ContinuousClock.now < deadline else {
                throw ValidationError("the PgQueuer worker did not start: \(worker.output.suffix(2000))")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        let enqueue = try ChildProcess(python, [script, "enqueue", dsn, "\(jobs)"])
        // Timed from the enqueue's commit: when the first job is visible, all are.
        while try await count("SELECT count(*)::int8 FROM pgqueuer") == 0 {
            // Exited without any job visible: failed, or (successful) all drained already.
            if let code = enqueue.poll() {
                guard code == 0 else { throw ValidationError("the PgQueuer enqueue failed: \(enqueue.output.suffix(2000))") }
                break
            }
            try await Task.sleep(for: .milliseconds(2))
        }
        let start = ContinuousClock.now
        guard await enqueue.exitCode() == 0 else { throw ValidationError("the PgQueuer enqueue failed: \(enqueue.output.suffix(2000))") }
        // PgQueuer deletes a job from its queue table when it logs the job done.
        while try await count("SELECT count(*)::int8 FROM pgqueuer") > 0 {
            guard worker.poll() == nil else { throw ValidationError("the PgQueuer worker exited: \(worker.output.suffix(2000))") }
            guard start.duration(to: .now) < .seconds(600) else { throw ValidationError("PgQueuer did not drain in 10 minutes") }
            try await Task.sleep(for: .milliseconds(20))
        }
        return Double(jobs) / start.duration(to: .now).seconds
    }

    // MARK: pgbench

    /// One batch's lease and one batch's ack, each its own transaction, on the `jobs` table as our
    /// worker uses it (same index, same columns written). The ids leased go to the ack by `\gset`.
    static let leaseAckScript = """
        WITH due AS (
            SELECT id FROM jobs WHERE state = 'queued' AND queue = 'bench' AND priority <= 0 AND due_at <= now()
            ORDER BY due_at, priority DESC LIMIT 100 FOR UPDATE SKIP LOCKED
        ), leased AS (
            UPDATE jobs j SET state = 'running', attempts = j.attempts + 1, lease_owner = 'pgbench',
                   lease_token = gen_random_uuid(), leased_until = now() + interval '30 seconds',
                   last_run_at = now(), updated_at = now()
            FROM due WHERE j.id = due.id RETURNING j.id
        )
        SELECT quote_literal(coalesce(array_agg(id)::text, '{}')) AS ids FROM leased \\gset
        UPDATE jobs SET state = 'completed', lease_owner = NULL, lease_token = NULL, leased_until = NULL, updated_at = now()
            WHERE id = ANY (:ids::uuid[]) AND state = 'running';

        """

    /// Jobs per second pgbench leases and acks (100 per batch) with `clients` connections, over
    /// `jobs` jobs queued beforehand; the best of 2, 4 and 8 clients is the limit.
    func leaseAckLimit(jobs: Int, enqueue: (Int) async throws -> Void) async throws -> (rate: Double, clients: Int) {
        let pgbench = try Self.pgbench()
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("alfred-bench-lease-ack.sql").path
        try Self.leaseAckScript.write(toFile: script, atomically: true, encoding: .utf8)
        var best = (rate: 0.0, clients: 0)
        for clients in [2, 4, 8] {
            try await enqueue(jobs)
            // Each client runs its share of the batches; all of them find full batches.
            let batches = jobs / 100 / clients
            let start = ContinuousClock.now
            let run = try ChildProcess(pgbench, ["-n", "-f", script, "-c", "\(clients)", "-j", "\(min(clients, 2))",
                                                 "-t", "\(batches)", url.secretString.unsafeValue])
            guard await run.exitCode() == 0 else { throw ValidationError("pgbench failed: \(run.output.suffix(2000))") }
            let elapsed = start.duration(to: .now).seconds
            let done = try await count("SELECT count(*)::int8 FROM jobs WHERE state = 'completed'")
            guard done == batches * clients * 100 else {
                throw ValidationError("pgbench acked \(done) jobs, expected \(batches * clients * 100): \(run.output.suffix(2000))")
            }
            // pgbench's own figure excludes its connection set-up; ours would include it.
            let tps = run.output.split(separator: "\n").first { $0.hasPrefix("tps = ") }
                .flatMap { Double($0.dropFirst(6).prefix { $0 != " " }) }
            let rate = tps.map { $0 * 100 } ?? Double(done) / elapsed  // pgbench's transaction is one run of the script
            if rate > best.rate { best = (rate, clients) }
        }
        return best
    }

    // MARK: the machine's floor

    /// What one transaction's latency is on this machine, whatever the queue: pgbench at 200
    /// transactions/s, each a one-row INSERT and its commit (fsync on), timed per transaction (`-l`).
    /// A job cannot start later than due by less than what it takes to read and write its row, so the
    /// start lateness's tail is to be read against this one.
    func commitLatencyFloor() async throws -> (p50: Double, p99: Double) {
        let pgbench = try Self.pgbench()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("alfred-bench-floor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        _ = try await client.query("CREATE TABLE IF NOT EXISTS bench_floor (id bigserial PRIMARY KEY, at timestamptz NOT NULL)", logger: logger).collect()
        let script = directory.appendingPathComponent("floor.sql").path
        try "INSERT INTO bench_floor (at) VALUES (now());\n".write(toFile: script, atomically: true, encoding: .utf8)
        let run = try ChildProcess(pgbench, ["-n", "-f", script, "-R", "200", "-T", "5", "-c", "1", "-l", url.secretString.unsafeValue],
                                   directory: directory)
        guard await run.exitCode() == 0 else { throw ValidationError("pgbench failed: \(run.output.suffix(2000))") }
        // Each log line: client, transaction, latency in µs, …
        var latencies: [Double] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) where file.hasPrefix("pgbench_log") {
            let text = try String(contentsOfFile: directory.appendingPathComponent(file).path, encoding: .utf8)
            for line in text.split(separator: "\n") {
                let fields = line.split(separator: " ")
                if fields.count > 2, let micros = Double(fields[2]) { latencies.append(micros / 1000) }
            }
        }
        _ = try await client.query("DROP TABLE bench_floor", logger: logger).collect()
        guard !latencies.isEmpty else { throw ValidationError("pgbench logged no transactions") }
        latencies.sort()
        return (latencies[latencies.count / 2], latencies[min(latencies.count - 1, latencies.count * 99 / 100)])
    }

    // MARK: helpers

    private static func pgbench() throws -> String {
        let directories = [Prerequisites.postgresBinaries()?.path].compactMap { $0 }
            + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin"]
        guard let pgbench = directories.map({ "\($0)/pgbench" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw ValidationError("no pgbench on PATH or next to initdb (Debian's postgresql-client package has it)")
        }
        return pgbench
    }

    private func count(_ sql: String) async throws -> Int {
        for try await n in try await client.query(PostgresQuery(unsafeSQL: sql), logger: logger).decode(Int.self) { return n }
        return 0
    }

    private static func run(_ executable: String, _ arguments: [String]) async throws -> Int32 {
        let child = try ChildProcess(executable, arguments)
        let code = await child.exitCode()
        if code != 0 { print(child.output.suffix(2000)) }
        return code
    }
}
