import AlfredCore
import AlfredTestCluster
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PostgresNIO
import Store
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The real `alfred worker` executable, started as a process and killed or stopped like in production.
@Suite(.timeLimit(.minutes(10))) struct WorkerProcessTests {
    func startWorker(_ url: DatabaseURL, _ extra: [String] = [], leaseSeconds: Int = 2) throws -> ChildProcess {
        try ChildProcess(AlfredBinary.path, ["worker", "--lease-seconds", "\(leaseSeconds)", "--rescue-seconds", "1",
                                             "--poll-seconds", "1", "--no-metrics"] + extra,
                         environment: ["ALFRED_DATABASE_URL": url.secretString.unsafeValue, "ALFRED_LOG_LEVEL": "debug"])
    }

    /// A killed worker's session ends with its process: its job runs elsewhere long before its
    /// ten-minute lease would have freed it (issue #31), and its late completion is refused.
    @Test func jobOfAKilledWorkerRunsElsewhereLongBeforeItsLeaseAndItsLateCompletionIsRefused() async throws {
        let url = try await TestDatabase.fresh()
        try await TestDatabase.withClient(url) { client in
            let store = PostgresJobStore(client: client, logger: TestDatabase.quietLogger)
            let payload = Array(#"{"sleepMilliseconds": 600000}"#.utf8)
            let id = try #require(try await store.enqueue([NewJob(kind: .noop, payload: payload)], onConflict: .keep)[0].jobID)
            let doomed = try startWorker(url, leaseSeconds: 600)
            #expect(try await eventually { try await JobRows.row(id, client: client)?.state == .running }, "\(doomed.output)")
            let token = try #require(try await JobRows.row(id, client: client)?.leaseToken)
            // The presence lock the claim names is held by a backend of the worker's (from pg_locks).
            #expect(try await Self.presenceHolders(of: id, client: client) == 1)
            doomed.signal(SIGKILL)
            _ = await doomed.exitCode()
            let leasedUntil = try await Self.timestamp("leased_until", of: id, client: client)

            _ = try await client.query("UPDATE jobs SET payload = '{}' WHERE id = \(id.uuid)", logger: TestDatabase.quietLogger)
            let rescuer = try startWorker(url, leaseSeconds: 600)
            #expect(try await eventually { try await JobRows.row(id, client: client)?.state == .completed }, "\(rescuer.output)")
            let row = try #require(try await JobRows.row(id, client: client))
            #expect(row.attempts == 2)
            let secondStart = try await Self.timestamp("last_run_at", of: id, client: client)
            #expect(secondStart < leasedUntil.addingTimeInterval(-500), "freed by the session's end, not by the lease")

            // The killed worker's late completion (simulated with its lease token) is refused.
            let late = Lease(id: id, token: token)
            #expect(try await store.complete([Completion(lease: late)]) == [late])
            #expect(try await store.fail(late, error: "late", disposition: .discard) == nil)
            rescuer.signal(SIGTERM)
            #expect(await rescuer.waitForExit(timeout: .seconds(120)) == 0)
        }
    }

    /// A worker that is alive but stuck (stopped with SIGSTOP: its connections stay open, its session
    /// and lock with them) keeps its job until the lease runs out; then another worker takes it.
    @Test func jobOfAStuckWorkerIsRescuedWhenItsLeaseRunsOut() async throws {
        let url = try await TestDatabase.fresh()
        try await TestDatabase.withClient(url) { client in
            let store = PostgresJobStore(client: client, logger: TestDatabase.quietLogger)
            let payload = Array(#"{"sleepMilliseconds": 600000}"#.utf8)
            let id = try #require(try await store.enqueue([NewJob(kind: .noop, payload: payload)], onConflict: .keep)[0].jobID)
            let stuck = try startWorker(url)
            #expect(try await eventually { try await JobRows.row(id, client: client)?.state == .running }, "\(stuck.output)")
            stuck.signal(SIGSTOP)
            defer { stuck.signal(SIGKILL) }
            // Its last heartbeat set this; nothing extends it any more.
            let leasedUntil = try await Self.timestamp("leased_until", of: id, client: client)

            _ = try await client.query("UPDATE jobs SET payload = '{}' WHERE id = \(id.uuid)", logger: TestDatabase.quietLogger)
            let rescuer = try startWorker(url)
            #expect(try await eventually { try await JobRows.row(id, client: client)?.state == .completed }, "\(rescuer.output)")
            #expect(try await Self.presenceHolders(of: id, client: client) == 0, "the job is no longer leased to anyone")
            let secondStart = try await Self.timestamp("last_run_at", of: id, client: client)
            #expect(secondStart >= leasedUntil, "taken from the stuck worker only after its lease ran out")
            rescuer.signal(SIGTERM)
            #expect(await rescuer.waitForExit(timeout: .seconds(120)) == 0)
        }
    }

    /// Backends holding the presence lock that the job's claim was made under (0 once it is freed).
    static func presenceHolders(of id: JobID, client: PostgresClient) async throws -> Int {
        let rows = try await client.query("""
            SELECT count(l.pid)::int8 FROM jobs j JOIN pg_locks l ON l.locktype = 'advisory' AND l.classid = 1634493047
                AND l.objid = j.lease_session::oid AND l.objsubid = 2 AND l.granted
            WHERE j.id = \(id.uuid)
            """, logger: TestDatabase.quietLogger)
        for try await count in rows.decode(Int64.self) { return Int(count) }
        return 0
    }

    @Test func sigtermStopsClaimingFinishesRunningJobsAndExitsZero() async throws {
        let url = try await TestDatabase.fresh()
        try await TestDatabase.withClient(url) { client in
            let store = PostgresJobStore(client: client, logger: TestDatabase.quietLogger)
            let worker = try startWorker(url, ["--shutdown-grace", "60"])
            let id = try #require(try await store.enqueue(
                [NewJob(kind: .noop, payload: Array(#"{"sleepMilliseconds": 5000}"#.utf8))], onConflict: .keep)[0].jobID)
            // The start is an event in the log (a poll of the row's state could miss a short run).
            #expect(try await eventually { Self.started(worker) == 1 }, "\(worker.output)")
            worker.signal(SIGTERM)
            #expect(try await eventually { worker.output.contains("claiming stopped") }, "\(worker.output)")
            let later = try #require(try await store.enqueue([NewJob(kind: .noop)], onConflict: .keep)[0].jobID)
            #expect(await worker.waitForExit(timeout: .seconds(120)) == 0, "\(worker.output)")
            #expect(try await JobRows.row(id, client: client)?.state == .completed, "the running job finished")
            let untouched = try await JobRows.row(later, client: client)
            #expect(untouched?.state == .queued && untouched?.attempts == 0, "nothing new was claimed after SIGTERM")
        }
    }

    /// The production worker process while Postgres restarts five times under it: each time four
    /// jobs are running and four queued behind them. The restart ends its presence session, so the
    /// four running ones are stopped and claimed again after it; the four queued ones are claimed
    /// once. Every job completes, and the worker keeps running.
    @Test func aWorkerProcessSurvivesFivePostgresRestarts() async throws {
        try await EmbeddedPostgres.with(options: .init(durable: false)) { cluster in
            let url = try await cluster.createDatabase("restart", logger: TestDatabase.quietLogger)
            try await TestDatabase.migrate(url, logger: TestDatabase.quietLogger)
            let worker = try ChildProcess(AlfredBinary.path, [
                "worker", "--concurrency", "4", "--max-concurrency", "4", "--claim-batch", "4", "--lease-seconds", "120", "--no-metrics",
            ], environment: ["ALFRED_DATABASE_URL": url.secretString.unsafeValue, "ALFRED_LOG_LEVEL": "debug"])
            var all: [JobID] = []
            for round in 1...5 {
                let ids = try await TestDatabase.withClient(url, maxConnections: 1) { client in
                    try await PostgresJobStore(client: client, logger: TestDatabase.quietLogger).enqueue(
                        Array(repeating: NewJob(kind: .noop, payload: Array(#"{"sleepMilliseconds": 1500}"#.utf8)), count: 8),
                        onConflict: .keep).compactMap(\.jobID)
                }
                all += ids
                // Four started (an event in the log: polling the rows' state could miss a short run).
                #expect(try await eventually { Self.started(worker) >= 8 * (round - 1) + 4 }, "round \(round): \(worker.output.suffix(2000))")
                try await cluster.stopServer()
                try await cluster.startServer()
                #expect(try await eventually { await Self.count(url, "state = 'completed'", ids) == 8 }, "round \(round): \(worker.output.suffix(2000))")
            }
            #expect(worker.poll() == nil, "the worker kept running: \(worker.output.suffix(2000))")
            #expect(await Self.count(url, "state = 'completed'", all) == all.count)
            #expect(await Self.count(url, "attempts = 1", all) >= all.count / 2, "only jobs running at a restart can have used a second attempt")
            #expect(await worker.terminate() == 0)
        }
    }

    /// How many jobs the worker has started so far, by its debug log.
    static func started(_ worker: ChildProcess) -> Int {
        worker.output.components(separatedBy: "job started").count - 1
    }

    /// Jobs among `ids` matching `condition`, counted on a connection of its own (0 while Postgres is down).
    static func count(_ url: DatabaseURL, _ condition: String, _ ids: [JobID]) async -> Int {
        (try? await TestDatabase.withClient(url, maxConnections: 1) { client in
            try await client.query("SELECT count(*)::int8 FROM jobs WHERE \(unescaped: condition) AND id = ANY(\(ids.map(\.uuid)))",
                                   logger: TestDatabase.quietLogger).collect().first?.decode(Int.self) ?? 0
        }) ?? 0
    }

    @Test func servesPrometheusMetricsHealthAndReadiness() async throws {
        let url = try await TestDatabase.fresh()
        let port = try EmbeddedPostgres.freePort()
        try await TestDatabase.withClient(url) { client in
            let store = PostgresJobStore(client: client, logger: TestDatabase.quietLogger)
            let worker = try ChildProcess(AlfredBinary.path, ["worker", "--metrics-port", "\(port)", "--metrics-host", "127.0.0.1"],
                                          environment: ["ALFRED_DATABASE_URL": url.secretString.unsafeValue])
            _ = try await store.enqueue(Array(repeating: NewJob(kind: .noop), count: 5), onConflict: .keep)
            #expect(try await eventually { try await JobRows.count(state: .completed, client: client) == 5 }, "\(worker.output)")
            let base = "http://127.0.0.1:\(port)"
            var metrics = ""
            #expect(try await eventually {
                metrics = (try? await get("\(base)/metrics").1) ?? ""
                return metrics.contains(#"alfred_jobs_completed_total{kind="noop"} 5"#)
            }, "\(metrics)")
            #expect(metrics.contains(#"alfred_jobs_claimed_total{kind="noop"} 5"#))
            #expect(metrics.contains(#"alfred_job_start_lateness_seconds_bucket{kind="noop",le="0.02"}"#))
            #expect(metrics.contains("alfred_job_duration_seconds_count"))
            #expect(try await eventually { (try? await get("\(base)/metrics").1)?.contains("alfred_queue_ready_depth{queue=\"default\"} 0") == true })
            #expect(try await get("\(base)/metrics").1.contains("alfred_queue_paused{queue=\"default\"} 0"))
            #expect(try await get("\(base)/healthz").0 == 200)
            #expect(try await eventually { (try? await get("\(base)/readyz").0) == 200 })
            worker.signal(SIGTERM)
            #expect(await worker.waitForExit(timeout: .seconds(120)) == 0)
        }
    }

    static func timestamp(_ column: String, of id: JobID, client: PostgresClient) async throws -> Date {
        let rows = try await client.query("SELECT \(unescaped: column) FROM jobs WHERE id = \(id.uuid)", logger: TestDatabase.quietLogger)
        return try #require(try await rows.collect().first?.decode(Date.self))
    }

    func get(_ url: String) async throws -> (Int, String) {
        let (data, response) = try await URLSession.shared.data(from: URL(string: url)!)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }
}
