import AlfredCore
import Assistant
import Delivery
import Sealing
import Foundation
import Logging
import Metrics
import OpenAPIRuntime
import Privacy

/// The operations of `openapi.yaml`. The generated server decodes requests (types, required fields,
/// enums, no unknown fields); the ranges, lengths and patterns of the contract are checked here, each
/// failure naming its field. Handlers answer success; every failure is a thrown `APIError`.
struct APIHandler: APIProtocol {
    struct Dependencies: Sendable {
        let store: any APIStore
        let privacy: any PrivacyStore
        let audit: any AuditStore
        let jobs: any JobStore
        let sealer: HostSealer
        let tokens: SessionTokens
        let apple: AppleIdentityVerifier
        let appleKeys: @Sendable (String) async throws -> AppleIdentityVerifier.PublicKey?
        let now: @Sendable () -> Date
        let logger: Logger
        let metrics: any MetricsFactory
        /// Google connect; nil answers its endpoints with 503 (not configured).
        var google: APIServer.GoogleConnect? = nil
        var broker: (any ConnectorAuthority)? = nil
        var gmailPush: APIServer.GmailPush? = nil
        /// Google's published keys (with Gmail push), for push tokens and relay-mailbox ID tokens.
        var googleKeys: (@Sendable (String) async throws -> PushTokenVerifier.PublicKey?)? = nil
    }

    let deps: Dependencies

    // MARK: Sessions

    func createSession(_ input: Operations.CreateSession.Input) async throws -> Operations.CreateSession.Output {
        guard case .json(let request) = input.body else { throw APIError.invalidJSON("the body must be JSON") }
        try Check.length(request.appleIdentityToken, "apple_identity_token", 1...8192)
        try Check.deviceID(request.deviceId, "device_id")
        if let nonce = request.nonce { try Check.length(nonce, "nonce", 1...256) }
        let invite = request.inviteCode.map(InviteCode.hash)
        let token = request.appleIdentityToken
        let key: AppleIdentityVerifier.PublicKey?
        do {
            key = try await AppleIdentityVerifier.keyID(of: token).asyncMap(deps.appleKeys) ?? nil
        } catch {
            deps.logger.warning("Apple's keys are unavailable", metadata: ["alfred.error": "\(type(of: error))"])
            throw APIError.unavailable("Apple's signing keys cannot be fetched right now; try again shortly", retryAfter: 5)
        }
        let identity: AppleIdentityVerifier.Identity
        do {
            identity = try deps.apple.verify(token, key: key, rawNonce: request.nonce, now: deps.now())
        } catch {
            sessions("refused_\(error.reason.rawValue)").increment()
            throw APIError.invalidToken(error.description)
        }
        let (refresh, refreshHash) = SessionTokens.newRefreshToken()
        let opened = NewSession(id: UUID(), refreshHash: refreshHash,
                                expiresAt: deps.now().addingTimeInterval(deps.tokens.refreshLifetime.seconds))
        // Who the person is, for the allow-list: keyed hashes only, and nothing is stored when refused.
        let claim = SignupClaim(identityHashes: ([identity.subject] + (identity.verifiedEmail.map { [$0] } ?? [])).map {
            deps.sealer.keyedHash("signup-identity", $0)
        }, inviteHash: invite)
        let userID: UUID, created: Bool
        switch try await deps.store.signIn(appleSubjectHash: deps.sealer.keyedHash("apple-subject", identity.subject), claim: claim,
                                           session: opened) {
        case .signedIn(let user, let new): (userID, created) = (user, new)
        case .refused(let refusal):
            sessions("refused_\(refusal.rawValue)").increment()
            throw APIError(status: .forbidden, code: APIError.Code(rawValue: refusal.rawValue) ?? .notInvited, message: refusal.message)
        }
        sessions(created ? "created" : "signed_in").increment()
        try? await deps.audit.record(AuditEvent(userID: userID, type: "SIGN_IN", connector: nil, result: "SUCCESS",
                                                metadata: ["new_account": created ? "true" : "false"]))
        return .ok(.init(body: .json(session(userID: userID, sessionID: opened.id, refresh: refresh))))
    }

