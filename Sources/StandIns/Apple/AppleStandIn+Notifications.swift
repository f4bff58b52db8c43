import AsyncHTTPClient
import Foundation
import NIOCore

extension AppleStandIn {
    /// Sign in with Apple's server-to-server events ("Processing changes for Sign in with Apple
    /// accounts"): what Apple POSTs to the app's registered endpoint when a person changes how they
    /// use their Apple Account with the app.
    public enum AccountEvent: String, Sendable, CaseIterable {
        case consentRevoked = "consent-revoked", accountDelete = "account-delete"
        case emailDisabled = "email-disabled", emailEnabled = "email-enabled"
    }

    /// The notification's JWT as Apple signs it: RS256 with the published key, `iss` Apple, `aud`
    /// the app's client id, `iat`, `jti`, and `events`, a JSON string naming the event's `type`,
    /// the account's `sub` and `event_time` (ms). `foreignKey` signs with a key Apple does not
    /// publish under that `kid`.
    public func accountEventToken(_ event: AccountEvent, subject: String, audience: String? = nil, issuedAt: Date? = nil,
                                  issuer: String? = nil, foreignKey: Bool = false) throws -> String {
        let key = keys.withLock { $0[0] }
        let signer = foreignKey ? RSASigningKey.generate() : key
        let issued = issuedAt ?? clock.now()
        let events = try JSONSerialization.data(withJSONObject: [
            "type": event.rawValue, "sub": subject, "event_time": Int(issued.timeIntervalSince1970 * 1000),
            "email": "relay-\(subject.prefix(6))@privaterelay.appleid.com", "is_private_email": "true",
        ], options: [.sortedKeys, .withoutEscapingSlashes])
        let claims: [String: ClaimValue] = [
            "iss": .string(issuer ?? configuration.issuer), "aud": .string(audience ?? configuration.audience),
            "iat": .int(Int(issued.timeIntervalSince1970)), "jti": .string(UUID().uuidString.lowercased()),
            "events": .string(String(decoding: events, as: UTF8.self)),
        ]
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let input = try encoder.encode(["alg": "RS256", "kid": key.id]).base64URLEncoded + "." + encoder.encode(claims).base64URLEncoded
        return input + "." + (try signer.sign(input)).base64URLEncoded
    }

    /// Sends one event to `endpoint` as Apple does (`{"payload": "<JWT>"}`); returns the HTTP status.
    @discardableResult
    public func sendAccountEvent(_ event: AccountEvent, subject: String, to endpoint: String, audience: String? = nil) async throws -> Int {
        var request = HTTPClientRequest(url: endpoint)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        let body = try JSONSerialization.data(withJSONObject: ["payload": try accountEventToken(event, subject: subject, audience: audience)])
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        return Int(response.status.code)
    }
}
