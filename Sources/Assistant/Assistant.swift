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
    }
}

extension AssistantEnvironment {
    /// A Gmail push hint for this user ("something changed"): brings the user's recurring
    /// `mail.check` forward to now. Hints carry no content and may be duplicated, reordered or
    /// dropped, so this only moves the schedule; the check reconciles from the stored history id.
    /// A check already running picks the change up on its next run.
    @discardableResult
    public func mailHint(userID: UUID) async throws -> Bool {
        let job = NewJob(kind: AssistantKind.mailCheck, schedule: .now,
                         uniqueKey: AssistantKind.uniqueKey(AssistantKind.mailCheck, user: userID), userID: userID)
        switch try await jobs.enqueue([job], onConflict: .replaceSchedule).first {
        case .inserted, .rescheduled: return true
        default: return false
        }
    }
}
