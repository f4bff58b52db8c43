import AlfredCore
import Delivery
import Foundation
import Sealing
import JobQueue

/// `calendar.sync`, recurring per user: reads what changed in the user's primary calendar and keeps
/// exactly one queued `meeting.reminder` per upcoming meeting, at `start - meeting_reminder_minutes`.
///
/// - Unique key per event (a keyed hash of user and event id): a moved meeting moves its queued
///   reminder instead of adding one; a cancelled or declined one cancels it.
/// - A reminder whose notification (event id + start) was already handed to delivery is not
///   scheduled again, so a sync after the reminder went out does not repeat it.
/// - Stores no event content: the reminder payload holds the event id and start, sealed.
public struct CalendarSyncHandler: JobHandler {
    public let kind = AssistantKind.calendarSync
    let environment: AssistantEnvironment

    public init(environment: AssistantEnvironment) { self.environment = environment }

    public func run(_ payload: NoPayload, context: JobContext) async throws -> JobOutcome {
        guard let user = try await environment.settings(context.userID) else { return .done }
        let env = environment
        let now = env.now()
        let cursor = try await env.store.cursor(connectorID: user.connector, kind: "calendar").flatMap {
            try? env.sealer.open(json: CalendarCursor.self, from: $0, purpose: .cursor, userID: user.userID)
        }
        // Slide the frozen full-sync window once it runs short; otherwise ask only for changes.
        let window: DateInterval? = if let cursor, cursor.syncToken != nil,
            cursor.windowEnd.timeIntervalSince(now) >= env.intervals.slideWhenLessThan.seconds {
            nil
        } else {
            DateInterval(start: now.addingTimeInterval(-3600), duration: env.intervals.fullSyncWindow.seconds)
        }
        let changes = try await env.calendar(user).sync(cursor: cursor, fullSyncWindow: window)
        environment.counters.calendarSync(changes.mode).increment()

        let horizon = now.addingTimeInterval(env.intervals.reminderHorizon.seconds)
        var wanted: [(event: MeetingEvent, start: Date, deliveryKey: String)] = []
        var unwanted: [String] = []
        for event in changes.events {
            if event.wantsReminder, let start = event.start, start > now, start <= horizon {
                wanted.append((event, start, ReminderKeys.delivery(env.sealer, user: user.userID, eventID: event.id, start: start)))
            } else if !event.wantsReminder {
                unwanted.append(ReminderKeys.job(env.sealer, user: user.userID, eventID: event.id))
            }
        }
        let used = try await env.store.usedNotificationKeys(wanted.map(\.deliveryKey))
        let jobs = try wanted.filter { !used.contains($0.deliveryKey) }.map { item in
            let remindAt = item.start.addingTimeInterval(-Double(user.reminderMinutes) * 60)
            let prepareAt = remindAt.addingTimeInterval(-env.intervals.reminderLead.seconds)
            let payload = ReminderPayload(connectorID: user.connector, eventID: item.event.id, start: item.start)
            return NewJob(kind: AssistantKind.meetingReminder,
                          payload: try SealedPayload.make(payload, sealer: env.sealer, userID: user.userID),
                          schedule: prepareAt > now ? .at(prepareAt) : .now,
                          uniqueKey: ReminderKeys.job(env.sealer, user: user.userID, eventID: item.event.id),
                          userID: user.userID)
        }
        let results = try await env.jobs.enqueue(jobs, onConflict: .replaceSchedule)
        environment.counters.remindersScheduled.increment(by: results.filter { if case .inserted = $0 { true } else { false } }.count)
        _ = try await env.store.cancelQueuedJobs(uniqueKeys: unwanted)
        // The cursor moves only after the reminders are in: a crash in between re-reads the same changes.
        let sealed = try env.sealer.seal(json: changes.cursor, purpose: .cursor, userID: user.userID)
        try await env.store.saveCursor(connectorID: user.connector, userID: user.userID, kind: "calendar", sealed: sealed)
        context.logger.debug("calendar synced", metadata: [
            "mode": "\(changes.mode.rawValue)", "changed": "\(changes.events.count)", "scheduled": "\(jobs.count)",
            "unscheduled": "\(unwanted.count)"])
        return .runAgain(.after(env.intervals.calendarSync))
    }
}

/// What a reminder job carries (sealed): ids and times, never the title or place.
struct ReminderPayload: Codable, Sendable {
    let connectorID: UUID
    let eventID: String
    /// The start the reminder was planned for; the handler trusts the re-fetched event instead.
    let start: Date
}

/// Keys derived from event ids. Keyed hashes: stored in plaintext columns, they reveal nothing.
package enum ReminderKeys {
    /// One live reminder job per event.
    package static func job(_ sealer: HostSealer, user: UUID, eventID: String) -> String {
        "reminder:" + sealer.keyedHash("reminder-job", user.uuidString, eventID)
    }

    /// One notification per event and start time, ever: a moved meeting gets a new reminder.
    static func delivery(_ sealer: HostSealer, user: UUID, eventID: String, start: Date) -> String {
        "reminder:" + sealer.keyedHash("reminder", user.uuidString, eventID, String(Int(start.timeIntervalSince1970)))
    }
}
