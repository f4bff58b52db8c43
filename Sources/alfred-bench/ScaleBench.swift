import AlfredCore
import AlfredTestCluster
import ArgumentParser
import AsyncHTTPClient
import Foundation
import Logging
import PostgresNIO
import StandIns
import Store
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// `swift build -c release && swift run -c release alfred-bench scale`
///
/// The same measurements at two sizes in one run, on one private Postgres at the server's defaults:
/// first with the tables of `--baseline-users` users, then grown to `--users`. What a user leaves in
/// the tables is built in SQL at the rates the service produces them (`ScaleWorld`); a thousand of
/// the users are real, signed in through the API, and the API reads go to them. At each size: table
/// and index sizes, the queue's drain and start lateness with a real `alfred worker`, the claim
/// statement's mean time, and `GET /v1/preferences` at a fixed offered rate with its CPU per request.
/// The last line is one JSON object.
struct ScaleBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scale", abstract: "Queue and API figures with a million users' tables, beside the same figures at 10,000.")

    @Option(help: "Users at the second size.") var users = 1_000_000
    @Option(help: "Users at the first size, the figures the second is compared with.") var baselineUsers = 10_000
    @Option(help: "Days of audit history per user, at the service's rate (about 12 events a user-day since routine successes are tallied; see the projection it prints).")
    var auditDays = 2.0
    @Option(help: "No-op jobs drained per drain measurement.") var drainJobs = 50_000
    @Option(help: "Offered load for the lateness measurement (jobs/s).") var rate = 5000
    @Option(help: "Seconds of steady load for the lateness measurement and for the API phase.") var seconds = 15
    @Option(help: "GET /v1/preferences offered per second.") var apiRate = 1000
    @Option(help: "Users signed in through the API (the reads rotate over them).") var apiUsers = 1000
    @Option(help: "Users built per statement.") var chunk = 20_000
    @Option(help: "Path of the alfred executable (default: beside this one).") var alfred: String?
    @Flag(help: "Print the statements that took the most time while building each size.") var profileBuild = false

    func validate() throws {
        guard baselineUsers >= apiUsers, users > baselineUsers else {
            throw ValidationError("need --api-users ≤ --baseline-users < --users")
        }
    }

    func run() async throws {
        let logger = { var l = Logger(label: "bench"); l.logLevel = .error; return l }()
        let binary = try alfredExecutable(alfred)
        // Durable as shipped (fsync, synchronous_commit); sized as a primary holding a million users is:
        // a cache of a sixth of this machine's memory, and checkpoints far enough apart that a bulk
        // load is not mostly full-page images (the default 1 GB of WAL is a few seconds of the build).
        let settings = ["shared_buffers = '4GB'", "max_wal_size = '16GB'", "checkpoint_timeout = '30min'"]
        say("starting a private PostgreSQL (\(settings.joined(separator: ", ")), pg_stat_statements loaded), the Apple stand-in and `alfred api`…")
        var options = EmbeddedPostgres.Options(durable: true)
        options.extraSettings = ["shared_preload_libraries = 'pg_stat_statements'"] + settings
        try await EmbeddedPostgres.with(options: options) { cluster in
            let url = try await cluster.createDatabase("bench", logger: logger)
            try await TestDatabase.migrate(url, logger: logger)
            let apple = AppleStandIn(configuration: .init(audience: APIBench.bundleID), logger: logger)
            let client = PostgresClient(configuration: url.clientConfiguration(maxConnections: 4), backgroundLogger: logger)
            let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: {
                var c = HTTPClient.Configuration()
                c.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
                return c
            }())
            do {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await apple.run() }
                    group.addTask { await client.run() }
                    defer { group.cancelAll() }
                    try await measure(cluster: cluster, url: url, client: client, apple: apple, http: http, binary: binary, logger: logger)
                }
            } catch {
                try? await http.shutdown()
                throw error
            }
            try await http.shutdown()
        }
    }

    private func measure(cluster: EmbeddedPostgres, url: DatabaseURL, client: PostgresClient, apple: AppleStandIn, http: HTTPClient,
                         binary: String, logger: Logger) async throws {
        _ = try await client.query("CREATE EXTENSION pg_stat_statements", logger: logger).collect()
        let (dataKey, sessionKey) = try APIBench.writeKeys(in: cluster.directory)
        let port = try EmbeddedPostgres.freePort()
        let api = try await APIBench.startAPI(binary, port: port, url: url, apple: apple, dataKey: dataKey, sessionKey: sessionKey)
        defer { api.signal(SIGTERM) }
        let load = Load(http: http, base: "http://127.0.0.1:\(port)")
        try await APIBench.waitUntilUp(api, load, name: "alfred api")
        let postgresPID = try APIBench.postmasterPID(cluster.directory)

        let world = ScaleWorld(client: client, logger: logger, auditPerUser: Int((auditDays * ScaleWorld.auditPerUserDay).rounded()),
                               realUsers: apiUsers)
        var queue = Measurements(store: PostgresJobStore(client: client, logger: logger), client: client, url: url, worker: binary, logger: logger)
        queue.shared = true

        // The real users first: they sign in through the API and count among the users of both sizes.
        _ = try await APIBench.signIn(users: apiUsers, apple: apple, load: load)
        var figures: [[String: Any]] = []
        for size in [baselineUsers, users] {
            _ = try await client.query("SELECT pg_stat_statements_reset()", logger: logger).collect()
            let built = ContinuousClock.now
            let added = try await world.grow(to: size, chunk: chunk)
            say(String(format: "built %d users (%d added) in %.0f s; VACUUM ANALYZE, CHECKPOINT…", size, added, built.duration(to: .now).seconds))
            if profileBuild {
                for try await (ms, rows, query) in try await client.query(ScaleSQL.topStatements, logger: logger).decode((Double, Int, String).self) {
                    say(String(format: "  %8.0f ms %10d rows  %@", ms, rows, String(query.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ").prefix(110))))
                }
            }
            // Vacuumed, analyzed and checkpointed, as a database that has run a while would be (and so
            // the build's checkpoint does not land in the measurements).
            _ = try await client.query("VACUUM ANALYZE", logger: logger).collect()
            _ = try await client.query("CHECKPOINT", logger: logger).collect()
            say("at \(size) users, the tables:")
            let sizes = try await world.sizes()
            for table in sizes {
                say(String(format: "  %-16@ %12.0f rows  heap %8.1f MB  indexes %8.1f MB  dead %d", table.name as NSString,
                             table.rows, table.heapMB, table.indexMB, table.dead))
            }
            var entry: [String: Any] = ["users": size, "tables": Dictionary(uniqueKeysWithValues: sizes.map { ($0.name, $0.json) })]

            _ = try await client.query("SELECT pg_stat_statements_reset()", logger: logger).collect()
            var wal = try await world.wal()
            let (drain, _) = try await queue.drain(jobs: drainJobs, processes: 1, concurrency: nil)
            let claim = try await world.claimStatement()
            let drainWAL = try await world.wal().minus(wal)
            say(String(format: "  drain: %.0f noop jobs/s (1 worker, defaults); the claim statement: %d calls, mean %.3f ms; WAL %.0f MB, %d full-page images",
                         drain, claim.calls, claim.meanMs, drainWAL.megabytes, drainWAL.fullPageImages))
            // The same with random job ids, as before they were time-ordered: the difference is what
            // time-ordered ids are for (their primary-key entries land on few pages).
            _ = try await client.query("SELECT pg_stat_statements_reset()", logger: logger).collect()
            wal = try await world.wal()
            let (randomDrain, _) = try await queue.drain(jobs: drainJobs, processes: 1, concurrency: nil, randomIDs: true)
            let randomClaim = try await world.claimStatement()
            let randomWAL = try await world.wal().minus(wal)
            say(String(format: "  drain with random job ids: %.0f noop jobs/s; the claim statement: mean %.3f ms; WAL %.0f MB, %d full-page images",
                         randomDrain, randomClaim.meanMs, randomWAL.megabytes, randomWAL.fullPageImages))
            let (lateness, offered, _) = try await queue.lateness(rate: rate, seconds: seconds, lead: .milliseconds(50), concurrency: nil)
            say(String(format: "  start lateness at %.0f jobs/s offered (enqueued 50 ms ahead): p50 %.1f ms, p99 %.1f ms, max %.1f ms",
                         offered, lateness.p50, lateness.p99, lateness.max))

            let (_, tokens) = try await APIBench.signIn(users: apiUsers, apple: apple, load: load)
            let apiCPU = APIBench.cpuSeconds(api.pid), pgCPU = APIBench.cpuSecondsOfTree(postgresPID)
            let read = try await Phase(rate: apiRate, seconds: seconds).run(load) { [tokens] i in
                .init(method: .GET, path: "/v1/preferences", token: tokens[i % tokens.count])
            }
            guard read.rejected + read.errors == 0 else {
                throw ValidationError("GET /v1/preferences: \(read.rejected) answers not 2xx, \(read.errors) failed: \(api.output.suffix(2000))")
            }
            let answered = Double(max(1, read.latencies.count))
            let apiMicros = (APIBench.cpuSeconds(api.pid) - apiCPU) / answered * 1e6
            let pgMicros = (APIBench.cpuSecondsOfTree(postgresPID) - pgCPU) / answered * 1e6
            say(String(format: "  GET /v1/preferences at %d/s: %.0f answered/s, p50 %.2f ms, p99 %.2f ms; CPU per request: api %.0f µs, postgres %.0f µs",
                         apiRate, read.answeredPerSecond, read.percentile(0.5), read.percentile(0.99), apiMicros, pgMicros))

            entry["drain_jobs_per_s"] = Int(drain)
            entry["drain_wal_mb"] = drainWAL.megabytes.rounded()
            entry["drain_full_page_images"] = drainWAL.fullPageImages
            entry["drain_random_ids_jobs_per_s"] = Int(randomDrain)
            entry["drain_random_ids_wal_mb"] = randomWAL.megabytes.rounded()
            entry["drain_random_ids_full_page_images"] = randomWAL.fullPageImages
            entry["claim_random_ids_mean_ms"] = (randomClaim.meanMs * 1000).rounded() / 1000
            entry["claim_calls"] = claim.calls
            entry["claim_mean_ms"] = (claim.meanMs * 1000).rounded() / 1000
            entry["lateness_p50_ms"] = (lateness.p50 * 10).rounded() / 10
            entry["lateness_p99_ms"] = (lateness.p99 * 10).rounded() / 10
            entry["lateness_max_ms"] = (lateness.max * 10).rounded() / 10
            entry["read_p50_ms"] = (read.percentile(0.5) * 100).rounded() / 100
            entry["read_p99_ms"] = (read.percentile(0.99) * 100).rounded() / 100
            entry["read_answered_per_s"] = read.answeredPerSecond.rounded()
            entry["read_cpu_us_per_request"] = (apiMicros + pgMicros).rounded()
            figures.append(entry)
        }

        // Against the baseline: higher is worse for times and CPU, lower is worse for rates.
        let (small, large) = (figures[0], figures[1])
        var ratios: [String: Double] = [:]
        say("at \(users) users against \(baselineUsers) (the aim: within 1.25x):")
        for key in ["drain_jobs_per_s", "drain_random_ids_jobs_per_s", "claim_mean_ms", "claim_random_ids_mean_ms", "lateness_p50_ms", "lateness_p99_ms", "read_p50_ms", "read_p99_ms", "read_cpu_us_per_request"] {
            guard let a = (small[key] as? NSNumber)?.doubleValue, let b = (large[key] as? NSNumber)?.doubleValue, a > 0, b > 0 else { continue }
            let worse = key.hasSuffix("_per_s") ? a / b : b / a
            ratios[key] = (worse * 100).rounded() / 100
            say(String(format: "  %-24@ %10.3f → %10.3f: %.2fx%@", key as NSString, a, b, worse, worse > 1.25 ? "  (over 1.25x)" : ""))
        }
        let auditBytes = try await world.auditBytesPerEvent()
        let perDayGB = auditBytes * ScaleWorld.auditPerUserDay * Double(users) / 1e9
        let untallied = auditBytes * ScaleWorld.untalliedPerUserDay * Double(users) / 1e9
        say(String(format: "audit: %.0f bytes an event with its indexes; at %.0f events a user-day, %d users write %.1f GB a day (%.2f TB over the default 400-day retention); one event per fetch and refresh (%.0f a user-day) was %.1f GB a day",
                   auditBytes, ScaleWorld.auditPerUserDay, users, perDayGB, perDayGB * 400 / 1000, ScaleWorld.untalliedPerUserDay, untallied))
        let summary: [String: Any] = [
            "baseline": small, "scale": large, "worse_by": ratios,
            "audit_bytes_per_event": auditBytes.rounded(), "audit_gb_per_day_at_scale": (perDayGB * 10).rounded() / 10,
        ]
        say(String(decoding: try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys]), as: UTF8.self))
    }
}

