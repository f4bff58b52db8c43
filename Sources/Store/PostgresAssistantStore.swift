import AlfredCore
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// `AssistantStore` on PostgreSQL, used by workers (role `alfred_worker`).
///
/// A notification with nothing else to write (a reminder's push, a brief's) goes through a
/// `StatementBatcher`: in a burst, the ones that arrive while a transaction is in flight share the
/// next, its two statements and its commit.
public struct PostgresAssistantStore: AssistantStore {
    let client: PostgresClient
    let jobs: PostgresJobStore
    let logger: Logger
    private let notifications: StatementBatcher<OutboundNotification, String, Bool>

    public init(client: PostgresClient, jobs: PostgresJobStore, logger: Logger) {
        self.client = client
        self.jobs = jobs
        self.logger = logger
        notifications = StatementBatcher(maxInFlight: 2, key: \.idempotencyKey) { batch in
            try await Pooled.transaction(client, logger: logger) { connection in
                try await Transaction(connection: connection, jobs: jobs, logger: logger).notify(batch)
            }
        }
    }

    public func notify(_ notification: OutboundNotification) async throws -> Bool {
        try await notifications.submit(notification)
    }

    public func profile(_ userID: UUID) async throws -> UserProfile? {
        for (zone, minutes, brief, quietStart, quietEnd, urgency, connector, watchUntil) in try await Pooled.execute(
            client, AssistantSQL.Profile(userID: userID), logger: logger)
        {
            return UserProfile(userID: userID, timeZone: zone, meetingReminderMinutes: Int(minutes),
                               morningBriefLocalTime: brief, quietHoursStart: quietStart, quietHoursEnd: quietEnd,
                               urgencySealed: urgency.map { Array(buffer: $0) }, googleConnector: connector,
                               gmailWatchUntil: watchUntil)
        }
        return nil
    }

    public func saveGmailWatch(connectorID: UUID, userID: UUID, addressHash: String, expiresAt: Date) async throws {
        _ = try await Pooled.rows(client, AssistantSQL.saveGmailWatch(connectorID: connectorID, userID: userID,
                                                                     addressHash: addressHash, expiresAt: expiresAt), logger: logger)
    }

    public func gmailWatchFailed(connectorID: UUID) async throws {
        _ = try await Pooled.rows(client, AssistantSQL.gmailWatchFailed(connectorID: connectorID), logger: logger)
    }

    public func recurringJobGaps(kinds: [String], after: UUID?, limit: Int) async throws -> [(user: UUID, missing: [String])] {
        var gaps: [(user: UUID, missing: [String])] = []
        for (id, missing) in try await Pooled.rows(client,
            AssistantSQL.recurringJobGaps(kinds: kinds, after: after, limit: limit), logger: logger
        ).decode((UUID, [String]).self) { gaps.append((id, missing)) }
        return gaps
    }

    public func cursor(connectorID: UUID, kind: String) async throws -> [UInt8]? {
        for sealed in try await Pooled.rows(client, AssistantSQL.cursor(connectorID: connectorID, kind: kind), logger: logger)
            .decode(ByteBuffer.self) { return Array(buffer: sealed) }
        return nil
    }

    public func saveCursor(connectorID: UUID, userID: UUID, kind: String, sealed: [UInt8]) async throws {
        _ = try await Pooled.rows(client, AssistantSQL.saveCursor(
            connectorID: connectorID, userID: userID, kind: kind, sealed: ByteBuffer(bytes: sealed)), logger: logger)
    }

    public func usedNotificationKeys(_ keys: [String]) async throws -> Set<String> {
        guard !keys.isEmpty else { return [] }
        var used: Set<String> = []
        for key in try await Pooled.rows(client, AssistantSQL.usedNotificationKeys(keys), logger: logger)
            .decode(String.self) { used.insert(key) }
        return used
    }

    public func cancelQueuedJobs(uniqueKeys: [String]) async throws -> Int {
        guard !uniqueKeys.isEmpty else { return 0 }
        var count = 0
        for _ in try await Pooled.rows(client,
            JobSQL.cancelQueued(uniqueKeys: uniqueKeys, reason: "cancelled: the meeting was cancelled, declined or left the window"),
            logger: logger
        ).decode(UUID.self) { count += 1 }
        return count
    }

    public func mailAlerts(userID: UUID, since: Date, limit: Int) async throws -> [MailAlert] {
        var alerts: [MailAlert] = []
        for (key, sealed, disposition, score) in try await Pooled.rows(client,
            AssistantSQL.mailAlerts(userID: userID, since: since, limit: limit), logger: logger
        ).decode((String, ByteBuffer, String, Int32).self) {
            alerts.append(MailAlert(messageKey: key, messageSealed: Array(buffer: sealed),
                                    disposition: MailAlert.Disposition(rawValue: disposition) ?? .held, score: Int(score)))
        }
        return alerts
    }

