import Foundation

/// A device of the user, as delivery sees it: the token stays sealed until the send.
public struct DeviceTarget: Sendable, Equatable {
    public let id: UUID
    /// `sandbox` or `production`.
    public let environment: String
    public let tokenSealed: [UInt8]
    /// Last (re-)registration: a 410 whose timestamp is older than this does not retire the device.
    public let registeredAt: Date
    public init(id: UUID, environment: String, tokenSealed: [UInt8], registeredAt: Date) {
        self.id = id; self.environment = environment; self.tokenSealed = tokenSealed; self.registeredAt = registeredAt
    }
}

/// Where one notification stands, read at the start of a `push.deliver` run.
public struct DeliveryPlan: Sendable {
    public enum State: String, Sendable, CaseIterable {
        case pending, delivered, expired, failed, unconfirmed
        case noDevice = "no_device"
    }
    public enum SendState: String, Sendable { case sending, accepted, rejected, unconfirmed }

    public let idempotencyKey: String
    public let userID: UUID
    /// `meeting.reminder`, `morning.brief`, `mail.urgent`, `mail.relay`.
    public let kind: String
    public let deadline: Date?
    public let state: State
    /// The user's active (not retired) devices.
    public let devices: [DeviceTarget]
    /// Earlier runs' records, by device id (retired devices included).
    public let sends: [UUID: SendState]
    /// Devices marked `sending` by this run (send to these, and only these), with their `apns-id`.
    public let claimed: [UUID: UUID]
    /// The deadline has passed by the database's clock (which also decided not to claim).
    public let pastDeadline: Bool

    public init(idempotencyKey: String, userID: UUID, kind: String, deadline: Date?, state: State,
                devices: [DeviceTarget], sends: [UUID: SendState], claimed: [UUID: UUID] = [:], pastDeadline: Bool = false) {
        self.idempotencyKey = idempotencyKey; self.userID = userID; self.kind = kind; self.deadline = deadline
        self.state = state; self.devices = devices; self.sends = sends; self.claimed = claimed; self.pastDeadline = pastDeadline
    }
}

/// One device's outcome in a run.
public struct SendOutcome: Sendable, Equatable {
    public enum Result: Sendable, Equatable {
        case accepted(at: Date)
        /// APNs said the token is dead (`Unregistered`, `BadDeviceToken`, ...): retire the device.
        case retire(reason: String)
        /// Refused for good for this notification (a malformed request); the device stays.
        case rejected(reason: String)
        /// Try again later: the `sending` mark is removed so a later run sends it.
        case retry
        /// A previous run's `sending` mark: APNs may have it. Never resent.
        case unconfirmed
    }
    public let deviceID: UUID
    public let result: Result
    public init(deviceID: UUID, result: Result) { self.deviceID = deviceID; self.result = result }
}

/// The `DELIVERY` event a finished notification leaves in its user's audit trail (connector `apns`).
public struct DeliveryAudit: Sendable, Equatable {
    public let userID: UUID
    /// The final state, upper-cased (`DELIVERED`, `NO_DEVICE`, ...).
    public let result: String
    /// Kind and device count: nothing personal.
    public let metadata: [String: String]
    public init(userID: UUID, result: String, metadata: [String: String]) {
        self.userID = userID; self.result = result; self.metadata = metadata
    }
}

/// Delivery's storage: the notification ledger, devices and per-device send records.
public protocol DeliveryStore: Sendable {
    /// The notification whose push job this is, or nil (its user was deleted, or it was pruned).
    /// Unless it is finished or past its deadline, every active device without a send record gets a
    /// `sending` mark, committed before this returns (`DeliveryPlan.claimed`); a device marked by an
    /// earlier run is never claimed again.
    func beginDelivery(jobID: UUID) async throws -> DeliveryPlan?
    /// Records outcomes and retirements in one transaction. With `finish`, also sets the
    /// notification's final state, deletes the push job's payload (the sealed text) and appends
    /// `audit`, if any, to the user's audit trail.
    /// Returns true when this call set `first_accepted_at` (the first APNs 200 for the notification).
    func recordSends(key: String, jobID: UUID, outcomes: [SendOutcome], finish: DeliveryPlan.State?,
                     audit: DeliveryAudit?) async throws -> Bool
    /// Registers a device (or re-registers it: a retired one comes back). Returns its id.
    func registerDevice(userID: UUID, tokenKey: String, tokenSealed: [UInt8], environment: String) async throws -> UUID
}
