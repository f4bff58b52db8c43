import AlfredCore
import Assistant
import Delivery
import Sealing
import Crypto
import CryptoExtras
import Foundation
import HTTPTypes
import Metrics
import OpenAPIRuntime

extension APIServer {
    /// Gmail push through Cloud Pub/Sub: who may push, and where their keys are.
    public struct GmailPush: Sendable {
        /// The push subscription's token audience (Pub/Sub defaults it to the endpoint URL).
        public var audience: String
        /// The push subscription's service account: the token's `email`.
        public var serviceAccount: String
        /// Google's signing keys for those tokens.
        public var keysURL = "https://www.googleapis.com/oauth2/v3/certs"
        /// The topic Gmail watches publish to (`projects/P/topics/T`), told to relay-mode apps.
        public var topicName: String?
        public init(audience: String, serviceAccount: String) {
            self.audience = audience
            self.serviceAccount = serviceAccount
        }
    }
}

/// Verifies the OIDC token a Pub/Sub push subscription attaches (external-apis §3.4): RS256 with a
/// key Google publishes (`kid`), `iss` Google, `aud` ours, `email` our push service account and
/// verified, `exp` and `iat` within a small skew.
struct PushTokenVerifier: Sendable {
    typealias PublicKey = _RSA.Signing.PublicKey

    struct Rejection: Error, Equatable, CustomStringConvertible {
        enum Reason: String, Sendable {
            case malformed, unsupportedAlgorithm = "unsupported_algorithm", unknownKey = "unknown_key",
                 badSignature = "bad_signature", wrongIssuer = "wrong_issuer", wrongAudience = "wrong_audience",
                 wrongAccount = "wrong_account", unverifiedAccount = "unverified_account", expired,
                 issuedInFuture = "issued_in_future"
        }
        let reason: Reason
        var description: String { "the push token was refused (\(reason.rawValue))" }
    }

    static let issuers: Set<String> = ["https://accounts.google.com", "accounts.google.com"]
    let audience: String
    let serviceAccount: String
    var skew: Duration = .seconds(60)

    func verify(_ token: String, key: PublicKey?, now: Date) throws(Rejection) {
        let jws: CompactJWS
        do { jws = try CompactJWS.verifiedRS256(token, key: key) } catch {
            throw Rejection(reason: .init(error))
        }
        guard let issuer = jws.string("iss"), Self.issuers.contains(issuer) else { throw Rejection(reason: .wrongIssuer) }
        guard jws.audiences.contains(audience) else { throw Rejection(reason: .wrongAudience) }
        guard jws.string("email") == serviceAccount else { throw Rejection(reason: .wrongAccount) }
        guard jws.bool("email_verified") == true else { throw Rejection(reason: .unverifiedAccount) }
        do { try jws.checkLifetime(now: now, skew: skew) } catch {
            throw Rejection(reason: error == .expired ? .expired : .issuedInFuture)
        }
    }

    static func keyID(of token: String) -> String? { CompactJWS(token)?.header["kid"] as? String }
}

/// Proof that the caller holds a Gmail mailbox (relay mode): the Google ID token the app got when
/// its user signed in to Google. RS256 with a key Google publishes, `iss` Google, `aud` one of our
/// OAuth clients, `email` the address (case-insensitive) and `email_verified`, `exp` and `iat`
/// within a small skew. The token is not stored.
struct MailboxProofVerifier: Sendable {
    typealias PublicKey = _RSA.Signing.PublicKey

    struct Rejection: Error, Equatable, CustomStringConvertible {
        let check: String
        var description: String { "the Google ID token does not prove this mailbox (\(check))" }
    }

    let audiences: Set<String>
    var skew: Duration = .seconds(60)

    func verify(_ token: String, address: String, key: PublicKey?, now: Date) throws(Rejection) {
        let jws: CompactJWS
        do { jws = try CompactJWS.verifiedRS256(token, key: key) } catch {
            throw Rejection(check: error.check(issuer: "Google", noun: "JWT"))
        }
        guard let issuer = jws.string("iss"), PushTokenVerifier.issuers.contains(issuer) else { throw Rejection(check: "not issued by Google") }
        guard jws.audiences.contains(where: audiences.contains) else { throw Rejection(check: "issued to another app") }
        do { try jws.checkLifetime(now: now, skew: skew) } catch {
            throw Rejection(check: error == .expired ? "expired" : "issued in the future")
        }
        guard let email = jws.string("email"), email.lowercased() == address.lowercased() else {
            throw Rejection(check: "for another address")
        }
        guard jws.bool("email_verified") == true else { throw Rejection(check: "the address is not verified") }
    }
}