    public func relayWatchExpiry(userID: UUID) async throws -> Date? {
        try await Pooled.rows(client, AssistantSQL.relayWatchExpiry(userID: userID), logger: logger).decode(Date.self).first
    }

    public func recordFeedback(userID: UUID, idempotencyKey: String, verdict: String) async throws -> [String]? {
        for rules in try await Pooled.rows(client, AssistantSQL.recordFeedback(userID: userID, key: idempotencyKey, verdict: verdict),
                                           logger: logger).decode([String].self) { return rules }
        return nil
    }

    public func finishAbandonedNotifications() async throws -> [(kind: String, state: String)] {
        var finished: [(kind: String, state: String)] = []
        for (kind, state) in try await Pooled.rows(client, AssistantSQL.finishAbandonedNotifications(), logger: logger)
            .decode((String, String).self) { finished.append((kind, state)) }
        return finished
    }

    public func transaction<T: Sendable>(_ body: @escaping @Sendable (any AssistantTransaction) async throws -> T) async throws -> T {
        try await Pooled.transaction(client, logger: logger) { connection in
            try await body(Transaction(connection: connection, jobs: jobs, logger: logger))
        }
    }

    public func prune(notificationsOlderThan: Duration, mailAlertsOlderThan: Duration) async throws -> Int {
        for count in try await Pooled.rows(client,
            AssistantSQL.prune(notificationSeconds: notificationsOlderThan.seconds, mailSeconds: mailAlertsOlderThan.seconds),
            logger: logger
        ).decode(Int64.self) { return Int(count) }
        return 0
    }

    struct Transaction: AssistantTransaction {
        let connection: PostgresConnection
        let jobs: PostgresJobStore
        let logger: Logger

        func recordMailAlerts(_ alerts: [MailAlert], userID: UUID) async throws -> Set<String> {
            guard !alerts.isEmpty else { return [] }
            var inserted: Set<String> = []
            for try await key in try await connection.query(AssistantSQL.recordMailAlerts(
                userID: userID, keys: alerts.map(\.messageKey), sealed: alerts.map { ByteBuffer(bytes: $0.messageSealed) },
                dispositions: alerts.map(\.disposition.rawValue), scores: alerts.map { Int32($0.score) }), logger: logger
            ).decode(String.self) { inserted.insert(key) }
            return inserted
        }

        func notify(_ notification: OutboundNotification) async throws -> Bool {
            try await notify([notification])[0]
        }

        /// Claims every key (no two alike), then enqueues the pushes of the keys claimed now, in one
        /// statement each.
        func notify(_ notifications: [OutboundNotification]) async throws -> [Bool] {
            var claim = AssistantSQL.ClaimNotificationKeys()
            for notification in notifications {
                claim.keys.append(notification.idempotencyKey)
                claim.users.append(notification.userID)
                claim.kinds.append(notification.kind)
                claim.jobIDs.append(.timeOrdered())
                claim.deadlines.append(notification.deadline ?? JobSQL.noInstant)
                claim.scheduled.append(notification.scheduledAt ?? JobSQL.noInstant)
                if let urgency = notification.urgency {
                    claim.rules.append(String(decoding: try JSONSerialization.data(withJSONObject: urgency.ids), as: UTF8.self))
                    claim.ruleSets.append(urgency.ruleSet)
                } else {
                    claim.rules.append("")
                    claim.ruleSets.append("")
                }
            }
            var claimed = Set<String>()
            for try await key in try await connection.execute(claim, logger: logger) { claimed.insert(key) }
            let pushes = notifications.indices.filter { claimed.contains(notifications[$0].idempotencyKey) }.map { index in
                var job = notifications[index].job
                job.id = JobID(claim.jobIDs[index])
                job.uniqueKey = notifications[index].idempotencyKey
                job.userID = notifications[index].userID
                return job
            }
            if !pushes.isEmpty { _ = try await jobs.enqueue(pushes, onConflict: .keep, on: connection) }
            return notifications.map { claimed.contains($0.idempotencyKey) }
        }

        func saveCursor(connectorID: UUID, userID: UUID, kind: String, sealed: [UInt8]) async throws {
            _ = try await connection.query(AssistantSQL.saveCursor(
                connectorID: connectorID, userID: userID, kind: kind, sealed: ByteBuffer(bytes: sealed)), logger: logger)
        }
    }
}
