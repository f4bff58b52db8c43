import AlfredCore
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// `APIStore` on PostgreSQL (role `alfred_api`).
public struct PostgresAPIStore: APIStore {
    let client: PostgresClient
    let logger: Logger
    let horizon: Double

    public init(client: PostgresClient, logger: Logger, configuration: PostgresJobStore.Configuration = .init()) {
        self.client = client
        self.logger = logger
        self.horizon = configuration.notifyHorizon.seconds
    }

    public func ping() async throws {
        _ = try await Pooled.rows(client, "SELECT 1", logger: logger)
    }

    public func signIn(appleSubjectHash: String, claim: SignupClaim, session: NewSession) async throws -> SignInOutcome {
        let (logger, refresh) = (self.logger, ByteBuffer(bytes: session.refreshHash))
        // Two first sign-ins of one account at the same moment: the one that lost the insert finds
        // the user on its second try.
        for _ in 0..<2 {
            if let user = try await Pooled.rows(client, APISQL.signInExisting(
                subjectHash: appleSubjectHash, session: session.id, refreshHash: refresh, expiresAt: session.expiresAt), logger: logger)
                .decode(UUID.self).first {
                return .signedIn(userID: user, created: false)
            }
            do {
                return try await Pooled.transaction(client, logger: logger) { connection -> SignInOutcome in
                    _ = try await connection.query(APISQL.lockSignups, logger: logger).collect()
                    let gate = try await connection.query(APISQL.signupGate(identityHashes: claim.identityHashes), logger: logger).collect()
                    guard let (mode, cap, accounts, allowListed) = try gate.decode((String, Int32?, Int64, Bool).self).first else {
                        throw PostgresAPIStoreError(description: "the signup policy row is missing (migration 0017)")
                    }
                    let policy = SignupPolicy(mode: SignupPolicy.Mode(rawValue: mode) ?? .closed, userCap: cap.map(Int.init))
                    if let refusal = try await policy.admit(accounts: Int(accounts), allowListed: allowListed, takeInvite: {
                        guard let invite = claim.inviteHash else { return false }
                        return try await !connection.query(APISQL.takeInvite(codeHash: ByteBuffer(bytes: invite)), logger: logger).collect().isEmpty
                    }) {
                        return .refused(refusal)
                    }
                    let created = try await connection.query(APISQL.createAccount(
                        userID: UUID(), subjectHash: appleSubjectHash, session: session.id, refreshHash: refresh, expiresAt: session.expiresAt),
                        logger: logger).collect()
                    // Lost a race with another first sign-in of this account: roll back (the invitation too), find it.
                    guard let user = try created.decode(UUID.self).first else { throw RetrySignIn() }
                    return .signedIn(userID: user, created: true)
                }
            } catch is RetrySignIn {
                continue
            }
        }
        throw PostgresAPIStoreError(description: "sign-in found no user and could not create one")
    }

    public func refresh(_ refreshHash: [UInt8], replacement: [UInt8], expiresAt: Date) async throws -> RefreshOutcome {
        let rows = try await Pooled.rows(client, APISQL.refresh(
            old: ByteBuffer(bytes: refreshHash), new: ByteBuffer(bytes: replacement), expiresAt: expiresAt), logger: logger)
        for (outcome, session, user) in try rows.decode((String, UUID, UUID?).self) {
            if outcome == "rotated", let user { return .rotated(sessionID: session, userID: user) }
            if outcome == "reused" { return .reused }
        }
        return .invalid
    }

    public func sessionIsActive(_ sessionID: UUID, userID: UUID) async throws -> Bool {
        try await !Pooled.execute(client, APISQL.SessionIsActive(id: sessionID, userID: userID), logger: logger).isEmpty
    }

    public func endSession(_ sessionID: UUID, userID: UUID) async throws {
        _ = try await Pooled.rows(client, APISQL.endSession(id: sessionID, userID: userID), logger: logger)
    }

