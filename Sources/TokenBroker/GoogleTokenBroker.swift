import AlfredCore
import Crypto
import Foundation
import Attestation
import BrokerClient
import KeyServiceClient
import Logging
import Metrics

/// The broker's token logic: the only code that ever holds a refresh token in plaintext, and only
/// in memory, briefly. Data keys come from the key service, encrypted to this process's ephemeral
/// key, and only after the key service has verified this process's attestation evidence.
public struct GoogleTokenBroker: BrokerRequestHandler {
    public struct Configuration: Sendable {
        /// The key-encryption key new connectors are wrapped under (`connectors.token_key_id`).
        public var keyID = "kek-main"
        /// One refresh (decrypt, key service, Google) may take this long. Concurrent callers wait on
        /// it, so without a bound one stalled upstream would hold every request for the connector.
        public var refreshDeadline: Duration = .seconds(30)
        public init() {}
    }

    let configuration: Configuration
    let connectors: any ConnectorStore
    let keys: any DataKeyProvider
    let google: GoogleOAuthClient
    let evidence: any AttestationSource
    let cache: AccessTokenCache
    let logger: Logger
    let now: @Sendable () -> Date
    let clock: any Clock<Duration>

    /// - Parameters:
    ///   - now: wall time, for access-token expiry (here and in the cache).
    ///   - clock: times the refresh deadline.
    public init(configuration: Configuration = .init(), connectors: any ConnectorStore, keys: any DataKeyProvider,
                google: GoogleOAuthClient, evidence: any AttestationSource, logger: Logger,
                now: @escaping @Sendable () -> Date = { Date() }, clock: any Clock<Duration> = ContinuousClock()) {
        self.configuration = configuration
        self.connectors = connectors
        self.keys = keys
        self.google = google
        self.evidence = evidence
        self.cache = AccessTokenCache(now: now)
        self.logger = logger
        self.now = now
        self.clock = clock
    }

    // MARK: connect

    public func exchangeCode(_ exchange: CodeExchange, context: BrokerRequestContext) async throws -> ConnectedConnector {
        try await classified { try await connect(exchange, context: context) }
    }

    private func connect(_ exchange: CodeExchange, context: BrokerRequestContext) async throws -> ConnectedConnector {
        guard let userID = UUID(uuidString: exchange.userID) else { throw BrokerError.badRequest("user_id must be a UUID") }
        let grant: GoogleOAuthClient.Grant
        do {
            grant = try await google.exchange(code: exchange.code, verifier: exchange.codeVerifier, redirectURI: exchange.redirectURI,
                                              client: exchange.client)
        } catch {
            let refused = if case GoogleOAuthClient.Failure.invalidGrant = error { true } else { false }
            Self.connects(refused ? "code_refused" : "unavailable").increment()
            try await audit(userID, "CONNECT", error: error)
            throw Self.brokerError(error)
        }
        // From here on Google has issued a grant: any failure revokes it rather than dropping it, so no
        // live refresh token exists that Alfred does not hold (and could not revoke at delete-all).
        do {
            return try await store(grant, of: exchange, userID: userID, context: context)
        } catch {
            let outcome: String
            do {
                try await google.revoke(grant.refreshToken ?? grant.accessToken)
                outcome = "revoked_after_failure"
            } catch let revokeError {
                outcome = "revoke_failed"
                logger.error("a new Google grant could not be stored or revoked; the user should remove Alfred in their Google Account",
                             metadata: ["alfred.error": "\(type(of: error))", "alfred.revoke_error": "\(type(of: revokeError))"])
            }
            let missingScopes = (error as? BrokerError)?.code == .missingScopes
            Self.connects(missingScopes ? "missing_scopes" : outcome).increment()
            try? await connectors.audit(AuditEvent(userID: userID, type: "CONNECT", result: "FAILURE",
                                                   metadata: ["reason": missingScopes ? "missing_scopes" : "not_stored",
                                                              "grant": outcome == "revoke_failed" ? "not_revoked" : "revoked"]))
            throw error
        }
    }

