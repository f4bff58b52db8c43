import Crypto
import Foundation
import Hummingbird
import HummingbirdHTTP2
import Logging
import NIOSSL
import ServiceLifecycle
import Synchronization

/// A local fake of Apple's APNs provider API (token auth) on a real loopback socket: HTTP/2 over
/// TLS with a throwaway CA, Apple's request checks and error reasons (external-apis §4), a device
/// registry, fault injection and a record of what was delivered.
///
/// ```swift
/// let ca = try TestCertificateAuthority.generate()
/// let apns = APNsStandIn(configuration: .init(teamID: "TEAM123456", providerKeys: ["KEY1234567": key.publicKey], tls: ca),
///                        logger: logger)
/// group.addTask { try await apns.run() }            // or put it in a ServiceGroup
/// apns.register(deviceToken: token)
/// let base = try await apns.baseURL()               // replaces https://api.sandbox.push.apple.com
/// // … client trusts ca.caCertificatePEM and POSTs to base + "/3/device/" + token …
/// #expect(apns.deliveries().count == 1)
/// ```
///
/// The same server answers a JSON control plane under `/_fake/` (see `APNsStandIn+Control.swift`)
/// for other processes. Logs carry statuses, reasons and an 8-hex-digit hash of the device token,
/// never tokens, JWTs or payloads.
public final class APNsStandIn: Service, Sendable {
    let configuration: Configuration
    let ledger: Mutex<APNsLedger>
    let listener = BoundPort()
    let verifiedTokens = VerifiedTokens()
    let logger: Logger
    /// Decides provider-token age, rate-limit windows and `receivedAt`; advance it instead of waiting.
    public let clock: StandInClock
    /// Times injected and configured latency (real time by default: the client under test measures it).
    let latencyClock: any Clock<Duration>

    /// - Parameter latencyClock: what latency sleeps on; a test may pass a manual clock to hold an
    ///   answer until it advances the clock.
    public init(configuration: Configuration, clock: StandInClock = StandInClock(),
                latencyClock: any Clock<Duration> = ContinuousClock(),
                logger: Logger = Logger(label: "alfred.standin.apns")) {
        self.configuration = configuration
        self.ledger = Mutex(APNsLedger(recordCapacity: configuration.recordCapacity))
        self.clock = clock
        self.latencyClock = latencyClock
        self.logger = logger
    }

    // MARK: Lifecycle

    /// Binds `configuration.host:port` with TLS (ALPN `h2`, `http/1.1`) and serves until cancelled
    /// or gracefully shut down.
    public func run() async throws {
        listener.rearm()
        let address = "\(configuration.host):\(configuration.port)"
        let listener = self.listener
        let logger = self.logger
        do {
            let tls = try Self.serverTLS(configuration.tls)
            let application = Application(
                responder: APNsResponder(standIn: self),
                server: try .http2Upgrade(
                    tlsConfiguration: tls,
                    configuration: .init(idleTimeout: .seconds(300), gracefulCloseTimeout: .seconds(1))),
                configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
                onServerRunning: { channel in
                    if let port = channel.localAddress?.port {
                        listener.bind(port)
                    } else {
                        listener.fail(StandInError(.notRunning, "APNs stand-in bound \(address) but reports no port"))
                    }
                },
                logger: logger)
            try await application.run()
        } catch {
            listener.fail(StandInError(.notRunning, "APNs stand-in on \(address) failed: \(error); is the port free?"))
            throw error
        }
        listener.fail(StandInError(.notRunning, "APNs stand-in on \(address) has stopped; run() it again"))
    }

    /// What `run()` serves, for the stand-in's own tests to drive without a socket.
    package func makeResponder() -> APNsResponder { APNsResponder(standIn: self) }

