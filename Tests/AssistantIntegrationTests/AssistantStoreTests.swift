import AlfredCore
import AlfredTestCluster
import Foundation
import Logging
import PostgresNIO
import Privacy
import Testing
@testable import Store

/// The assistant's SQL against a real database, as the worker role runs it.
@Suite(.timeLimit(.minutes(5))) struct AssistantStoreTests {
    let logger = TestDatabase.quietLogger

    static func seedUser(_ client: PostgresClient, logger: Logger, connectorStatus: String = "ACTIVE",
                         preferences: Bool = true) async throws -> (UUID, UUID) {
        try await Seed.user(client, logger: logger, connectorStatus: connectorStatus, preferences: preferences)
    }

    func asWorker(_ url: DatabaseURL) -> DatabaseURL { var url = url; url.username = "alfred_worker"; return url }

    @Test func profilesCarryPreferencesOrTheRfcDefaultsAndTheActiveConnector() async throws {
        let url = try await TestDatabase.fresh()
        let (withPrefs, connector) = try await TestDatabase.withClient(url) { try await Self.seedUser($0, logger: logger) }
        let (noPrefs, _) = try await TestDatabase.withClient(url) { try await Self.seedUser($0, logger: logger, preferences: false) }
        let (revoked, _) = try await TestDatabase.withClient(url) { try await Self.seedUser($0, logger: logger, connectorStatus: "REVOKED") }
        try await TestDatabase.withClient(asWorker(url)) { client in
            let store = PostgresAssistantStore(client: client, jobs: PostgresJobStore(client: client, logger: logger), logger: logger)
            let profile = try #require(try await store.profile(withPrefs))
            #expect(profile.timeZone == "Europe/Zurich" && profile.meetingReminderMinutes == 10)
            #expect(profile.morningBriefLocalTime == "07:30" && profile.quietHoursStart == "22:00" && profile.quietHoursEnd == "07:00")
            #expect(profile.googleConnector == connector)
            let defaults = try #require(try await store.profile(noPrefs))
            #expect(defaults == UserProfile(userID: noPrefs, googleConnector: defaults.googleConnector))
            #expect(try await store.profile(revoked)?.googleConnector == nil)
            #expect(try await store.profile(UUID()) == nil)
        }
    }

    @Test func oneNotificationPerIdempotencyKeyEver() async throws {
        let url = try await TestDatabase.fresh()
        let (user, _) = try await TestDatabase.withClient(url) { try await Self.seedUser($0, logger: logger) }
        try await TestDatabase.withClient(asWorker(url)) { client in
            let jobs = PostgresJobStore(client: client, logger: logger)
            let store = PostgresAssistantStore(client: client, jobs: jobs, logger: logger)
            func notification() -> OutboundNotification {
                OutboundNotification(userID: user, kind: "meeting.reminder", idempotencyKey: "reminder:abc",
                                     job: NewJob(kind: JobKind("push.deliver", queue: "delivery"), payload: [1]), deadline: nil)
            }
            #expect(try await store.notify(notification()))
            #expect(try await !store.notify(notification()), "same key while the push is queued")
            // Even after the push job finished and was pruned, the ledger remembers the key.
            _ = try await client.query("DELETE FROM jobs", logger: logger).collect()
            #expect(try await !store.notify(notification()), "same key after the push is gone")
            #expect(try await store.usedNotificationKeys(["reminder:abc", "reminder:other"]) == ["reminder:abc"])
            let rows = try await client.query("SELECT count(*) FROM notifications", logger: logger).collect()
            #expect(try rows.first?.decode(Int.self) == 1)
        }
    }

    /// In a burst, notifications arriving together share a transaction (`StatementBatcher`): every
    /// key is still claimed once, every claimed key gets its own push job, and each row keeps its own
    /// deadline, scheduled time and urgency rules (none, an empty list, or ids).
    @Test func notificationsArrivingTogetherStillClaimEachKeyOnceWithTheirOwnFields() async throws {
        let url = try await TestDatabase.fresh()
        let (user, _) = try await TestDatabase.withClient(url) { try await Self.seedUser($0, logger: logger) }
        let deadline = Date(timeIntervalSince1970: 1_900_000_000), scheduled = Date(timeIntervalSince1970: 1_899_999_400)
        @Sendable func notification(_ index: Int) -> OutboundNotification {
            var notification = OutboundNotification(
                userID: user, kind: index % 3 == 0 ? "mail.urgent" : "meeting.reminder", idempotencyKey: "key:\(index)",
                job: NewJob(kind: JobKind("push.deliver", queue: "delivery"), payload: [UInt8(index)]),
                deadline: index % 2 == 0 ? deadline : nil, scheduledAt: index % 2 == 0 ? scheduled : nil)
            if index % 3 == 0 { notification.urgency = AlertRules(ids: index % 2 == 0 ? [] : ["deadline-today", "vip"], ruleSet: "v7") }
            return notification
        }
        try await TestDatabase.withClient(asWorker(url)) { client in
            let store = PostgresAssistantStore(client: client, jobs: PostgresJobStore(client: client, logger: logger), logger: logger)
            // 60 keys, each sent three times at once.
            let answers = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
                for index in 0..<180 { group.addTask { (index % 60, try await store.notify(notification(index % 60))) } }
                return try await group.reduce(into: [Int: [Bool]]()) { $0[$1.0, default: []].append($1.1) }
            }
            #expect(answers.count == 60)
            for (index, claimed) in answers { #expect(claimed.filter { $0 }.count == 1 && claimed.count == 3, "key:\(index) claimed \(claimed)") }
        }
        try await TestDatabase.withClient(url) { owner in
            let rows = try await owner.query("""
                SELECT n.idempotency_key, n.kind, n.deadline_at, n.scheduled_at, n.urgency_rules, n.urgency_rule_set,
                       j.unique_key, j.user_id, j.payload, j.queue
                FROM notifications n LEFT JOIN jobs j ON j.id = n.job_id ORDER BY n.idempotency_key
                """, logger: logger).collect()
            #expect(rows.count == 60)
            for row in rows {
                let (key, kind, rowDeadline, rowScheduled, rules, ruleSet, jobKey, jobUser, payload, queue) = try row.decode(
                    (String, String, Date?, Date?, [String]?, String?, String?, UUID?, ByteBuffer?, String?).self)
                let index = try #require(Int(key.dropFirst(4)))
                let expected = notification(index)
                #expect(kind == expected.kind && rowDeadline == expected.deadline && rowScheduled == expected.scheduledAt, "\(key)")
                #expect(rules == expected.urgency?.ids && ruleSet == expected.urgency?.ruleSet, "\(key): \(String(describing: rules))")
                #expect(jobKey == key && jobUser == user && queue == "delivery" && payload.map { Array(buffer: $0) } == [UInt8(index)],
                        "\(key) has its own push job")
            }
            let jobs = try await owner.query("SELECT count(*)::int FROM jobs", logger: logger).collect()
            #expect(try jobs.first?.decode(Int.self) == 60)
        }
    }

    /// Connector-fetch audit events appended at once (a burst's calendar reads) share statements; each
    /// user's chain still holds every event, in order, and verifies.
    @Test func auditEventsAppendedTogetherKeepEveryChainIntact() async throws {
        let url = try await TestDatabase.fresh()
        var seeded: [UUID] = []
        for _ in 0..<5 { seeded.append(try await TestDatabase.withClient(url) { try await Self.seedUser($0, logger: logger) }.0) }
        let users = seeded
        try await TestDatabase.withClient(asWorker(url)) { client in
            let audit = PostgresAuditStore(client: client, logger: logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for user in users {
                    // One user's events in order (each awaited), users side by side.
                    group.addTask {
                        for index in 0..<20 {
                            try await audit.record(AuditEvent(userID: user, type: "CONNECTOR_FETCH", result: "SUCCESS",
                                                              metadata: ["source": "calendar", "items": "\(index)"]))
                        }
                    }
                }
                // And events about a user who does not exist: dropped, without failing the others.
                group.addTask { try await audit.record(AuditEvent(userID: UUID(), type: "CONNECTOR_FETCH", result: "SUCCESS")) }
                try await group.waitForAll()
            }
        }
        try await TestDatabase.withClient(url) { owner in
            let store = PostgresAuditStore(client: owner, logger: logger)
            for user in users {
                let verified = try await AuditChain.verify(userID: user, store: store)
                #expect(verified.intact && verified.events == 20, "\(verified)")
                let items = try await owner.query("""
                    SELECT redacted_metadata->>'items' FROM audit_events WHERE user_id = \(user) ORDER BY seq
                    """, logger: logger).collect().map { try $0.decode(String.self) }
                #expect(items == (0..<20).map { "\($0)" })
            }
            let total = try await owner.query("SELECT count(*)::int FROM audit_events", logger: logger).collect()
            #expect(try total.first?.decode(Int.self) == 100)
        }
    }

    @Test func mailAlertsDedupePerMessageAndTransactionsRollBackTogether() async throws {
        let url = try await TestDatabase.fresh()
        let (user, connector) = try await TestDatabase.withClient(url) { try await Self.seedUser($0, logger: logger) }
        try await TestDatabase.withClient(asWorker(url)) { client in
            let store = PostgresAssistantStore(client: client, jobs: PostgresJobStore(client: client, logger: logger), logger: logger)
            let a = MailAlert(messageKey: "k-a", messageSealed: [1], disposition: .alerted, score: 9)
            let b = MailAlert(messageKey: "k-b", messageSealed: [2], disposition: .held, score: 7)
            #expect(try await store.transaction { try await $0.recordMailAlerts([a], userID: user) } == ["k-a"])
            #expect(try await store.transaction { try await $0.recordMailAlerts([a, b], userID: user) } == ["k-b"])
            struct Boom: Error {}
            await #expect(throws: Boom.self) {
                try await store.transaction { tx in
                    _ = try await tx.recordMailAlerts([MailAlert(messageKey: "k-c", messageSealed: [3], disposition: .alerted, score: 8)], userID: user)
                    try await tx.saveCursor(connectorID: connector, userID: user, kind: "gmail", sealed: [9])
                    throw Boom()
                }
            }
            #expect(try await store.cursor(connectorID: connector, kind: "gmail") == nil, "rolled back with the alert")
            let alerts = try await store.mailAlerts(userID: user, since: Date().addingTimeInterval(-60), limit: 10)
            #expect(alerts.map(\.messageKey) == ["k-a", "k-b"], "highest score first; k-c rolled back")
            try await store.saveCursor(connectorID: connector, userID: user, kind: "gmail", sealed: [4, 5])
            try await store.saveCursor(connectorID: connector, userID: user, kind: "gmail", sealed: [6])
            #expect(try await store.cursor(connectorID: connector, kind: "gmail") == [6])
        }
    }

    @Test func thePlannerSeesOnlyConnectedUsersWithMissingRecurringJobs() async throws {
        let url = try await TestDatabase.fresh()
        let (a, _) = try await TestDatabase.withClient(url) { try await Self.seedUser($0, logger: logger) }
        let (b, _) = try await TestDatabase.withClient(url) { try await Self.seedUser($0, logger: logger) }
        _ = try await TestDatabase.withClient(url) { try await Self.seedUser($0, logger: logger, connectorStatus: "NEEDS_RECONSENT") }
        try await TestDatabase.withClient(asWorker(url)) { client in
            let jobs = PostgresJobStore(client: client, logger: logger)
            let store = PostgresAssistantStore(client: client, jobs: jobs, logger: logger)
            _ = try await jobs.enqueue([NewJob(kind: JobKind("calendar.sync"), uniqueKey: "calendar.sync:\(a.uuidString.lowercased())", userID: a)],
                                       onConflict: .keep)
            let gaps = try await store.recurringJobGaps(kinds: ["calendar.sync", "mail.check"], after: nil, limit: 10)
            let byUser = Dictionary(uniqueKeysWithValues: gaps.map { ($0.user, Set($0.missing)) })
            #expect(byUser.count == 2, "the user who must re-consent is not planned")
            #expect(byUser[a] == ["mail.check"])
            #expect(byUser[b] == ["calendar.sync", "mail.check"])
            let first = try #require(gaps.first?.user)
            #expect(try await store.recurringJobGaps(kinds: ["mail.check"], after: first, limit: 10).map(\.user) == [max(a, b)])
        }
    }

    @Test func pruningForgetsOnlyLedgerAndDedupeRowsPastTheirRetention() async throws {
        let url = try await TestDatabase.fresh()
        let (user, _) = try await TestDatabase.withClient(url) { try await Self.seedUser($0, logger: logger) }
        try await TestDatabase.withClient(asWorker(url)) { client in
            let store = PostgresAssistantStore(client: client, jobs: PostgresJobStore(client: client, logger: logger), logger: logger)
            for (key, deadline) in [("old", Date().addingTimeInterval(-3 * 86_400)), ("fresh", Date().addingTimeInterval(3600))] {
                _ = try await store.notify(OutboundNotification(userID: user, kind: "meeting.reminder", idempotencyKey: key,
                    job: NewJob(kind: JobKind("push.deliver", queue: "delivery")), deadline: deadline))
            }
            _ = try await store.transaction { try await $0.recordMailAlerts(
                [MailAlert(messageKey: "m-old", messageSealed: [1], disposition: .alerted, score: 9),
                 MailAlert(messageKey: "m-new", messageSealed: [2], disposition: .alerted, score: 9)], userID: user) }
            _ = try await client.query("UPDATE mail_alerts SET created_at = now() - interval '9 days' WHERE message_key = 'm-old'",
                                       logger: logger).collect()
            #expect(try await store.prune(notificationsOlderThan: .seconds(2 * 86_400), mailAlertsOlderThan: .seconds(8 * 86_400)) == 2)
            #expect(try await store.usedNotificationKeys(["old", "fresh"]) == ["fresh"])
            #expect(try await store.mailAlerts(userID: user, since: .distantPast, limit: 10).map(\.messageKey) == ["m-new"])
        }
    }

    @Test func cancellingByUniqueKeyTouchesOnlyQueuedJobs() async throws {
        let url = try await TestDatabase.fresh()
        try await TestDatabase.withClient(asWorker(url)) { client in
            let jobs = PostgresJobStore(client: client, logger: logger)
            let store = PostgresAssistantStore(client: client, jobs: jobs, logger: logger)
            let kind = JobKind("meeting.reminder")
            _ = try await jobs.enqueue([NewJob(kind: kind, uniqueKey: "reminder:1"), NewJob(kind: kind, uniqueKey: "reminder:2")],
                                       onConflict: .keep)
            let claimed = try await jobs.claim(queue: "default", limit: 1, owner: "w", lease: .seconds(30))
            #expect(claimed.count == 1)
            #expect(try await store.cancelQueuedJobs(uniqueKeys: ["reminder:1", "reminder:2", "reminder:3"]) == 1)
            let states = try await client.query("SELECT state, count(*) FROM jobs GROUP BY state ORDER BY state", logger: logger)
                .collect().map { try $0.decode((String, Int).self) }
            #expect(states.map(\.0) == ["cancelled", "running"])
        }
    }
}

extension UUID: @retroactive Comparable {
    public static func < (a: UUID, b: UUID) -> Bool { a.uuidString.lowercased() < b.uuidString.lowercased() }
}