/// What a million users leave in the tables, built in SQL at the rates the service produces it.
/// Per user, at the shipped defaults (`AssistantEnvironment.Intervals`, `alfred worker`'s retention):
/// - a user row, preferences, one session, one iPhone, one Google connector with its two sync cursors
///   and a Gmail watch, an audit head and the day's eight audit tallies;
/// - the four recurring jobs (calendar sync every 10 minutes, mail check hourly under a live watch,
///   the daily watch renewal and morning brief), each due somewhere in its period, and four meeting
///   reminders planned within the 36-hour horizon (three meetings a day);
/// - 72 hours of finished jobs (retention): nine reminders and twelve pushes (three reminders and a
///   brief a day);
/// - about three days of ledger (two days past each deadline): twelve notifications, each with its push;
/// - `auditPerUser` audit events (about 12 a user-day: the folded tallies of six kinds of Google fetch
///   and two of the broker's, and one DELIVERY event per notification).
///
/// The recurring and reminder jobs are due from an hour after the build, so the bench's workers (which
/// serve only the bench queue) never run them: they are there for their size (heap, indexes, cache).
struct ScaleWorld {
    let client: PostgresClient
    let logger: Logger
    let auditPerUser: Int
    /// Users signed in through the API, who are not filler.
    let realUsers: Int