    func refreshSession(_ input: Operations.RefreshSession.Input) async throws -> Operations.RefreshSession.Output {
        guard case .json(let request) = input.body else { throw APIError.invalidJSON("the body must be JSON") }
        try Check.length(request.refreshToken, "refresh_token", 1...256)
        let (refresh, refreshHash) = SessionTokens.newRefreshToken()
        let outcome = try await deps.store.refresh(SessionTokens.hash(request.refreshToken), replacement: refreshHash,
                                                   expiresAt: deps.now().addingTimeInterval(deps.tokens.refreshLifetime.seconds))
        switch outcome {
        case .rotated(let sessionID, let userID):
            sessions("refreshed").increment()
            return .ok(.init(body: .json(session(userID: userID, sessionID: sessionID, refresh: refresh))))
        case .reused:
            sessions("refresh_reused").increment()
            deps.logger.warning("a used refresh token was presented again; its session is revoked")
            throw APIError.invalidToken("the refresh token was already used; the session has ended, sign in again")
        case .invalid:
            sessions("refresh_refused").increment()
            throw APIError.invalidToken("the refresh token is not valid (unknown, expired, or its session ended)")
        }
    }

    func logout(_ input: Operations.Logout.Input) async throws -> Operations.Logout.Output {
        let caller = try Caller.required
        try await deps.store.endSession(caller.sessionID, userID: caller.userID)
        return .ok(Self.ok)
    }

    /// Apple's server-to-server notification: verified as Apple's, then acted on (see the contract).
    func receiveAppleAccountEvent(_ input: Operations.ReceiveAppleAccountEvent.Input) async throws
        -> Operations.ReceiveAppleAccountEvent.Output
    {
        guard case .json(let body) = input.body else { throw APIError.invalidJSON("the body must be JSON") }
        try Check.length(body.payload, "payload", 1...8192)
        let key: AppleIdentityVerifier.PublicKey?
        do {
            key = try await AppleIdentityVerifier.keyID(of: body.payload).asyncMap(deps.appleKeys) ?? nil
        } catch {
            throw APIError.unavailable("Apple's signing keys cannot be fetched right now; try again shortly", retryAfter: 5)
        }
        let event: AppleAccountEventVerifier.Event
        do {
            event = try AppleAccountEventVerifier(configuration: deps.apple.configuration).verify(body.payload, key: key, now: deps.now())
        } catch {
            accountEvents("refused").increment()
            throw APIError.invalidToken(error.description)
        }
        let reason: String? = switch event.type {
        case "consent-revoked": "apple_consent_revoked"
        case "account-delete": "apple_account_deleted"
        default: nil  // email-disabled, email-enabled: no address is kept, so nothing changes
        }
        guard let reason else {
            accountEvents("ignored").increment()
            return .ok(Self.ok)
        }
        guard let userID = try await deps.store.endAccountSessions(appleSubjectHash: deps.sealer.keyedHash("apple-subject", event.subject),
                                                                   reason: reason) else {
            accountEvents("unknown_account").increment()
            return .ok(Self.ok)
        }
        if event.type == "account-delete" {
            _ = try await PrivacyKind.requestDeleteAll(userID: userID, privacy: deps.privacy, jobs: deps.jobs)
        }
        accountEvents(event.type).increment()
        try? await deps.audit.record(AuditEvent(userID: userID, type: "APPLE_ACCOUNT", connector: nil, result: "SUCCESS",
                                                metadata: ["event": event.type]))
        return .ok(Self.ok)
    }

    private func accountEvents(_ result: String) -> Counter {
        Counter(label: MetricName.appleAccountEvents, dimensions: [("result", result)], factory: deps.metrics)
    }

