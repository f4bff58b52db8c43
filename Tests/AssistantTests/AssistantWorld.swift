import AlfredCore
import AlfredTesting
import AsyncHTTPClient
import Foundation
import GoogleAPI
import JobQueue
import Logging
import PostgresNIO
import Privacy
import ServiceLifecycle
import StandIns
import Store
import Synchronization
import Testing
@testable import Assistant
@testable import Delivery
@testable import Sealing

/// A running assistant: a fresh database, the Google stand-in on a real socket, the production
/// Calendar and Gmail clients, and a real in-process worker running the assistant's jobs as the
/// `alfred_worker` role. Every log line of our side is captured, so tests can prove what never
/// reaches a log.
struct AssistantWorld {
    static let email = "ada.lovelace@example.com"
    static let subject = "100000000000000000042"

    var intervals: AssistantEnvironment.Intervals = {
        var intervals = AssistantEnvironment.Intervals()
        intervals.calendarSync = .milliseconds(500)
        intervals.mailCheck = .milliseconds(500)
        return intervals
    }()
    /// A fixed-offset zone where it is about midday now, so "today" has room for the scenario's
    /// meetings whenever the tests run (Etc/GMT-N is UTC+N).
    static let middayZone: String = {
        let hour = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).hour ?? 12
        let offset = 12 - hour
        return offset == 0 ? "Etc/GMT" : "Etc/GMT\(offset > 0 ? "-" : "+")\(abs(offset))"
    }()

    /// `preferences` columns for the user (SQL literals), e.g. quiet hours.
    var preferences = "time_zone = '\(AssistantWorld.middayZone)', meeting_reminder_minutes = 15, quiet_hours_start = NULL, quiet_hours_end = NULL"
    var urgency: UrgencyPreferencesSeed?
    /// The world's wall clock: the assistant's `now` and the Google stand-in's (tests may pin it).
    var now: @Sendable () -> Date = { Date() }
    /// The Pub/Sub topic mailboxes are watched on (nil: no watches, polling only).
    var gmailTopic: String?
    /// Runs on the fresh database before any of the world's clients connects (e.g. to pin its clock).
    var prepareDatabase: (@Sendable (DatabaseURL) async throws -> Void)?

    struct UrgencyPreferencesSeed: Sendable { var vipSenders: [String] = []; var keywords: [String] = [] }

    struct Running: Sendable {
        let google: GoogleStandIn
        let client: PostgresClient
        let owner: PostgresClient
        let environment: AssistantEnvironment
        let userID: UUID
        let connectorID: UUID
        let logs: LogCapture
        /// What the assistant's injected counters (the per-rule urgency ones) counted.
        let metrics: CountingMetrics

        var sealer: HostSealer { environment.sealer }

        /// Pushes handed to delivery so far, opened.
        func pushes() async throws -> [(content: PushContent, deadline: Date?, key: String)] {
            var pushes: [(PushContent, Date?, String)] = []
            let rows = try await owner.query("""
                SELECT j.payload, n.deadline_at, j.unique_key, j.user_id FROM jobs j
                JOIN notifications n ON n.job_id = j.id WHERE j.kind = 'push.deliver' ORDER BY j.created_at
                """, logger: TestDatabase.quietLogger)
            for try await (payload, deadline, key, user) in rows.decode((ByteBuffer, Date?, String, UUID).self) {
                let content = try JSONDecoder().decode(SealedPayload.self, from: Data(buffer: payload))
                    .open(PushContent.self, sealer: sealer, userID: user, purpose: .notification)
                pushes.append((content, deadline, key))
            }
            return pushes.map { (content: $0.0, deadline: $0.1, key: $0.2) }
        }

        func jobs(kind: String) async throws -> [(state: String, dueAt: Date, uniqueKey: String?)] {
            try await owner.query("SELECT state, due_at, unique_key FROM jobs WHERE kind = \(kind) ORDER BY due_at",
                                  logger: TestDatabase.quietLogger)
                .collect().map { try $0.decode((String, Date, String?).self) }.map { (state: $0.0, dueAt: $0.1, uniqueKey: $0.2) }
        }

        func reminderKey(_ eventID: String) -> String { ReminderKeys.job(sealer, user: userID, eventID: eventID) }

        func plan() async throws -> Int { try await PlannerHandler(environment: environment).sweep() }

        /// Brings a queued job forward to now (what a Gmail push hint or an operator retry does).
        func runNow(kind: String) async throws {
            _ = try await owner.query("UPDATE jobs SET due_at = now() WHERE kind = \(kind) AND state = 'queued'",
                                      logger: TestDatabase.quietLogger).collect()
            _ = try await owner.query("SELECT pg_notify('alfred_jobs', 'default 0')", logger: TestDatabase.quietLogger).collect()
        }
    }

    func run<T: Sendable>(scenario: String, _ body: @Sendable (Running) async throws -> T) async throws -> T {
        let logs = LogCapture()
        let logger = logs.logger("alfred.test")
        let url = try await TestDatabase.fresh()
        try await prepareDatabase?(url)
        let now = self.now
        let configuration = try JSONDecoder().decode(GoogleStandIn.Configuration.self, from: Data(scenario.utf8))
        let google = GoogleStandIn(configuration: configuration, clock: StandInClock(now: now), logger: TestDatabase.quietLogger)
        let http = TestHTTP.client()
        var workerURL = url
        workerURL.username = "alfred_worker"
        let owner = PostgresClient(configuration: url.clientConfiguration(maxConnections: 2), backgroundLogger: logger)
        let client = PostgresClient(configuration: workerURL.clientConfiguration(maxConnections: 6), backgroundLogger: logger)
        let jobs = PostgresJobStore(client: client, logger: logger)
        let sealer = try HostSealer(keyBytes: HostSealer.generateKeyBytes())
        let userID = UUID(), connectorID = UUID()
        let metrics = CountingMetrics()
        let preferences = self.preferences, urgency = self.urgency, intervals = self.intervals, gmailTopic = self.gmailTopic

        do {
            let result = try await withThrowingTaskGroup(of: Void.self) { tasks in
                tasks.addTask { await owner.run() }
                tasks.addTask { await client.run() }
                let googleGroup = ServiceGroup(services: [google], logger: TestDatabase.quietLogger)
                let googleRunning = Task { try await googleGroup.run() }
                defer { googleRunning.cancel() }
                let root = try await google.baseURL()
                let readers = GoogleAPIReaders(configuration: GoogleAPIConfiguration(root: root), http: http,
                                               tokens: MintingTokenSource(google: google, user: Self.email), logger: logger)
                let environment = AssistantEnvironment(
                    store: PostgresAssistantStore(client: client, jobs: jobs, logger: logger), jobs: jobs, readers: readers,
                    sealer: sealer, intervals: intervals, gmailTopic: gmailTopic,
                    audit: PostgresAuditStore(client: client, logger: logger), logger: logger,
                    now: now, metrics: metrics)
                try await Self.seedUser(owner, userID: userID, connectorID: connectorID, preferences: preferences,
                                        urgency: urgency, sealer: sealer)
                var registry = JobRegistry()
                environment.register(in: &registry)
                // Without a broker here, delete-all parks what it cannot revoke (tests revoke connectors first).
                registry.register(DeleteAllHandler(store: PostgresPrivacyStore(client: client, logger: logger), revoker: nil, jobs: jobs))
                let listener = PostgresWakeupListener(database: workerURL, logger: logger)
                var workerConfiguration = Worker<ContinuousClock>.Configuration()
                workerConfiguration.pollInterval = .milliseconds(250)
                let worker = Worker(store: jobs, registry: registry, wakeups: listener, configuration: workerConfiguration,
                                    clock: ContinuousClock(), logger: logger)
                let group = ServiceGroup(services: [listener, worker], logger: logger)
                let running = Task { try await group.run() }
                let outcome: Result<T, any Error>
                do {
                    outcome = .success(try await body(Running(google: google, client: client, owner: owner, environment: environment,
                                                             userID: userID, connectorID: connectorID, logs: logs,
                                                             metrics: metrics)))
                } catch {
                    outcome = .failure(error)
                }
                await group.triggerGracefulShutdown()
                try await running.value
                // The client's connections close before the stand-in stops (see `withRunningServices`).
                try await http.shutdown()
                await googleGroup.triggerGracefulShutdown()
                try await googleRunning.value
                tasks.cancelAll()
                return try outcome.get()
            }
            return result
        } catch {
            try? await http.shutdown()
            throw error
        }
    }

    static func seedUser(_ owner: PostgresClient, userID: UUID, connectorID: UUID, preferences: String,
                         urgency: UrgencyPreferencesSeed?, sealer: HostSealer) async throws {
        let logger = TestDatabase.quietLogger
        _ = try await owner.query("INSERT INTO users (id) VALUES (\(userID))", logger: logger).collect()
        _ = try await owner.query("""
            INSERT INTO connectors (id, user_id, provider, scopes, refresh_token_ciphertext, token_key_id, status)
            VALUES (\(connectorID), \(userID), 'google',
                    '{https://www.googleapis.com/auth/calendar.readonly,https://www.googleapis.com/auth/gmail.metadata}',
                    '\\x01', 'kek-main', 'ACTIVE')
            """, logger: logger).collect()
        _ = try await owner.query("INSERT INTO preferences (user_id) VALUES (\(userID))", logger: logger).collect()
        _ = try await owner.query(PostgresQuery(unsafeSQL: "UPDATE preferences SET \(preferences) WHERE user_id = '\(userID)'"),
                                  logger: logger).collect()
        if let urgency {
            let sealed = try sealer.seal(json: UrgencyPreferencesJSON(vip_senders: urgency.vipSenders, keywords: urgency.keywords),
                                         purpose: .preferences, userID: userID)
            _ = try await owner.query("UPDATE preferences SET urgency_ciphertext = \(ByteBuffer(bytes: sealed)) WHERE user_id = \(userID)",
                                      logger: logger).collect()
        }
    }

    struct UrgencyPreferencesJSON: Encodable { let vip_senders: [String]; let keywords: [String] }
}

/// Stands in for the token broker (which has its own end-to-end tests): access tokens minted by the
/// Google stand-in for the user, a new one on `forceRefresh`.
struct MintingTokenSource: TokenSource {
    let google: GoogleStandIn
    let user: String
    static let scopes = ["https://www.googleapis.com/auth/calendar.readonly", "https://www.googleapis.com/auth/gmail.metadata"]

    func accessToken(for connector: UUID, forceRefresh: Bool) async throws -> AccessToken {
        AccessToken(token: Redacted(try google.mintAccessToken(forUser: user, scopes: Self.scopes)),
                    expiresAt: Date().addingTimeInterval(3000))
    }
}
