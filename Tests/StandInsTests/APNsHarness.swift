import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import NIOHTTP1
import StandIns

/// An APNs stand-in for one test, a clock pinned in time, and its responder driven in-process
/// through Hummingbird's router test client: Apple's checks and answers, without TLS or HTTP/2
/// (those are tested over the socket in StandInsIntegrationTests).
struct APNsHarness: Sendable {
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
    let client: any TestClientProtocol
    /// One provider token for the whole test, issued at the pinned time, as a well-behaved client does.
    let token: String

    static func configuration() throws -> APNsStandIn.Configuration {
        APNsStandIn.Configuration(teamID: teamID, providerKeys: [keyID: signingKey.publicKey], tls: try ca.get())
    }

    /// Runs `body` against a fresh stand-in (with `device` registered).
    /// `latencyClock`: what the stand-in's latency sleeps on (a manual clock holds answers until advanced).
    static func with(_ configure: @Sendable (inout APNsStandIn.Configuration) -> Void = { _ in },
                     latencyClock: any Clock<Duration> = ContinuousClock(),
                     logger: Logger = Logger(label: "alfred.standin.apns.test"),
                     _ body: @Sendable (APNsHarness) async throws -> Void) async throws {
        var configuration = try configuration()
        configure(&configuration)
        let standIn = APNsStandIn(configuration: configuration, clock: StandInClock(now: { pinned }), latencyClock: latencyClock,
                                  logger: logger)
        standIn.register(deviceToken: device)
        let token = try jwt(issuedAt: pinned)
        try await Application(responder: standIn.makeResponder(), logger: logger).test(.router) { client in
            try await body(APNsHarness(standIn: standIn, client: client, token: token))
        }
    }

    static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static func jwt(key: P256.Signing.PrivateKey = signingKey, keyID: String = keyID, teamID: String = teamID,
                    issuedAt: Date = pinned, alg: String = "ES256") throws -> String {
        try APNsStandIn.providerToken(key: key, keyID: keyID, teamID: teamID, issuedAt: issuedAt, alg: alg)
    }

    struct Reply {
        var status: Int
        var headers: HTTPFields
        var body: String

        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
        var reason: String? { json["reason"] as? String }
        var apnsID: String? { headers[HTTPField.Name("apns-id")!] }
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
              payload: String = alertPayload, method: NIOHTTP1.HTTPMethod = .POST, path: String? = nil) async throws -> Reply {
        var fields = HTTPFields()
        if let authorization = authorization ?? "bearer \(token ?? self.token)" {
            fields.append(HTTPField(name: .authorization, value: authorization))
        }
        var headers = Self.alertHeaders
        for (name, value) in overrides { headers[name] = value }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) + extraHeaders {
            fields.append(HTTPField(name: HTTPField.Name(name)!, value: value))
        }
        return try await send(method, path ?? "/3/device/\(device)", headers: fields,
                              body: method == .POST ? ByteBuffer(string: payload) : nil)
    }

    func control(_ method: NIOHTTP1.HTTPMethod, _ path: String, json: String? = nil) async throws -> Reply {
        var fields = HTTPFields()
        if json != nil { fields[.contentType] = "application/json" }
        return try await send(method, path, headers: fields, body: json.map { ByteBuffer(string: $0) })
    }

    func send(_ method: NIOHTTP1.HTTPMethod, _ path: String, headers: HTTPFields, body: ByteBuffer?) async throws -> Reply {
        let response = try await client.execute(uri: path, method: HTTPRequest.Method(rawValue: method.rawValue)!, headers: headers,
                                                body: body)
        return Reply(status: Int(response.status.code), headers: response.headers, body: String(buffer: response.body))
    }
}

extension HTTPFields {
    /// The first value of the header named `name` (any case).
    func first(name: String) -> String? { HTTPField.Name(name).flatMap { self[$0] } }
}