    private func session(userID: UUID, sessionID: UUID, refresh: String) -> Components.Schemas.Session {
        Components.Schemas.Session(
            accessToken: deps.tokens.accessToken(for: .init(userID: userID, sessionID: sessionID), now: deps.now()),
            refreshToken: refresh, expiresIn: Int(deps.tokens.accessLifetime.seconds), tokenType: .bearer)
    }

    // MARK: Devices

    func registerDevice(_ input: Operations.RegisterDevice.Input) async throws -> Operations.RegisterDevice.Output {
        let caller = try Caller.required
        guard case .json(let request) = input.body else { throw APIError.invalidJSON("the body must be JSON") }
        try Check.deviceID(request.deviceId, "device_id")
        try Check.length(request.apnsToken, "apns_token", 64...200)
        guard request.apnsToken.allSatisfy(\.isHexDigit) else { throw APIError.invalidField("apns_token", "must be hexadecimal") }
        let token = request.apnsToken.lowercased()
        try await deps.store.registerDevice(
            userID: caller.userID, sessionID: caller.sessionID, deviceRef: deviceRef(caller, request.deviceId),
            tokenKey: deps.sealer.keyedHash("device", token),
            tokenSealed: try deps.sealer.seal(Array(token.utf8), purpose: .deviceToken, userID: caller.userID),
            environment: request.environment.rawValue)
        return .ok(Self.ok)
    }

    func unregisterDevice(_ input: Operations.UnregisterDevice.Input) async throws -> Operations.UnregisterDevice.Output {
        let caller = try Caller.required
        try Check.deviceID(input.path.deviceId, "device_id")
        guard try await deps.store.unregisterDevice(userID: caller.userID, deviceRef: deviceRef(caller, input.path.deviceId)) else {
            throw APIError.notFound("device")
        }
        return .ok(Self.ok)
    }

    func listDevices(_ input: Operations.ListDevices.Input) async throws -> Operations.ListDevices.Output {
        let caller = try Caller.required
        let items = try await deps.store.devices(userID: caller.userID, sessionID: caller.sessionID).map { device in
            Components.Schemas.Device(id: device.id.uuidString.lowercased(),
                                      environment: device.environment == "production" ? .production : .sandbox,
                                      registeredAt: device.registeredAt, updatedAt: device.updatedAt, thisSession: device.thisSession)
        }
        return .ok(.init(body: .json(.init(items: items))))
    }

    func deleteDevice(_ input: Operations.DeleteDevice.Input) async throws -> Operations.DeleteDevice.Output {
        let caller = try Caller.required
        guard let id = UUID(uuidString: input.path.id) else { throw APIError.invalidField("id", "must be a UUID") }
        guard try await deps.store.deleteDevice(userID: caller.userID, id: id) else { throw APIError.notFound("device") }
        return .ok(Self.ok)
    }

    /// The app's device id is kept only as a keyed hash, per user.
    private func deviceRef(_ caller: SessionTokens.Claims, _ deviceID: String) -> String {
        deps.sealer.keyedHash("device-ref", caller.userID.uuidString.lowercased(), deviceID)
    }

    // MARK: Preferences

    func getPreferences(_ input: Operations.GetPreferences.Input) async throws -> Operations.GetPreferences.Output {
        let caller = try Caller.required
        let p = try await deps.store.preferences(userID: caller.userID)
        return .ok(.init(body: .json(.init(
            meetingReminderMinutes: p.meetingReminderMinutes, morningBriefLocalTime: p.morningBriefLocalTime,
            quietHoursStart: p.quietHoursStart, quietHoursEnd: p.quietHoursEnd, highRiskRequiresConfirm: p.highRiskRequiresConfirm,
            timeZone: p.timeZone))))
    }