    /// Checks the grant and stores its refresh token sealed under a fresh data key.
    private func store(_ grant: GoogleOAuthClient.Grant, of exchange: CodeExchange, userID: UUID,
                       context: BrokerRequestContext) async throws -> ConnectedConnector {
        let missing = exchange.requiredScopes.filter { !grant.scopes.contains($0) }
        guard missing.isEmpty else {
            throw BrokerError.missingScopes("Google granted \(grant.scopes.count) of the scopes Alfred needs; missing: "
                                            + missing.joined(separator: " ") + ". Connect again and allow every item on the consent screen")
        }
        guard let refreshToken = grant.refreshToken else {
            throw BrokerError.badRequest("Google returned no refresh token: the consent must ask for access_type=offline and prompt=consent")
        }
        let connectorID = UUID()
        let generated = try await withEvidence { evidence in
            try await keys.generateDataKey(keyID: configuration.keyID, connectorID: connectorID, userID: userID, attestation: evidence)
        }
        let tokenContext = TokenContext(connectorID: connectorID, userID: userID, keyID: configuration.keyID,
                                        keyVersion: generated.keyVersion)
        let dataKey = try RecipientCipher.open(generated.ciphertextForRecipient, with: self.evidence.recipientKey)
        let envelope = try TokenEnvelope.seal(Array(refreshToken.unsafeValue.utf8), context: tokenContext, dataKey: dataKey,
                                              wrappedDataKey: generated.wrapped)
        try await connectors.insert(NewConnector(id: connectorID, userID: userID, scopes: grant.scopes, keyID: configuration.keyID,
                                                 keyVersion: generated.keyVersion, ciphertext: envelope, oauthClient: exchange.client))
        await cache.store(AccessToken(token: grant.accessToken, expiresAt: now().addingTimeInterval(grant.expiresIn.seconds)), for: connectorID)
        Self.connects("success").increment()
        try? await connectors.audit(AuditEvent(userID: userID, type: "CONNECT", result: "SUCCESS",
                                               metadata: ["scopes": "\(grant.scopes.count)", "client": exchange.client.rawValue]))
        context.logger.info("connector created", metadata: ["alfred.connector": "\(connectorID.uuidString.lowercased())"])
        return ConnectedConnector(connectorID: connectorID.uuidString.lowercased(), scopes: grant.scopes)
    }

    // MARK: access tokens

    public func accessToken(connectorID: String, forceRefresh: Bool = false,
                            context: BrokerRequestContext) async throws -> BrokerAccessToken {
        guard let id = UUID(uuidString: connectorID) else { throw BrokerError.badRequest("connector_id must be a UUID") }
        let deadline = configuration.refreshDeadline
        let token = try await classified {
            // Checked on every request, cached token or not: a connector revoked or sent back for
            // consent elsewhere (another broker, delete-all) gets no token from this broker's cache.
            let status = try await connectors.status(id)
            if status != .active { await cache.forget(id) }
            try Self.requireUsable(status, id)
            return try await cache.token(for: id, force: forceRefresh) {
                guard let token = try await withDeadline(deadline, clock: clock, { try await refresh(id) }) else {
                    Self.refreshes("unavailable").increment()
                    throw BrokerError.upstreamUnavailable("refreshing the access token took longer than \(deadline)")
                }
                return token
            }
        }
        return BrokerAccessToken(token: token.token, expiresAt: token.expiresAt)
    }

    private func refresh(_ id: UUID) async throws -> AccessToken {
        let secret: ConnectorSecret, refreshToken: Redacted<String>
        do {
            (secret, refreshToken) = try await decrypt(id, purpose: "refresh")
        } catch let error as BrokerError where error.code == .notFound || error.code == .needsReconsent {
            throw error  // no refresh was attempted: the connector is gone or inactive
        } catch let error as BrokerError where error.code == .denied {
            // Every refresh outcome is counted, these two too: they fail the refresh SLO like Google would.
            Self.refreshes("attestation_denied").increment()
            throw error
        } catch {
            Self.refreshes("key_service_unavailable").increment()
            throw error
        }
        do {
            let grant = try await google.refresh(refreshToken, client: secret.oauthClient)
            Self.refreshes("success").increment()
            do {
                // A routine success: tallied, one event a day with the count (migration 0026).
                try await connectors.tally(AuditEvent(userID: secret.userID, type: "TOKEN_REFRESH", result: "SUCCESS"))
            } catch {
                // The token is good; dropping it would make every retry mint another at Google.
                logger.error("could not audit a token refresh", metadata: ["alfred.error": "\(type(of: error))"])
            }
            return AccessToken(token: grant.accessToken, expiresAt: now().addingTimeInterval(grant.expiresIn.seconds))
        } catch GoogleOAuthClient.Failure.invalidGrant {
            Self.refreshes("invalid_grant").increment()
            try await connectors.setStatus(id, .needsReconsent)
            try await connectors.audit(AuditEvent(userID: secret.userID, type: "TOKEN_REFRESH", result: "FAILURE",
                                                  metadata: ["reason": "invalid_grant"]))
            throw BrokerError.needsReconsent("Google refused the refresh token (invalid_grant); the user must connect Google again")
        } catch {
            Self.refreshes("unavailable").increment()
            try? await connectors.audit(AuditEvent(userID: secret.userID, type: "TOKEN_REFRESH", result: "FAILURE",
                                                   metadata: ["reason": "upstream_unavailable"]))
            throw Self.brokerError(error)
        }
    }

