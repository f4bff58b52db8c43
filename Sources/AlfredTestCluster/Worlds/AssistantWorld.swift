import AlfredCore
import Assistant
import Delivery
import Foundation
import JobQueue
import Logging
import PostgresNIO
import Sealing
import StandIns
import Store
import WorkerProcess

/// A running assistant: a `World` with the Google stand-in serving a scenario, and the in-process
/// worker as `alfred worker` builds it running the assistant's jobs as `alfred_worker`, for one
/// seeded user with an active Google connector. Every log line of our side is captured, so tests can
/// prove what never reaches a log.
public struct AssistantWorld: Sendable {
    public static let email = "ada.lovelace@example.com"
    public static let subject = "100000000000000000042"

    public var intervals: AssistantEnvironment.Intervals = {
        var intervals = AssistantEnvironment.Intervals()
        intervals.calendarSync = .milliseconds(500)
        intervals.mailCheck = .milliseconds(500)
        return intervals
    }()
    /// A fixed-offset zone where it is about midday now, so "today" has room for the scenario's
    /// meetings whenever the tests run (Etc/GMT-N is UTC+N).
    public static let middayZone: String = {
        let hour = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).hour ?? 12
        let offset = 12 - hour
        return offset == 0 ? "Etc/GMT" : "Etc/GMT\(offset > 0 ? "-" : "+")\(abs(offset))"
    }()

    /// `preferences` columns for the user (SQL literals), e.g. quiet hours.
    public var preferences = "time_zone = '\(AssistantWorld.middayZone)', meeting_reminder_minutes = 15, quiet_hours_start = NULL, quiet_hours_end = NULL"
    public var urgency: UrgencyPreferencesSeed?
    /// The world's wall clock: the assistant's `now` and the Google stand-in's (tests may pin it).
    public var now: @Sendable () -> Date = { Date() }
    /// The Pub/Sub topic mailboxes are watched on (nil: no watches, polling only).
    public var gmailTopic: String?
    /// Runs on the fresh database before any of the world's clients connects (e.g. to pin its clock).
    public var prepareDatabase: (@Sendable (DatabaseURL) async throws -> Void)?
    /// What the Google stand-in's latency faults sleep on: a manual clock holds a request until the test advances it.
    public var googleLatencyClock: any Clock<Duration> = ContinuousClock()

    public struct UrgencyPreferencesSeed: Sendable {
        public var vipSenders: [String] = []
        public var keywords: [String] = []
        public init(vipSenders: [String] = [], keywords: [String] = []) { self.vipSenders = vipSenders; self.keywords = keywords }
    }

    public init() {}

    public struct Running: Sendable {
        public let world: World.Running
        public let userID: UUID
        public let connectorID: UUID

        public var google: GoogleStandIn { world.google! }
        /// The test's own pool as `alfred_worker`.
        public var client: PostgresClient { world.pool("alfred_worker") }
        public var owner: PostgresClient { world.owner }
        /// The worker's assistant (its stores, readers, sealer and clock).
        public var environment: AssistantEnvironment { world.worker!.assistant! }
        public var logs: LogCapture { world.logs }
        /// What the worker counted.
        public var metrics: CountingMetrics { world.metrics }
        public var events: EventLog<WorkerEvent> { world.events }
        public var sealer: HostSealer { world.sealer }

        /// Pushes handed to delivery so far, opened.
        public func pushes() async throws -> [(content: PushContent, deadline: Date?, key: String)] {
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

        public func jobs(kind: String) async throws -> [(state: String, dueAt: Date, uniqueKey: String?)] {
            try await owner.query("SELECT state, due_at, unique_key FROM jobs WHERE kind = \(kind) ORDER BY due_at",
                                  logger: TestDatabase.quietLogger)
                .collect().map { try $0.decode((String, Date, String?).self) }.map { (state: $0.0, dueAt: $0.1, uniqueKey: $0.2) }
        }

        public func reminderKey(_ eventID: String) -> String { ReminderKeys.job(sealer, user: userID, eventID: eventID) }

        /// The planner's sweep, now (the worker does not start the planner on its own here).
        public func plan() async throws -> Int { try await PlannerHandler(environment: environment).sweep() }

        /// Brings a queued job forward to now (what a Gmail push hint or an operator retry does).
        public func runNow(kind: String) async throws {
            _ = try await owner.query("UPDATE jobs SET due_at = now() WHERE kind = \(kind) AND state = 'queued'",
                                      logger: TestDatabase.quietLogger).collect()
            _ = try await owner.query("SELECT pg_notify('alfred_jobs', 'default 0')", logger: TestDatabase.quietLogger).collect()
        }
    }

    /// Runs the assistant on the Google stand-in configured by `scenario` (its JSON configuration).
    public func run<T: Sendable>(scenario: String, _ body: @Sendable (Running) async throws -> T) async throws -> T {
        var world = World()
        world.now = now
        world.prepareDatabase = prepareDatabase
        world.pools = ["alfred_worker": 6]
        world.google = try JSONDecoder().decode(GoogleStandIn.Configuration.self, from: Data(scenario.utf8))
        world.googleLatencyClock = googleLatencyClock
        var worker = WorkerSpec(assistant: true)
        worker.intervals = intervals
        worker.gmailTopic = gmailTopic
        worker.tokenUser = Self.email
        world.worker = worker
        let (preferences, urgency) = (self.preferences, self.urgency)
        return try await world.run { world in
            let userID = UUID(), connectorID = UUID()
            try await Self.seedUser(world.owner, userID: userID, connectorID: connectorID, preferences: preferences,
                                    urgency: urgency, sealer: world.sealer)
            return try await body(Running(world: world, userID: userID, connectorID: connectorID))
        }
    }

    /// A user with an active Google connector (its token ciphertext a placeholder: no broker here) and preferences.
    public static func seedUser(_ owner: PostgresClient, userID: UUID, connectorID: UUID, preferences: String,
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