    /// Since routine successes are tallied (migration 0026): a folded tally a day for each of six
    /// kinds of fetch (calendar sync, event, events; Gmail history, metadata, watch) and two of the
    /// broker's (the decision to open the refresh token, the refresh), and a DELIVERY event for each of
    /// four notifications (three reminders and a brief).
    static let auditPerUserDay = 12.0
    /// Before: an event per fetch (calendar syncs 144, mail checks 24, pushed checks and event reads
    /// about 12) and two per hourly token refresh (48).
    static let untalliedPerUserDay = 228.0

    /// Users the world has now (the real ones signed in through the API count).
    func userCount() async throws -> Int {
        for try await n in try await client.query("SELECT count(*)::int8 FROM users", logger: logger).decode(Int.self) { return n }
        return 0
    }

    /// Adds filler users until there are `target`; returns how many it added.
    func grow(to target: Int, chunk: Int) async throws -> Int {
        let existing = try await userCount()
        guard target > existing else { return 0 }
        // Filler users are numbered after the ones there; their ids derive from the number, and every
        // row of theirs from the user id.
        let first = existing - realUsers + 1
        let last = first + (target - existing) - 1
        let clock = ContinuousClock.now
        let chunks = Array(stride(from: first, through: last, by: chunk))
        let progress = Progress()
        // Two chunks at a time (one per core); each its own transaction.
        try await withThrowingTaskGroup(of: Void.self) { group in
            var pending = chunks.makeIterator()
            func next() -> Bool {
                guard let start = pending.next() else { return false }
                let end = min(last, start + chunk - 1)
                group.addTask {
                    try await client.withTransaction(logger: logger) { connection in
                        // Foreign keys hold by construction: their per-row triggers would triple the build.
                        _ = try await connection.query("SET LOCAL session_replication_role = replica", logger: logger).collect()
                        for statement in ScaleSQL.build(from: start, through: end, auditPerUser: auditPerUser) {
                            _ = try await connection.query(statement, logger: logger).collect()
                        }
                    }
                    let done = progress.add(end - start + 1)
                    if done % (chunk * 10) < end - start + 1 || done == last - first + 1 {
                        say(String(format: "  %d of %d users built (%.0f users/s)", done, last - first + 1, Double(done) / clock.duration(to: .now).seconds))
                    }
                }
                return true
            }
            for _ in 0..<2 where next() {}
            while try await group.next() != nil { _ = next() }
        }
        return target - existing
    }

