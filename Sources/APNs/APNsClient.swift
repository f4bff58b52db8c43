import AlfredCore
import Foundation
import Logging
import Metrics
import NIOCore
import NIOFoundationCompat
import NIOHPACK
import NIOHTTP2
import NIOSSL

/// Which APNs host a device token belongs to: tokens from debug builds work only on the sandbox.
public enum APNsEnvironment: String, Sendable, Codable, CaseIterable {
    case sandbox, production
}

public struct APNsConfiguration: Sendable {
    public var productionURL = "https://api.push.apple.com"
    public var sandboxURL = "https://api.sandbox.push.apple.com"
    /// The app's bundle id (`apns-topic`).
    public var topic: String
    /// Extra CA certificates (PEM) to trust besides the system's: the local stand-in's test CA.
    public var extraTrustRootsPEM: [String] = []
    /// One exchange, request to response (and the limit on connecting).
    public var timeout: Duration = .seconds(10)
    /// HTTP/2 connections per APNs host; each multiplexes many requests and runs on its own event loop.
    public var connectionsPerHost = 2

    public init(topic: String) { self.topic = topic }
}

/// One notification for one device, as APNs takes it.
public struct APNsRequest: Sendable {
    public enum PushType: String, Sendable { case alert, background }

    public var deviceToken: String
    public var environment: APNsEnvironment
    public var pushType: PushType
    /// 10 (now) for alerts; background pushes must use 5.
    public var priority: Int
    /// Until when APNs stores and retries it; nil sends `0` (try once, do not store).
    public var expiration: Date?
    /// ≤ 64 bytes; same id replaces the earlier notification on the device.
    public var collapseID: String?
    /// Echoed by APNs; the same id on a retry makes logs line up.
    public var apnsID: UUID
    public var payload: [UInt8]

    public init(deviceToken: String, environment: APNsEnvironment, pushType: PushType, priority: Int, expiration: Date?,
                collapseID: String?, apnsID: UUID, payload: [UInt8]) {
        self.deviceToken = deviceToken; self.environment = environment; self.pushType = pushType; self.priority = priority
        self.expiration = expiration; self.collapseID = collapseID; self.apnsID = apnsID; self.payload = payload
    }
}

/// Sends pushes with the APNs provider API: HTTP/2 over TLS (ALPN `h2`), a stream per push on a few
/// connections per host (`APNsConnections`), token-based auth.
///
/// `ExpiredProviderToken` is handled here: the token source is asked for a new token (it decides
/// whether minting is allowed) and the push is retried once. Everything else is returned to the
/// caller as an `APNsResponse`, whose `disposition` says what to do.
public struct APNsClient: Sendable {
    public static let maxPayloadBytes = 4096

    let connections: APNsConnections
    let configuration: APNsConfiguration
    let tokens: any ProviderTokenSource
    let logger: Logger
    /// Times each exchange for the duration metric.
    let clock: any Clock<Duration>
    let metrics: APNsMetrics
    private let production: APNsConnections.Origin
    private let sandbox: APNsConnections.Origin

    /// Throws if a URL is not `https://host[:port]` or `extraTrustRootsPEM` holds no certificate.
    public init(configuration: APNsConfiguration, tokens: any ProviderTokenSource, logger: Logger,
                clock: any Clock<Duration> = ContinuousClock(), metrics: any MetricsFactory = MetricsSystem.factory) throws {
        self.metrics = APNsMetrics(factory: metrics)
        connections = try APNsConnections(configuration: configuration, logger: logger)
        production = try APNsConnections.Origin(url: configuration.productionURL)
        sandbox = try APNsConnections.Origin(url: configuration.sandboxURL)
        self.configuration = configuration
        self.tokens = tokens
        self.logger = logger
        self.clock = clock
    }

    /// Closes the connections; a push sent afterwards fails as not sent.
    public func shutdown() async {
        await connections.shutdown()
    }

    /// Connections open to one environment's host (tests).
    public func openConnections(_ environment: APNsEnvironment) -> Int {
        connections.openConnections(to: origin(environment))
    }

    private func origin(_ environment: APNsEnvironment) -> APNsConnections.Origin {
        environment == .production ? production : sandbox
    }

