import AlfredCore
import AsyncHTTPClient
import Foundation
import Logging
import Metrics
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
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
    /// One exchange, request to response.
    public var timeout: Duration = .seconds(10)

    public init(topic: String) { self.topic = topic }

    func baseURL(_ environment: APNsEnvironment) -> String {
        let url = environment == .production ? productionURL : sandboxURL
        return url.hasSuffix("/") ? String(url.dropLast()) : url
    }
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

/// Sends pushes with the APNs provider API: HTTP/2 over TLS (async-http-client negotiates `h2`
/// through ALPN and multiplexes requests on one connection per host), token-based auth.
///
/// `ExpiredProviderToken` is handled here: the token source is asked for a new token (it decides
/// whether minting is allowed) and the push is retried once. Everything else is returned to the
/// caller as an `APNsResponse`, whose `disposition` says what to do.
public struct APNsClient: Sendable {
    public static let maxPayloadBytes = 4096

    public let http: HTTPClient
    let configuration: APNsConfiguration
    let tokens: any ProviderTokenSource
    let logger: Logger
    /// Times each exchange for the duration metric.
    let clock: any Clock<Duration>

    public init(http: HTTPClient, configuration: APNsConfiguration, tokens: any ProviderTokenSource, logger: Logger,
                clock: any Clock<Duration> = ContinuousClock()) {
        self.http = http
        self.configuration = configuration
        self.tokens = tokens
        self.logger = logger
        self.clock = clock
    }

    /// An HTTP client fit for APNs: HTTP/2 preferred, system CAs plus `extraTrustRootsPEM`.
    public static func makeHTTPClient(configuration: APNsConfiguration) throws -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        let extra = try configuration.extraTrustRootsPEM.flatMap { try NIOSSLCertificate.fromPEMBytes(Array($0.utf8)) }
        if !extra.isEmpty { tls.additionalTrustRoots = [.certificates(extra)] }
        var config = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow)
        config.httpVersion = .automatic
        config.connectionPool = .init(idleTimeout: .seconds(300))
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: config)
    }

    public func send(_ request: APNsRequest) async throws -> APNsResponse {
        guard request.payload.count <= Self.maxPayloadBytes else {
            APNsMetrics.requests("PayloadTooLarge").increment()
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
        var outgoing = HTTPClientRequest(url: "\(configuration.baseURL(request.environment))/3/device/\(request.deviceToken)")
        outgoing.method = .POST
        outgoing.headers.add(name: "authorization", value: "bearer \(token)")
        outgoing.headers.add(name: "apns-topic", value: configuration.topic)
        outgoing.headers.add(name: "apns-push-type", value: request.pushType.rawValue)
        outgoing.headers.add(name: "apns-priority", value: "\(request.priority)")
        outgoing.headers.add(name: "apns-expiration", value: "\(request.expiration.map { max(0, Int($0.timeIntervalSince1970)) } ?? 0)")
        if let collapse = request.collapseID { outgoing.headers.add(name: "apns-collapse-id", value: collapse) }
        outgoing.headers.add(name: "apns-id", value: request.apnsID.uuidString.lowercased())
        outgoing.headers.add(name: "content-type", value: "application/json")
        outgoing.body = .bytes(ByteBuffer(bytes: request.payload))

        let elapsed = clock.stopwatch()
        defer { APNsMetrics.duration.recordNanoseconds(Int64(elapsed().seconds * 1e9)) }
        let response: HTTPClientResponse
        let body: ByteBuffer
        do {
            response = try await http.execute(outgoing, timeout: .nanoseconds(Int64(configuration.timeout.seconds * 1e9)))
            if response.status == .ok {
                // A 200 is final once its status line arrived, whatever happens to the (empty) body.
                // But it is read to its END_STREAM all the same: a response dropped before that makes
                // the client reset the stream (RST_STREAM CANCEL), servers count resets against the
                // connection (rapid-reset protection: NIO's limit is 200 per 30 s), and past the limit
                // the connection goes, with every push in flight on it.
                _ = try? await response.body.collect(upTo: 16 * 1024)
                body = ByteBuffer()
            } else {
                body = try await response.body.collect(upTo: 16 * 1024)
            }
        } catch {
            APNsMetrics.requests("network").increment()
            let name = (error as? HTTPClientError).map { String("\($0)".prefix { $0 != "(" }) } ?? "\(type(of: error))"
            // Only a failure before the request could have reached APNs is safe to send again.
            throw Self.failedBeforeSending(error) ? APNsClientError.network(name) : APNsClientError.inDoubt(name)
        }
        let apnsID = response.headers.first(name: "apns-id") ?? request.apnsID.uuidString.lowercased()
        if response.status == .ok {
            APNsMetrics.requests("success").increment()
            return .accepted(apnsID: apnsID)
        }
        let error = try? JSONDecoder().decode(ErrorBody.self, from: body)
        let reason = APNsReason(rawValue: error?.reason ?? "HTTP\(response.status.code)")
        APNsMetrics.requests(reason.metricLabel).increment()
        let retryAfter = response.headers.first(name: "retry-after").flatMap(Int.init).map { Duration.seconds(max(0, $0)) }
        return .rejected(status: Int(response.status.code), reason: reason,
                         timestamp: error?.timestamp.map { Date(timeIntervalSince1970: Double($0) / 1000) }, retryAfter: retryAfter)
    }

    /// Connecting, TLS, or a connection already closed before the write: APNs cannot have the push.
    /// Anything else (a reset stream, a dropped connection, a timeout, cancellation) may come after
    /// APNs accepted it.
    public static func failedBeforeSending(_ error: any Error) -> Bool {
        if let error = error as? HTTPClientError {
            return [.connectTimeout, .tlsHandshakeTimeout, .getConnectionFromPoolTimeout, .alreadyShutdown].contains(error)
        }
        if let error = error as? ChannelError, case .ioOnClosedChannel = error { return true }
        // REFUSED_STREAM (also what streams above a GOAWAY's last id get): the server did not process it.
        if let error = error as? NIOHTTP2Errors.StreamClosed, error.errorCode == .refusedStream { return true }
        if error is NIOSSLError { return true }
        return "\(type(of: error))" == "NIOConnectionError"
    }

    private struct ErrorBody: Decodable {
        var reason: String?
        /// Milliseconds since 1970 (410 only).
        var timestamp: Int64?
    }
}

enum APNsMetrics {
    static func requests(_ result: String) -> Counter { Counter(label: MetricName.apnsRequests, dimensions: [("result", result)]) }
    static let duration = Timer(label: MetricName.apnsRequestDuration, preferredDisplayUnit: .seconds)
}

extension Clock where Duration == Swift.Duration {
    /// A function that returns the time passed since this call. A method, so that a clock held as
    /// `any Clock<Duration>` is opened: instants of an erased clock cannot be subtracted.
    fileprivate func stopwatch() -> () -> Swift.Duration {
        let start = now
        return { start.duration(to: self.now) }
    }
}