    func putPreferences(_ input: Operations.PutPreferences.Input) async throws -> Operations.PutPreferences.Output {
        let caller = try Caller.required
        guard case .json(let request) = input.body else { throw APIError.invalidJSON("the body must be JSON") }
        guard (0...1440).contains(request.meetingReminderMinutes) else {
            throw APIError.invalidField("meeting_reminder_minutes", "must be between 0 and 1440")
        }
        let brief = try Check.localTime(request.morningBriefLocalTime, "morning_brief_local_time")
        let quietStart = try request.quietHoursStart.map { try Check.localTime($0, "quiet_hours_start") }
        let quietEnd = try request.quietHoursEnd.map { try Check.localTime($0, "quiet_hours_end") }
        guard (quietStart == nil) == (quietEnd == nil) else {
            throw APIError.invalidField(quietStart == nil ? "quiet_hours_start" : "quiet_hours_end",
                                        "quiet hours need both a start and an end (or neither)")
        }
        let zoneName: String
        if let zone = request.timeZone {
            // The contract lists the zones; one this machine's Foundation does not know is refused too.
            guard TimeZone(identifier: zone.rawValue) != nil else { throw APIError.invalidField("time_zone", "must be an IANA time zone name") }
            zoneName = zone.rawValue
        } else {
            zoneName = try await deps.store.preferences(userID: caller.userID).timeZone
        }
        let preferences = UserPreferences(
            meetingReminderMinutes: request.meetingReminderMinutes, morningBriefLocalTime: brief.description,
            quietHoursStart: quietStart?.description, quietHoursEnd: quietEnd?.description,
            highRiskRequiresConfirm: request.highRiskRequiresConfirm, timeZone: zoneName)
        // The queued brief moves to the new time at once, as do queued reminders (by the new lead).
        let quiet = quietStart.flatMap { start in quietEnd.map { QuietHours(start: start, end: $0) } }
        let due = BriefSchedule.next(after: deps.now(), in: LocalSchedule(timeZone: TimeZone(identifier: zoneName)!), at: brief,
                                     quietHours: quiet.flatMap { $0.start == $0.end ? nil : $0 })
        _ = try await deps.store.updatePreferences(preferences, userID: caller.userID, reminderKind: AssistantKind.meetingReminder.name,
                                                   brief: (AssistantKind.briefKey(user: caller.userID), BriefSchedule.jobDue(for: due)))
        return .ok(Self.ok)
    }

    // MARK: Urgency preferences

    func getUrgencyPreferences(_ input: Operations.GetUrgencyPreferences.Input) async throws -> Operations.GetUrgencyPreferences.Output {
        let caller = try Caller.required
        let stored = try await openUrgency(of: caller.userID)
        return .ok(.init(body: .json(.init(vipSenders: stored["vip_senders"] as? [String] ?? [],
                                           keywords: stored["keywords"] as? [String] ?? []))))
    }