extension PushTokenVerifier.Rejection.Reason {
    init(_ failure: CompactJWS.SignatureFailure) {
        switch failure {
        case .malformed: self = .malformed
        case .unsupportedAlgorithm: self = .unsupportedAlgorithm
        case .unknownKey: self = .unknownKey
        case .badSignature: self = .badSignature
        }
    }
}

/// The push route's authentication, in place of a session: the Pub/Sub OIDC token. Every refusal is
/// counted by reason (`alfred_gmail_pushes_total{result="refused_<reason>"}`).
struct PushAuthentication: ServerMiddleware {
    static let operation = "receiveGmailPush"

    let verifier: PushTokenVerifier?
    let keys: (@Sendable (String) async throws -> PushTokenVerifier.PublicKey?)?
    let now: @Sendable () -> Date
    let metrics: any MetricsFactory

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard operationID == Self.operation else { return try await next(request, body, metadata) }
        guard let verifier, let keys else {
            throw APIError.unavailable("Gmail push is not configured on this server (alfred api --pubsub-audience …)", retryAfter: 60)
        }
        guard let token = request.bearerToken else {
            GmailPushMetrics.count("refused_no_token", metrics)
            throw APIError.unauthorized("a Pub/Sub OIDC token is required")
        }
        let key: PushTokenVerifier.PublicKey?
        do {
            key = try await PushTokenVerifier.keyID(of: token).asyncMap(keys) ?? nil
        } catch {
            throw APIError.unavailable("Google's signing keys cannot be fetched right now", retryAfter: 10)
        }
        do {
            try verifier.verify(token, key: key, now: now())
        } catch {
            GmailPushMetrics.count("refused_\(error.reason.rawValue)", metrics)
            throw APIError.invalidToken(error.description)
        }
        return try await next(request, body, metadata)
    }
}

enum GmailPushMetrics {
    static func count(_ result: String, _ factory: any MetricsFactory) {
        Counter(label: MetricName.gmailPushes, dimensions: [("result", result)], factory: factory).increment()
    }
}

extension APIHandler {
    /// A verified push: finds the watched mailbox by the keyed hash of its address and brings each
    /// owner's mail check forward (by unique key: duplicates and bursts are one check).
    func receiveGmailPush(_ input: Operations.ReceiveGmailPush.Input) async throws -> Operations.ReceiveGmailPush.Output {
        guard case .json(let push) = input.body else { throw APIError.invalidJSON("the body must be JSON") }
        guard let notification = Self.gmailNotification(push.message.data) else {
            GmailPushMetrics.count("malformed", deps.metrics)
            throw APIError.invalidField("message.data", "must be base64 of {\"emailAddress\": ..., \"historyId\": ...}")
        }
        let hash = GmailWatchHandler.mailboxHash(notification.address, deps.sealer)
        let owners = try await deps.store.mailboxOwners(addressHash: hash)
        let relays = try await deps.store.relayOwners(addressHash: hash)
        guard !owners.isEmpty || !relays.isEmpty else {
            GmailPushMetrics.count("unknown_address", deps.metrics)
            throw APIError.notFound("watched mailbox")
        }
        if !owners.isEmpty {
            _ = try await deps.jobs.enqueue(owners.map { AssistantEnvironment.mailHintJob(userID: $0) }, onConflict: .replaceSchedule)
        }
        if !relays.isEmpty {
            // Relay mode: a wake-up for the user's app, and nothing else (the worker coalesces them).
            _ = try await deps.jobs.enqueue(relays.map { AssistantEnvironment.relayWakeJob(userID: $0) }, onConflict: .keep)
        }
        GmailPushMetrics.count(owners.isEmpty ? "relayed" : "accepted", deps.metrics)
        return .accepted(.init(body: .json(.init(ok: true))))
    }


