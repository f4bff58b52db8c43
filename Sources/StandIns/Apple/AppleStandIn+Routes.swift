import Foundation
import Hummingbird

/// `GET /auth/keys` as Apple serves it, and the control plane under `/_fake/` (a prefix Apple never
/// uses). Control bodies and answers are JSON; mistakes get 400 (404 for an unknown fault id) with
/// `{"error": "<what to fix>"}`. Control calls are neither recorded nor faulted.
///
/// | call | body | answer |
/// |---|---|---|
/// | `GET /auth/keys` | | `{"keys": [{kty, kid, use, alg, n, e}, ...]}`, newest first |
/// | `POST /_fake/identity-token` | `IdentityTokenRequest` JSON, e.g. `{"audience": "com.example.alfred", "nonce": "raw", "overrides": ["expired"]}` | `{"identityToken", "kid", "subject", "expiresAt"}` |
/// | `POST /_fake/rotate-keys` | | `{"signingKeyID", "publishedKeyIDs", "keySetFetches"}` after the rotation |
/// | `GET /_fake/keys` | | `{"signingKeyID", "publishedKeyIDs", "keySetFetches"}` |
/// | `POST /_fake/faults` | `{"respond": {status, headers?, body?}, "match"?: {method?, path?, ...}, "times"?: n, "delayMs"?: n}` | 201 `{"id"}` |
/// | `DELETE /_fake/faults[/<id>]` | | 204 |
/// | `GET /_fake/requests` | | `[RecordedRequest]` (the `/auth/keys` requests) |
/// | `DELETE /_fake/requests` | | 204 |
/// | `POST /_fake/clock` | `{"advanceSeconds": n}` | `{"now": ISO-8601}` |
///
/// `overrides` takes `wrong_issuer`, `wrong_audience`, `expired`, `unknown_kid`, `bad_signature`,
/// `HS256`, `none`; `issuedAt` is seconds since 1970; `claims` sets any claim last (`null` removes it).
extension AppleStandIn {
    struct KeyStatus: Codable, Equatable {
        var signingKeyID: String
        var publishedKeyIDs: [String]
        var keySetFetches: Int
    }

    private struct FaultRequest: Decodable {
        var match: FaultRule.Match?
        var respond: CannedResponse?
        var times: Int?
        var delayMs: Int?
    }

    private struct ClockAdvance: Decodable { var advanceSeconds: Double }
    private struct ControlError: Encodable { var error: String }

    private struct ControlFailure: HTTPResponseError {
        var status: HTTPResponse.Status = .badRequest
        var message: String

        func response(from request: Request, context: some RequestContext) throws -> Response {
            try AppleStandIn.json(ControlError(error: message), status: status)
        }
    }

    var keyStatus: KeyStatus {
        let ids = publishedKeyIDs
        return KeyStatus(signingKeyID: ids[0], publishedKeyIDs: ids, keySetFetches: keySetFetches)
    }

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get(RouterPath(Self.keysPath)) { _, _ in
            let jwks = self.keys.withLock { $0.map(\.jwk) }
            return try Self.json(["keys": jwks])
        }
        let prefix = "/_fake"
        router.post("\(prefix)/identity-token") { request, _ in
            let body = try await Self.decode(IdentityTokenRequest.self, from: request,
                                             allowedKeys: Set(IdentityTokenRequest.CodingKeys.allCases.map(\.rawValue)))
            do {
                return try Self.json(try self.mint(body))
            } catch let error as MintError {
                throw ControlFailure(message: error.message)
            }
        }
        router.post("\(prefix)/rotate-keys") { _, _ in
            self.rotateKeys()
            return try Self.json(self.keyStatus)
        }
        router.get("\(prefix)/keys") { _, _ in try Self.json(self.keyStatus) }
        router.post("\(prefix)/faults") { request, _ in
            let body = try await Self.decode(FaultRequest.self, from: request)
            let rule = FaultRule(match: body.match ?? FaultRule.Match(), response: body.respond,
                                 delayMilliseconds: body.delayMs ?? 0, times: body.times)
            let id: String
            do throws(StandInError) { id = try self.faults.add(rule) } catch {
                throw ControlFailure(message: error.message)
            }
            return try Self.json(["id": id], status: .created)
        }
        router.delete("\(prefix)/faults") { _, _ in
            self.faults.removeAll()
            return Response(status: .noContent)
        }
        router.delete("\(prefix)/faults/:id") { _, context in
            let id = try context.parameters.require("id")
            guard self.faults.remove(id: id) else { throw ControlFailure(status: .notFound, message: "no active fault \(id)") }
            return Response(status: .noContent)
        }
        router.get("\(prefix)/requests") { _, _ in try Self.json(self.recorder.all) }
        router.delete("\(prefix)/requests") { _, _ in
            self.recorder.removeAll()
            return Response(status: .noContent)
        }
        router.post("\(prefix)/clock") { request, _ in
            let body = try await Self.decode(ClockAdvance.self, from: request)
            guard body.advanceSeconds >= 0, body.advanceSeconds.isFinite else {
                throw ControlFailure(message: "advanceSeconds must be >= 0; the clock only moves forward")
            }
            self.clock.advance(bySeconds: body.advanceSeconds)
            return try Self.json(["now": ISO8601DateFormatter().string(from: self.clock.now())])
        }
    }

    /// Decodes a JSON body; with `allowedKeys`, a key outside them is refused (a typo such as `aud`
    /// for `audience` would otherwise mint a token the test did not mean).
    private static func decode<T: Decodable>(_ type: T.Type, from request: Request,
                                             allowedKeys: Set<String>? = nil) async throws -> T {
        var request = request
        let body = Data(buffer: try await request.collectBody(upTo: TrafficMiddleware.maxBodyBytes))
        if let allowedKeys, let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] {
            let unknown = Set(object.keys).subtracting(allowedKeys)
            guard unknown.isEmpty else {
                throw ControlFailure(message: "unknown field(s) \(unknown.sorted().joined(separator: ", ")); "
                    + "known: \(allowedKeys.sorted().joined(separator: ", "))")
            }
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        do {
            return try decoder.decode(T.self, from: body)
        } catch {
            throw ControlFailure(message: "control body is not a valid \(T.self): \(error)")
        }
    }

    fileprivate static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return Response(status: status, headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }
}
