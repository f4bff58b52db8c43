import AlfredCore
import Delivery
import Foundation
import Sealing
import Logging

/// Every Google fetch a job makes for a user is audited, redacted (RFC §4.2): the source, the
/// operation, the result and how many items came back — never an id, a title, an address or a
/// subject. A successful fetch counts into the user's tally for its source and operation, which the
/// worker folds into one `CONNECTOR_FETCH` event a day with the count and the items (migration 0026:
/// one event per fetch was 180 a user-day, mostly "nothing changed"); a failed fetch appends its own
/// event at once. An audit write that fails is logged, not fatal: the user's reminder matters more
/// than the record of having read their calendar for it.
struct FetchAudit: Sendable {
    let recorder: any AuditRecorder
    let userID: UUID
    let logger: Logger

    func record<T>(_ source: String, _ operation: String, count: (T) -> Int, _ body: () async throws -> T) async throws -> T {
        let value: T
        do {
            value = try await body()
        } catch {
            await write {
                try await recorder.record(AuditEvent(userID: userID, type: "CONNECTOR_FETCH", connector: "google", result: "FAILURE",
                                                     metadata: ["source": source, "operation": operation]))
            }
            throw error
        }
        await write {
            try await recorder.tally(AuditEvent(userID: userID, type: "CONNECTOR_FETCH", connector: "google", result: "SUCCESS",
                                                metadata: ["source": source, "operation": operation]), items: count(value))
        }
        return value
    }

    private func write(_ body: () async throws -> Void) async {
        do {
            try await body()
        } catch {
            logger.error("could not write a connector-fetch audit event", metadata: ["alfred.error": "\(type(of: error))"])
        }
    }
}

struct AuditedCalendarReader: CalendarReader {
    let base: any CalendarReader
    let audit: FetchAudit

    func sync(cursor: CalendarCursor?, fullSyncWindow window: DateInterval?) async throws -> CalendarChanges {
        try await audit.record("calendar", "sync", count: { $0.events.count }) { try await base.sync(cursor: cursor, fullSyncWindow: window) }
    }
    func event(id: String) async throws -> MeetingEvent? {
        try await audit.record("calendar", "event", count: { $0 == nil ? 0 : 1 }) { try await base.event(id: id) }
    }
    func events(in window: DateInterval) async throws -> [MeetingEvent] {
        try await audit.record("calendar", "events", count: { $0.count }) { try await base.events(in: window) }
    }
}

struct AuditedMailReader: MailReader {
    let base: any MailReader
    let audit: FetchAudit

    func start() async throws -> (historyID: String, address: String?) {
        try await audit.record("gmail", "profile", count: { _ in 1 }) { try await base.start() }
    }
    func changes(since historyID: String) async throws -> MailChanges {
        try await audit.record("gmail", "history", count: { $0.messageIDs.count }) { try await base.changes(since: historyID) }
    }
    func messages(ids: [String]) async throws -> [GmailMessage] {
        try await audit.record("gmail", "metadata", count: { $0.count }) { try await base.messages(ids: ids) }
    }
    func watch(topicName: String) async throws -> (expiration: Date, address: String?) {
        try await audit.record("gmail", "watch", count: { _ in 1 }) { try await base.watch(topicName: topicName) }
    }
}

extension AssistantEnvironment {
    /// The user's calendar, every fetch audited.
    func calendar(_ user: UserSettings) -> any CalendarReader {
        let reader = readers.calendar(connector: user.connector)
        guard let audit else { return reader }
        return AuditedCalendarReader(base: reader, audit: FetchAudit(recorder: audit, userID: user.userID, logger: logger))
    }

    /// The user's Gmail metadata, every fetch audited.
    func mail(_ user: UserSettings) -> any MailReader {
        let reader = readers.mail(connector: user.connector)
        guard let audit else { return reader }
        return AuditedMailReader(base: reader, audit: FetchAudit(recorder: audit, userID: user.userID, logger: logger))
    }
}
