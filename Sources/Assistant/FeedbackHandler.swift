import AlfredCore
import Delivery
import Foundation
import Sealing
import JobQueue
import Metrics
import Urgency

/// `feedback.urgent`: the user said an urgent-mail alert was (or was not) urgent. The app names the
/// notification by its collapse id (the idempotency key), which is all it was sent; nothing about the
/// message itself comes back. Counted once per notification, for the false-positive rate (RFC §11),
/// and once per urgency rule the alert was made of, so an operator sees which rule misfires
/// (issue #17) without seeing any message.
public struct UrgentFeedbackHandler: JobHandler {
    public struct Payload: Codable, Sendable {
        public var notification: String
        /// `false_positive` or `confirmed`.
        public var verdict: String
        public init(notification: String, verdict: String) { self.notification = notification; self.verdict = verdict }
    }

    public let kind = AssistantKind.urgentFeedback
    let store: any AssistantStore
    let metrics: any MetricsFactory

    public init(store: any AssistantStore, metrics: any MetricsFactory = MetricsSystem.factory) {
        self.store = store
        self.metrics = metrics
        for verdict in Self.verdicts { _ = Self.counter(verdict, metrics) }
    }

    static let verdicts = ["false_positive", "confirmed"]
    static func counter(_ verdict: String, _ factory: any MetricsFactory) -> Counter {
        Counter(label: MetricName.urgentFeedback, dimensions: [("verdict", verdict)], factory: factory)
    }

    public func run(_ payload: Payload, context: JobContext) async throws -> JobOutcome {
        guard Self.verdicts.contains(payload.verdict) else {
            throw JobError.discard("verdict must be false_positive or confirmed")
        }
        guard let userID = context.userID else { throw JobError.discard("feedback job has no user") }
        // nil when already recorded: a repeated verdict counts nowhere a second time.
        if let rules = try await store.recordFeedback(userID: userID, idempotencyKey: payload.notification, verdict: payload.verdict) {
            Self.counter(payload.verdict, metrics).increment()
            for rule in Set(rules.map(UrgencyRuleMetrics.label)) {
                UrgencyRuleMetrics.feedback(rule: rule, verdict: payload.verdict, factory: metrics).increment()
            }
        } else {
            context.logger.info("feedback names no urgent-mail notification of this user, or was given already")
        }
        return .done
    }
}

/// The per-rule urgency counters (issue #17): `alfred_urgency_alerts_total{rule}` when an alert is
/// made, `alfred_urgency_feedback_total{rule, verdict}` when the user judges it. Their ratio per rule
/// is the rule's false-positive rate (ops/prometheus/rules/urgency-feedback.yml).
enum UrgencyRuleMetrics {
    /// The ids of the rules that pushed a decision over the bar (positive weight), sorted, without
    /// duplicates: what an alert stores and counts.
    static func alerting(_ decisions: [UrgencyDecision]) -> [String] {
        Array(Set(decisions.flatMap { $0.rules.filter { $0.weight > 0 }.map { label($0.id) } })).sorted()
    }

    /// A rule id as a label: kept when its base is a rule the scorer has (`urgency_word`) and its
    /// qualifier, if any, is short and plain (a language code such as `de`, or `name`): a bounded set.
    /// Anything else is `other`, so a label can never grow with data.
    static func label(_ id: String) -> String {
        let parts = id.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard RuleID(rawValue: String(parts[0])) != nil else { return "other" }
        if parts.count == 2 {
            let qualifier = parts[1]
            guard (1...16).contains(qualifier.count),
                  qualifier.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") })
            else { return "other" }
        }
        return id
    }

    static func alerts(rule: String, factory: any MetricsFactory) -> Counter {
        Counter(label: MetricName.urgencyAlerts, dimensions: [("rule", rule)], factory: factory)
    }

    static func feedback(rule: String, verdict: String, factory: any MetricsFactory) -> Counter {
        Counter(label: MetricName.urgencyFeedback, dimensions: [("rule", rule), ("verdict", verdict)], factory: factory)
    }
}
