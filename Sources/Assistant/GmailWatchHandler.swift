import AlfredCore
import Delivery
import Foundation
import Sealing
import JobQueue

/// `gmail.watch`, recurring per user when a Pub/Sub topic is configured: asks Gmail to push changes
/// of the user's inbox to the topic, and records the mailbox (by a keyed hash of its address, which
/// is how a push names it) with the watch's expiration. Renewed daily, well inside Gmail's 7 days.
///
/// While the watch is alive, `mail.check` polls only as a slow safety net; a failed renewal is
/// recorded first, so polling returns to the short interval at once, and the job retries with
/// backoff.
public struct GmailWatchHandler: JobHandler {
    public let kind = AssistantKind.gmailWatch
    let environment: AssistantEnvironment

    public init(environment: AssistantEnvironment) { self.environment = environment }

    public func run(_ payload: NoPayload, context: JobContext) async throws -> JobOutcome {
        let env = environment
        guard let topic = env.gmailTopic, let user = try await env.settings(context.userID) else { return .done }
        let watch: (expiration: Date, address: String?)
        do {
            watch = try await env.mail(user).watch(topicName: topic)
        } catch {
            try await env.store.gmailWatchFailed(connectorID: user.connector)
            throw error
        }
        guard let address = watch.address else {
            // A push could not be matched to this mailbox; polling stays at the short interval.
            try await env.store.gmailWatchFailed(connectorID: user.connector)
            throw GmailWatchError.noAddress
        }
        try await env.store.saveGmailWatch(connectorID: user.connector, userID: user.userID,
                                           addressHash: Self.mailboxHash(address, env.sealer), expiresAt: watch.expiration)
        return .runAgain(.after(Self.renewal(after: env.now(), expiration: watch.expiration, every: env.intervals.gmailWatchRenewal)))
    }

    /// The next renewal: the configured interval, but never later than halfway to the expiration.
    static func renewal(after now: Date, expiration: Date, every interval: Duration) -> Duration {
        let half = max(60, expiration.timeIntervalSince(now) / 2)
        return .seconds(min(interval.seconds, half))
    }

    /// The keyed hash a mailbox is found by; the API hashes a push's address the same way.
    public static func mailboxHash(_ address: String, _ sealer: HostSealer) -> String {
        sealer.keyedHash("gmail-address", address.trimmingCharacters(in: .whitespaces).lowercased())
    }
}

enum GmailWatchError: Error, CustomStringConvertible {
    case noAddress
    var description: String { "Gmail's profile named no address for the watched mailbox" }
}
