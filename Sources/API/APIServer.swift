import AlfredCore
import Assistant
import Delivery
import Sealing
import AsyncHTTPClient
import Foundation
import Hummingbird
import JobQueue
import Logging
import Metrics
import NIOCore
import OpenAPIHummingbird
import OpenAPIRuntime
import ServiceLifecycle
import Yams

/// `alfred api`: the HTTP API the app talks to, as a Service. Stateless: any number of replicas
/// behind a load balancer share only the database.
public struct APIServer: Service {
    public struct Configuration: Sendable {
        public var host = "127.0.0.1"
        public var port = 8080
        /// The app's bundle id: the `aud` of its Sign in with Apple tokens.
        public var bundleID: String
        /// Apple's JWKS (`https://appleid.apple.com/auth/keys`, or the Apple stand-in's).
        public var appleKeysURL = "https://appleid.apple.com/auth/keys"
        public var appleIssuer = "https://appleid.apple.com"
        /// Per user, after authentication.
        public var userLimit = RateLimitSetting(burst: 60, perSecond: 10)
        /// Per peer address, before anything else (sign-in and refresh are the ones that matter).
        public var addressLimit = RateLimitSetting(burst: 120, perSecond: 20)
        /// Read the client's address from `X-Forwarded-For` (only behind a trusted balancer).
        public var trustForwardedFor = false
        /// Google connect (`/v1/connectors/google/...`); nil leaves it unconfigured (503).
        public var google: GoogleConnect?
        /// Gmail push (`/v1/google/pubsub/push`); nil answers it with 503 (not configured).
        public var gmailPush: GmailPush?
        public init(bundleID: String) { self.bundleID = bundleID }
    }

    public struct RateLimitSetting: Sendable {
        public var burst: Double
        public var perSecond: Double
        public init(burst: Double, perSecond: Double) { self.burst = burst; self.perSecond = perSecond }
    }

    public struct Stores: Sendable {
        let api: any APIStore
        let privacy: any PrivacyStore
        let audit: any AuditStore
        let jobs: any JobStore
        public init(api: any APIStore, privacy: any PrivacyStore, audit: any AuditStore, jobs: any JobStore) {
            self.api = api; self.privacy = privacy; self.audit = audit; self.jobs = jobs
        }
    }

    /// Request bodies are at most this many bytes.
    static let bodyLimit = 16 * 1024

    let application: Application<RouterResponder<APIRequestContext>>

