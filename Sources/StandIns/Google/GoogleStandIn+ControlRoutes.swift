import Foundation
import Hummingbird

/// The fault-injection control plane of external-apis §0.4, under `/_fake/` (a prefix Google never
/// uses). Bodies and answers are JSON; errors are `{"error": "<what to fix>"}` with 400 or 404.
///
/// | call | body | answer |
/// |---|---|---|
/// | `GET /_fake/requests` | | `[RecordedRequest]` |
/// | `DELETE /_fake/requests` | | 204 |
/// | `GET /_fake/requests/counts` | | `{"gmail.history": n, ...}`: every request since the start, by API method |
/// | `PUT /_fake/pubsub/subscription` | `{"endpoint": url, "audience"?: ..., "serviceAccount"?: ...}` | 204; Gmail push on |
/// | `DELETE /_fake/pubsub/subscription` | | 204; Gmail push off |
/// | `GET /_fake/pubsub/pushes` | | `[{"email", "history_id", "status"}]` (status 0: no answer) |
/// | `POST /_fake/faults` | `{"match": {method?, path?, pathRegex?, bodyContains?, headers?}, "fault"?: "invalid_grant"\|"invalid_client"\|"rate_limited"\|"internal_failure"\|"unavailable", "retryAfterSeconds"?: n, "respond"?: {status, headers?, body?}, "times"?: n, "delayMs"?: n}` | 201 `{"id": ...}` |
/// | `GET /_fake/faults` | | `[{id, name, match, response?, delayMs, remaining?}]` |
/// | `DELETE /_fake/faults[/<id>]` | | 204 |
/// | `POST /_fake/clock` | `{"advanceSeconds": n}` | `{"now": ISO-8601}` |
/// | `POST /_fake/reset` | | 204 |
/// | `POST /_fake/state` | a scenario (`GoogleStandIn.Configuration` JSON) | 204, after a reset onto it |
/// | `POST /_fake/oauth/revoke` | `{"refreshToken": ...}` or `{"subject": ...}` | `{"revoked": n}` (404 when 0) |
/// | `POST /_fake/oauth/consent` | `{"decision": "approve"\|"deny"}` | `{"decision": ...}` |
/// | `POST /_fake/state/events` | `{"user": email\|subject, "event": SeedEvent}` | 201 `{"id": ...}` |
/// | `POST /_fake/state/events/cancel` | `{"user": ..., "id": ...}` | `{"id": ...}` |
/// | `POST /_fake/state/messages` | `{"user": ..., "message": SeedMessage}` | 201 `{"id": ...}` |
/// | `POST /_fake/state/messages/delete` | `{"user": ..., "id": ...}` | `{"id": ...}` |
/// | `POST /_fake/state/sync-tokens/expire` | | 204 (every Calendar sync token answers 410) |
/// | `POST /_fake/state/history/expire` | | 204 (every Gmail history id handed out answers 404) |
/// | `POST /_fake/tokens` | `{"user": ..., "scopes": [...]}` | `{"access_token", "expires_in", "scope", "token_type"}` |
///
/// `"fault"` also takes the Calendar/Gmail faults: `auth_error` (401), `rate_limit_exceeded` and
/// `user_rate_limit_exceeded` (403), `too_many_requests` (429 + Retry-After), `backend_error` (500),
/// `service_unavailable` (503), `full_sync_required` and `updated_min_too_long_ago` (410), `not_found` (404).
/// Omitting `times` makes a fault answer every matching request until removed or reset.
extension GoogleStandIn {
    private struct FaultRequest: Decodable {
        var match: FaultRule.Match?
        var fault: String?
        var retryAfterSeconds: Int?
        var respond: CannedResponse?
        var times: Int?
        var delayMs: Int?
    }

    private struct FaultListing: Encodable {
        var id: String
        var name: String
        var match: FaultRule.Match
        var response: CannedResponse?
        var delayMs: Int
        var remaining: Int?
    }

    private struct ClockAdvance: Decodable { var advanceSeconds: Double }
    private struct PushSubscriptionRequest: Decodable { var endpoint: String; var audience: String?; var serviceAccount: String? }
    private struct ServerRevocation: Decodable {
        var refreshToken: String?
        var subject: String?
    }
    private struct Consent: Codable { var decision: ConsentDecision }
    private struct EventChange: Decodable {
        var user: String
        var event: SeedEvent
    }
    private struct MessageChange: Decodable {
        var user: String
        var message: SeedMessage
    }
    private struct Removal: Decodable {
        var user: String
        var id: String
    }
    private struct TokenRequest: Decodable {
        var user: String
        var scopes: [String]
    }
    private struct MintedToken: Encodable {
        var access_token: String
        var expires_in: Int
        var scope: String
        var token_type = "Bearer"
    }
    private struct ControlError: Encodable { var error: String }