    public func endAccountSessions(appleSubjectHash: String, reason: String) async throws -> UUID? {
        let rows = try await Pooled.rows(client, APISQL.endAccountSessions(appleSubjectHash: appleSubjectHash, reason: reason), logger: logger)
        return try rows.decode((UUID, Int64, Int64).self).first?.0
    }

    public func sweepSessions(usedTokenWindow: Duration, retention: Duration, limit: Int) async throws -> SessionSweep {
        let rows = try await Pooled.rows(client, APISQL.sweepSessions(usedTokenWindow: usedTokenWindow.seconds, retention: retention.seconds,
                                                                      limit: Int32(limit)), logger: logger)
        guard let (expired, sessions, used, devices) = try rows.decode((Int64, Int64, Int64, Int64).self).first else { return SessionSweep() }
        return SessionSweep(expired: Int(expired), deletedSessions: Int(sessions), deletedUsedTokens: Int(used), deletedDevices: Int(devices))
    }

    public func registerDevice(userID: UUID, sessionID: UUID, deviceRef: String, tokenKey: String, tokenSealed: [UInt8],
                               environment: String) async throws {
        _ = try await Pooled.rows(client, APISQL.registerDevice(id: UUID(), userID: userID, sessionID: sessionID, deviceRef: deviceRef,
                                                                tokenKey: tokenKey, sealed: ByteBuffer(bytes: tokenSealed),
                                                                environment: environment), logger: logger)
    }

    public func unregisterDevice(userID: UUID, deviceRef: String) async throws -> Bool {
        try await !Pooled.rows(client, APISQL.deleteDevice(userID: userID, deviceRef: deviceRef), logger: logger).isEmpty
    }

    public func deleteDevice(userID: UUID, id: UUID) async throws -> Bool {
        try await !Pooled.rows(client, APISQL.deleteDevice(userID: userID, id: id), logger: logger).isEmpty
    }

    public func devices(userID: UUID, sessionID: UUID) async throws -> [DeviceSummary] {
        let rows = try await Pooled.rows(client, APISQL.devices(userID: userID, sessionID: sessionID), logger: logger)
        return try rows.decode((UUID, String, Date, Date, Bool).self).map {
            DeviceSummary(id: $0, environment: $1, registeredAt: $2, updatedAt: $3, thisSession: $4)
        }
    }

    public func preferences(userID: UUID) async throws -> UserPreferences {
        Self.preferences(from: try await Pooled.execute(client, APISQL.Preferences(userID: userID), logger: logger))
    }

    public func updatePreferences(_ preferences: UserPreferences, userID: UUID, reminderKind: String,
                                  brief: (key: String, due: Date)?) async throws -> UserPreferences {
        let (logger, horizon) = (self.logger, self.horizon)
        return try await Pooled.transaction(client, logger: logger) { connection in
            let old = Self.preferences(from: try await connection.query(APISQL.preferencesForUpdate(userID: userID), logger: logger)
                .collect().map { try $0.decode(APISQL.Preferences.Row.self) })
            _ = try await connection.query(APISQL.savePreferences(userID: userID, APISQL.SavedPreferences(
                minutes: Int32(preferences.meetingReminderMinutes), brief: preferences.morningBriefLocalTime,
                quietStart: preferences.quietHoursStart, quietEnd: preferences.quietHoursEnd,
                highRisk: preferences.highRiskRequiresConfirm, timeZone: preferences.timeZone)), logger: logger)
            let longer = preferences.meetingReminderMinutes - old.meetingReminderMinutes
            if longer != 0 {
                _ = try await connection.query(JobSQL.shiftQueued(userID: userID, kind: reminderKind,
                                                                  earlierBySeconds: Double(longer * 60), horizon: horizon),
                                               logger: logger).collect()
            }
            if let brief {
                _ = try await connection.query(JobSQL.reschedule(uniqueKey: brief.key, to: brief.due, horizon: horizon),
                                               logger: logger).collect()
            }
            return old
        }
    }