    public func send(_ request: APNsRequest) async throws -> APNsResponse {
        guard request.payload.count <= Self.maxPayloadBytes else {
            metrics.requests("PayloadTooLarge").increment()
            throw APNsClientError.payloadTooLarge(bytes: request.payload.count)
        }
        guard !request.deviceToken.isEmpty, request.deviceToken.allSatisfy(\.isHexDigit) else {
            throw APNsClientError.malformedDeviceToken
        }
        let token = try await tokens.providerToken(rejected: nil)
        let first = try await exchange(request, token: token.jwt)
        guard case .rejected(403, let reason, _, _) = first, reason.rawValue == "ExpiredProviderToken" else { return first }
        let renewed = try await tokens.providerToken(rejected: token.jwt)
        // The same token again (too young to renew: the clocks disagree) would only be refused again.
        guard renewed.jwt != token.jwt else {
            logger.warning("APNs refused a provider token younger than 20 minutes as expired; check the clocks")
            return first
        }
        logger.notice("APNs refused the provider token as expired; retrying once with a new one")
        return try await exchange(request, token: renewed.jwt)
    }

    private func exchange(_ request: APNsRequest, token: String) async throws -> APNsResponse {
        var headers = HPACKHeaders()
        headers.reserveCapacity(8)
        headers.add(name: "authorization", value: "bearer \(token)")
        headers.add(name: "apns-topic", value: configuration.topic)
        headers.add(name: "apns-push-type", value: request.pushType.rawValue)
        headers.add(name: "apns-priority", value: "\(request.priority)")
        headers.add(name: "apns-expiration", value: "\(request.expiration.map { max(0, Int($0.timeIntervalSince1970)) } ?? 0)")
        if let collapse = request.collapseID { headers.add(name: "apns-collapse-id", value: collapse) }
        headers.add(name: "apns-id", value: request.apnsID.uuidString.lowercased())
        headers.add(name: "content-type", value: "application/json")
        let outgoing = APNsWireRequest(
            path: "/3/device/\(request.deviceToken)", headers: headers, body: ByteBuffer(bytes: request.payload),
            deadline: .now() + .nanoseconds(Int64(configuration.timeout.seconds * 1e9)))

        let elapsed = clock.stopwatch()
        defer { metrics.duration.recordNanoseconds(Int64(elapsed().seconds * 1e9)) }
        let response: APNsWireResponse
        do {
            response = try await connections.send(outgoing, to: origin(request.environment))
        } catch {
            metrics.requests("network").increment()
            // Only a push APNs cannot have is safe to send again as it is.
            switch error {
            case APNsTransportError.inDoubt(let what): throw APNsClientError.inDoubt(what)
            case APNsTransportError.unprocessed(let what), APNsTransportError.notConnected(let what): throw APNsClientError.network(what)
            default: throw APNsClientError.network(APNsConnection.describe(error))
            }
        }
        let apnsID = response.headers.first(name: "apns-id") ?? request.apnsID.uuidString.lowercased()
        if response.status == 200 {
            metrics.requests("success").increment()
            return .accepted(apnsID: apnsID)
        }
        let error = try? JSONDecoder().decode(ErrorBody.self, from: Data(response.body))
        let reason = APNsReason(rawValue: error?.reason ?? "HTTP\(response.status)")
        metrics.requests(reason.metricLabel).increment()
        let retryAfter = response.headers.first(name: "retry-after").flatMap(Int.init).map { Duration.seconds(max(0, $0)) }
        return .rejected(status: response.status, reason: reason,
                         timestamp: error?.timestamp.map { Date(timeIntervalSince1970: Double($0) / 1000) }, retryAfter: retryAfter)
    }

    private struct ErrorBody: Decodable {
        var reason: String?
        /// Milliseconds since 1970 (410 only).
        var timestamp: Int64?
    }
}

struct APNsMetrics: Sendable {
    let factory: any MetricsFactory
    let duration: Timer

    init(factory: any MetricsFactory) {
        self.factory = factory
        duration = Timer(label: MetricName.apnsRequestDuration, preferredDisplayUnit: .seconds, factory: factory)
    }

    func requests(_ result: String) -> Counter { Counter(label: MetricName.apnsRequests, dimensions: [("result", result)], factory: factory) }
}

extension Clock where Duration == Swift.Duration {
    /// A function that returns the time passed since this call. A method, so that a clock held as
    /// `any Clock<Duration>` is opened: instants of an erased clock cannot be subtracted.
    fileprivate func stopwatch() -> () -> Swift.Duration {
        let start = now
        return { start.duration(to: self.now) }
    }
}
