import AsyncHTTPClient
import Foundation
import Hummingbird
import NIOCore
import Synchronization

/// Cloud Pub/Sub push for Gmail `watch` (external-apis §3.4): when a watched mailbox changes, the
/// stand-in POSTs Pub/Sub's wrapped push body to the configured endpoint, with the OIDC token a push
/// subscription with authentication attaches (RS256, verifiable with this stand-in's
/// `/oauth2/v3/certs`, as Google's is with `https://www.googleapis.com/oauth2/v3/certs`).
///
/// Like Gmail: at most one notification per mailbox per second (changes meanwhile are covered by
/// the next one, which names the newest history id), nothing after the watch expired or stopped,
/// only changes matching the watch's label filter; a push answered with a non-2xx status or not at
/// all is delivered again with backoff, a few times.
extension GoogleStandIn {
    /// Where pushes go and what their token claims.
    public struct PushSubscription: Sendable, Equatable {
        public var endpoint: String
        /// The token's `aud`; Pub/Sub defaults it to the endpoint URL.
        public var audience: String
        /// The token's `email`: the push subscription's service account.
        public var serviceAccount: String
        public var subscription: String

        public init(endpoint: String, audience: String? = nil,
                    serviceAccount: String = "gmail-push@alfred-local.iam.gserviceaccount.com",
                    subscription: String = "projects/alfred-local/subscriptions/gmail-push") {
            self.endpoint = endpoint
            self.audience = audience ?? endpoint
            self.serviceAccount = serviceAccount
            self.subscription = subscription
        }
    }

    /// One push the stand-in sent, and what the endpoint answered (0: no answer).
    public struct SentPush: Sendable, Equatable {
        public let email: String
        public let historyId: UInt64
        public let status: Int
    }

    struct PubSubState: Sendable {
        var subscription: PushSubscription?
        /// Per mailbox (by subject): the newest history id notified, and when.
        var notified: [String: (historyId: UInt64, at: Date)] = [:]
        var sent: [SentPush] = []
        var nextMessageID: UInt64 = 11_893_302_771_641_024
    }

    static let certsPath = "/oauth2/v3/certs"
    /// Google's push token issuer.
    public static let pushIssuer = "https://accounts.google.com"

    /// Starts (or, with nil, stops) pushing Gmail changes to `subscription.endpoint`. Changes that
    /// happened before are not pushed.
    public func pushGmailChanges(to subscription: PushSubscription?) {
        let now = clock.now()
        let current = accounts.withLock { accounts in accounts.mailboxes.mapValues(\.historyId) }
        pubsub.withLock { state in
            state.subscription = subscription
            state.notified = current.mapValues { ($0, now.addingTimeInterval(-1)) }
        }
    }

    /// The pushes sent so far, oldest first.
    public func sentPushes() -> [SentPush] { pubsub.withLock { $0.sent } }

    /// The JWKS (`/oauth2/v3/certs`) that verifies this stand-in's push tokens.
    public func certsURL() async throws -> String { try await baseURL() + Self.certsPath }

    /// A push token as Pub/Sub signs it, for tests that post pushes themselves. `foreignKey` signs
    /// with a key the JWKS does not list under the token's `kid`, so its signature does not verify.
    public func pushToken(audience: String, serviceAccount: String, issuer: String = GoogleStandIn.pushIssuer,
                          issuedAt: Date? = nil, lifetime: TimeInterval = 3600, emailVerified: Bool = true,
                          foreignKey: Bool = false) throws -> String {
        let issued = Int((issuedAt ?? clock.now()).timeIntervalSince1970)
        return try signedByGoogle(GoogleClaims(aud: audience, azp: "109876543210987654321", email: serviceAccount,
                                               email_verified: emailVerified, exp: issued + Int(lifetime), iat: issued, iss: issuer,
                                               sub: "109876543210987654321"), foreignKey: foreignKey)
    }

    private struct GoogleClaims: Encodable {
        let aud: String, azp: String, email: String, email_verified: Bool, exp: Int, iat: Int, iss: String, sub: String
    }

    /// RS256 with the key the JWKS publishes (or, `foreignKey`, one it does not list under that `kid`).
    private func signedByGoogle(_ claims: GoogleClaims, foreignKey: Bool) throws -> String {
        let key = pushKey
        let signer = foreignKey ? RSASigningKey.generate() : key
        struct Header: Encodable { let alg = "RS256", typ = "JWT"; let kid: String }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let input = try encoder.encode(Header(kid: key.id)).base64URLEncoded + "." + encoder.encode(claims).base64URLEncoded
        return input + "." + (try signer.sign(input)).base64URLEncoded
    }