    /// A control call that cannot be done; answers `{"error": message}` so every control error reads alike.
    private struct ControlFailure: HTTPResponseError {
        var status: HTTPResponse.Status = .badRequest
        var message: String

        func response(from request: Request, context: some RequestContext) throws -> Response {
            try GoogleStandIn.controlJSON(ControlError(error: message), status: status)
        }
    }

    func addControlRoutes(to router: Router<BasicRequestContext>) {
        let prefix = "/_fake"
        router.get("\(prefix)/requests") { _, _ in try Self.controlJSON(self.recorder.all) }
        router.get("\(prefix)/requests/counts") { _, _ in try Self.controlJSON(self.recorder.counts) }
        // Gmail push as a Pub/Sub push subscription with authentication: from now on, changes to
        // watched mailboxes are POSTed to `endpoint` with a signed OIDC token.
        router.put("\(prefix)/pubsub/subscription") { request, _ in
            let body = try await Self.decode(PushSubscriptionRequest.self, from: request)
            guard let url = URL(string: body.endpoint), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw ControlFailure(message: "endpoint must be an http(s) URL, got '\(body.endpoint.prefix(200))'")
            }
            var subscription = PushSubscription(endpoint: body.endpoint, audience: body.audience)
            if let account = body.serviceAccount { subscription.serviceAccount = account }
            self.pushGmailChanges(to: subscription)
            return Response(status: .noContent)
        }
        router.delete("\(prefix)/pubsub/subscription") { _, _ in
            self.pushGmailChanges(to: nil)
            return Response(status: .noContent)
        }
        router.get("\(prefix)/pubsub/pushes") { _, _ in
            try Self.controlJSON(self.sentPushes().map { ["email": $0.email, "history_id": String($0.historyId), "status": String($0.status)] })
        }
        router.delete("\(prefix)/requests") { _, _ in
            self.recorder.removeAll()
            return Response(status: .noContent)
        }
        router.post("\(prefix)/faults") { request, _ in
            let body = try await Self.decode(FaultRequest.self, from: request)
            let id: String
            do throws(StandInError) { id = try self.faults.add(try Self.rule(from: body)) } catch {
                throw ControlFailure(message: error.message)
            }
            return try Self.controlJSON(["id": id], status: .created)
        }
        router.get("\(prefix)/faults") { _, _ in
            try Self.controlJSON(self.faults.active.map {
                FaultListing(id: $0.id, name: $0.rule.name, match: $0.rule.match, response: $0.rule.response,
                             delayMs: $0.rule.delayMilliseconds, remaining: $0.remaining)
            })
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
        router.post("\(prefix)/clock") { request, _ in
            let body = try await Self.decode(ClockAdvance.self, from: request)
            guard body.advanceSeconds >= 0 else {
                throw ControlFailure(message: "advanceSeconds must be >= 0; the clock only moves forward")
            }
            self.clock.advance(bySeconds: body.advanceSeconds)
            return try Self.controlJSON(["now": ISO8601DateFormatter().string(from: self.clock.now())])
        }
        router.post("\(prefix)/reset") { _, _ in
            self.reset()
            return Response(status: .noContent)
        }
        router.post("\(prefix)/state") { request, _ in
            let configuration = try await Self.decode(Configuration.self, from: request)
            let problems = Self.seedProblems(configuration)
            guard problems.isEmpty else { throw ControlFailure(message: problems.joined(separator: "; ")) }
            self.replaceScenario(configuration)
            return Response(status: .noContent)
        }
        addStateRoutes(to: router, prefix: prefix)
        router.post("\(prefix)/oauth/revoke") { request, _ in
            let body = try await Self.decode(ServerRevocation.self, from: request)
            let count: Int
            switch (body.refreshToken, body.subject) {
            case (let token?, nil): count = self.revokeRefreshToken(token) ? 1 : 0
            case (nil, let subject?): count = self.revokeGrants(subject: subject)
            default: throw ControlFailure(message: "send exactly one of refreshToken or subject")
            }
            guard count > 0 else { throw ControlFailure(status: .notFound, message: "no live grant matched; nothing revoked") }
            return try Self.controlJSON(["revoked": count])
        }
        router.post("\(prefix)/oauth/consent") { request, _ in
            let body = try await Self.decode(Consent.self, from: request)
            self.setConsent(body.decision)
            return try Self.controlJSON(body)
        }
    }