    // MARK: revoke

    public func revoke(connectorID: String, context: BrokerRequestContext) async throws {
        guard let id = UUID(uuidString: connectorID) else { throw BrokerError.badRequest("connector_id must be a UUID") }
        try await classified { try await revoke(id) }
    }

    private func revoke(_ id: UUID) async throws {
        let connectorID = id.uuidString.lowercased()
        await cache.forget(id)
        guard let existing = try await connectors.secret(id) else { throw BrokerError.notFound("no connector \(connectorID)") }
        if existing.status == .revoked { return }
        let (secret, refreshToken) = try await decrypt(id, purpose: "revoke", allowInactive: true)
        do {
            try await google.revoke(refreshToken)
        } catch {
            try await audit(secret.userID, "REVOKE", error: error)
            throw Self.brokerError(error)
        }
        try await connectors.setStatus(id, .revoked)
        // A connector parked by a delete-all: its sealed token was kept only for this.
        try await connectors.forgetParked(id)
        // Again: a refresh that was in flight during the revoke may have cached a token meanwhile.
        await cache.forget(id)
        // Dropped by the database when the user has been deleted meanwhile.
        try await connectors.audit(AuditEvent(userID: secret.userID, type: "REVOKE", result: "SUCCESS"))
    }

    // MARK: key rotation

    public func rewrap(connectorID: String, context: BrokerRequestContext) async throws -> Int {
        guard let id = UUID(uuidString: connectorID) else { throw BrokerError.badRequest("connector_id must be a UUID") }
        guard let version = try await classified({ try await moveToActiveVersion(id).version }) else {
            throw BrokerError.notFound("no connector \(connectorID)")
        }
        return version
    }

    /// Moves one connector's data key to the active key version (the key service does the work; the
    /// token ciphertext is untouched). Returns false if there was nothing to do.
    public func rewrap(_ id: UUID) async throws -> Bool {
        try await moveToActiveVersion(id).changed
    }

    /// The rewrap itself: whether it changed anything, and the version in use afterwards (nil when the
    /// connector does not exist).
    private func moveToActiveVersion(_ id: UUID) async throws -> (changed: Bool, version: Int?) {
        guard let secret = try await connectors.secret(id) else { return (false, nil) }
        guard secret.status != .revoked, secret.status != .revocationPending else { return (false, secret.keyVersion) }
        let context = TokenContext(connectorID: id, userID: secret.userID, keyID: secret.keyID, keyVersion: secret.keyVersion)
        let wrapped = try TokenEnvelope.wrappedDataKey(in: secret.ciphertext.unsafeValue)
        let (rewrapped, version) = try await withEvidence { try await keys.rewrap(wrapped: wrapped, context: context, attestation: $0) }
        guard version != secret.keyVersion else { return (false, version) }
        let envelope = try TokenEnvelope.replacingWrappedDataKey(in: secret.ciphertext.unsafeValue, with: rewrapped)
        if try await connectors.rewrapped(id, fromVersion: secret.keyVersion, toVersion: version, ciphertext: envelope) {
            return (true, version)
        }
        return (false, try await connectors.secret(id)?.keyVersion)  // another rewrap won the race
    }

    // MARK: internals

    /// Reads the connector's ciphertext, gets its data key through attestation, and decrypts.
    /// The one place a connector's status becomes the caller's answer: none is `not_found`, one Google
    /// refused is `needs_reconsent`, a revoked or parked one is `not_found` (unless `allowInactive`:
    /// a revocation still needs its token).
    static func requireUsable(_ status: ConnectorStatus?, _ id: UUID, allowInactive: Bool = false) throws {
        switch status {
        case nil: throw BrokerError.notFound("no connector \(id.uuidString.lowercased())")
        case .active?: return
        case .needsReconsent? where !allowInactive:
            throw BrokerError.needsReconsent("the connector needs the user to connect Google again")
        case .revoked? where !allowInactive, .revocationPending? where !allowInactive:
            throw BrokerError.notFound("the connector was revoked")
        default: return
        }
    }

