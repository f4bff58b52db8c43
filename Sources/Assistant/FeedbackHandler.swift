import AlfredCore
import Foundation
import JobQueue
import Metrics

/// `feedback.urgent`: the user said an urgent-mail alert was (or was not) urgent. The app names the
/// notification by its collapse id (the idempotency key), which is all it was sent; nothing about the
/// message itself comes back. Counted once per notification, for the false-positive rate (RFC §11).
public struct UrgentFeedbackHandler: JobHandler {
    public struct Payload: Codable, Sendable {
        public var notification: String
        /// `false_positive` or `confirmed`.
        public var verdict: String
        public init(notification: String, verdict: String) { self.notification = notification; self.verdict = verdict }
    }

    public let kind = AssistantKind.urgentFeedback
    let store: any AssistantStore

    public init(store: any AssistantStore) {
        self.store = store
        for verdict in Self.verdicts { _ = Self.counter(verdict) }
    }

    static let verdicts = ["false_positive", "confirmed"]
    static func counter(_ verdict: String) -> Counter { Counter(label: MetricName.urgentFeedback, dimensions: [("verdict", verdict)]) }

    public func run(_ payload: Payload, context: JobContext) async throws -> JobOutcome {
        guard Self.verdicts.contains(payload.verdict) else {
            throw JobError.discard("verdict must be false_positive or confirmed")
        }
        guard let userID = context.userID else { throw JobError.discard("feedback job has no user") }
        if try await store.recordFeedback(userID: userID, idempotencyKey: payload.notification, verdict: payload.verdict) {
            Self.counter(payload.verdict).increment()
        } else {
            context.logger.info("feedback names no urgent-mail notification of this user, or was given already")
        }
        return .done
    }
}