    /// Live changes to calendars and mailboxes, and bearer tokens without the OAuth dance.
    private func addStateRoutes(to router: Router<BasicRequestContext>, prefix: String) {
        router.post("\(prefix)/state/events") { request, _ in
            let body = try await Self.decode(EventChange.self, from: request)
            let id = try Self.controlled { () throws(StandInError) in try self.upsertEvent(body.event, forUser: body.user) }
            return try Self.controlJSON(["id": id], status: .created)
        }
        router.post("\(prefix)/state/events/cancel") { request, _ in
            let body = try await Self.decode(Removal.self, from: request)
            try Self.controlled { () throws(StandInError) in try self.cancelEvent(id: body.id, forUser: body.user) }
            return try Self.controlJSON(["id": body.id])
        }
        router.post("\(prefix)/state/messages") { request, _ in
            let body = try await Self.decode(MessageChange.self, from: request)
            let id = try Self.controlled { () throws(StandInError) in try self.deliverMessage(body.message, toUser: body.user) }
            return try Self.controlJSON(["id": id], status: .created)
        }
        router.post("\(prefix)/state/messages/delete") { request, _ in
            let body = try await Self.decode(Removal.self, from: request)
            try Self.controlled { () throws(StandInError) in try self.deleteMessage(id: body.id, forUser: body.user) }
            return try Self.controlJSON(["id": body.id])
        }
        router.post("\(prefix)/state/sync-tokens/expire") { _, _ in
            self.expireSyncTokens()
            return Response(status: .noContent)
        }
        router.post("\(prefix)/state/history/expire") { _, _ in
            self.expireHistory()
            return Response(status: .noContent)
        }
        router.post("\(prefix)/tokens") { request, _ in
            let body = try await Self.decode(TokenRequest.self, from: request)
            let token = try Self.controlled { () throws(StandInError) in
                try self.mintAccessToken(forUser: body.user, scopes: body.scopes)
            }
            let lifetime = self.scenario.withLock { $0.oauth.accessTokenLifetimeSeconds }
            return try Self.controlJSON(MintedToken(access_token: token, expires_in: lifetime,
                                                    scope: body.scopes.joined(separator: " ")))
        }
    }

    /// Runs a state change; its error becomes a control-plane 400 (404 when the user is unknown).
    private static func controlled<T>(_ change: () throws(StandInError) -> T) throws(ControlFailure) -> T {
        do { return try change() } catch {
            let status: HTTPResponse.Status = switch error.code {
            case .unknownUser: .notFound
            default: .badRequest
            }
            throw ControlFailure(status: status, message: error.message)
        }
    }

    /// Turns the JSON shape into a rule: a named Google fault, a custom response, or latency only.
    private static func rule(from body: FaultRequest) throws(StandInError) -> FaultRule {
        var response = body.respond
        var name = body.respond == nil ? "latency" : "custom"
        if let fault = body.fault {
            guard body.respond == nil else { throw StandInError(.invalidFault, "send either fault or respond, not both") }
            guard let canned = CannedResponse.googleFault(named: fault, retryAfterSeconds: body.retryAfterSeconds)
                ?? CannedResponse.googleAPIFault(named: fault, retryAfterSeconds: body.retryAfterSeconds)
            else {
                let names = CannedResponse.googleFaultNames + CannedResponse.googleAPIFaultNames
                throw StandInError(.invalidFault, "unknown fault '\(fault)'; use one of \(names.joined(separator: ", "))")
            }
            response = canned
            name = fault
        }
        return FaultRule(match: body.match ?? FaultRule.Match(), response: response,
                         delayMilliseconds: body.delayMs ?? 0, times: body.times, name: name)
    }

    private static func decode<T: Decodable>(_ type: T.Type, from request: Request) async throws -> T {
        var request = request
        let body = try await request.collectBody(upTo: TrafficMiddleware.maxBodyBytes)
        do {
            return try JSONDecoder().decode(T.self, from: Data(buffer: body))
        } catch {
            throw ControlFailure(message: "control body is not a valid \(T.self): \(error)")
        }
    }

    fileprivate static func controlJSON(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return Response(status: status, headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }
}
