import AlfredCore
import AlfredTesting
@testable import API
import Assistant
@testable import Delivery
@testable import Sealing
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import PostgresNIO
import ServiceLifecycle
import StandIns
import Store
import Synchronization

/// The API as it runs: `APIServer` on a real socket, its stores on role `alfred_api` over a fresh
/// migrated database, and the Apple stand-in serving keys and minting identity tokens. Tests talk
/// HTTP to it like the app does.
struct APIWorld {
    static let bundleID = "com.example.alfred"
    var userLimit = APIServer.RateLimitSetting(burst: 10_000, perSecond: 10_000)
    var addressLimit = APIServer.RateLimitSetting(burst: 10_000, perSecond: 10_000)
    /// Google connect's other half (stand-in, key service, broker); nil leaves connect unconfigured.
    var google: GoogleSide?
    /// The API's wall time; nil is the real one.
    var clock: ManualClock?

    struct Reply: Sendable {
        let status: Int
        let headers: HTTPHeaders
        let body: String
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
        var code: String? { json["code"] as? String }
        var message: String? { json["message"] as? String }
    }

    struct Session: Sendable {
        let access: String
        let refresh: String
    }

    struct Running: Sendable {
        let base: String
        let http: HTTPClient
        let apple: AppleStandIn
        let owner: PostgresClient
        let url: DatabaseURL
        let logs: LogCapture
        let sealer: HostSealer
        /// What the API exported (labels included).
        let metrics: CountingMetrics
        let googleSide: GoogleSide.Running?

        var google: GoogleSide.Running { googleSide! }

        /// Signs in with a fresh identity token for `subject`.
        func signIn(subject: String = "001234.alice", nonce: String? = nil) async throws -> Session {
            let token = try apple.identityToken(.init(subject: subject, audience: APIWorld.bundleID, nonce: nonce))
            let reply = try await call(.POST, "/v1/auth/ios/session", json: Self.sessionBody(token, nonce: nonce))
            guard reply.status == 200, let access = reply.json["access_token"] as? String, let refresh = reply.json["refresh_token"] as? String
            else { throw APIWorldError("sign-in answered \(reply.status): \(reply.body)") }
            return Session(access: access, refresh: refresh)
        }

        static func sessionBody(_ token: String, nonce: String? = nil, device: String = "ios-device-1") -> String {
            var body: [String: String] = ["apple_identity_token": token, "device_id": device]
            if let nonce { body["nonce"] = nonce }
            return String(decoding: try! JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        }

        func call(_ method: HTTPMethod, _ path: String, token: String? = nil, json: String? = nil,
                  headers extra: [(String, String)] = []) async throws -> Reply {
            var request = HTTPClientRequest(url: base + path)
            request.method = method
            if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
            if let json {
                request.headers.add(name: "Content-Type", value: "application/json")
                request.body = .bytes(ByteBuffer(string: json))
            }
            for (name, value) in extra { request.headers.add(name: name, value: value) }
            let response = try await http.execute(request, timeout: .seconds(60))
            let body = try await response.body.collect(upTo: 1 << 22)
            return Reply(status: Int(response.status.code), headers: response.headers, body: String(buffer: body))
        }

        /// The user behind an access token (the `sub` of our own JWT).
        func userID(_ session: Session) -> UUID {
            let payload = session.access.split(separator: ".")[1]
            let claims = try! JSONSerialization.jsonObject(with: Base64URL.decode(payload)!) as! [String: Any]
            return UUID(uuidString: claims["sub"] as! String)!
        }
    }

    func run<T: Sendable>(_ body: @Sendable (Running) async throws -> T) async throws -> T {
        let url = try await TestDatabase.fresh()
        guard let google else { return try await serve(url, googleSide: nil, body) }
        return try await google.run(database: url) { side in try await serve(url, googleSide: side, body) }
    }

    private func serve<T: Sendable>(_ url: DatabaseURL, googleSide: GoogleSide.Running?,
                                    _ body: @Sendable (Running) async throws -> T) async throws -> T {
        var apiURL = url
        apiURL.username = "alfred_api"
        let quiet = TestDatabase.quietLogger
        let pool = PostgresClient(configuration: apiURL.clientConfiguration(maxConnections: 6), backgroundLogger: quiet)
        let owner = PostgresClient(configuration: url.clientConfiguration(maxConnections: 2), backgroundLogger: quiet)
        var now: @Sendable () -> Date = { Date() }
        if let clock = self.clock { now = clock.nowDate }
        // Apple mints identity tokens at the API's wall time: with an injected clock pinned at the
        // world's start, tokens minted at the real time would be "issued in the future" once a slow
        // run has taken longer than the allowed skew.
        let apple = AppleStandIn(clock: StandInClock(now: now), logger: quiet)
        let sealer = try HostSealer(keyBytes: HostSealer.generateKeyBytes())
        let logs = LogCapture()
        let logger = logs.logger("alfred.api")
        let metrics = CountingMetrics()
        let (userLimit, addressLimit) = (self.userLimit, self.addressLimit)
        let broker: (any ConnectorAuthority)? = googleSide?.broker
        return try await withRunningServices([pool, owner, apple], logger: quiet) {
            var configuration = APIServer.Configuration(bundleID: Self.bundleID)
            configuration.port = 0
            configuration.appleKeysURL = try await apple.keysURL()
            configuration.userLimit = userLimit
            configuration.addressLimit = addressLimit
            configuration.google = googleSide?.connect
            configuration.gmailPush = googleSide?.push
            let port = PortOnce()
            let server = try APIServer(
                configuration: configuration,
                stores: .init(api: PostgresAPIStore(client: pool, logger: logger), privacy: PostgresPrivacyStore(client: pool, logger: logger),
                              audit: PostgresAuditStore(client: pool, logger: logger), jobs: PostgresJobStore(client: pool, logger: logger)),
                sealer: sealer, sessionKey: Array(repeating: 7, count: 32), http: HTTPClient.shared, broker: broker,
                logger: logger, now: now, metrics: metrics, onListening: { port.set($0) })
            return try await withRunningServices([server], logger: quiet) {
                let http = TestHTTP.client()
                let running = Running(base: "http://127.0.0.1:\(await port.value())", http: http, apple: apple, owner: owner, url: url,
                                      logs: logs, sealer: sealer, metrics: metrics, googleSide: googleSide)
                // The client goes first: its connections close before the server stops.
                do {
                    let value = try await body(running)
                    try await http.shutdown()
                    return value
                } catch {
                    try? await http.shutdown()
                    throw error
                }
            }
        }
    }
}

/// A value set once (the bound port), awaited by anyone.
final class PortOnce: Sendable {
    private let stream = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingNewest(1))
    private let seen = Mutex<Int?>(nil)
    func set(_ port: Int) { stream.continuation.yield(port) }
    func value() async -> Int {
        if let port = seen.withLock({ $0 }) { return port }
        for await port in stream.stream {
            seen.withLock { $0 = port }
            return port
        }
        return 0
    }
}

struct APIWorldError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