    struct Table {
        let name: String, rows: Double, heapMB: Double, indexMB: Double, dead: Int
        var json: [String: Any] { ["rows": Int(rows), "heap_mb": (heapMB * 10).rounded() / 10, "index_mb": (indexMB * 10).rounded() / 10, "dead_tuples": dead] }
    }

    func sizes() async throws -> [Table] {
        var tables: [Table] = []
        let rows = try await client.query(ScaleSQL.sizes, logger: logger)
        for try await (name, rows, heap, index, dead) in rows.decode((String, Double, Double, Double, Int).self) {
            tables.append(Table(name: name, rows: rows, heapMB: heap / 1_048_576, indexMB: index / 1_048_576, dead: dead))
        }
        return tables
    }

    /// The claim statement's calls and mean execution time since the last `pg_stat_statements_reset()`.
    func claimStatement() async throws -> (calls: Int, meanMs: Double) {
        let rows = try await client.query(ScaleSQL.claimStatement, logger: logger)
        for try await (calls, mean) in rows.decode((Int, Double).self) { return (calls, mean) }
        return (0, 0)
    }

    struct WAL {
        var bytes: Double, fullPageImages: Int
        var megabytes: Double { bytes / 1_048_576 }
        func minus(_ other: WAL) -> WAL { WAL(bytes: bytes - other.bytes, fullPageImages: fullPageImages - other.fullPageImages) }
    }

