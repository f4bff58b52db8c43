import Foundation

/// What `alfred api` keeps: users by their (hashed) Apple account, sessions with single-use refresh
/// tokens, devices by the app's (hashed) device id, and preferences. `PostgresAPIStore` is the real one.
public protocol APIStore: Sendable {
    /// Answers when the database does (the health check).
    func ping() async throws

    /// Finds the user with this Apple account hash, or creates one, and opens a session for it.
    func signIn(appleSubjectHash: String, session: NewSession) async throws -> (userID: UUID, created: Bool)

    /// Replaces a session's refresh token (single use). A token that was already used ends its session.
    func refresh(_ refreshHash: [UInt8], replacement: [UInt8], expiresAt: Date) async throws -> RefreshOutcome

    /// True while the session exists, belongs to the user and is not revoked.
    func sessionIsActive(_ sessionID: UUID, userID: UUID) async throws -> Bool

    /// Ends the session (logout).
    func endSession(_ sessionID: UUID, userID: UUID) async throws

    /// Registers or updates the user's device (by its hashed app device id). A device that had the
    /// same APNs token under another device id is replaced.
    func registerDevice(userID: UUID, deviceRef: String, tokenKey: String, tokenSealed: [UInt8], environment: String) async throws

    /// Removes one of the user's devices; false when the user has no such device.
    func unregisterDevice(userID: UUID, deviceRef: String) async throws -> Bool

    /// The user's preferences (the defaults when none were saved).
    func preferences(userID: UUID) async throws -> UserPreferences

    /// Saves the user's preferences and, in the same transaction, moves what is already queued:
    /// every queued job of `reminderKind` by the change in lead time, and the queued job with
    /// `briefKey` to `briefDue` (when given). Returns the preferences that were replaced.
    func updatePreferences(_ preferences: UserPreferences, userID: UUID, reminderKind: String,
                           brief: (key: String, due: Date)?) async throws -> UserPreferences

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
    func setRelayMailbox(userID: UUID, addressHash: String) async throws
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