    /// - Parameters:
    ///   - sealer: the host data key (device tokens sealed at rest, keyed hashes of identifiers).
    ///   - sessionKey: at least 32 random bytes that sign access tokens.
    ///   - broker: the token broker, which exchanges connect codes and revokes connectors.
    ///   - onListening: called with the bound port (useful with port 0).
    ///   - runtime: its clock (key refetches, rate limits), wall time, metrics factory and logger.
    public init<C: Clock<Duration>>(configuration: Configuration, stores: Stores, sealer: HostSealer, sessionKey: [UInt8], http: HTTPClient,
                                    broker: (any ConnectorAuthority)? = nil, runtime: Runtime<C>,
                                    onListening: @escaping @Sendable (Int) async -> Void = { _ in }) throws {
        let (logger, now, metrics, clock) = (runtime.logger, runtime.now, runtime.metrics, runtime.clock)
        let tokens = try SessionTokens(keyBytes: sessionKey)
        let keys = JWKSCache(source: JWKSDownload(url: configuration.appleKeysURL, http: http), clock: clock)
        // Google's keys (`oauth2/v3/certs`) sign both Pub/Sub's push tokens and the ID tokens that prove a relayed mailbox.
        var pushVerifier: PushTokenVerifier?
        var googleKeys: (@Sendable (String) async throws -> PushTokenVerifier.PublicKey?)?
        if let push = configuration.gmailPush {
            let cache = JWKSCache(source: JWKSDownload(url: push.keysURL, http: http), clock: clock)
            googleKeys = { try await cache.key($0) }
            pushVerifier = PushTokenVerifier(audience: push.audience, serviceAccount: push.serviceAccount)
        }
        let handler = APIHandler(deps: .init(
            store: stores.api, privacy: stores.privacy, audit: stores.audit, jobs: stores.jobs, sealer: sealer, tokens: tokens,
            apple: AppleIdentityVerifier(configuration: .init(audience: configuration.bundleID, issuer: configuration.appleIssuer)),
            appleKeys: { try await keys.key($0) }, now: now, logger: logger, metrics: metrics,
            google: configuration.google, broker: broker, gmailPush: configuration.gmailPush, googleKeys: googleKeys))

        let document = try Self.document(google: configuration.google)
        let router = Router(context: APIRequestContext.self)
        router.add(middleware: RequestMetrics(logger: logger, factory: metrics, routes: try RouteTable(openAPI: document)))
        router.add(middleware: AddressRateLimit(limiter: RateLimiter(.init(burst: configuration.addressLimit.burst,
                                                                              perSecond: configuration.addressLimit.perSecond), clock: clock),
                                                trustForwardedFor: configuration.trustForwardedFor))
        router.add(middleware: BodyLimit(limit: Self.bodyLimit))
        router.get("/openapi.json") { _, _ -> Response in
            var headers = HTTPFields()
            headers[.contentType] = "application/json; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: document)))
        }
        let userLimiter = RateLimiter(.init(burst: configuration.userLimit.burst, perSecond: configuration.userLimit.perSecond), clock: clock)
        try handler.registerHandlers(on: router, middlewares: [
            ErrorMapping(logger: logger),
            PushAuthentication(verifier: pushVerifier, keys: googleKeys, now: now, metrics: metrics),
            Authentication(tokens: tokens, store: stores.api, limiter: userLimiter, now: now),
            NoNulls(),
        ])
        application = Application(
            router: router,
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: nil),
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? configuration.port) },
            logger: logger)
    }

    /// `run()`, not `runService()`: the latter starts a ServiceGroup of its own that catches SIGTERM
    /// itself and returns before the process's group asks it to ("finished unexpectedly").
    public func run() async throws { try await application.run() }

    /// The contract, as JSON (it is kept as YAML in the repository). The document served names this
    /// deployment's redirect URIs (an enum on `redirect_uri`), so a client reading it knows exactly
    /// what `start` accepts.
    static func document(google: GoogleConnect? = nil) throws -> [UInt8] {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else {
            throw APIServerError("the OpenAPI document is missing from the API module's resources")
        }
        guard var yaml = try Yams.load(yaml: try String(contentsOf: url, encoding: .utf8)) as? [String: Any] else {
            throw APIServerError("the OpenAPI document is not a mapping")
        }
        if let google, var components = yaml["components"] as? [String: Any], var schemas = components["schemas"] as? [String: Any],
           var start = schemas["GoogleConnectStart"] as? [String: Any], var properties = start["properties"] as? [String: Any],
           var redirect = properties["redirect_uri"] as? [String: Any] {
            redirect["enum"] = google.clients.flatMap(\.redirectURIs)
            properties["redirect_uri"] = redirect
            start["properties"] = properties
            schemas["GoogleConnectStart"] = start
            components["schemas"] = schemas
            yaml["components"] = components
        }
        return Array(try JSONSerialization.data(withJSONObject: yaml, options: [.sortedKeys]))
    }
}

struct APIServerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Apple's keys over HTTPS.
struct JWKSDownload: JWKSource {
    let url: String
    let http: HTTPClient

    func fetchKeys() async throws -> JWKSet {
        let response = try await http.execute(HTTPClientRequest(url: url), timeout: .seconds(10))
        guard response.status == .ok else { throw JWKSError("the key set at \(url) answered HTTP \(response.status.code)") }
        return try JWKSet(jwks: Array(buffer: try await response.body.collect(upTo: 1 << 20)))
    }
}

/// The contract's paths and their methods, to answer a method a path does not serve with 405 and
/// `Allow` (Hummingbird's router says 404 for both an unknown path and an unknown method).
struct RouteTable: Sendable {
    private let templates: [(segments: [String], methods: [String])]

    init(openAPI document: [UInt8]) throws {
        guard let json = try JSONSerialization.jsonObject(with: Data(document)) as? [String: Any],
              let paths = json["paths"] as? [String: [String: Any]]
        else { throw APIServerError("the OpenAPI document has no paths") }
        let verbs: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options", "trace"]
        templates = paths.map { path, item in
            (path.split(separator: "/").map(String.init), item.keys.filter(verbs.contains).map { $0.uppercased() }.sorted())
        } + [(["openapi.json"], ["GET"])]
    }

    /// The methods served at `path`, or nil when the contract has no such path.
    func methods(at path: String) -> [String]? {
        let segments = path.split(separator: "?", maxSplits: 1).first.map { $0.split(separator: "/").map(String.init) } ?? []
        let matching = templates.filter { template in
            template.segments.count == segments.count && zip(template.segments, segments).allSatisfy { pattern, segment in
                pattern.hasPrefix("{") || pattern == segment
            }
        }
        // The most specific wins (`/v1/devices/apns` over `/v1/devices/{id}`), as it does in the router.
        return matching.min { $0.segments.filter { $0.hasPrefix("{") }.count < $1.segments.filter { $0.hasPrefix("{") }.count }?.methods
    }
}
