import AlfredCore
import Foundation
import JobQueue
import Sealing

/// The delivery stage's job kind.
public enum DeliveryKind {
    /// Delivery's own queue, so slow APNs calls never starve claiming.
    public static let pushDeliver = JobKind("push.deliver", queue: "delivery", maxAttempts: 20, priority: 10)
}

/// What delivery sends: composed here, sealed in the `push.deliver` payload, opened only to send.
public struct PushContent: Codable, Sendable, Equatable {
    /// `meeting.reminder`, `morning.brief`, `mail.urgent`.
    public var kind: String
    public var title: String
    public var body: String
    /// When the user should have had it (the reminder time): delivery measures lateness against it.
    public var scheduledAt: Date
    /// Collapses related pushes on the device (apns-collapse-id); opaque.
    public var collapseID: String

    public init(kind: String, title: String, body: String, scheduledAt: Date, collapseID: String) {
        self.kind = kind; self.title = title; self.body = body; self.scheduledAt = scheduledAt; self.collapseID = collapseID
    }
}

/// Hands notifications to delivery: a sealed `push.deliver` job and its ledger row, together.
public struct Outbox: Sendable {
    let sealer: HostSealer

    public init(sealer: HostSealer) { self.sealer = sealer }

    /// - Parameter at: when to send (nil: now).
    public func notification(_ content: PushContent, userID: UUID, idempotencyKey: String,
                             deadline: Date?, at: Date? = nil) throws -> OutboundNotification {
        let payload = try SealedPayload.make(content, sealer: sealer, userID: userID, purpose: .notification)
        var job = NewJob(kind: DeliveryKind.pushDeliver, payload: payload, schedule: at.map { .at($0) } ?? .now,
                         uniqueKey: idempotencyKey, userID: userID)
        job.priority = content.kind == "meeting.reminder" ? 10 : 0
        return OutboundNotification(userID: userID, kind: content.kind, idempotencyKey: idempotencyKey, job: job, deadline: deadline,
                                    scheduledAt: content.scheduledAt)
    }
}