    private func decrypt(_ id: UUID, purpose: String, allowInactive: Bool = false) async throws -> (ConnectorSecret, Redacted<String>) {
        let secret = try await connectors.secret(id)
        try Self.requireUsable(secret?.status, id, allowInactive: allowInactive)
        guard let secret else { throw BrokerError.notFound("no connector \(id.uuidString.lowercased())") }
        let context = TokenContext(connectorID: id, userID: secret.userID, keyID: secret.keyID, keyVersion: secret.keyVersion)
        let wrapped = try TokenEnvelope.wrappedDataKey(in: secret.ciphertext.unsafeValue)
        let sealed: [UInt8]
        do {
            sealed = try await withEvidence { try await keys.decrypt(wrapped: wrapped, context: context, attestation: $0) }
        } catch let error as BrokerError where error.code == .denied {
            try? await connectors.audit(AuditEvent(userID: secret.userID, type: "BROKER_DECISION", result: "DENIED",
                                                   metadata: ["operation": purpose, "reason": "attestation_refused"]))
            throw error
        }
        // The key service allowed this broker to open the user's refresh token: tallied, one event a
        // day with the count (the key service's own log keeps each release); a denial is its own event.
        try await connectors.tally(AuditEvent(userID: secret.userID, type: "BROKER_DECISION", result: "PERMITTED",
                                              metadata: ["operation": purpose]))
        let dataKey = try RecipientCipher.open(sealed, with: evidence.recipientKey)
        let plaintext = try TokenEnvelope.open(secret.ciphertext.unsafeValue, context: context, dataKey: dataKey)
        return (secret, Redacted(String(decoding: plaintext, as: UTF8.self)))
    }

    /// Fresh evidence (with a fresh nonce) for one key-service call; a denial becomes `denied`.
    private func withEvidence<T: Sendable>(_ body: ([UInt8]) async throws -> T) async throws -> T {
        do {
            let nonce = try await keys.nonce()
            return try await body(try await evidence.evidence(nonce: nonce))
        } catch let denied as KeyServiceDenied {
            Self.denials(denied.reason).increment()
            logger.error("key service denied this broker", metadata: ["alfred.reason": "\(denied.reason)"])
            throw BrokerError.denied("the key service refused this broker's attestation (\(denied.reason))")
        } catch let refused as AttestorError {
            // Classified here, where the evidence is asked for, so that every caller (a refresh's
            // outcome counter included) sees a denial as `denied` and an absent attestor as unavailable.
            if refused.code == .denied { Self.denials("attestor_denied").increment() }
            logger.error("the attestor gave no evidence", metadata: ["alfred.reason": "\(refused.code.rawValue)"])
            throw Self.brokerError(refused)
        }
    }

    private func audit(_ userID: UUID, _ type: String, error: any Error) async throws {
        let reason = if case GoogleOAuthClient.Failure.invalidGrant = error { "invalid_grant" } else { "upstream_unavailable" }
        try await connectors.audit(AuditEvent(userID: userID, type: type, result: "FAILURE", metadata: ["reason": reason]))
    }

    /// Runs an operation so that whatever fails reaches the caller as a classified `BrokerError`:
    /// a worker must be able to tell "retry later" (key service or database down, Google busy) from
    /// "give up" (re-consent, a token that no longer decrypts).
    private func classified<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw Self.brokerError(error)
        }
    }

    static func brokerError(_ error: any Error) -> BrokerError {
        switch error {
        case let error as BrokerError: error
        case let error as KeyServiceError where error.isRetryable:
            .upstreamUnavailable("the key service is unreachable; try again later")
        case let error as AttestorError where error.isRetryable || error.code == .unmeasurable:
            .upstreamUnavailable("the attestor gave no evidence (\(error.code.rawValue)); try again later")
        case let error as AttestorError:
            .denied("the attestor refused this broker (\(error.code.rawValue)): check its --allow-uid")
        case is KeyServiceError:
            .internal("the key service refused the request as malformed (\(type(of: error)))")
        case is EnvelopeError:
            .internal("the stored refresh token does not decrypt; the connector must be reconnected")
        case GoogleOAuthClient.Failure.invalidGrant:
            .needsReconsent("Google answered invalid_grant; the user must connect Google again")
        case GoogleOAuthClient.Failure.unavailable(let detail): .upstreamUnavailable("Google is unavailable: \(detail)")
        case GoogleOAuthClient.Failure.rejected(let status, let code):
            .internal("Google rejected the broker's request (HTTP \(status) \(code)); check the OAuth client configuration")
        // Database and other I/O trouble: transient as far as a caller can tell; nothing is lost by retrying.
        default: .internal("unexpected \(type(of: error)); try again later", retryable: true)
        }
    }

    static let refreshes = LabelledCounter(MetricName.oauthRefreshes, label: "result")
    static let connects = LabelledCounter(MetricName.oauthConnects, label: "result")
    static let denials = LabelledCounter(MetricName.brokerKeyDenials, label: "reason")
}

/// A counter family with one label whose values come from a small fixed set.
struct LabelledCounter: Sendable {
    let name: String
    let label: String
    init(_ name: String, label: String) { self.name = name; self.label = label }
    func callAsFunction(_ value: String) -> Counter { Counter(label: name, dimensions: [(label, value)]) }
}
