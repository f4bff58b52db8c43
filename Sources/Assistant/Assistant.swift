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
