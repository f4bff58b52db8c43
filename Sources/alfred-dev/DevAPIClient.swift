import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The app's side of the demo: `alfred-dev` talks to `alfred api` over HTTP exactly as the iOS app
/// would (the same requests as the curl lines in docs/api.md).
struct DevAPIClient: Sendable {
    let base: String
    let http: HTTPClient

    struct Failure: Error, CustomStringConvertible { let description: String }

    struct Answer {
        let status: Int
        let json: [String: Any]
    }

    func call(_ method: HTTPMethod, _ path: String, token: String? = nil, json: [String: Any]? = nil) async throws -> Answer {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json)))
        }
        let response = try await http.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        let object = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any] ?? [:]
        return Answer(status: Int(response.status.code), json: object)
    }

    /// `call`, expecting `status`; a different answer ends the demo with the API's own message.
    func expect(_ status: Int, _ method: HTTPMethod, _ path: String, token: String? = nil, json: [String: Any]? = nil)
        async throws -> [String: Any]
    {
        let answer = try await call(method, path, token: token, json: json)
        guard answer.status == status else {
            throw Failure(description: "\(method.rawValue) \(path) answered \(answer.status): \(answer.json["message"] ?? "")")
        }
        return answer.json
    }

    /// Waits until the API answers its health check (it is a child process that is starting).
    func waitUntilUp(while alive: () -> Bool) async throws {
        // Up to three minutes: a debug build on a loaded 2-core machine can be slow to start.
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(180))
        while clock.now < deadline, alive() {
            if (try? await call(.GET, "/healthz"))?.status == 200 { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw Failure(description: "alfred api did not come up; see its log")
    }

    /// The user an access token names. The demo reads it only to hand Google's consent to the broker
    /// itself, until the API's connector endpoints (the next issue) take that over.
    static func userID(of accessToken: String) throws -> UUID {
        let parts = accessToken.split(separator: ".")
        guard parts.count == 3 else { throw Failure(description: "the access token is not a JWT") }
        var base64 = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64),
              let claims = try JSONSerialization.jsonObject(with: data) as? [String: Any],
              let user = (claims["sub"] as? String).flatMap(UUID.init(uuidString:))
        else { throw Failure(description: "the access token names no user") }
        return user
    }
}
