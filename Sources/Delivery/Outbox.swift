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
    /// Collapses related pushes on the device (apns-collapse-id); opaque. Also the notification's id
    /// for the app (its deep link, and what "Not urgent" posts to `/v1/feedback/urgent`).
    public var collapseID: String
    /// A reminder's video link (http or https), for the "Join" action; nil for everything else.
    public var joinURL: String?

    public init(kind: String, title: String, body: String, scheduledAt: Date, collapseID: String, joinURL: String? = nil) {
        self.kind = kind; self.title = title; self.body = body; self.scheduledAt = scheduledAt; self.collapseID = collapseID
        self.joinURL = joinURL.flatMap(NotificationContract.joinURL)
    }
}

/// What the app relies on in an alert (docs/api.md, "Notifications"): a category per kind, which
/// picks the actions iOS offers, and a deep link that names what to open by id, never by content.
public enum NotificationContract {
    public static let reminder = "ALFRED_REMINDER"
    /// A reminder whose meeting has a video link: adds "Join" (opens `join_url`).
    public static let reminderWithJoin = "ALFRED_REMINDER_JOIN"
    /// Adds "Not urgent", which posts `{"notification_id", "verdict": "false_positive"}` to `/v1/feedback/urgent`.
    public static let urgentMail = "ALFRED_URGENT_MAIL"
    public static let brief = "ALFRED_BRIEF"

    public static func category(_ content: PushContent) -> String? {
        switch content.kind {
        case "meeting.reminder": content.joinURL == nil ? reminder : reminderWithJoin
        case "mail.urgent": urgentMail
        case "morning.brief": brief
        default: nil
        }
    }

    /// `alfred://reminder/<id>`, `alfred://urgent/<id>`, `alfred://brief/<id>`: the notification's own id.
    public static func link(_ content: PushContent) -> String? {
        let screen: String
        switch content.kind {
        case "meeting.reminder": screen = "reminder"
        case "mail.urgent": screen = "urgent"
        case "morning.brief": screen = "brief"
        default: return nil
        }
        return "alfred://\(screen)/\(content.collapseID)"
    }

    /// A link "Join" may open: http(s), at most 512 bytes (longer ones would cost the alert's text).
    public static func joinURL(_ text: String) -> String? {
        guard text.utf8.count <= 512, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
              scheme == "https" || scheme == "http", url.host?.isEmpty == false
        else { return nil }
        return text
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
