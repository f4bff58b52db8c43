import AlfredCore
import Delivery
import Foundation
import Sealing
import JobQueue

/// `relay.wake`: a Gmail push for a relayed mailbox became this job (the API enqueues it by unique
/// key, so a burst while it waits is one job). It hands delivery one silent background push for the
/// user's devices, coalesced per 20-minute window (see `relayHint`). No content is involved: the
/// job has no payload and the push says only "sync".
public struct RelayWakeHandler: JobHandler {
    public let kind = AssistantKind.relayWake
    let environment: AssistantEnvironment

    public init(environment: AssistantEnvironment) { self.environment = environment }

    public func run(_ payload: NoPayload, context: JobContext) async throws -> JobOutcome {
        guard let userID = context.userID else { return .done }
        try await environment.relayHint(userID: userID)
        return .done
    }
}