    // MARK: Relay mode

    func registerRelayMailbox(_ input: Operations.RegisterRelayMailbox.Input) async throws -> Operations.RegisterRelayMailbox.Output {
        let caller = try Caller.required
        guard case .json(let request) = input.body else { throw APIError.invalidJSON("the body must be JSON") }
        try Check.length(request.emailAddress, "email_address", 3...320)
        let parts = request.emailAddress.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, !request.emailAddress.contains(where: \.isWhitespace) else {
            throw APIError.invalidField("email_address", "must be an email address")
        }
        try Check.length(request.googleIdToken, "google_id_token", 1...4096)
        guard let topic = deps.gmailPush?.topicName, let keys = deps.googleKeys else {
            throw APIError.unavailable("relay mode is not configured on this server (alfred api --pubsub-topic …)", retryAfter: 60)
        }
        let audiences = Set(deps.google?.clients.map(\.id) ?? [])
        guard !audiences.isEmpty else {
            throw APIError.unavailable("relay mode needs Google connect's OAuth clients to check mailbox proofs (alfred api --google-client-id …)",
                                       retryAfter: 60)
        }
        let key: PushTokenVerifier.PublicKey?
        do {
            key = try await PushTokenVerifier.keyID(of: request.googleIdToken).asyncMap(keys) ?? nil
        } catch {
            throw APIError.unavailable("Google's signing keys cannot be fetched right now", retryAfter: 10)
        }
        let rejection: MailboxProofVerifier.Rejection?
        do {
            try MailboxProofVerifier(audiences: audiences).verify(request.googleIdToken, address: request.emailAddress, key: key,
                                                                  now: deps.now())
            rejection = nil
        } catch {
            rejection = error
        }
        if let rejection {
            try? await deps.audit.record(AuditEvent(userID: caller.userID, type: "RELAY_MAILBOX", connector: "google", result: "DENIED"))
            throw APIError(status: .forbidden, code: .notYourMailbox, message: rejection.description)
        }
        // Gmail's watch lapses after 7 days; the app is asked to renew it a day before.
        let now = deps.now()
        let expires = request.watchExpiration.map { Date(timeIntervalSince1970: Double($0) / 1000) }
            .map { min(max($0, now), now.addingTimeInterval(7 * 86_400)) } ?? now.addingTimeInterval(7 * 86_400)
        try await deps.store.setRelayMailbox(userID: caller.userID, addressHash: GmailWatchHandler.mailboxHash(request.emailAddress, deps.sealer),
                                             watchExpiresAt: expires)
        _ = try await deps.jobs.enqueue([AssistantEnvironment.relayRenewJob(userID: caller.userID, watchExpiresAt: expires)],
                                        onConflict: .replaceSchedule)
        try? await deps.audit.record(AuditEvent(userID: caller.userID, type: "RELAY_MAILBOX", connector: "google", result: "SUCCESS"))
        return .ok(.init(body: .json(.init(topicName: topic))))
    }

    func deleteRelayMailbox(_ input: Operations.DeleteRelayMailbox.Input) async throws -> Operations.DeleteRelayMailbox.Output {
        let caller = try Caller.required
        guard try await deps.store.deleteRelayMailbox(userID: caller.userID) else { throw APIError.notFound("relayed mailbox") }
        return .ok(Self.ok)
    }

    /// `data`: base64 (standard or URL-safe, padded or not) of `{"emailAddress", "historyId"}`, the
    /// history id a number (as Gmail sends it) or a string (as its guide shows it).
    static func gmailNotification(_ data: String) -> (address: String, historyID: String)? {
        var base64 = data.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let bytes = Data(base64Encoded: base64),
              let object = try? JSONSerialization.jsonObject(with: bytes) as? [String: Any],
              let address = object["emailAddress"] as? String, address.contains("@"), address.count <= 320
        else { return nil }
        let history: String? = switch object["historyId"] {
        case let value as String where !value.isEmpty && value.allSatisfy(\.isNumber): value
        case let value as NSNumber where value.int64Value > 0: String(value.int64Value)
        default: nil
        }
        guard let history else { return nil }
        return (address, history)
    }
}