    /// A provider token as a well-behaved client makes it (ES256 over `{"alg","kid"}.{"iss","iat"}`),
    /// minted here independently of the production signer so the stand-in's checks are tested on their own.
    public static func providerToken(key: P256.Signing.PrivateKey, keyID: String, teamID: String, issuedAt: Date,
                                     alg: String = "ES256") throws -> String {
        func base64URL(_ data: Data) -> String {
            data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
                .replacingOccurrences(of: "=", with: "")
        }
        let header = base64URL(Data(#"{"alg":"\#(alg)","kid":"\#(keyID)"}"#.utf8))
        let claims = base64URL(Data(#"{"iss":"\#(teamID)","iat":\#(Int(issuedAt.timeIntervalSince1970))}"#.utf8))
        let signature = try key.signature(for: Data("\(header).\(claims)".utf8))
        return "\(header).\(claims).\(base64URL(signature.rawRepresentation))"
    }

    /// The bound port, once `run()` is listening (waits for it; cancellable). Throws if it failed or stopped.
    public func boundPort() async throws -> Int {
        try await listener.wait()
    }

    /// `https://127.0.0.1:<port>`: what replaces `https://api.sandbox.push.apple.com` (or
    /// `api.push.apple.com`) in client configuration. The certificate also names `localhost`.
    public func baseURL() async throws -> String {
        let host = configuration.host
        return "https://\(host.contains(":") ? "[\(host)]" : host):\(try await boundPort())"
    }

    static func serverTLS(_ tls: TestCertificateAuthority) throws -> TLSConfiguration {
        let chain = try NIOSSLCertificate.fromPEMBytes(Array(tls.serverCertificatePEM.utf8))
        let key = try NIOSSLPrivateKey(bytes: Array(tls.serverPrivateKeyPEM.utf8), format: .pem)
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12  // Apple: TLS 1.2 or later
        return configuration
    }

    // MARK: Devices

    /// Makes `deviceToken` valid for `environment` (default: this server's) and `topic` (default:
    /// the configured one), clearing any earlier `unregister`.
    public func register(deviceToken: String, environment: Environment? = nil, topic: String? = nil) {
        let device = APNsLedger.Device(environment: environment ?? configuration.environment,
                                       topic: topic ?? configuration.topic)
        ledger.withLock { $0.devices[deviceToken] = device }
    }

    /// From now on pushes to `deviceToken` get 410 `Unregistered` with `timestamp` = `at` (ms).
    /// An unknown token is registered first, for this server's environment and topic.
    public func unregister(deviceToken: String, at: Date) {
        let fallback = APNsLedger.Device(environment: configuration.environment, topic: configuration.topic)
        ledger.withLock { $0.devices[deviceToken, default: fallback].unregisteredAt = at }
    }

    // MARK: Faults and records

    /// Queues a fault (first added, first served). A fault that could never act is ignored and
    /// logged; the control plane answers 400 for it instead.
    public func inject(_ fault: APNsFault) {
        if let problem = fault.problem {
            logger.error("apns stand-in fault ignored", metadata: ["alfred.standin.problem": "\(problem)"])
            return
        }
        ledger.withLock {
            $0.faults.append(fault)
            if fault.goAway { $0.tracksStreams = true }
        }
    }

    /// GOAWAY frames sent by `goAway` faults.
    public func goAwaysSent() -> Int { ledger.withLock { $0.goAwaysSent } }

    /// Pushes a `goAway` fault left unprocessed (their streams were above the GOAWAY's last id).
    public func droppedByGoAway() -> Int { ledger.withLock { $0.droppedByGoAway } }

    public func removeAllFaults() { ledger.withLock { $0.faults.removeAll() } }

    /// Accepted pushes (200), oldest first, up to `configuration.recordCapacity`.
    public func deliveries() -> [APNsDelivery] { ledger.withLock { $0.deliveries.elements } }

    public func clearDeliveries() { ledger.withLock { $0.deliveries.removeAll() } }

    /// What the device with `token` shows: its accepted alerts, one per collapse id.
    public func shown(to token: String) -> [APNsDelivery] {
        APNsDelivery.shownOnDevice(deliveries().filter { $0.deviceToken == token })
    }

    /// Every request to an APNs path (not `/_fake/`), oldest first, with its status and reason.
    public func requests() -> [APNsRequestRecord] { ledger.withLock { $0.requests.elements } }

    public func clearRequests() { ledger.withLock { $0.requests.removeAll() } }

    /// 200s the client reset before their END_STREAM (see `Configuration.endStreamDelay`): a client
    /// that drops answers unread costs its connection once the server's reset limit is reached.
    public func abandonedAnswers() -> Int { ledger.withLock { $0.abandonedAnswers } }

    /// How many different bearer tokens were presented on `/3/device` so far (valid or not).
    public func distinctProviderTokens() -> Int { ledger.withLock { $0.presentedTokens.count } }
}
