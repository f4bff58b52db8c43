import AsyncHTTPClient
import Crypto
import Foundation

/// The browser half of connecting Google, played against the stand-in: the authorization request
/// (the stand-in signs the user in and consents), and what the redirect carries back. What the app
/// hands to the backend afterwards is the code and the state.
public enum ConsentBrowser {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Where Google sent the browser back to: the redirect URI with `code`, `state` and `scope`, or
    /// with `error` (`access_denied`).
    public struct Redirect: Sendable {
        public let location: String
        public let code: String?
        public let state: String?
        public let scope: String?
        public let error: String?
    }

    /// Opens a complete authorization URL (as `POST /v1/connectors/google/start` returns it) and
    /// follows it to the redirect, without following that (it points into the app).
    public static func open(_ authorizationURL: String) async throws -> Redirect {
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        let response: HTTPClientResponse
        do {
            // Generous: the stand-in answers at once, but a starved test machine must not trip it.
            response = try await http.execute(HTTPClientRequest(url: authorizationURL), timeout: .seconds(60))
        } catch {
            try? await http.shutdown()
            throw error
        }
        try await http.shutdown()
        guard response.status.code == 302, let location = response.headers.first(name: "Location") else {
            throw Failure(description: "Google showed an error page instead of redirecting (HTTP \(response.status.code))")
        }
        let items = URLComponents(string: location)?.queryItems ?? []
        func item(_ name: String) -> String? { items.first { $0.name == name }?.value }
        return Redirect(location: location, code: item("code"), state: item("state"), scope: item("scope"), error: item("error"))
    }

    /// The whole client side at once, for callers that talk to the broker directly: a PKCE verifier
    /// and challenge, the authorization request, and the code from the redirect.
    public static func authorize(authorizationURL: String, clientID: String, redirectURI: String, scopes: [String],
                                 loginHint: String? = nil, state: String = "consent") async throws -> (code: String, verifier: String) {
        let verifier = "v-" + UUID().uuidString + UUID().uuidString
        let challenge = Data(SHA256.hash(data: Data(verifier.utf8))).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        guard var components = URLComponents(string: authorizationURL) else {
            throw Failure(description: "not a URL: \(authorizationURL)")
        }
        components.queryItems = [
            .init(name: "client_id", value: clientID), .init(name: "redirect_uri", value: redirectURI),
            .init(name: "response_type", value: "code"), .init(name: "scope", value: scopes.joined(separator: " ")),
            .init(name: "access_type", value: "offline"), .init(name: "prompt", value: "consent"), .init(name: "state", value: state),
            .init(name: "code_challenge", value: challenge), .init(name: "code_challenge_method", value: "S256"),
        ] + (loginHint.map { [.init(name: "login_hint", value: $0)] } ?? [])
        let redirect = try await open(components.url!.absoluteString)
        guard let code = redirect.code else {
            throw Failure(description: "the Google stand-in returned no authorization code (\(redirect.error ?? "no error either"))")
        }
        return (code, verifier)
    }
}
