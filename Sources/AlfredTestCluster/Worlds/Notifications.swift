import AlfredCore
import Delivery
import Foundation
import JobQueue
import PostgresNIO
import Store

/// What a producer (a reminder, a brief, a mail check) hands delivery, and the ledger row it
/// becomes: one way for every world with a worker pool (`alfred_worker`) to queue and follow a push.
extension World.Running {
    /// Queues `content` for the user through the outbox (the sealed push job and its ledger row).
    public func notify(_ content: PushContent, userID: UUID, key: String, deadline: Date?, at: Date? = nil) async throws {
        let logger = logger("alfred.delivery")
        let pool = pool("alfred_worker")
        let store = PostgresAssistantStore(client: pool, jobs: PostgresJobStore(client: pool, logger: logger), logger: logger)
        _ = try await store.notify(try Outbox(sealer: sealer).notification(content, userID: userID, idempotencyKey: key,
                                                                             deadline: deadline, at: at))
    }

    /// The notification's ledger state (`pending` until delivery finishes it); nil when there is none.
    public func notificationState(_ key: String) async throws -> String? {
        try await owner.query("SELECT state FROM notifications WHERE idempotency_key = \(key)", logger: TestDatabase.quietLogger)
            .collect().first?.decode(String.self)
    }

    /// The notification's state once it left `pending` (polls the ledger row).
    public func settledState(_ key: String, timeout: Duration = .seconds(60)) async throws -> String? {
        _ = try await eventually(timeout: timeout) { try await notificationState(key) != "pending" }
        return try await notificationState(key)
    }
}
