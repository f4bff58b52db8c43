import Foundation

/// What `alfred api` keeps: users by their (hashed) Apple account, sessions with single-use refresh
/// tokens, devices by the app's (hashed) device id, and preferences. `PostgresAPIStore` is the real one.
public protocol APIStore: Sendable {
    /// Answers when the database does (the health check).
    func ping() async throws

    /// Finds the user with this Apple account hash and opens a session for it; or, when there is
    /// none, creates the account if the signup policy admits `claim` (else stores nothing at all).
    func signIn(appleSubjectHash: String, claim: SignupClaim, session: NewSession) async throws -> SignInOutcome

    /// Replaces a session's refresh token (single use). A token that was already used ends its session.
    func refresh(_ refreshHash: [UInt8], replacement: [UInt8], expiresAt: Date) async throws -> RefreshOutcome

    /// True while the session exists, belongs to the user and is not revoked.
    func sessionIsActive(_ sessionID: UUID, userID: UUID) async throws -> Bool

    /// Ends the session (logout).
    func endSession(_ sessionID: UUID, userID: UUID) async throws

    /// Apple said the account with this hash stopped using Alfred: every session of its user ends
    /// with `reason` and every device is retired. Returns the user; nil when Alfred does not know it.
    func endAccountSessions(appleSubjectHash: String, reason: String) async throws -> UUID?

    /// Sweeps sign-in state that is no longer needed (at most `limit` rows of each kind): sessions
    /// past their expiry end and retire their devices; ended sessions and retired devices go after
    /// `retention`; used refresh tokens after `usedTokenWindow` (their session's refresh lifetime).
    func sweepSessions(usedTokenWindow: Duration, retention: Duration, limit: Int) async throws -> SessionSweep

    /// Registers or updates the user's device (by its hashed app device id), bound to the session
    /// that registers it. A device of the user's that had the same APNs token under another device id
    /// is replaced; the token's live row under another account is retired (`registered_elsewhere`).
    func registerDevice(userID: UUID, sessionID: UUID, deviceRef: String, tokenKey: String, tokenSealed: [UInt8],
                        environment: String) async throws

    /// Removes one of the user's devices; false when the user has no such device.
    func unregisterDevice(userID: UUID, deviceRef: String) async throws -> Bool

    /// Removes one of the user's devices by the server's id (as `devices` lists it); false when none.
    func deleteDevice(userID: UUID, id: UUID) async throws -> Bool

    /// The user's live devices, oldest first.
    func devices(userID: UUID, sessionID: UUID) async throws -> [DeviceSummary]

    /// The user's preferences (the defaults when none were saved).
    func preferences(userID: UUID) async throws -> UserPreferences

    /// Saves the user's preferences and, in the same transaction, moves what is already queued:
    /// every queued job of `reminderKind` by the change in lead time, and the queued job with
    /// `briefKey` to `briefDue` (when given). Returns the preferences that were replaced.
    func updatePreferences(_ preferences: UserPreferences, userID: UUID, reminderKind: String,
                           brief: (key: String, due: Date)?) async throws -> UserPreferences

    /// The user's VIP senders and keywords, sealed (`HostSealer.Purpose.preferences`); nil when never set.
    func urgencyPreferences(userID: UUID) async throws -> [UInt8]?

    /// Replaces them; the assistant reads them at its next mail check.
    func setUrgencyPreferences(userID: UUID, sealed: [UInt8]) async throws

    /// Records a pending Google connect. The user's expired ones are dropped, and only the newest
    /// `keepPerUser` stay open.
    func openConnect(_ pending: PendingConnect, keepPerUser: Int) async throws

    /// Takes (and so ends) the pending connect with this state hash, if `sessionID` of `userID`
    /// started it; nil otherwise. Expired ones are returned too: the caller refuses them.
    func takeConnect(stateHash: String, sessionID: UUID, userID: UUID) async throws -> PendingConnect?

    /// The user's connectors that are not revoked, oldest first.
    func connectors(userID: UUID) async throws -> [ConnectorSummary]

    /// The status of one of the user's connectors; nil when the user has no such connector.
    func connectorStatus(_ id: UUID, userID: UUID) async throws -> ConnectorStatus?

    /// The users whose active connector's mailbox has this address hash and is watched.
    func mailboxOwners(addressHash: String) async throws -> [UUID]

    /// Relay mode: the user's relayed mailbox (replaced), removed (false: there was none), and the
    /// users relaying a mailbox.
    func setRelayMailbox(userID: UUID, addressHash: String, watchExpiresAt: Date) async throws
    func deleteRelayMailbox(userID: UUID) async throws -> Bool
    func relayOwners(addressHash: String) async throws -> [UUID]
}