    /// The server's WAL written so far (`pg_stat_wal`).
    func wal() async throws -> WAL {
        for try await (bytes, images) in try await client.query("SELECT wal_bytes::float8, wal_fpi::int8 FROM pg_stat_wal", logger: logger)
            .decode((Double, Int).self) { return WAL(bytes: bytes, fullPageImages: images) }
        return WAL(bytes: 0, fullPageImages: 0)
    }

    /// The audit table's bytes (heap and indexes) per row.
    func auditBytesPerEvent() async throws -> Double {
        let rows = try await client.query(ScaleSQL.auditBytesPerEvent, logger: logger)
        for try await bytes in rows.decode(Double.self) { return bytes }
        return 0
    }
}

/// Prints a line and flushes it: a run takes most of an hour, and its progress shows in a log as it goes.
func say(_ line: String) {
    print(line)
    fflush(nil)
}

/// A count the build's tasks share.
final class Progress: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0
    func add(_ n: Int) -> Int { lock.withLock { done += n; return done } }
}

/// The scale bench's SQL, in one place.
enum ScaleSQL {
    /// The statements that build filler users `from...through` (their numbers), in one transaction.
    /// A filler user's id is `md5('scale-user:' || n)`.
    static func build(from: Int, through: Int, auditPerUser: Int) -> [PostgresQuery] {
        let users = "(SELECT md5('scale-user:' || n)::uuid AS id FROM generate_series(\(from)::int8, \(through)::int8) n) u"
        // Bytes of a given length, as sealed values take: constants, since a value this short is
        // stored as it is whatever its contents (no compression under 2 kB) and no index holds it.
        func bytes(_ n: Int) -> String { "decode(repeat('a5', \(n)), 'hex')" }
        // Keyed hashes (64 hex digits) that indexes hold: distinct per row, from what makes the row.
        func hex(_ seed: String) -> String { "md5(\(seed) || 'a') || md5(\(seed) || 'b')" }
        return [
            PostgresQuery(unsafeSQL: """
                INSERT INTO users (id, created_at, status, apple_subject_hash)
                SELECT u.id, now() - interval '300 days' * random(), 'ACTIVE', \(hex("u.id::text")) FROM \(users)
                """),
            PostgresQuery(unsafeSQL: "INSERT INTO preferences (user_id) SELECT u.id FROM \(users)"),
            PostgresQuery(unsafeSQL: """
                INSERT INTO sessions (id, user_id, refresh_hash, expires_at, refreshed_at)
                SELECT md5('s' || u.id)::uuid, u.id, sha256(convert_to(u.id::text, 'UTF8')), now() + interval '30 days', now() - interval '1 day' * random()
                FROM \(users)
                """),
            PostgresQuery(unsafeSQL: """
                INSERT INTO devices (id, user_id, apns_token_ciphertext, environment, token_key, device_ref, session_id)
                SELECT md5('d' || u.id)::uuid, u.id, \(bytes(92)), 'production', \(hex("u.id::text || 'device'")), 'iphone', md5('s' || u.id)::uuid FROM \(users)
                """),
            PostgresQuery(unsafeSQL: """
                INSERT INTO connectors (id, user_id, provider, scopes, refresh_token_ciphertext, token_key_id, status)
                SELECT md5('c' || u.id)::uuid, u.id, 'google',
                       ARRAY['https://www.googleapis.com/auth/calendar.readonly', 'https://www.googleapis.com/auth/gmail.metadata'],
                       \(bytes(150)), 'kms-key-1', 'ACTIVE'
                FROM \(users)
                """),
            PostgresQuery(unsafeSQL: """
                INSERT INTO sync_cursors (connector_id, user_id, kind, state_ciphertext)
                SELECT md5('c' || u.id)::uuid, u.id, k, \(bytes(90)) FROM \(users) CROSS JOIN unnest(ARRAY['calendar', 'gmail']) k
                """),
            PostgresQuery(unsafeSQL: """
                INSERT INTO gmail_watches (connector_id, user_id, address_hash, expires_at)
                SELECT md5('c' || u.id)::uuid, u.id, \(hex("u.id::text || 'address'")), now() + interval '7 days' * random() FROM \(users)
                """),
            // The recurring jobs, each due somewhere in its period from an hour on.
            PostgresQuery(unsafeSQL: """
                INSERT INTO jobs (id, user_id, kind, priority, payload, due_at, max_attempts, unique_key)
                SELECT gen_random_uuid(), u.id, k.kind, k.priority, '', now() + interval '1 hour' + k.period * random(), k.attempts,
                       k.kind || ':' || u.id::text
                FROM \(users) CROSS JOIN (VALUES ('calendar.sync', 0::int2, interval '10 minutes', 10), ('mail.check', 0::int2, interval '1 hour', 10),
                                                 ('gmail.watch', 0::int2, interval '1 day', 10), ('morning.brief', 5::int2, interval '1 day', 6))
                     AS k(kind, priority, period, attempts)
                """),
            // Four reminders planned ahead (three meetings a day, a 36-hour horizon).
            PostgresQuery(unsafeSQL: """
                INSERT INTO jobs (id, user_id, kind, priority, payload, due_at, max_attempts, unique_key)
                SELECT gen_random_uuid(), u.id, 'meeting.reminder', 10, \(bytes(120)), now() + interval '1 hour' + interval '35 hours' * random(), 8,
                       'reminder:' || \(hex("u.id::text || 'planned' || i"))
                FROM \(users) CROSS JOIN generate_series(1, 4) i
                """),
            // 72 hours of finished one-shot jobs: nine reminders and twelve pushes a user.
            PostgresQuery(unsafeSQL: """
                INSERT INTO jobs (id, user_id, kind, queue, priority, state, payload, due_at, last_run_at, finished_at, attempts, max_attempts, unique_key, created_at, updated_at)
                SELECT gen_random_uuid(), u.id, k.kind, k.queue, 10, 'completed', \(bytes(120)), t, t + interval '5 ms', t + interval '40 ms', 1, k.attempts,
                       k.prefix || \(hex("u.id::text || k.prefix || i")), t - interval '1 hour', t + interval '40 ms'
                FROM \(users)
                CROSS JOIN (VALUES ('meeting.reminder', 'default', 8, 'reminder:', 9), ('push.deliver', 'delivery', 20, 'push:', 12)) AS k(kind, queue, attempts, prefix, n)
                CROSS JOIN LATERAL generate_series(1, k.n) i
                CROSS JOIN LATERAL (SELECT now() - interval '1 minute' - interval '70 hours' * random() AS t) w
                """),
            // About three days of ledger: twelve notifications a user, each with the push that delivered it.
            PostgresQuery(unsafeSQL: """
                WITH n AS (
                    INSERT INTO notifications (idempotency_key, user_id, kind, job_id, deadline_at, created_at, state, scheduled_at, first_accepted_at, finished_at)
                    SELECT k.kind || ':' || \(hex("u.id::text || k.kind || i")), u.id, k.kind, gen_random_uuid(), t + interval '15 minutes', t - interval '30 seconds', 'delivered', t,
                           t + interval '20 ms', t + interval '20 ms'
                    FROM \(users)
                    CROSS JOIN (VALUES ('meeting.reminder', 9), ('morning.brief', 3)) AS k(kind, n)
                    CROSS JOIN LATERAL generate_series(1, k.n) i
                    CROSS JOIN LATERAL (SELECT now() - interval '1 minute' - interval '70 hours' * random() AS t) w
                    RETURNING idempotency_key, user_id, scheduled_at
                )
                INSERT INTO push_sends (idempotency_key, device_id, user_id, state, apns_id, started_at, finished_at)
                SELECT n.idempotency_key, md5('d' || n.user_id)::uuid, n.user_id, 'accepted', gen_random_uuid(), n.scheduled_at, n.scheduled_at + interval '20 ms'
                FROM n
                """),
            // The audit chain: `auditPerUser` events, two hours apart, the newest an hour old (a folded
            // fetch tally's metadata, the longest kind), and the head.
            PostgresQuery(unsafeSQL: """
                INSERT INTO audit_events (id, user_id, event_type, connector, result, redacted_metadata, created_at, seq, prev_hash, hash)
                SELECT gen_random_uuid(), u.id, 'CONNECTOR_FETCH', 'google', 'SUCCESS',
                       jsonb_build_object('source', 'calendar', 'operation', 'sync', 'count', '144', 'items', '3',
                                          'first', '2026-11-27T00:04:10Z', 'last', '2026-11-27T23:54:12Z'),
                       now() - interval '1 hour' - interval '2 hours' * (\(auditPerUser) - s), s,
                       sha256(convert_to(u.id::text || (s - 1), 'UTF8')), sha256(convert_to(u.id::text || s, 'UTF8'))
                FROM \(users) CROSS JOIN generate_series(1, \(auditPerUser)) s
                """),
            PostgresQuery(unsafeSQL: """
                INSERT INTO audit_heads (user_id, seq, hash, pruned_through_seq, pruned_through_hash)
                SELECT u.id, \(auditPerUser), sha256(convert_to(u.id::text || \(auditPerUser), 'UTF8')), 0, '' FROM \(users)
                """),
            // Today's tallies, not folded yet: six kinds of fetch and the broker's two.
            PostgresQuery(unsafeSQL: """
                INSERT INTO audit_tallies (user_id, event_type, connector, result, metadata, count, items, first_at, last_at)
                SELECT u.id, k.type, 'google', 'SUCCESS', k.metadata::jsonb, 40, k.items, now() - interval '10 hours', now() - interval '1 minute'
                FROM \(users) CROSS JOIN (VALUES
                    ('CONNECTOR_FETCH', '{"source": "calendar", "operation": "sync"}', 2),
                    ('CONNECTOR_FETCH', '{"source": "calendar", "operation": "event"}', 2),
                    ('CONNECTOR_FETCH', '{"source": "calendar", "operation": "events"}', 3),
                    ('CONNECTOR_FETCH', '{"source": "gmail", "operation": "history"}', 5),
                    ('CONNECTOR_FETCH', '{"source": "gmail", "operation": "metadata"}', 5),
                    ('CONNECTOR_FETCH', '{"source": "gmail", "operation": "watch"}', 1),
                    ('BROKER_DECISION', '{"operation": "refresh"}', NULL),
                    ('TOKEN_REFRESH', '{}', NULL)) AS k(type, metadata, items)
                """),
        ]
    }

