import AlfredCore
import API
import AsyncHTTPClient
import Assistant
import BrokerClient
import Delivery
import Foundation
import JobQueue
import Logging
import NIOCore
import NIOHTTP1
import PostgresNIO
import Sealing
import StandIns
import Store
import Synchronization

/// The API as it runs: `APIServer` on a real socket, its stores on role `alfred_api` over a `World`'s
/// fresh database, and the Apple stand-in serving keys and minting identity tokens; with `google`, the
/// Google stand-in, the key service and the token broker behind Google connect and Gmail push. Tests
/// talk HTTP to it like the app does.
public struct APIWorld: Sendable {
    public static let bundleID = "com.example.alfred"
    public var userLimit = APIServer.RateLimitSetting(burst: 10_000, perSecond: 10_000)
    public var addressLimit = APIServer.RateLimitSetting(burst: 10_000, perSecond: 10_000)
    /// Google connect's other half (stand-in, key service, broker); nil leaves connect unconfigured.
    public var google: GoogleSide?
    /// The API's wall time; nil is the real one.
    public var clock: ManualClock?
    /// The delivery stage behind it: the APNs stand-in and an in-process worker on the `delivery`
    /// queue, so a test can follow a push from the API's device rows to what a phone shows.
    public var delivery = false

    public init(google: GoogleSide? = nil, clock: ManualClock? = nil) { self.google = google; self.clock = clock }