    func putUrgencyPreferences(_ input: Operations.PutUrgencyPreferences.Input) async throws -> Operations.PutUrgencyPreferences.Output {
        let caller = try Caller.required
        guard case .json(let request) = input.body else { throw APIError.invalidJSON("the body must be JSON") }
        let senders = try Check.vipSenders(request.vipSenders)
        let keywords = try Check.keywords(request.keywords)
        // Anything else the sealed document holds (set by an operator's tuning) is kept.
        var document = try await openUrgency(of: caller.userID)
        document["vip_senders"] = senders
        document["keywords"] = keywords
        let json = try JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])
        try await deps.store.setUrgencyPreferences(userID: caller.userID,
                                                   sealed: try deps.sealer.seal(Array(json), purpose: .preferences, userID: caller.userID))
        return .ok(Self.ok)
    }

    /// The user's sealed urgency document, opened (empty when none was set).
    private func openUrgency(of userID: UUID) async throws -> [String: Any] {
        guard let sealed = try await deps.store.urgencyPreferences(userID: userID) else { return [:] }
        let opened = try deps.sealer.open(sealed, purpose: .preferences, userID: userID)
        return try JSONSerialization.jsonObject(with: Data(opened)) as? [String: Any] ?? [:]
    }

    // MARK: Audit and privacy

    func listAuditEvents(_ input: Operations.ListAuditEvents.Input) async throws -> Operations.ListAuditEvents.Output {
        let caller = try Caller.required
        let limit = input.query.limit ?? 50
        guard (1...200).contains(limit) else { throw APIError.invalidField("limit", "must be between 1 and 200") }
        var after: Int64 = 0
        if let cursor = input.query.cursor {
            guard cursor.count <= 18, cursor.allSatisfy({ $0.isASCII && $0.isNumber }), let seq = Int64(cursor) else {
                throw APIError.invalidField("cursor", "must be a next_cursor this endpoint returned")
            }
            after = seq
        }
        let page = try await AuditPage.load(userID: caller.userID, afterSeq: after, limit: limit, store: deps.audit)
        let items = try page.items.map { item in
            Components.Schemas.AuditEvent(
                id: item.id, timestamp: item.createdAt, eventType: item.eventType, connector: item.connector, result: item.result,
                metadata: .init(additionalProperties: try JSONDecoder().decode(OpenAPIObjectContainer.self,
                                                                               from: JSONEncoder().encode(item.metadata))))
        }
        // The cursor is the last event shown (its position in the user's trail).
        let next = page.nextCursor == nil ? nil : page.items.last.map { String($0.seq) }
        return .ok(.init(body: .json(.init(items: items, nextCursor: next))))
    }

    func requestDeleteAll(_ input: Operations.RequestDeleteAll.Input) async throws -> Operations.RequestDeleteAll.Output {
        let caller = try Caller.required
        let opened = try await PrivacyKind.requestDeleteAll(userID: caller.userID, privacy: deps.privacy, jobs: deps.jobs)
        let state = try await deps.privacy.request(opened.request, of: caller.userID)?.state ?? .queued
        return .accepted(.init(body: .json(.init(requestId: opened.request.uuidString.lowercased(), status: Self.state(state)))))
    }

    func getDeleteAllStatus(_ input: Operations.GetDeleteAllStatus.Input) async throws -> Operations.GetDeleteAllStatus.Output {
        let caller = try Caller.required
        guard let id = UUID(uuidString: input.path.requestId) else { throw APIError.invalidField("request_id", "must be a UUID") }
        guard let request = try await deps.privacy.request(id, of: caller.userID) else { throw APIError.notFound("delete-all request") }
        return .ok(.init(body: .json(.init(requestId: id.uuidString.lowercased(), status: Self.state(request.state),
                                           requestedAt: request.requestedAt, startedAt: request.startedAt))))
    }

    func exportData(_ input: Operations.ExportData.Input) async throws -> Operations.ExportData.Output {
        let caller = try Caller.required
        var json = Data(try await deps.privacy.export(userID: caller.userID).utf8)
        // The user's own VIP senders and keywords, opened (the database holds them sealed).
        let urgency = try await openUrgency(of: caller.userID)
        if !urgency.isEmpty, var object = try JSONSerialization.jsonObject(with: json) as? [String: Any] {
            object["urgency_preferences"] = ["vip_senders": urgency["vip_senders"] ?? [], "keywords": urgency["keywords"] ?? []]
            json = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        }
        let document = try JSONDecoder().decode(OpenAPIObjectContainer.self, from: json)
        return .ok(.init(body: .json(.init(additionalProperties: document))))
    }

    // MARK: Feedback and health

    func urgentFeedback(_ input: Operations.UrgentFeedback.Input) async throws -> Operations.UrgentFeedback.Output {
        let caller = try Caller.required
        guard case .json(let request) = input.body else { throw APIError.invalidJSON("the body must be JSON") }
        try Check.length(request.notificationId, "notification_id", 1...64)
        guard request.notificationId.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._:-".contains($0)) }) else {
            throw APIError.invalidField("notification_id", "must be the alert's collapse id")
        }
        let payload = UrgentFeedbackHandler.Payload(notification: request.notificationId, verdict: request.verdict.rawValue)
        var job = NewJob(kind: AssistantKind.urgentFeedback, payload: Array(try JSONEncoder().encode(payload)), userID: caller.userID)
        // Once per alert: a repeated verdict for the same one is the same job.
        job.uniqueKey = "\(AssistantKind.urgentFeedback.name):\(caller.userID.uuidString.lowercased()):\(request.notificationId)"
        _ = try await deps.jobs.enqueue([job], onConflict: .keep)
        return .accepted(.init(body: .json(.init(ok: true))))
    }

    func health(_ input: Operations.Health.Input) async throws -> Operations.Health.Output {
        do { try await deps.store.ping() } catch {
            throw APIError.unavailable("the database does not answer")
        }
        return .ok(.init(body: .json(.init(status: .ok))))
    }

    // MARK: Helpers

    static let ok = Components.Responses.Ok(body: .json(.init(ok: true)))

    static func state(_ state: PrivacyRequest.State) -> Components.Schemas.DeleteAllState {
        switch state {
        case .queued: .queued
        case .running: .running
        case .completed: .completed
        }
    }

    func sessions(_ result: String) -> Counter {
        Counter(label: MetricName.apiSessions, dimensions: [("result", result)], factory: deps.metrics)
    }
}