    static let sizes: PostgresQuery = """
        SELECT c.relname::text, greatest(c.reltuples, 0)::float8, pg_relation_size(c.oid)::float8, pg_indexes_size(c.oid)::float8,
               coalesce(s.n_dead_tup, 0)::int8
        FROM pg_class c JOIN pg_namespace ns ON ns.oid = c.relnamespace
        LEFT JOIN pg_stat_user_tables s ON s.relid = c.oid
        WHERE ns.nspname = 'public' AND c.relkind = 'r' AND c.relname IN
            ('users', 'preferences', 'sessions', 'devices', 'connectors', 'sync_cursors', 'gmail_watches', 'jobs',
             'notifications', 'push_sends', 'audit_events', 'audit_heads', 'audit_tallies')
        ORDER BY pg_total_relation_size(c.oid) DESC
        """

    static let topStatements: PostgresQuery = """
        SELECT total_exec_time::float8, rows::int8, query FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT 14
        """

    static let claimStatement: PostgresQuery = """
        SELECT coalesce(sum(calls), 0)::int8, coalesce(sum(total_exec_time) / nullif(sum(calls), 0), 0)::float8
        FROM pg_stat_statements WHERE query LIKE '%WITH claimant%'
        """

    static let auditBytesPerEvent: PostgresQuery = """
        SELECT pg_total_relation_size('audit_events')::float8 / greatest(1, (SELECT count(*) FROM audit_events))::float8
        """
}
