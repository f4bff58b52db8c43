import AlfredCore
import Delivery
import Foundation
import Sealing
import JobQueue
import Urgency

/// `mail.check`, recurring per user (a Gmail push hint brings it forward): new mail since the stored
/// `historyId`, metadata only, scored by the urgency rules; urgent messages not alerted before are
/// coalesced into one push.
///
/// Quiet hours: a message must clear the rule set's higher quiet-hours bar to interrupt; one that is
/// urgent by the normal bar only is held, and the morning brief names it.
/// Alerts, the push and the new cursor commit in one transaction: a crash re-reads the same history
/// and the per-message dedupe keys make that harmless.
public struct MailCheckHandler: JobHandler {
    public let kind = AssistantKind.mailCheck
    let environment: AssistantEnvironment
    /// Threads the user wrote in, remembered for the "reply in my thread" rule.
    static let ownThreadMemory = 200

    public init(environment: AssistantEnvironment) { self.environment = environment }

    /// While the mailbox's watch outlives the slow interval, pushes bring checks forward and polling
    /// is only a safety net; without one (not watched yet, a failed renewal, no topic), the short interval.
    static func nextCheck(_ user: UserSettings, env: AssistantEnvironment, now: Date) -> Duration {
        guard let until = user.gmailWatchUntil, until.timeIntervalSince(now) > env.intervals.mailSafetyNet.seconds else {
            return env.intervals.mailCheck
        }
        return env.intervals.mailSafetyNet
    }

    public func run(_ payload: NoPayload, context: JobContext) async throws -> JobOutcome {
        let env = environment
        guard let user = try await env.settings(context.userID) else { return .done }
        let reader = env.mail(user)
        let now = env.now()
        let sealedCursor = try await env.store.cursor(connectorID: user.connector, kind: "gmail")
        guard let cursor = sealedCursor.flatMap({
            try? env.sealer.open(json: MailCursor.self, from: $0, purpose: .cursor, userID: user.userID)
        }) else {
            // First check: start from now. Mail that arrived before the user connected is not news.
            let start = try await reader.start()
            try await save(MailCursor(historyID: start.historyID, address: start.address, checkedAt: now), user: user)
            return .runAgain(.after(Self.nextCheck(user, env: env, now: now)))
        }

        let changes = try await reader.changes(since: cursor.historyID)
        var messages = try await reader.messages(ids: changes.messageIDs)
        if changes.fellBack {
            // The recent inbox replaces the lost history: only what arrived since the last check is new.
            let since = cursor.checkedAt.addingTimeInterval(-60)
            messages = messages.filter { ($0.receivedAt ?? now) > since }
        }

        var preferences = user.urgency
        preferences.userAddresses += cursor.address.map { [$0] } ?? []
        preferences.ownThreadIds += cursor.ownThreads
        preferences.timeZone = user.schedule.timeZone
        var scorer = UrgencyScorer(ruleSet: env.ruleSet, preferences: preferences)
        var ownThreads = cursor.ownThreads
        for message in messages where message.labels.contains("SENT") {
            scorer.learn(from: message)
            if let thread = message.threadId, !ownThreads.contains(thread) { ownThreads.append(thread) }
        }

        let quiet = user.isQuiet(now)
        var scored: [(message: GmailMessage, alert: MailAlert, decision: UrgencyDecision)] = []
        for message in messages {
            let decision = scorer.score(message, now: now)
            environment.counters.mailScored.increment()
            guard decision.urgent else { continue }
            let loud = !quiet || decision.score >= scorer.quietHoursThreshold
            // Rule ids and the score only: the decision never carries subjects or addresses.
            context.logger.debug("urgent mail", metadata: [
                "score": "\(decision.score)", "rules": "\(decision.rules.map(\.id).joined(separator: ","))",
                "disposition": "\(loud ? "alerted" : "held")"])
            scored.append((message, MailAlert(
                messageKey: "mail:" + env.sealer.keyedHash("mail", user.userID.uuidString, message.id),
                messageSealed: try env.sealer.seal(Array(message.id.utf8), purpose: .mailID, userID: user.userID),
                disposition: loud ? .alerted : .held, score: decision.score), decision))
        }

        let candidates = scored
        if candidates.isEmpty && changes.historyID == cursor.historyID && ownThreads == cursor.ownThreads {
            // Nothing arrived: the stored cursor is still right (the common idle check costs no write).
            return .runAgain(.after(Self.nextCheck(user, env: env, now: now)))
        }
        if candidates.isEmpty {
            try await save(MailCursor(historyID: changes.historyID, address: cursor.address,
                                      ownThreads: Array(ownThreads.suffix(Self.ownThreadMemory)), checkedAt: now), user: user)
            return .runAgain(.after(Self.nextCheck(user, env: env, now: now)))
        }
        let next = MailCursor(historyID: changes.historyID, address: cursor.address,
                              ownThreads: Array(ownThreads.suffix(Self.ownThreadMemory)), checkedAt: now)
        let sealedNext = try env.sealer.seal(json: next, purpose: .cursor, userID: user.userID)
        let userID = user.userID, connector = user.connector
        let composer = env.composer, outbox = env.outbox, sealer = env.sealer
        let deadline = now.addingTimeInterval(env.intervals.urgentMailDeadline.seconds)
        let ruleSetVersion = env.ruleSet.version
        let outcome = try await env.store.transaction { tx -> (alerted: Int, held: Int, duplicates: Int, rules: [String]) in
            let fresh = try await tx.recordMailAlerts(candidates.map(\.alert), userID: userID)
            let alerted = candidates.filter { fresh.contains($0.alert.messageKey) && $0.alert.disposition == .alerted }
            var rules: [String] = []
            if !alerted.isEmpty {
                let text = composer.urgentMail(alerted.map(\.message))
                let key = "mail:" + sealer.keyedHash("mail-push", userID.uuidString,
                                                     alerted.map(\.message.id).sorted().joined(separator: ","))
                let content = PushContent(kind: "mail.urgent", title: text.title, body: text.body, scheduledAt: now,
                                          collapseID: String(key.suffix(32)))
                var notification = try outbox.notification(content, userID: userID, idempotencyKey: key, deadline: deadline)
                // The rules behind the alert (every message it names), so the user's verdict is counted by rule.
                let alerting = UrgencyRuleMetrics.alerting(alerted.map(\.decision))
                notification.urgency = AlertRules(ids: alerting, ruleSet: ruleSetVersion)
                if try await tx.notify(notification) { rules = alerting }
            }
            try await tx.saveCursor(connectorID: connector, userID: userID, kind: "gmail", sealed: sealedNext)
            let held = candidates.filter { fresh.contains($0.alert.messageKey) && $0.alert.disposition == .held }.count
            return (alerted.count, held, candidates.count - fresh.count, rules)
        }
        for rule in outcome.rules { UrgencyRuleMetrics.alerts(rule: rule, factory: env.metrics).increment() }
        environment.counters.urgent("alerted").increment(by: outcome.alerted)
        environment.counters.urgent("held").increment(by: outcome.held)
        environment.counters.urgent("duplicate").increment(by: outcome.duplicates)
        if outcome.alerted > 0 { environment.counters.enqueued("mail.urgent").increment() }
        return .runAgain(.after(Self.nextCheck(user, env: env, now: now)))
    }

    private func save(_ cursor: MailCursor, user: UserSettings) async throws {
        let sealed = try environment.sealer.seal(json: cursor, purpose: .cursor, userID: user.userID)
        try await environment.store.saveCursor(connectorID: user.connector, userID: user.userID, kind: "gmail", sealed: sealed)
    }
}
