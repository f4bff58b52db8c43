import AsyncHTTPClient
import Crypto
import Foundation

/// The browser half of connecting Google, played against the stand-in: a PKCE verifier and
/// challenge, the authorization request (the stand-in signs the user in and consents), and the code
/// from the redirect. What the app hands to the backend afterwards is `(code, verifier)`.
public enum ConsentBrowser {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

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
        let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
        let response: HTTPClientResponse
        do {
            // Generous: the stand-in answers at once, but a starved test machine must not trip it.
            response = try await http.execute(HTTPClientRequest(url: components.url!.absoluteString), timeout: .seconds(60))
        } catch {
            try? await http.shutdown()
            throw error
        }
        try await http.shutdown()
        let location = response.headers.first(name: "Location") ?? ""
        guard let code = URLComponents(string: location)?.queryItems?.first(where: { $0.name == "code" })?.value else {
            throw Failure(description: "the Google stand-in returned no authorization code (HTTP \(response.status.code))")
        }
        return (code, verifier)
    }
}
