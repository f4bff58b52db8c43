import AlfredCore
import Assistant
import Delivery
import Sealing
import Crypto
import Foundation
import Metrics

/// Google connect (RFC §7.3, §9.1): the app asks to start, opens Google's consent page, and hands
/// the redirect's `code` and `state` back. The API keeps the PKCE verifier (sealed) and the state
/// (as a keyed hash) in between; the token broker exchanges the code and alone holds the token.
extension APIHandler {
    func startGoogleConnect(_ input: Operations.StartGoogleConnect.Input) async throws -> Operations.StartGoogleConnect.Output {
        let caller = try Caller.required
        guard case .json(let request) = input.body else { throw APIError.invalidJSON("the body must be JSON") }
        let google = try connectSettings()
        try Check.length(request.redirectUri, "redirect_uri", 1...512)
        guard let client = google.clients.first(where: { $0.redirectURIs.contains(request.redirectUri) }) else {
            throw APIError.invalidField("redirect_uri", "is not a redirect URI this server's Google OAuth clients are registered with")
        }
        let state = Base64URL.random(bytes: 32)
        let verifier = Base64URL.random(bytes: 48)
        let expiresAt = deps.now().addingTimeInterval(google.stateLifetime.seconds)
        try await deps.store.openConnect(PendingConnect(
            stateHash: deps.sealer.keyedHash("connect-state", state), userID: caller.userID, sessionID: caller.sessionID,
            client: client.kind, redirectURI: request.redirectUri,
            verifierSealed: try deps.sealer.seal(Array(verifier.utf8), purpose: .pkceVerifier, userID: caller.userID),
            expiresAt: expiresAt), keepPerUser: google.pendingPerUser)
        connects("started").increment()
        let url = google.authorizationURL(client: client, redirectURI: request.redirectUri, state: state,
                                          challenge: Self.challenge(for: verifier))
        return .ok(.init(body: .json(.init(authUrl: url, state: state, expiresIn: Int(google.stateLifetime.seconds)))))
    }

    func finishGoogleConnect(_ input: Operations.FinishGoogleConnect.Input) async throws -> Operations.FinishGoogleConnect.Output {
        let caller = try Caller.required
        guard case .json(let request) = input.body else { throw APIError.invalidJSON("the body must be JSON") }
        let google = try connectSettings()
        let broker = try connectorAuthority()
        try Check.length(request.state, "state", 1...128)
        if let code = request.code { try Check.length(code, "code", 1...2048) }
        if let error = request.error { try Check.length(error, "error", 1...64) }
        guard request.code != nil || request.error != nil else {
            throw APIError(status: .badRequest, code: .missingField, message: "code: required (or the redirect's error)")
        }
        // Taken whatever happens next: a state works once, and only for the session that started it.
        guard let pending = try await deps.store.takeConnect(stateHash: deps.sealer.keyedHash("connect-state", request.state),
                                                             sessionID: caller.sessionID, userID: caller.userID),
              pending.expiresAt > deps.now()
        else {
            connects("invalid_state").increment()
            // 403, like every refused connect: the state does not let this session finish one (CSRF protection).
            throw APIError(status: .forbidden, code: .invalidState,
                           message: "state: unknown, already used, expired, or started by another session; start connecting again")
        }
        // Google redirected back with an error (the user declined): the pending connect ends here.
        guard request.error == nil, let code = request.code else {
            connects("denied").increment()
            throw APIError(status: .forbidden, code: .accessDenied,
                           message: "Google reported that consent was not given (\(Self.safeErrorName(request.error))); nothing was connected")
        }
        let verifier = String(decoding: try deps.sealer.open(pending.verifierSealed, purpose: .pkceVerifier, userID: caller.userID),
                              as: UTF8.self)
        let connected: ConnectedConnector
        do {
            connected = try await broker.connect(CodeExchange(
                userID: caller.userID.uuidString.lowercased(), code: Redacted(code), codeVerifier: Redacted(verifier),
                redirectURI: pending.redirectURI, client: pending.client, requiredScopes: google.scopes))
        } catch {
            throw connectError(error)
        }
        guard let connectorID = UUID(uuidString: connected.connectorID) else {
            throw APIError.internal
        }
        connects("connected").increment()
        // The assistant starts at once (calendar sync and mail check) instead of at the planner's next sweep.
        _ = try await deps.jobs.enqueue(PlannerHandler.firstJobs(user: caller.userID), onConflict: .keep)
        await replaceEarlierConnectors(of: caller.userID, keeping: connectorID, broker: broker)
        return .ok(.init(body: .json(.init(connectorId: connectorID.uuidString.lowercased(), provider: .google, status: .active,
                                           grantedScopes: connected.scopes, createdAt: deps.now()))))
    }

    func listConnectors(_ input: Operations.ListConnectors.Input) async throws -> Operations.ListConnectors.Output {
        let caller = try Caller.required
        let items = try await deps.store.connectors(userID: caller.userID).map { connector in
            Components.Schemas.Connector(connectorId: connector.id.uuidString.lowercased(), provider: .google,
                                         status: Self.status(connector.status), grantedScopes: connector.scopes,
                                         createdAt: connector.createdAt)
        }
        return .ok(.init(body: .json(.init(items: items))))
    }