/// A Google connect between `start` and `callback`.
public struct PendingConnect: Sendable {
    /// A keyed hash of the `state` handed to the app (the state itself is never stored).
    public let stateHash: String
    public let userID: UUID
    public let sessionID: UUID
    public let client: OAuthClientKind
    public let redirectURI: String
    /// The PKCE verifier, sealed with the host data key.
    public let verifierSealed: [UInt8]
    public let expiresAt: Date

    public init(stateHash: String, userID: UUID, sessionID: UUID, client: OAuthClientKind, redirectURI: String,
                verifierSealed: [UInt8], expiresAt: Date) {
        self.stateHash = stateHash; self.userID = userID; self.sessionID = sessionID; self.client = client
        self.redirectURI = redirectURI; self.verifierSealed = verifierSealed; self.expiresAt = expiresAt
    }
}

/// A connector as its user may see it: no secrets.
public struct ConnectorSummary: Sendable, Equatable {
    public let id: UUID
    public let provider: String
    public let status: ConnectorStatus
    public let scopes: [String]
    public let createdAt: Date

    public init(id: UUID, provider: String, status: ConnectorStatus, scopes: [String], createdAt: Date) {
        self.id = id; self.provider = provider; self.status = status; self.scopes = scopes; self.createdAt = createdAt
    }
}

/// A live device as its user may see it: the server's id, never the token or the app's device id.
public struct DeviceSummary: Sendable, Equatable {
    public let id: UUID
    public let environment: String
    public let registeredAt: Date
    public let updatedAt: Date
    /// Registered by the session asking.
    public let thisSession: Bool

    public init(id: UUID, environment: String, registeredAt: Date, updatedAt: Date, thisSession: Bool) {
        self.id = id; self.environment = environment; self.registeredAt = registeredAt; self.updatedAt = updatedAt
        self.thisSession = thisSession
    }
}

/// What one sweep of sign-in state did.
public struct SessionSweep: Sendable, Equatable {
    public var expired = 0, deletedSessions = 0, deletedUsedTokens = 0, deletedDevices = 0
    public init(expired: Int = 0, deletedSessions: Int = 0, deletedUsedTokens: Int = 0, deletedDevices: Int = 0) {
        self.expired = expired; self.deletedSessions = deletedSessions; self.deletedUsedTokens = deletedUsedTokens
        self.deletedDevices = deletedDevices
    }
    /// True when some part hit the limit (sweep again).
    public func full(_ limit: Int) -> Bool { [expired, deletedSessions, deletedUsedTokens, deletedDevices].contains { $0 >= limit } }
}

/// A session about to be opened.
public struct NewSession: Sendable {
    public let id: UUID
    public let refreshHash: [UInt8]
    public let expiresAt: Date
    public init(id: UUID, refreshHash: [UInt8], expiresAt: Date) {
        self.id = id; self.refreshHash = refreshHash; self.expiresAt = expiresAt
    }
}

public enum RefreshOutcome: Sendable, Equatable {
    /// The token was current: it is now used, and its successor is the session's token.
    case rotated(sessionID: UUID, userID: UUID)
    /// The token was already used: the session it belonged to is now revoked.
    case reused
    /// Unknown, expired, or of a revoked session.
    case invalid
}

/// A user's preferences as the API and the assistant read them (RFC §7.4, plus the time zone).
public struct UserPreferences: Sendable, Equatable {
    public var meetingReminderMinutes: Int
    /// `HH:MM`.
    public var morningBriefLocalTime: String
    /// `HH:MM`, both set or both nil.
    public var quietHoursStart: String?
    public var quietHoursEnd: String?
    public var highRiskRequiresConfirm: Bool
    /// An IANA name.
    public var timeZone: String

    public init(meetingReminderMinutes: Int, morningBriefLocalTime: String, quietHoursStart: String?, quietHoursEnd: String?,
                highRiskRequiresConfirm: Bool, timeZone: String) {
        self.meetingReminderMinutes = meetingReminderMinutes
        self.morningBriefLocalTime = morningBriefLocalTime
        self.quietHoursStart = quietHoursStart
        self.quietHoursEnd = quietHoursEnd
        self.highRiskRequiresConfirm = highRiskRequiresConfirm
        self.timeZone = timeZone
    }

    /// The RFC's defaults (and the table's).
    public static let defaults = UserPreferences(meetingReminderMinutes: 15, morningBriefLocalTime: "08:00",
                                                 quietHoursStart: "22:00", quietHoursEnd: "07:00",
                                                 highRiskRequiresConfirm: true, timeZone: "UTC")
}
