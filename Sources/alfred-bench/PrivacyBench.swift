import AlfredCore
import AlfredTestCluster
import ArgumentParser
import Foundation
import Logging
import PostgresNIO
import Privacy
import Store
import BrokerClient
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// `swift build -c release && swift run -c release alfred-bench privacy`
///
/// Delete-all completion time (request to final audit record, what `alfred_delete_all_duration_seconds`
/// observes), on the production path: a real `alfred worker` process revokes each user's Google
/// grant through `alfred-broker` (key service, attestor, the Google stand-in) and deletes the
/// user's rows in one transaction. Users are seeded with connectors made by the real consent flow
/// and `--rows` rows of each kind. First one user at a time, then the rest all at once.
struct PrivacyBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "privacy", abstract: "delete-all completion time per user.")

    @Option(help: "Users to delete (the stand-in keeps at most 100 refresh tokens per Google account).") var users = 90
    @Option(help: "Of those, deleted one at a time first.") var sequential = 10
    @Option(help: "Rows of each kind per user (jobs, notifications, audit events, mail alerts).") var rows = 50
    @Option(help: "Path of the alfred executable (default: beside this one).") var alfred: String?

    func validate() throws {
        guard (1...100).contains(users), (0...users).contains(sequential) else {
            throw ValidationError("--users must be 1–100 and --sequential at most --users")
        }
    }

    func run() async throws {
        let logger = { var l = Logger(label: "bench"); l.logLevel = .error; return l }()
        let binary = try alfredExecutable(alfred)
        print("starting a private PostgreSQL, the key service, the Google stand-in, the broker and a worker as processes…")
        let stack = try await BrokerStack.start(binary: binary, logger: logger)
        defer { stack.stop() }
        let broker = try await stack.startBroker()
        defer { broker.signal(SIGTERM) }
        let client = BrokerClient(configuration: .init(socketPath: stack.brokerSocket))
        var workerURL = stack.owner
        workerURL.username = "alfred_worker"
        let worker = try ChildProcess(binary, ["worker", "--queue", "default", "--broker-socket", stack.brokerSocket, "--no-metrics",
                                               "--log-level", "error"],
                                      environment: ["ALFRED_DATABASE_URL": workerURL.secretString.unsafeValue])
        defer { worker.signal(SIGTERM) }

        print("seeding \(users) users, each with a Google connector and \(rows) rows of each kind…")
        var ids: [UUID] = []
        for _ in 0..<users {
            let user = try await stack.newUser()
            let (code, verifier) = try await BrokerStack.consent(stack.googleBase)
            _ = try await client.exchangeCode(CodeExchange(userID: user.uuidString, code: Redacted(code), codeVerifier: Redacted(verifier),
                                                           redirectURI: "http://127.0.0.1:9/oauth/google/callback"))
            try await Self.seed(stack.owner, user: user, rows: rows, logger: logger)
            ids.append(user)
        }
        await client.close()

        let (one, _) = try await Self.delete(Array(ids.prefix(sequential)), one: true, database: stack.owner, logger: logger)
        let (burst, wall) = try await Self.delete(Array(ids.dropFirst(sequential)), one: false, database: stack.owner, logger: logger)
        func report(_ name: String, _ durations: [Double]) -> [String: Double] {
            guard !durations.isEmpty else { return [:] }
            let sorted = durations.sorted()
            func at(_ p: Double) -> Double { sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))] }
            print(String(format: "%@: %d users, completion p50 %.3f s, p99 %.3f s, max %.3f s", name, sorted.count, at(0.5), at(0.99), sorted.last!))
            return ["p50_s": (at(0.5) * 1000).rounded() / 1000, "p99_s": (at(0.99) * 1000).rounded() / 1000, "max_s": (sorted.last! * 1000).rounded() / 1000]
        }
        let summary: [String: Any] = [
            "one_at_a_time": report("one at a time", one),
            "all_at_once": report("all at once", burst),
            "all_at_once_users_per_s": burst.isEmpty ? 0 : (Double(burst.count) / wall * 10).rounded() / 10,
            "rows_per_kind": rows,
        ]
        if !burst.isEmpty { print(String(format: "all at once: %.1f users/s", Double(burst.count) / wall)) }
        print(String(decoding: try JSONSerialization.data(withJSONObject: summary, options: [.sortedKeys]), as: UTF8.self))
    }

    /// Requests delete-all for each user (one at a time, or all at once) and returns each request's
    /// completion time as the database recorded it, and the wall time.
    static func delete(_ users: [UUID], one: Bool, database: DatabaseURL, logger: Logger) async throws -> ([Double], Double) {
        guard !users.isEmpty else { return ([], 0) }
        return try await TestDatabase.withClient(database) { client in
            let privacy = PostgresPrivacyStore(client: client, logger: logger)
            let jobs = PostgresJobStore(client: client, logger: logger)
            let start = ContinuousClock.now
            var requests: [UUID] = []
            func open(_ user: UUID) async throws -> UUID {
                try await PrivacyKind.requestDeleteAll(userID: user, privacy: privacy, jobs: jobs).request
            }
            func wait(_ pending: [UUID]) async throws -> [Double] {
                var durations: [Double] = []
                for request in pending {
                    let deadline = ContinuousClock.now + .seconds(300)
                    while true {
                        if let done = try await privacy.request(request), let duration = done.duration {
                            guard done.revocationsPending == 0, done.connectorsRevoked == 1 else {
                                throw ValidationError("request \(request) completed without revoking at Google")
                            }
                            durations.append(duration.seconds)
                            break
                        }
                        guard ContinuousClock.now < deadline else { throw ValidationError("delete-all did not complete within 300 s") }
                        try await Task.sleep(for: .milliseconds(5))
                    }
                }
                return durations
            }
            var durations: [Double] = []
            if one {
                for user in users { durations += try await wait([try await open(user)]) }
            } else {
                for user in users { requests.append(try await open(user)) }
                durations = try await wait(requests)
            }
            return (durations, start.duration(to: .now).seconds)
        }
    }

    static func seed(_ database: DatabaseURL, user: UUID, rows: Int, logger: Logger) async throws {
        try await TestDatabase.withClient(database) { client in
            let statements: [PostgresQuery] = [
                "INSERT INTO preferences (user_id) VALUES (\(user))",
                """
                INSERT INTO devices (id, user_id, apns_token_ciphertext, environment, token_key)
                SELECT gen_random_uuid(), \(user), '\\x0102', 'sandbox', md5(random()::text) FROM generate_series(1, 2)
                """,
                """
                INSERT INTO jobs (id, user_id, kind, due_at, max_attempts)
                SELECT gen_random_uuid(), \(user), 'mail.check', now() + interval '1 day', 5 FROM generate_series(1, \(rows))
                """,
                """
                INSERT INTO notifications (idempotency_key, user_id, kind, state)
                SELECT md5(random()::text), \(user), 'meeting.reminder', 'delivered' FROM generate_series(1, \(rows))
                """,
                """
                INSERT INTO mail_alerts (user_id, message_key, message_ciphertext, disposition, score)
                SELECT \(user), md5(random()::text), '\\x04', 'alerted', 80 FROM generate_series(1, \(rows))
                """,
                """
                SELECT count(alfred_audit_append(\(user), 'CONNECTOR_FETCH', 'google', 'SUCCESS', '{"source": "calendar"}'))
                FROM generate_series(1, \(rows))
                """,
            ]
            for statement in statements { _ = try await client.query(statement, logger: logger).collect() }
        }
    }
}