    func deleteConnector(_ input: Operations.DeleteConnector.Input) async throws -> Operations.DeleteConnector.Output {
        let caller = try Caller.required
        guard let id = UUID(uuidString: input.path.connectorId) else { throw APIError.invalidField("connector_id", "must be a UUID") }
        guard let status = try await deps.store.connectorStatus(id, userID: caller.userID) else { throw APIError.notFound("connector") }
        if status != .revoked {
            do {
                try await connectorAuthority().disconnect(connectorID: id)
            } catch let error as ConnectFailure {
                throw connectError(error)
            }
        }
        return .ok(.init(body: .json(.init(connectorId: id.uuidString.lowercased(), status: .revoked))))
    }

    // MARK: Helpers

    /// A user has one Google connector: connecting again (after `NEEDS_RECONSENT`, or on a new
    /// phone) revokes the earlier ones, so no forgotten grant stays alive. Best effort: one that
    /// cannot be revoked now stays listed, and `DELETE` or delete-all revokes it later.
    private func replaceEarlierConnectors(of userID: UUID, keeping: UUID, broker: any ConnectorAuthority) async {
        do {
            for earlier in try await deps.store.connectors(userID: userID) where earlier.id != keeping && earlier.provider == "google" {
                try await broker.disconnect(connectorID: earlier.id)
            }
        } catch {
            deps.logger.warning("an earlier Google connector could not be revoked after a new connect",
                                metadata: ["alfred.error": "\(error)"])
        }
    }

    private func connectError(_ failure: ConnectFailure) -> APIError {
        switch failure.kind {
        case .codeRefused:
            connects("code_refused").increment()
            return APIError(status: .forbidden, code: .codeRefused, message: failure.message)
        case .missingScopes:
            connects("missing_scopes").increment()
            return APIError(status: .forbidden, code: .missingScopes, message: failure.message)
        case .notFound:
            return APIError.notFound("connector")
        case .unavailable:
            connects("unavailable").increment()
            return APIError.unavailable("Google or the token broker is unavailable right now; try again shortly", retryAfter: 5)
        case .failed:
            connects("failed").increment()
            deps.logger.error("Google connect failed", metadata: ["alfred.error": "\(failure.message)"])
            return APIError(status: .serviceUnavailable, code: .connectFailed,
                            message: "connecting Google failed on the server side; it was logged", headers: [.retryAfter: "60"])
        }
    }

    private func connectSettings() throws(APIError) -> APIServer.GoogleConnect {
        guard let google = deps.google else {
            throw APIError.unavailable("Google connect is not configured on this server (alfred api --google-client-id …)", retryAfter: 60)
        }
        return google
    }

    private func connectorAuthority() throws(APIError) -> any ConnectorAuthority {
        guard let broker = deps.broker else {
            throw APIError.unavailable("the token broker is not configured on this server (alfred api --broker-socket …)", retryAfter: 60)
        }
        return broker
    }

    func connects(_ result: String) -> Counter {
        Counter(label: MetricName.apiConnects, dimensions: [("result", result)], factory: deps.metrics)
    }

    static func status(_ status: ConnectorStatus) -> Components.Schemas.ConnectorStatus {
        switch status {
        case .active: .active
        case .needsReconsent: .needsReconsent
        case .revoked: .revoked
        case .revocationPending: .revocationPending
        }
    }

    /// Google's redirect error names are short ASCII words; anything else is not echoed.
    static func safeErrorName(_ error: String?) -> String {
        guard let error, error.count <= 64, error.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "_") }) else { return "an error" }
        return error
    }

    /// PKCE S256: BASE64URL(SHA256(verifier)).
    static func challenge(for verifier: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Data(verifier.utf8))))
    }
}

extension APIServer {
    /// Google connect: the authorization endpoint, the OAuth clients the app may use, and the scopes.
    public struct GoogleConnect: Sendable {
        public struct Client: Sendable {
            public var kind: OAuthClientKind
            public var id: String
            /// Exactly as registered with Google.
            public var redirectURIs: [String]
            public init(kind: OAuthClientKind, id: String, redirectURIs: [String]) {
                self.kind = kind; self.id = id; self.redirectURIs = redirectURIs
            }
        }

        public var authorizationURL = "https://accounts.google.com/o/oauth2/v2/auth"
        public var clients: [Client]
        public var scopes = GoogleScope.required
        /// How long the user has on Google's pages (Google's codes live about 10 minutes).
        public var stateLifetime: Duration = .seconds(600)
        /// Pending connects kept per user; older ones stop working.
        public var pendingPerUser = 5

        public init(clients: [Client]) { self.clients = clients }

        func authorizationURL(client: Client, redirectURI: String, state: String, challenge: String) -> String {
            var components = URLComponents(string: authorizationURL) ?? URLComponents()
            components.queryItems = (components.queryItems ?? []) + [
                .init(name: "client_id", value: client.id), .init(name: "redirect_uri", value: redirectURI),
                .init(name: "response_type", value: "code"), .init(name: "scope", value: scopes.joined(separator: " ")),
                // A refresh token on every consent, so a reconnect never ends without one.
                .init(name: "access_type", value: "offline"), .init(name: "prompt", value: "consent"),
                .init(name: "state", value: state),
                .init(name: "code_challenge", value: challenge), .init(name: "code_challenge_method", value: "S256"),
            ]
            return components.string ?? authorizationURL
        }
    }
}
