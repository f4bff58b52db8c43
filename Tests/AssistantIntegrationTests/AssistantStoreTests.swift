import AlfredCore
import AlfredTestCluster
import Foundation
import Logging
import PostgresNIO
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
