import Foundation
import HTTPTypes
import OpenAPIRuntime

/// An answer other than success, in the API's one error shape `{"code", "message"}`. Messages name
/// the field or the check at fault; they never echo a token, an identifier or personal data.
struct APIError: Error, CustomStringConvertible {
    typealias Code = Components.Schemas._Error.CodePayload

    let status: HTTPResponse.Status
    let code: Code
    let message: String
    var headers: HTTPFields = [:]

    var description: String { "\(status.code) \(code.rawValue): \(message)" }

    static func invalidField(_ field: String, _ rule: String) -> APIError {
        APIError(status: .badRequest, code: .invalidField, message: "\(field): \(rule)")
    }

    static func invalidJSON(_ message: String) -> APIError { APIError(status: .badRequest, code: .invalidJson, message: message) }

    static func unauthorized(_ message: String = "a valid bearer access token is required") -> APIError {
        APIError(status: .unauthorized, code: .unauthorized, message: message, headers: [.wwwAuthenticate: "Bearer"])
    }

    static func invalidToken(_ message: String) -> APIError {
        APIError(status: .unauthorized, code: .invalidToken, message: message, headers: [.wwwAuthenticate: "Bearer error=\"invalid_token\""])
    }

    static func notFound(_ what: String) -> APIError { APIError(status: .notFound, code: .notFound, message: "no such \(what)") }

    static let payloadTooLarge = APIError(status: .contentTooLarge, code: .payloadTooLarge,
                                          message: "the request body is over \(APIServer.bodyLimit / 1024) KiB")

    static func rateLimited(retryAfter seconds: Int) -> APIError {
        APIError(status: .tooManyRequests, code: .rateLimited, message: "too many requests; retry after \(seconds) s",
                 headers: [.retryAfter: "\(seconds)"])
    }

    static func unavailable(_ message: String, retryAfter seconds: Int = 1) -> APIError {
        APIError(status: .serviceUnavailable, code: .unavailable, message: message, headers: [.retryAfter: "\(seconds)"])
    }

    static let `internal` = APIError(status: .internalServerError, code: ._internal, message: "internal error; it was logged")

    /// The body: `{"code", "message"}`.
    var json: [UInt8] {
        Array((try? JSONEncoder().encode(Components.Schemas._Error(code: code, message: message))) ?? Data())
    }

    /// The HTTP response.
    var response: (HTTPResponse, HTTPBody) {
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        return (HTTPResponse(status: status, headerFields: fields), HTTPBody(json))
    }
}

extension HTTPField.Name {
    static let wwwAuthenticate = HTTPField.Name("WWW-Authenticate")!
}
