import AlfredCore
import Delivery
import Foundation
import Sealing
import JobQueue

/// `assistant.plan`, a recurring system job: every connected user has one live `calendar.sync`,
/// `mail.check` and `morning.brief`. Unique keys make this idempotent, so any number of workers can
/// run it without a leader; a user whose recurring job ended (disconnected, deleted, discarded) gets
/// it back on the next sweep once they are connected again.
public struct PlannerHandler: JobHandler {
    public let kind = AssistantKind.plan
    let environment: AssistantEnvironment
    let pageSize = 1000
    static let recurring = [AssistantKind.calendarSync, AssistantKind.mailCheck, AssistantKind.morningBrief]
    /// With a Pub/Sub topic, every connected mailbox is watched too.
    var recurring: [JobKind] { Self.recurring + (environment.gmailTopic == nil ? [] : [AssistantKind.gmailWatch]) }

    public init(environment: AssistantEnvironment) { self.environment = environment }

    public func run(_ payload: NoPayload, context: JobContext) async throws -> JobOutcome {
        let inserted = try await sweep(stop: { context.isLeaseLost })
        // Pushes the queue gave up on (attempt limit, database away) still end in the SLO's books.
        for abandoned in try await environment.store.finishAbandonedNotifications() {
            environment.deliveryMetrics.finished(abandoned.kind, DeliveryPlan.State(rawValue: abandoned.state) ?? .failed)
        }
        // The ledger and mail dedupe only need to outlive the notifications they guard.
        let pruned = try await environment.store.prune(notificationsOlderThan: environment.intervals.notificationRetention,
                                                       mailAlertsOlderThan: environment.intervals.mailAlertRetention)
        context.logger.debug("planned recurring jobs", metadata: ["inserted": "\(inserted)", "pruned": "\(pruned)"])
        return .runAgain(.after(environment.intervals.plan))
    }

    /// One pass over all connected users; returns how many jobs were enqueued.
    public func sweep(stop: () -> Bool = { false }) async throws -> Int {
        var after: UUID?
        var inserted = 0
        while !stop() {
            let page = try await environment.store.recurringJobGaps(
                kinds: recurring.map(\.name), after: after, limit: pageSize)
            guard let last = page.last else { break }
            inserted += try await fill(page.filter { !$0.missing.isEmpty })
            after = last.user
            if page.count < pageSize { break }
        }
        return inserted
    }

    /// What a user gets at once when they connect Google: the first calendar sync, mail check and
    /// Gmail watch (a worker without a Pub/Sub topic ends the last at once; the brief follows at the
    /// planner's next sweep). Same unique keys as the sweep, so nothing doubles.
    public static func firstJobs(user: UUID) -> [NewJob] {
        [AssistantKind.calendarSync, AssistantKind.mailCheck, AssistantKind.gmailWatch].map { kind in
            NewJob(kind: kind, schedule: .now, uniqueKey: AssistantKind.uniqueKey(kind, user: user), userID: user)
        }
    }

    private func fill(_ gaps: [(user: UUID, missing: [String])]) async throws -> Int {
        let env = environment
        var jobs: [NewJob] = []
        for gap in gaps {
            for kind in recurring where gap.missing.contains(kind.name) {
                var schedule = JobSchedule.now
                if kind == AssistantKind.morningBrief {
                    // The brief's first run needs the user's zone and time; later runs plan themselves.
                    guard let settings = try await env.settings(gap.user) else { continue }
                    schedule = .at(BriefSchedule.jobDue(for: settings.nextBrief(after: env.now())))
                }
                jobs.append(NewJob(kind: kind, schedule: schedule, uniqueKey: AssistantKind.uniqueKey(kind, user: gap.user),
                                   userID: gap.user))
            }
        }
        return try await env.jobs.enqueue(jobs, onConflict: .keep).filter { if case .inserted = $0 { true } else { false } }.count
    }
}