/// The contract's constraints the generated decoder does not check.
enum Check {
    static func length(_ value: String, _ field: String, _ range: ClosedRange<Int>) throws(APIError) {
        guard range.contains(value.count) else {
            throw APIError.invalidField(field, "must be \(range.lowerBound) to \(range.upperBound) characters")
        }
    }

    /// `^[A-Za-z0-9._-]{1,128}$`.
    static func deviceID(_ value: String, _ field: String) throws(APIError) {
        try length(value, field, 1...128)
        guard value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }) else {
            throw APIError.invalidField(field, "must be letters, digits, '.', '_' or '-'")
        }
    }

    /// At most 100 senders, each `local@domain` or `@domain` (lowercased, duplicates dropped).
    static func vipSenders(_ values: [String]) throws(APIError) -> [String] {
        guard values.count <= 100 else { throw APIError.invalidField("vip_senders", "must list at most 100 senders") }
        var seen: [String] = []
        for (index, raw) in values.enumerated() {
            let value = raw.lowercased()
            let field = "vip_senders[\(index)]"
            try length(value, field, 3...254)
            let parts = value.split(separator: "@", omittingEmptySubsequences: false)
            let local = parts.first.map(String.init) ?? "", domain = parts.count == 2 ? String(parts[1]) : ""
            let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
            guard parts.count == 2, labels.count >= 2,
                  labels.allSatisfy({ !$0.isEmpty && $0.count <= 63 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } }),
                  local.allSatisfy({ $0.asciiValue.map { (33...126).contains($0) } == true })
            else { throw APIError.invalidField(field, "must be an address (boss@example.com) or a domain (@example.org)") }
            if !seen.contains(value) { seen.append(value) }
        }
        return seen
    }

    /// At most 50 keywords of 2 to 64 characters without control characters.
    static func keywords(_ values: [String]) throws(APIError) -> [String] {
        guard values.count <= 50 else { throw APIError.invalidField("keywords", "must list at most 50 keywords") }
        var seen: [String] = []
        for (index, value) in values.enumerated() {
            let field = "keywords[\(index)]"
            try length(value, field, 2...64)
            guard value.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
            else { throw APIError.invalidField(field, "must be a word or phrase without control characters") }
            if !seen.contains(where: { $0.caseInsensitiveCompare(value) == .orderedSame }) { seen.append(value) }
        }
        return seen
    }

    /// `HH:MM`, 24 hours.
    static func localTime(_ value: String, _ field: String) throws(APIError) -> LocalTime {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard value.count == 5, parts.count == 2, parts.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let time = LocalTime(hour: Int(parts[0]) ?? -1, minute: Int(parts[1]) ?? -1)
        else { throw APIError.invalidField(field, "must be a 24-hour time HH:MM") }
        return time
    }
}

extension Optional {
    func asyncMap<T>(_ transform: (Wrapped) async throws -> T) async rethrows -> T? {
        guard let self else { return nil }
        return try await transform(self)
    }
}
