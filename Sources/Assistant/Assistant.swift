import AlfredCore
import Foundation
import JobQueue

extension AssistantEnvironment {
    /// Registers the assistant's job kinds on a worker.
    public func register(in registry: inout JobRegistry) {
        registry.register(PlannerHandler(environment: self))
        registry.register(CalendarSyncHandler(environment: self))
        registry.register(MeetingReminderHandler(environment: self))
        registry.register(MorningBriefHandler(environment: self))
        registry.register(MailCheckHandler(environment: self))
        registry.register(GmailWatchHandler(environment: self))
        registry.register(UrgentFeedbackHandler(store: store, metrics: metrics))
    }
}

extension AssistantEnvironment {
    /// A Gmail push hint for this user ("something changed"): brings the user's recurring
    /// `mail.check` forward to now. Hints carry no content and may be duplicated, reordered or
    /// dropped, so this only moves the schedule; the check reconciles from the stored history id.
    /// A check already running picks the change up on its next run.
    @discardableResult
    public func mailHint(userID: UUID) async throws -> Bool {
        switch try await jobs.enqueue([Self.mailHintJob(userID: userID)], onConflict: .replaceSchedule).first {
        case .inserted, .rescheduled: return true
        default: return false
        }
    }
}

extension AssistantEnvironment {
    /// The job a Gmail push hint enqueues (with `.replaceSchedule`): the user's mail check, due now.
    public static func mailHintJob(userID: UUID) -> NewJob {
        NewJob(kind: AssistantKind.mailCheck, schedule: .now,
               uniqueKey: AssistantKind.uniqueKey(AssistantKind.mailCheck, user: userID), userID: userID)
    }

    /// Relay mode (seeds/gmail-relay-architecture.md): a Gmail change wakes the user's app with a
    /// silent push and the app fetches the mail itself; nothing about the mail passes through here.
    /// Apple throttles background pushes (2–3 an hour), so one per user per 20-minute slot.
    @discardableResult
    public func relayHint(userID: UUID) async throws -> Bool {
        let slot = Int(now().timeIntervalSince1970 / 1200)
        let key = sealer.keyedHash("relay", userID.uuidString, "\(slot)")
        let content = PushContent(kind: "mail.relay", title: "", body: "", scheduledAt: now(), collapseID: key)
        return try await store.notify(try outbox.notification(content, userID: userID, idempotencyKey: key,
                                                              deadline: now().addingTimeInterval(1200)))
    }
}
