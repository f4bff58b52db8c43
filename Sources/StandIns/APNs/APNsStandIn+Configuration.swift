import Crypto

extension APNsStandIn {
    /// Which Apple host this instance plays. A device token registered for one environment is a
    /// `BadDeviceToken` on the other, as with Apple.
    public enum Environment: String, Sendable, Codable, CaseIterable {
        /// `api.sandbox.push.apple.com` (debug builds of the app).
        case sandbox
        /// `api.push.apple.com`.
        case production
    }

    /// What the stand-in accepts and how strict it is. Everything but the team, the provider keys
    /// and the TLS material has a default.
    public struct Configuration: Sendable {
        public var host: String = "127.0.0.1"
        /// 0 lets the OS pick a free port; read it with `boundPort()`.
        public var port: Int = 0
        /// The app's bundle id: `apns-topic` must be this (plus Apple's suffix for voip & co).
        public var topic: String = "com.example.alfred"
        /// The 10-character team id every provider token's `iss` must name.
        public var teamID: String
        public var environment: Environment = .sandbox
        /// Key id (`kid` in the JWT header) -> the public half of the `.p8` key that signs tokens.
        public var providerKeys: [String: P256.Signing.PublicKey]
        /// The server certificate and key to serve; clients trust `tls.caCertificatePEM`.
        public var tls: TestCertificateAuthority
        /// More than this many distinct provider tokens for the team within 20 minutes ->
        /// 429 `TooManyProviderTokenUpdates`. A token already seen does not count again.
        public var maxTokenChangesPer20Minutes: Int = 2
        /// Per device token: more than `count` accepted pushes within `window` (stand-in clock) ->
        /// 429 `TooManyRequests`. Nil turns the limit off.
        public var perDeviceLimit: (count: Int, window: Duration)? = nil
        /// Real time added before every answer on `/3/device` (not the control plane).
        public var latency: Duration = .zero
        /// Real time between a 200's HEADERS and its END_STREAM (an empty DATA frame), as a server may
        /// send them. A client that drops the answer before its end resets the stream, which
        /// `abandonedAnswers()` counts (and HTTP/2 servers count against the connection).
        public var endStreamDelay: Duration = .zero
        /// How many deliveries and request records are kept; the oldest go first.
        public var recordCapacity: Int = 100_000

        public init(teamID: String, providerKeys: [String: P256.Signing.PublicKey], tls: TestCertificateAuthority) {
            self.teamID = teamID
            self.providerKeys = providerKeys
            self.tls = tls
        }

        /// Adds the provider key `keyID` from PEM text: a P-256 public key (`BEGIN PUBLIC KEY`) or
        /// the `.p8` PKCS#8 private key Apple hands out, of which only the public half is kept.
        public mutating func addProviderKey(id keyID: String, pem: String) throws {
            if let key = try? P256.Signing.PublicKey(pemRepresentation: pem) {
                providerKeys[keyID] = key
            } else if let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) {
                providerKeys[keyID] = key.publicKey
            } else {
                throw StandInError(.invalidScenario,
                                   "provider key \(keyID) is neither a P-256 public key PEM nor a PKCS#8 .p8 private key; export it again")
            }
        }
    }
}
