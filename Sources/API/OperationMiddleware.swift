import AlfredCore
import Foundation
import HTTPTypes
import Logging
import OpenAPIRuntime
import PostgresNIO
import Store

/// The caller of an operation, once its bearer token checked out (see `Authentication`).
enum Caller {
    @TaskLocal static var current: SessionTokens.Claims?

    /// The caller, for operations that require one (all but sign-in, refresh and health).
    static var required: SessionTokens.Claims {
        get throws(APIError) {
            guard let current else { throw APIError.unauthorized() }
            return current
        }
    }
}

/// Outermost operation middleware: every failure becomes the one error shape. Decoding failures are
/// 400s that name the field; the database being away is a 503 with `Retry-After`; anything else a
/// 500 that is logged by type (an error's own text may quote input).
struct ErrorMapping: ServerMiddleware {
    let logger: Logger

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        do {
            return try await next(request, body, metadata)
        } catch {
            let mapped = Self.classify(error)
            if mapped.status.kind == .serverError {
                logger.error("operation failed", metadata: ["alfred.api.operation": "\(operationID)",
                                                            "alfred.error": "\(Self.errorType(error))"])
            }
            return mapped.response
        }
    }

    static func classify(_ error: any Error) -> APIError {
        var underlying = error
        var decodingRequest = false
        if let server = error as? ServerError {
            underlying = server.underlyingError
            decodingRequest = server.operationInput == nil
        }
        switch underlying {
        case let error as APIError:
            return error
        case let error as DecodingError:
            return decoding(error)
        case is StoreError, is PSQLError:
            return .unavailable("the database is unavailable; try again shortly")
        default:
            // The request did not convert to the operation's input: a missing body, an unexpected
            // content type, a malformed parameter.
            return decodingRequest ? .invalidJSON("the request does not match the operation (body, content type or a parameter)") : .internal
        }
    }

    static func decoding(_ error: DecodingError) -> APIError {
        switch error {
        case .keyNotFound(let key, let context):
            return APIError(status: .badRequest, code: .missingField, message: "\(path(context.codingPath + [key])): is required")
        case .typeMismatch(let type, let context), .valueNotFound(let type, let context):
            return .invalidField(path(context.codingPath), "must be \(typeName(type))")
        case .dataCorrupted(let context):
            if context.debugDescription.hasPrefix("Additional properties are disabled") {
                return APIError(status: .badRequest, code: .unknownField, message: "\(path(context.codingPath)): is not a known field")
            }
            if context.codingPath.isEmpty { return .invalidJSON("the body is not valid JSON") }
            return .invalidField(path(context.codingPath), "has a value that is not allowed")
        @unknown default:
            return .invalidJSON("the body could not be read")
        }
    }

    /// `a.b.c` from a coding path, only of the characters field names use (a key the caller made
    /// up is not echoed beyond that).
    static func path(_ keys: [any CodingKey]) -> String {
        let text = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        let safe = String(text.prefix(64).map { $0.isASCII && ($0.isLetter || $0.isNumber || "_.[]-".contains($0)) ? $0 : "?" })
        return safe.isEmpty ? "body" : safe
    }

    static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int32.Type, is Int64.Type: "an integer"
        case is Bool.Type: "a boolean"
        case is Double.Type: "a number"
        default: "of another type"
        }
    }

    static func errorType(_ error: any Error) -> String {
        if let server = error as? ServerError { return "\(type(of: server.underlyingError))" }
        return "\(type(of: error))"
    }
}

/// Every operation but sign-in, refresh and health needs a bearer access token of an open session.
/// The caller's id is then available to the handler (`Caller.current`), and the caller's own rate
/// limit applies.
struct Authentication: ServerMiddleware {
    /// Without a session: sign-in, refresh and health; and Gmail pushes, which `PushAuthentication` checks.
    static let publicOperations: Set<String> = ["createSession", "refreshSession", "health", "receiveAppleAccountEvent", PushAuthentication.operation]

    let tokens: SessionTokens
    let store: any APIStore
    let limiter: RateLimiter
    let now: @Sendable () -> Date

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        if Self.publicOperations.contains(operationID) { return try await next(request, body, metadata) }
        guard let token = request.bearerToken else { throw APIError.unauthorized() }
        guard let claims = tokens.verify(token, now: now()),
              try await store.sessionIsActive(claims.sessionID, userID: claims.userID)
        else { throw APIError.invalidToken("the access token is not valid (expired, or its session ended)") }
        if let retryAfter = limiter.take("user:\(claims.userID.uuidString)") {
            throw APIError.rateLimited(retryAfter: retryAfter)
        }
        return try await Caller.$current.withValue(claims) { try await next(request, body, metadata) }
    }
}

/// JSON `null` is not a value of any request field in the contract (a field is present or absent),
/// but a generated decoder reads an explicit `null` of an optional field as absent. Refuse it here,
/// naming the field, so the server is exactly as strict as the contract.
struct NoNulls: ServerMiddleware {
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let body else { return try await next(request, body, metadata) }
        let bytes = try await [UInt8](collecting: body, upTo: APIServer.bodyLimit)
        // Malformed JSON is left to the operation's decoder, which names what is wrong.
        if let json = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]),
           let path = Self.firstNull(in: json, at: []) {
            throw APIError.invalidField(path.isEmpty ? "body" : path, "must not be null (leave the field out instead)")
        }
        return try await next(request, HTTPBody(bytes), metadata)
    }

    static func firstNull(in value: Any, at path: [String]) -> String? {
        switch value {
        case is NSNull: return ErrorMapping.path(path.map(Key.init))
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                if let found = firstNull(in: object[key]!, at: path + [key]) { return found }
            }
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let found = firstNull(in: element, at: path + ["[\(index)]"]) { return found }
            }
        default: break
        }
        return nil
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension HTTPRequest {
    /// The token of an `Authorization: Bearer …` header (scheme case-insensitive), if there is one.
    var bearerToken: String? {
        guard let header = headerFields[.authorization], header.count > 7, header.prefix(7).lowercased() == "bearer " else { return nil }
        return String(header.dropFirst(7))
    }
}
