import AlfredCore
import AlfredTestCluster
import Foundation
import PostgresNIO
import StandIns
import Testing
import Urgency
@testable import Assistant
@testable import Delivery
@testable import Sealing

/// The false-positive loop (issue #17 part 4): an urgent-mail alert keeps the ids of the rules that
/// made it, and the user's verdict is counted once per rule, so an operator sees which rule misfires
/// without seeing any message. Real worker, real Postgres, the Google stand-in.
@Suite(.serialized, .timeLimit(.minutes(5))) struct UrgencyFeedbackTests {
    static let scenario = """
        { "users": [{ "subject": "\(AssistantWorld.subject)", "email": "\(AssistantWorld.email)", "timeZone": "Europe/Zurich",
            "events": [] }] }
        """
    static let sender = "Grace Hopper <grace.hopper@navy.example>"
    static let subject = "URGENT: payroll export stuck"
    static let snippet = "Finance is blocked until the export runs, can you restart it"
    /// Everything personal about the message: none of it may reach the new columns or a metric label.
    static let personal = ["grace.hopper@navy.example", "Grace Hopper", "payroll export stuck", "Finance is blocked", "m-payroll"]

    @Test func notUrgentFeedbackIsCountedOncePerRuleOfTheAlert() async throws {
        try await AssistantWorld().run(scenario: Self.scenario) { w in
            _ = try await w.plan()
            // Let the first mail check take its starting point before mail arrives.
            #expect(try await eventually {
                try await w.owner.query("SELECT count(*) FROM sync_cursors WHERE kind = 'gmail'", logger: TestDatabase.quietLogger)
                    .collect().first?.decode(Int.self) == 1
            })
            _ = try w.google.deliverMessage(GoogleStandIn.SeedMessage(
                id: "m-payroll", from: Self.sender, to: AssistantWorld.email, subject: Self.subject,
                labelIds: ["INBOX", "UNREAD", "IMPORTANT"], snippet: Self.snippet), toUser: AssistantWorld.email)
            #expect(try await eventually { try await w.pushes().contains { $0.content.kind == "mail.urgent" } })

            // The alert's row: the rules that pushed it over the bar, sorted and unique, and the version.
            let row = try #require(try await w.owner.query("""
                SELECT idempotency_key, urgency_rules, urgency_rule_set FROM notifications WHERE kind = 'mail.urgent'
                """, logger: TestDatabase.quietLogger).collect().first?.decode((String, [String]?, String?).self))
            let (key, stored, ruleSet) = row
            let rules = try #require(stored)
            #expect(rules.contains("urgency_word:en"), "\(rules)")
            #expect(rules == Array(Set(rules)).sorted(), "sorted, without duplicates: \(rules)")
            #expect(ruleSet == w.environment.ruleSet.version)
            for rule in rules {
                let base = try #require(RuleID(rawValue: String(rule.split(separator: ":")[0])), "\(rule) is a rule of the rule set")
                #expect(w.environment.ruleSet.weight(base) > 0, "\(rule): only rules that push towards urgent are kept")
            }
            // One alert counted once for each of its rules, and for no other rule. The mail check counts
            // after its transaction commits, and the delivery worker may send the push before that: wait
            // for the count, not for the push.
            let expected = rules.map { CountingMetrics.key(MetricName.urgencyAlerts, [("rule", $0)]) }.sorted()
            var alertKeys: [String] = []
            #expect(try await eventually {
                alertKeys = w.metrics.keys.filter { $0.hasPrefix(MetricName.urgencyAlerts + "{") }
                return alertKeys == expected
            }, "\(alertKeys)")
            for rule in rules { #expect(w.metrics.count(MetricName.urgencyAlerts, [("rule", rule)]) == 1, "\(rule)") }

            // "This was not urgent", sent twice (the second as its own job, as a retried request would be
            // without the API's unique key): counted once per rule.
            for _ in 0..<2 {
                try await Self.feedback(w, notification: key, verdict: "false_positive")
            }
            // And a later "confirmed" for the same alert changes nothing either.
            try await Self.feedback(w, notification: key, verdict: "confirmed")
            let feedbackKeys = w.metrics.keys.filter { $0.hasPrefix(MetricName.urgencyFeedback + "{") }
            #expect(feedbackKeys == rules.map {
                CountingMetrics.key(MetricName.urgencyFeedback, [("rule", $0), ("verdict", "false_positive")])
            }.sorted())
            for rule in rules {
                #expect(w.metrics.count(MetricName.urgencyFeedback, [("rule", rule), ("verdict", "false_positive")]) == 1, "\(rule)")
            }
            let feedback = try await w.owner.query("SELECT feedback FROM notifications WHERE idempotency_key = \(key)",
                                                   logger: TestDatabase.quietLogger).collect().first?.decode(String?.self)
            #expect(feedback == "false_positive")

            // No message content in the new columns, anywhere else in the database, or in a metric label.
            let labels = w.metrics.allKeys.joined(separator: "\n")
            for needle in Self.personal {
                #expect(try await plaintextHits(of: needle, in: w.owner) == [], "\(needle) stored in plaintext")
                #expect(!labels.localizedCaseInsensitiveContains(needle), "\(needle) reached a metric label")
            }
        }
    }

    /// Enqueues the user's verdict as the API does and waits until the job has run.
    static func feedback(_ w: AssistantWorld.Running, notification: String, verdict: String) async throws {
        let payload = UrgentFeedbackHandler.Payload(notification: notification, verdict: verdict)
        let job = NewJob(kind: AssistantKind.urgentFeedback, payload: Array(try JSONEncoder().encode(payload)), userID: w.userID)
        let id = try #require(try await w.environment.jobs.enqueue([job], onConflict: .keep).first?.jobID)
        #expect(try await eventually {
            try await w.owner.query("SELECT state FROM jobs WHERE id = \(id.uuid)", logger: TestDatabase.quietLogger)
                .collect().first?.decode(String.self) == "completed"
        }, "the feedback job ran")
    }

    /// What an alert stores and counts: positive-weight rules only, each once, sorted; an id that is not
    /// a rule of the scorer (or carries an odd qualifier) becomes `other`, so labels stay a bounded set.
    @Test func alertingRulesArePositiveSortedUniqueAndBounded() {
        let first = UrgencyDecision(urgent: true, score: 75, threshold: 60, rules: [
            FiredRule(id: "vip_sender", weight: 40), FiredRule(id: "urgency_word:de", weight: 45),
            FiredRule(id: "cc_only", weight: -10)], ruleSetVersion: "v1")
        let second = UrgencyDecision(urgent: true, score: 70, threshold: 60, rules: [
            FiredRule(id: "urgency_word:de", weight: 45), FiredRule(id: "deadline_soon", weight: 25),
            FiredRule(id: "Grace Hopper <grace.hopper@navy.example>", weight: 5),
            FiredRule(id: "urgency_word:payroll export stuck", weight: 5), FiredRule(id: "gmail_starred", weight: 0)],
            ruleSetVersion: "v1")
        #expect(UrgencyRuleMetrics.alerting([first, second]) == ["deadline_soon", "other", "urgency_word:de", "vip_sender"])
        #expect(UrgencyRuleMetrics.label("impersonation:name") == "impersonation:name")
        #expect(UrgencyRuleMetrics.label("urgency_word:pt-BR") == "urgency_word:pt-BR")
        #expect(UrgencyRuleMetrics.label("suppressed:spam") == "other")
    }
}