    public struct Reply: Sendable {
        public let status: Int
        public let headers: HTTPHeaders
        public let body: String
        public var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:] }
        public var code: String? { json["code"] as? String }
        public var message: String? { json["message"] as? String }
    }

    public struct Session: Sendable {
        public let access: String
        public let refresh: String
        public init(access: String, refresh: String) { self.access = access; self.refresh = refresh }
    }

    public struct Running: Sendable {
        public let world: World.Running
        public let base: String
        public let http: HTTPClient
        /// What the API exported (labels included).
        public var metrics: CountingMetrics { world.metrics }
        public var apple: AppleStandIn { world.apple! }
        public var owner: PostgresClient { world.owner }
        public var url: DatabaseURL { world.database }
        public var logs: LogCapture { world.logs }
        public var sealer: HostSealer { world.sealer }
        public let googleSide: GoogleSide.Running?

        public var google: GoogleSide.Running { googleSide! }

        /// Signs in with a fresh identity token for `subject`.
        public func signIn(subject: String = "001234.alice", nonce: String? = nil) async throws -> Session {
            let token = try apple.identityToken(.init(subject: subject, audience: APIWorld.bundleID, nonce: nonce))
            let reply = try await call(.POST, "/v1/auth/ios/session", json: Self.sessionBody(token, nonce: nonce))
            guard reply.status == 200, let access = reply.json["access_token"] as? String, let refresh = reply.json["refresh_token"] as? String
            else { throw WorldError("sign-in answered \(reply.status): \(reply.body)") }
            return Session(access: access, refresh: refresh)
        }

        public static func sessionBody(_ token: String, nonce: String? = nil, device: String = "ios-device-1") -> String {
            var body: [String: String] = ["apple_identity_token": token, "device_id": device]
            if let nonce { body["nonce"] = nonce }
            return String(decoding: try! JSONSerialization.data(withJSONObject: body), as: UTF8.self)
        }

        public func call(_ method: HTTPMethod, _ path: String, token: String? = nil, json: String? = nil,
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

        /// The APNs stand-in (with `delivery`).
        public var apns: APNsStandIn { world.apns!.standIn }

        /// Queues a notification for the user as a reminder job hands it to delivery, due at `at`
        /// (now when nil); returns its idempotency key (`delivery` worlds).
        @discardableResult
        public func notify(_ userID: UUID, kind: String = "meeting.reminder", title: String = "Board sync in 10 min", at: Date? = nil,
                           key: String = UUID().uuidString.lowercased(), joinURL: String? = nil) async throws -> String {
            let content = PushContent(kind: kind, title: title, body: "Room 4.12", scheduledAt: at ?? world.now(),
                                      collapseID: String(key.suffix(32)), joinURL: joinURL)
            try await world.notify(content, userID: userID, key: key, deadline: (at ?? world.now()).addingTimeInterval(600), at: at)
            return key
        }

        /// Makes a queued notification's push due now (its time came).
        public func makeDue(_ key: String) async throws {
            _ = try await owner.query("""
                UPDATE jobs SET due_at = now() WHERE id = (SELECT job_id FROM notifications WHERE idempotency_key = \(key))
                """, logger: TestDatabase.quietLogger).collect()
        }

        /// The notification's state once it left `pending`.
        public func finalState(_ key: String) async throws -> String? { try await world.settledState(key) }

        /// The user behind an access token (the `sub` of our own JWT).
        public func userID(_ session: Session) -> UUID {
            let payload = session.access.split(separator: ".")[1]
            let claims = try! JSONSerialization.jsonObject(with: Base64URL.decode(payload)!) as! [String: Any]
            return UUID(uuidString: claims["sub"] as! String)!
        }
    }

    public func run<T: Sendable>(_ body: @Sendable (Running) async throws -> T) async throws -> T {
        var world = World()
        world.apple = true
        world.pools = ["alfred_api": 6]
        if delivery {
            world.pools["alfred_worker"] = 2
            world.apns = APNsSpec()
            // Delivery, and the app's verdicts on urgent alerts (`feedback.urgent`, which the API enqueues).
            var worker = WorkerSpec(queues: ["delivery", "default"], delivery: true)
            worker.configuration.pollInterval = .milliseconds(100)
            worker.handlers = { registry, context in
                registry.register(UrgentFeedbackHandler(store: PostgresAssistantStore(client: context.client, jobs: context.jobs,
                                                                                      logger: context.logger)))
            }
            world.worker = worker
        }
        if let clock { world.now = clock.nowDate }
        if let google {
            world.google = google.scenario
            world.broker = google.brokerSpec
        }
        let (userLimit, addressLimit, google) = (self.userLimit, self.addressLimit, self.google)
        return try await world.run { world in
            let quiet = TestDatabase.quietLogger
            let googleSide = try await google?.running(world)
            var configuration = APIServer.Configuration(bundleID: Self.bundleID)
            configuration.port = 0
            configuration.appleKeysURL = try await world.apple!.keysURL()
            configuration.userLimit = userLimit
            configuration.addressLimit = addressLimit
            configuration.google = googleSide?.connect
            configuration.gmailPush = googleSide?.push
            let port = PortOnce()
            let pool = world.pool("alfred_api")
            let logger = world.logger("alfred.api")
            let runtime = Runtime(clock: ContinuousClock(), now: world.now, random: AnyGenerator(SeededGenerator(seed: 11)),
                                  metrics: world.metrics, logger: logger)
            let server = try APIServer(
                configuration: configuration,
                stores: .init(api: PostgresAPIStore(client: pool, logger: logger), privacy: PostgresPrivacyStore(client: pool, logger: logger),
                              audit: PostgresAuditStore(client: pool, logger: logger), jobs: PostgresJobStore(client: pool, logger: logger)),
                sealer: world.sealer, sessionKey: Array(repeating: 7, count: 32), http: HTTPClient.shared, broker: world.broker?.client,
                runtime: runtime, onListening: { port.set($0) })
            return try await withRunningServices([server], logger: quiet) {
                let http = TestHTTP.client()
                let running = Running(world: world, base: "http://127.0.0.1:\(await port.value())", http: http, googleSide: googleSide)
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

/// What Google connect needs besides the API: the Google stand-in (with a web and an iOS OAuth
/// client), the key service and the token broker on its own database role, reached through
/// `BrokerClient` as `alfred api` reaches it.
public struct GoogleSide: Sendable {
    public static let webClientID = "alfred-api-test.apps.googleusercontent.com"
    public static let webSecret = "GOCSPX-api-test-secret"
    public static let webRedirect = "https://alfred.example.com/oauth/google/callback"
    public static let iosClientID = "alfred-api-test-ios.apps.googleusercontent.com"
    public static let iosRedirect = "com.googleusercontent.apps.alfred-api-test-ios:/oauth2redirect"
    public static let subject = "100000000000000000077"
    public static let email = "ada@example.com"
    /// Gmail push: the push subscription's token audience and service account.
    public static let pushAudience = "https://alfred.example.com/v1/google/pubsub/push"
    public static let pushAccount = "gmail-push@alfred-test.iam.gserviceaccount.com"
    public static let topic = "projects/alfred-test/topics/gmail-events"

    /// The Google account that signs in; `grantedScopes` nil consents to everything asked.
    public var grantedScopes: [String]?
    /// Allow-list a different broker binary, so the key service refuses this broker's evidence.
    public var denyAttestation = false
    /// Where the API fetches Google's push-token keys (nil: the stand-in's JWKS).
    public var pushKeysURL: String?

    public init(grantedScopes: [String]? = nil, denyAttestation: Bool = false, pushKeysURL: String? = nil) {
        self.grantedScopes = grantedScopes; self.denyAttestation = denyAttestation; self.pushKeysURL = pushKeysURL
    }

    var scenario: GoogleStandIn.Configuration {
        GoogleStandIn.Configuration(
            clients: [.init(id: Self.webClientID, secret: Self.webSecret, redirectURIs: [Self.webRedirect]),
                      .ios(id: Self.iosClientID, redirectURIs: [Self.iosRedirect])],
            users: [.init(subject: Self.subject, email: Self.email, grantedScopes: grantedScopes, timeZone: "UTC")])
    }

    var brokerSpec: BrokerSpec {
        var spec = BrokerSpec(clientID: Self.webClientID, clientSecret: Self.webSecret)
        spec.iosClientID = Self.iosClientID
        spec.allowExecutable = !denyAttestation
        spec.poolConnections = 4
        return spec
    }

    func running(_ world: World.Running) async throws -> Running {
        var connect = APIServer.GoogleConnect(clients: [
            .init(kind: .web, id: Self.webClientID, redirectURIs: [Self.webRedirect]),
            .init(kind: .ios, id: Self.iosClientID, redirectURIs: [Self.iosRedirect]),
        ])
        connect.authorizationURL = world.broker!.endpoints.authorizationURL
        var push = APIServer.GmailPush(audience: Self.pushAudience, serviceAccount: Self.pushAccount)
        if let pushKeysURL { push.keysURL = pushKeysURL } else { push.keysURL = try await world.google!.certsURL() }
        push.topicName = Self.topic
        return Running(google: world.google!, broker: world.broker!.client, connect: connect, logs: world.logs,
                       brokerClock: world.broker!.clock, push: push)
    }

    public struct Running: Sendable {
        public let google: GoogleStandIn
        public let broker: BrokerClient
        public let connect: APIServer.GoogleConnect
        public let logs: LogCapture
        /// The broker's wall time (access-token expiry), moved only by the test.
        public let brokerClock: ManualClock
        /// Gmail push as the API verifies it: the stand-in's JWKS.
        public let push: APIServer.GmailPush

        public func tokenRequests(grantType: String) -> [RecordedRequest] {
            google.recordedRequests().filter { request in
                request.path == OAuthEndpoints.tokenPath && (request.form ?? []).contains { $0.name == "grant_type" && $0.value == grantType }
            }
        }

        public func revokeRequests() -> [RecordedRequest] { google.recordedRequests().filter { $0.path == OAuthEndpoints.revokePath } }

        public var liveRefreshTokens: [String] { google.liveRefreshTokens(subject: GoogleSide.subject) }
        public var issuedRefreshTokens: [String] { google.issuedRefreshTokens(subject: GoogleSide.subject) }
    }
}

/// A value set once (the bound port), awaited by anyone.
public final class PortOnce: Sendable {
    private let stream = AsyncStream<Int>.makeStream(bufferingPolicy: .bufferingNewest(1))
    private let seen = Mutex<Int?>(nil)
    public init() {}
    public func set(_ port: Int) { stream.continuation.yield(port) }
    public func value() async -> Int {
        if let port = seen.withLock({ $0 }) { return port }
        for await port in stream.stream {
            seen.withLock { $0 = port }
            return port
        }
        return 0
    }
}
