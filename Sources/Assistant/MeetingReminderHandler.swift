import AlfredCore
import Delivery
import Foundation
import Sealing
import JobQueue

/// `meeting.reminder`: shortly before `start - meeting_reminder_minutes`, re-fetches the event (it may have moved
/// or been cancelled since the sync that planned this job), composes "<title> in N min" with the place
/// or meeting link, and hands it to delivery with the meeting start as deadline.
///
/// Quiet hours do not hold reminders back: a meeting the user accepted happens whatever the hour.
public struct MeetingReminderHandler: JobHandler {
    public let kind = AssistantKind.meetingReminder
    let environment: AssistantEnvironment

    /// A reminder this much early is still sent now rather than rescheduled (clock skew, sync lag).
    static let earlyTolerance: TimeInterval = 60

    public init(environment: AssistantEnvironment) { self.environment = environment }

    public func run(_ payload: SealedPayload, context: JobContext) async throws -> JobOutcome {
        let env = environment
        let plan: ReminderPayload
        do { plan = try payload.open(ReminderPayload.self, sealer: env.sealer, userID: context.userID) } catch {
            throw JobError.discard("reminder payload does not open with this host key")
        }
        guard let user = try await env.settings(context.userID), user.connector == plan.connectorID else {
            environment.counters.reminder("disconnected").increment()
            return .done
        }
        guard let event = try await env.calendar(user).event(id: plan.eventID),
              event.wantsReminder, let start = event.start
        else {
            environment.counters.reminder("cancelled").increment()
            return .done
        }
        let now = env.now()
        let remindAt = start.addingTimeInterval(-Double(user.reminderMinutes) * 60)
        // When this job was meant to run (not this attempt's time: a retry after Google errors does not
        // move it): later than the reminder time if the meeting was added (or synced) after that time,
        // and then lateness counts from when we could first have known.
        let due = now.addingTimeInterval(-context.sinceScheduled.seconds)
        guard start > now else {
            // Too late to be useful: the meeting has started. Counted, never sent; a reminder that was
            // due before the start and ran too late is an SLO failure.
            environment.counters.reminder("missed").increment()
            if due < start { environment.deliveryMetrics.reminderFailures.increment() }
            return .done
        }
        let lead = env.intervals.reminderLead.seconds
        if remindAt.timeIntervalSince(now) > lead + Self.earlyTolerance {
            // The meeting moved later: run again before its new reminder time.
            environment.counters.reminder("moved").increment()
            return .runAgain(.at(remindAt.addingTimeInterval(-lead)))
        }
        let text = env.composer.reminder(event, start: start, now: max(now, remindAt))
        let key = ReminderKeys.delivery(env.sealer, user: user.userID, eventID: event.id, start: start)
        // The push waits for the reminder time (this job runs `reminderLead` ahead); the lateness SLI
        // is measured from it.
        let content = PushContent(kind: "meeting.reminder", title: text.title, body: text.body,
                                  scheduledAt: max(remindAt, due), collapseID: String(key.suffix(32)),
                                  joinURL: event.meetingLink?.unsafeValue)
        let notification = try env.outbox.notification(content, userID: user.userID, idempotencyKey: key, deadline: start,
                                                       at: remindAt > now ? remindAt : nil)
        if try await env.store.notify(notification) {
            environment.counters.reminder("sent").increment()
            environment.counters.enqueued("meeting.reminder").increment()
        } else {
            environment.counters.reminder("duplicate").increment()
        }
        return .done
    }
}
