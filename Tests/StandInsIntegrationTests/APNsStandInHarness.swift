import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOSSL
import AlfredTestCluster
import ServiceLifecycle
import StandIns

/// An APNs stand-in on an ephemeral port for one test, a clock pinned in time, and an
/// AsyncHTTPClient that trusts the stand-in's CA (and nothing else of ours) and negotiates HTTP/2.
struct APNsHarness {
    static let teamID = "TEAM123456"
    static let keyID = "KEY1234567"
    static let topic = "com.example.alfred"
    static let device = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"
    /// 2026-03-01T00:00:00Z.
    static let pinned = Date(timeIntervalSince1970: 1_772_323_200)
    static let signingKey = P256.Signing.PrivateKey()
    static let ca = Result { try TestCertificateAuthority.generate() }
    static let alertPayload = #"{"aps":{"alert":{"title":"Board sync in 10 min","body":"Room 4.12"}},"alfred":{"kind":"calendar"}}"#

    let standIn: APNsStandIn
    let client: HTTPClient
    /// `https://localhost:<port>`: the host name the certificate must match.
    let baseURL: String
    /// One provider token for the whole test, issued at the pinned time, as a well-behaved client does.
    let token: String

    static func configuration() throws -> APNsStandIn.Configuration {
        APNsStandIn.Configuration(teamID: teamID, providerKeys: [keyID: signingKey.publicKey], tls: try ca.get())
    }

    /// Runs `body` against a fresh stand-in (with `device` registered) inside a ServiceGroup; shuts
    /// it down gracefully and stops the client whatever happens.
    /// `latencyClock`: what the stand-in's latency sleeps on (a manual clock holds answers until advanced).
    static func with(_ configure: (inout APNsStandIn.Configuration) -> Void = { _ in },
                     latencyClock: any Clock<Duration> = ContinuousClock(),
                     logger: Logger = Logger(label: "alfred.standin.apns.test"),
                     _ body: (APNsHarness) async throws -> Void) async throws {
        var configuration = try configuration()
        configure(&configuration)
        let clock = StandInClock(now: { pinned })
        let standIn = APNsStandIn(configuration: configuration, clock: clock, latencyClock: latencyClock, logger: logger)
        standIn.register(deviceToken: device)
        try await withRunningServices([standIn], logger: logger) {
            // Waiting for the bound port also means the service runs before we shut it down.
            let port = try await standIn.boundPort()
            let client = try makeClient()
            // The client goes first: its connections close before the server stops.
            do {
                try await body(APNsHarness(standIn: standIn, client: client, baseURL: "https://localhost:\(port)",
                                           token: try jwt(issuedAt: pinned)))
            } catch {
                try? await client.shutdown()
                throw error
            }
            try await client.shutdown()
        }
    }

    static func makeClient() throws -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMBytes(Array(try ca.get().caCertificatePEM.utf8)))
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls)
        configuration.httpVersion = .automatic  // HTTP/2 when ALPN offers it
        return TestHTTP.client(configuration)
    }

    static func jwt(key: P256.Signing.PrivateKey = signingKey, keyID: String = keyID, teamID: String = teamID,
                    issuedAt: Date = pinned, alg: String = "ES256") throws -> String {
        try APNsStandIn.providerToken(key: key, keyID: keyID, teamID: teamID, issuedAt: issuedAt, alg: alg)
    }

    // MARK: HTTP

    struct Reply {
        var status: Int
        var headers: HTTPHeaders
        var body: String
        var version: HTTPVersion

        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
        var reason: String? { json["reason"] as? String }
        var apnsID: String? { headers.first(name: "apns-id") }
    }

    /// The headers of a valid alert push; a test overrides (or with nil, removes) some.
    static let alertHeaders: [String: String] = [
        "apns-topic": topic, "apns-push-type": "alert", "apns-priority": "10", "apns-expiration": "0",
        "content-type": "application/json",
    ]

    /// `POST /3/device/<device>` with the harness token, Apple's headers and an alert payload;
    /// `extraHeaders` are added on top (to repeat one).
    func push(device: String = device, token: String? = nil, authorization: String?? = nil,
              headers overrides: [String: String?] = [:], extraHeaders: [(String, String)] = [],
              payload: String = alertPayload, method: HTTPMethod = .POST, path: String? = nil) async throws -> Reply {
        var request = HTTPClientRequest(url: baseURL + (path ?? "/3/device/\(device)"))
        request.method = method
        if let authorization = authorization ?? "bearer \(token ?? self.token)" {
            request.headers.add(name: "authorization", value: authorization)
        }
        var headers = Self.alertHeaders
        for (name, value) in overrides { headers[name] = value }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request.headers.add(name: name, value: value) }
        for (name, value) in extraHeaders { request.headers.add(name: name, value: value) }
        if method == .POST { request.body = .bytes(ByteBuffer(string: payload)) }
        return try await send(request)
    }

    func send(_ request: HTTPClientRequest) async throws -> Reply {
        // Generous: how fast the stand-in answers is the benchmark's business; the suite's time limit catches a hang.
        let response = try await client.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 1 << 22)
        return Reply(status: Int(response.status.code), headers: response.headers, body: String(buffer: body),
                     version: response.version)
    }

    func control(_ method: HTTPMethod, _ path: String, json: String? = nil) async throws -> Reply {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        if let json {
            request.headers.add(name: "content-type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
        }
        return try await send(request)
    }
}
