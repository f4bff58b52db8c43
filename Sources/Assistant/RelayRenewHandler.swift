import AlfredCore
import Delivery
import Foundation
import JobQueue

/// `relay.renew`: the app's Gmail watch for its relayed mailbox lapses in a day (Gmail's watches
/// last 7 days), so the app is sent a silent push (`alfred.kind` = `renew_watch`) to call
/// `users.watch` again and register the new expiry (which moves this job). A mailbox no longer
/// relayed needs nothing; a watch renewed meanwhile waits for its own time.
public struct RelayRenewHandler: JobHandler {
    public let kind = AssistantKind.relayRenew
    let environment: AssistantEnvironment

    public init(environment: AssistantEnvironment) { self.environment = environment }

    public func run(_ payload: NoPayload, context: JobContext) async throws -> JobOutcome {
        guard let userID = context.userID, let expires = try await environment.store.relayWatchExpiry(userID: userID) else { return .done }
        let now = environment.now()
        let renewAt = expires.addingTimeInterval(-AssistantEnvironment.relayRenewLead)
        if renewAt.timeIntervalSince(now) > 60 { return .runAgain(.at(renewAt)) }
        let key = "relay-renew:" + environment.sealer.keyedHash("relay-renew", userID.uuidString.lowercased(),
                                                                "\(Int(expires.timeIntervalSince1970))")
        let content = PushContent(kind: DeliveryMetrics.relayRenewKind, title: "", body: "", scheduledAt: now, collapseID: String(key.suffix(32)))
        _ = try await environment.store.notify(try environment.outbox.notification(content, userID: userID, idempotencyKey: key,
                                                                                   deadline: max(expires, now.addingTimeInterval(3600))))
        return .done
    }
}