    /// A Google ID token for `email` as Sign-In for iOS hands the app (RS256 with the key the JWKS at
    /// `certsURL()` publishes, like Google's own): what relay mode asks for as proof of a mailbox.
    public func mailboxIDToken(email: String, audience: String, subject: String = "100000000000000000088", emailVerified: Bool = true,
                               issuer: String = GoogleStandIn.pushIssuer, issuedAt: Date? = nil, lifetime: TimeInterval = 3600,
                               foreignKey: Bool = false) throws -> String {
        let issued = Int((issuedAt ?? clock.now()).timeIntervalSince1970)
        return try signedByGoogle(GoogleClaims(aud: audience, azp: audience, email: email, email_verified: emailVerified,
                                               exp: issued + Int(lifetime), iat: issued, iss: issuer, sub: subject), foreignKey: foreignKey)
    }

    /// Pub/Sub's wrapped push body for one Gmail notification.
    public static func pushBody(email: String, historyId: UInt64, messageID: String, publishTime: Date, subscription: String) -> [UInt8] {
        let data = Data(#"{"emailAddress":"\#(email)","historyId":\#(historyId)}"#.utf8).base64EncodedString()
        let time = publishTime.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        return Array("""
            {"message":{"data":"\(data)","messageId":"\(messageID)","message_id":"\(messageID)",\
            "publishTime":"\(time)","publish_time":"\(time)","attributes":{}},"subscription":"\(subscription)"}
            """.utf8)
    }

    func addPubSubRoutes(to router: Router<BasicRequestContext>) {
        router.get(RouterPath(Self.certsPath)) { _, _ -> Response in
            let jwks = try JSONEncoder().encode(["keys": [self.pushKey.jwk]])
            return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "public, max-age=3600"],
                            body: .init(byteBuffer: ByteBuffer(bytes: jwks)))
        }
    }

    /// Checks every watched mailbox every 200 ms (on the wall clock) and pushes what changed.
    func runPushes() async {
        while !Task.isCancelled {
            await pushPendingChanges()
            try? await Task.sleep(for: .milliseconds(200))
        }
    }

    /// One round: for each watched mailbox with changes past the last notified history id (and at
    /// least a second after the last push to it), one push naming the newest history id.
    func pushPendingChanges() async {
        guard let subscription = pubsub.withLock({ $0.subscription }) else { return }
        let now = clock.now()
        let users = scenario.withLock { $0.users }
        var due: [(subject: String, email: String, historyId: UInt64, messageID: String)] = []
        for user in users {
            let change: UInt64? = withMailbox(of: user, now: now) { (mailbox: inout Mailbox) -> UInt64? in
                guard let watch = mailbox.watch, watch.expiration > now else { return nil }
                let last = pubsub.withLock { $0.notified[user.subject] }
                if let last, now.timeIntervalSince(last.at) < 1 { return nil }
                let matching = mailbox.history.filter { record in
                    record.id > (last?.historyId ?? 0) && (watch.labelIds.isEmpty
                        || watch.include == !Set(record.labelIds).isDisjoint(with: watch.labelIds))
                }
                return matching.isEmpty ? nil : mailbox.historyId
            }
            guard let change else { continue }
            let messageID = pubsub.withLock { state in
                state.notified[user.subject] = (change, now)
                state.nextMessageID += 17
                return String(state.nextMessageID)
            }
            due.append((user.subject, user.email, change, messageID))
        }
        await withTaskGroup(of: Void.self) { group in
            for push in due {
                group.addTask {
                    let status = await self.deliver(push.email, historyId: push.historyId, messageID: push.messageID,
                                                    subscription: subscription, now: now)
                    self.pubsub.withLock { $0.sent.append(SentPush(email: push.email, historyId: push.historyId, status: status)) }
                }
            }
        }
    }

    /// POSTs one push; non-2xx or no answer is retried (0.5 s, 1 s, 2 s). Returns the last status.
    private func deliver(_ email: String, historyId: UInt64, messageID: String, subscription: PushSubscription, now: Date) async -> Int {
        var status = 0
        for attempt in 0..<4 {
            if attempt > 0 { try? await Task.sleep(for: .milliseconds(500 << (attempt - 1))) }
            do {
                var request = HTTPClientRequest(url: subscription.endpoint)
                request.method = .POST
                request.headers.add(name: "Content-Type", value: "application/json")
                request.headers.add(name: "Authorization",
                                    value: "Bearer " + (try pushToken(audience: subscription.audience, serviceAccount: subscription.serviceAccount)))
                request.body = .bytes(ByteBuffer(bytes: Self.pushBody(email: email, historyId: historyId, messageID: messageID,
                                                                      publishTime: now, subscription: subscription.subscription)))
                let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
                _ = try? await response.body.collect(upTo: 64 * 1024)
                status = Int(response.status.code)
                if (200..<300).contains(status) { return status }
            } catch {
                status = 0
            }
            if Task.isCancelled { break }
        }
        logger.info("Pub/Sub push not acknowledged", metadata: ["alfred.standin.status": "\(status)"])
        return status
    }

    /// The push signing key, made on first use (RSA key generation costs tens of milliseconds).
    var pushKey: RSASigningKey {
        pubsubKey.withLock { key in
            if let key { return key }
            let made = RSASigningKey.generate()
            key = made
            return made
        }
    }
}