    public func urgencyPreferences(userID: UUID) async throws -> [UInt8]? {
        try await Pooled.rows(client, APISQL.urgencyPreferences(userID: userID), logger: logger).decode(ByteBuffer.self)
            .first.map { Array(buffer: $0) }
    }

    public func setUrgencyPreferences(userID: UUID, sealed: [UInt8]) async throws {
        _ = try await Pooled.rows(client, APISQL.saveUrgencyPreferences(userID: userID, sealed: ByteBuffer(bytes: sealed)), logger: logger)
    }

    // MARK: Google connect

    public func openConnect(_ pending: PendingConnect, keepPerUser: Int) async throws {
        _ = try await Pooled.rows(client, APISQL.openConnect(APISQL.PendingConnectRow(
            stateHash: pending.stateHash, userID: pending.userID, sessionID: pending.sessionID, client: pending.client.rawValue,
            redirectURI: pending.redirectURI, verifierSealed: ByteBuffer(bytes: pending.verifierSealed), expiresAt: pending.expiresAt),
            keep: keepPerUser), logger: logger)
    }

    public func takeConnect(stateHash: String, sessionID: UUID, userID: UUID) async throws -> PendingConnect? {
        let rows = try await Pooled.rows(client, APISQL.takeConnect(stateHash: stateHash, sessionID: sessionID, userID: userID),
                                         logger: logger)
        for (kind, redirect, sealed, expires) in try rows.decode((String, String, ByteBuffer, Date).self) {
            guard let kind = OAuthClientKind(rawValue: kind) else { return nil }
            return PendingConnect(stateHash: stateHash, userID: userID, sessionID: sessionID, client: kind, redirectURI: redirect,
                                  verifierSealed: Array(buffer: sealed), expiresAt: expires)
        }
        return nil
    }

    public func connectors(userID: UUID) async throws -> [ConnectorSummary] {
        let rows = try await Pooled.rows(client, APISQL.connectors(userID: userID), logger: logger)
        return try rows.decode((UUID, String, String, [String], Date).self).map { id, provider, status, scopes, created in
            ConnectorSummary(id: id, provider: provider, status: ConnectorStatus(rawValue: status) ?? .revoked, scopes: scopes,
                             createdAt: created)
        }
    }

    public func connectorStatus(_ id: UUID, userID: UUID) async throws -> ConnectorStatus? {
        for status in try await Pooled.rows(client, APISQL.connectorStatus(id: id, userID: userID), logger: logger).decode(String.self) {
            return ConnectorStatus(rawValue: status) ?? .revoked
        }
        return nil
    }

    public func mailboxOwners(addressHash: String) async throws -> [UUID] {
        try await Pooled.rows(client, APISQL.mailboxOwners(addressHash: addressHash), logger: logger).decode(UUID.self).map { $0 }
    }

    public func setRelayMailbox(userID: UUID, addressHash: String, watchExpiresAt: Date) async throws {
        _ = try await Pooled.rows(client, APISQL.setRelayMailbox(userID: userID, addressHash: addressHash, watchExpiresAt: watchExpiresAt),
                                  logger: logger)
    }

    public func deleteRelayMailbox(userID: UUID) async throws -> Bool {
        try await !Pooled.rows(client, APISQL.deleteRelayMailbox(userID: userID), logger: logger).isEmpty
    }

    public func relayOwners(addressHash: String) async throws -> [UUID] {
        try await Pooled.rows(client, APISQL.relayOwners(addressHash: addressHash), logger: logger).decode(UUID.self).map { $0 }
    }

    static func preferences(from rows: [APISQL.Preferences.Row]) -> UserPreferences {
        guard let (minutes, brief, start, end, highRisk, zone) = rows.first else { return .defaults }
        return UserPreferences(meetingReminderMinutes: Int(minutes), morningBriefLocalTime: brief, quietHoursStart: start,
                               quietHoursEnd: end, highRiskRequiresConfirm: highRisk, timeZone: zone)
    }
}

struct PostgresAPIStoreError: Error, CustomStringConvertible { let description: String }
private struct RetrySignIn: Error {}
