import AlfredCore
import Delivery
import Foundation
import Sealing
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
        registry.register(RelayWakeHandler(environment: self))
        registry.register(RelayRenewHandler(environment: self))
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

    /// The job a relayed mailbox's Gmail push enqueues (with `.keep`): one wake-up for the user.
    public static func relayWakeJob(userID: UUID) -> NewJob {
        NewJob(kind: AssistantKind.relayWake, schedule: .now,
               uniqueKey: AssistantKind.uniqueKey(AssistantKind.relayWake, user: userID), userID: userID)
    }

    /// How long before a relayed mailbox's Gmail watch lapses the app is asked to renew it.
    public static let relayRenewLead: TimeInterval = 86_400

    /// The job a relay registration enqueues (with `.replaceSchedule`: a newer watch moves it): the
    /// renewal request, a day before the watch lapses.
    public static func relayRenewJob(userID: UUID, watchExpiresAt: Date) -> NewJob {
        NewJob(kind: AssistantKind.relayRenew, schedule: .at(watchExpiresAt.addingTimeInterval(-relayRenewLead)),
               uniqueKey: AssistantKind.uniqueKey(AssistantKind.relayRenew, user: userID), userID: userID)
    }

    /// Relay mode (docs/gmail-relay-architecture.md): a Gmail change wakes the user's app with a
    /// silent push and the app fetches the mail itself; nothing about the mail passes through here.
    /// Apple budgets background pushes (a few an hour), so at most one per user per 20-minute
    /// window: the first change in a window wakes the app at once; a change after that wake-up is
    /// covered by one more at the start of the next window (so no change waits for later mail).
    /// One collapse id per user's mailbox. Returns when the wake-up is due (nil: one is already queued).
    @discardableResult
    public func relayHint(userID: UUID) async throws -> Date? {
        let window = 1200.0
        let slot = Int(now().timeIntervalSince1970 / window)
        let collapse = "relay:" + sealer.keyedHash("relay-collapse", userID.uuidString.lowercased())
        for (index, due) in [(slot, now()), (slot + 1, Date(timeIntervalSince1970: Double(slot + 1) * window))] {
            let key = "relay:" + sealer.keyedHash("relay", userID.uuidString.lowercased(), "\(index)")
            let content = PushContent(kind: DeliveryMetrics.relayKind, title: "", body: "", scheduledAt: due, collapseID: collapse)
            let notification = try outbox.notification(content, userID: userID, idempotencyKey: key,
                                                        deadline: due.addingTimeInterval(window), at: due > now() ? due : nil)
            if try await store.notify(notification) { return due }
        }
        return nil
    }
}
