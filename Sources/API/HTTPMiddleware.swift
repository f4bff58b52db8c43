import AlfredCore
import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Metrics
import NIOCore
import OpenAPIRuntime

/// The API's request context: Hummingbird's, plus the peer address (for per-address limits).
struct APIRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// Outermost: counts every answer by route pattern and status class and times it, and turns
/// anything thrown below (Hummingbird's own 404/405, an oversized body) into the one error shape.
struct RequestMetrics: RouterMiddleware {
    typealias Context = APIRequestContext
    let logger: Logger
    let factory: any MetricsFactory
    let routes: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response: Response
        do {
            response = try await next(request, context)
        } catch let error as HTTPError {
            response = Self.response(for: error, request: request, allowed: routes.methods(at: request.uri.path))
        } catch let error as APIError {
            response = Self.response(error)
        } catch {
            logger.error("request failed outside any operation", metadata: ["alfred.error": "\(type(of: error))"])
            response = Self.response(.internal)
        }
        // A bounded label: the route pattern; Hummingbird names a miss "NotFound", we say "unmatched".
        let route = context.endpointPath.flatMap { $0 == "NotFound" ? nil : $0 } ?? "unmatched"
        let method = request.method.rawValue
        Counter(label: MetricName.apiRequests,
                dimensions: [("route", route), ("method", method), ("status_class", "\(response.status.code / 100)xx")],
                factory: factory).increment()
        Timer(label: MetricName.apiRequestDuration, dimensions: [("route", route), ("method", method)], factory: factory)
            .recordNanoseconds(Int64(start.duration(to: .now).seconds * 1e9))
        return response
    }

    static func response(for error: HTTPError, request: Request, allowed: [String]?) -> Response {
        switch error.status {
        case .notFound, .methodNotAllowed:
            if let allowed {
                // A path of the contract, a method it does not serve.
                return response(APIError(status: .methodNotAllowed, code: .notFound,
                                         message: "this path does not answer \(request.method.rawValue)",
                                         headers: [.allow: allowed.joined(separator: ", ")]))
            }
            return response(APIError.notFound("route: nothing is served at this path"))
        case .contentTooLarge: return response(.payloadTooLarge)
        default: return response(APIError(status: error.status, code: .invalidJson, message: "the request could not be read"))
        }
    }

    static func response(_ error: APIError) -> Response {
        let (head, _) = error.response
        return Response(status: head.status, headers: head.headerFields, body: .init(byteBuffer: ByteBuffer(bytes: error.json)))
    }
}

/// Per peer address: sign-ins and refreshes (and anything else) are limited before any work is done.
/// Behind a load balancer, set `trustForwardedFor` so the client's address is read from the last
/// `X-Forwarded-For` entry, the one the balancer appended (its own address would otherwise share one bucket).
struct AddressRateLimit: RouterMiddleware {
    typealias Context = APIRequestContext
    let limiter: RateLimiter
    let trustForwardedFor: Bool

    /// Gmail's pushes come from Google's few addresses at the rate mail arrives for every user: a
    /// per-address budget would throttle them (and Pub/Sub backs off for minutes). Each carries a
    /// token verified before anything else happens, which is the guard there.
    static let exempt: Set<String> = ["/v1/google/pubsub/push"]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if Self.exempt.contains(request.uri.path) { return try await next(request, context) }
        if let retryAfter = limiter.take("address:\(address(request, context))") {
            throw APIError.rateLimited(retryAfter: retryAfter)
        }
        return try await next(request, context)
    }

    private func address(_ request: Request, _ context: Context) -> String {
        // The last entry is the one our balancer appended; earlier ones are whatever the client sent.
        if trustForwardedFor, let forwarded = request.headers[HTTPField.Name("X-Forwarded-For")!]?.split(separator: ",").last {
            return forwarded.trimmingCharacters(in: .whitespaces)
        }
        return context.remoteAddress?.ipAddress ?? "unknown"
    }
}

/// Request bodies are read in full, up to `limit`, before any operation sees them: a larger one is
/// a 413 whatever its declared length.
struct BodyLimit: RouterMiddleware {
    typealias Context = APIRequestContext
    let limit: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit { throw APIError.payloadTooLarge }
        var request = request
        do {
            _ = try await request.collectBody(upTo: limit)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError.payloadTooLarge
        }
        return try await next(request, context)
    }
}
