import AsyncHTTPClient
import Foundation
import NIOCore

/// The token broker's client of the key service: HTTP over the key service's Unix socket.
///
/// A 403 becomes `KeyServiceDenied` (with the rule's reason code); everything else that goes wrong
/// is a `KeyServiceError` naming the socket, whose `isRetryable` tells the broker whether to try
/// again later (key service down or busy) or give up (the request or the ciphertext is bad).
public struct KeyServiceClient: DataKeyProvider {
    public let socketPath: String
    let httpClient: HTTPClient
    let timeout: Duration

    /// - Parameters:
    ///   - httpClient: the caller keeps ownership; the process-wide shared client by default.
    ///   - timeout: for each whole request. While the key service restarts, connection attempts are
    ///     retried within it, so a short restart is not an error.
    public init(socketPath: String, httpClient: HTTPClient = .shared, timeout: Duration = .seconds(5)) {
        self.socketPath = socketPath
        self.httpClient = httpClient
        self.timeout = timeout
    }

    public func nonce() async throws -> [UInt8] {
        let response: NonceResponse = try await post("/v1/nonce", [String: String]())
        return try decode(response.nonce, "nonce")
    }

    public func generateDataKey(keyID: String, connectorID: UUID, userID: UUID, attestation: [UInt8]) async throws -> GeneratedDataKey {
        let request = GenerateDataKeyRequest(attestation: Base64.encode(attestation), keyID: keyID, connectorID: connectorID, userID: userID)
        let response: GenerateDataKeyResponse = try await post("/v1/generate-data-key", request)
        return GeneratedDataKey(keyVersion: response.keyVersion, wrapped: try decode(response.wrappedKey, "wrapped_key"),
                                ciphertextForRecipient: try decode(response.ciphertextForRecipient, "ciphertext_for_recipient"))
    }

    public func decrypt(wrapped: [UInt8], context: TokenContext, attestation: [UInt8]) async throws -> [UInt8] {
        let response: DecryptResponse = try await post("/v1/decrypt", Self.body(wrapped, context, attestation))
        return try decode(response.ciphertextForRecipient, "ciphertext_for_recipient")
    }

    public func rewrap(wrapped: [UInt8], context: TokenContext, attestation: [UInt8]) async throws -> (wrapped: [UInt8], keyVersion: Int) {
        let response: RewrapResponse = try await post("/v1/rewrap", Self.body(wrapped, context, attestation))
        return (try decode(response.wrappedKey, "wrapped_key"), response.keyVersion)
    }

    // MARK: Transport

    private static func body(_ wrapped: [UInt8], _ context: TokenContext, _ attestation: [UInt8]) -> WrappedKeyRequest {
        WrappedKeyRequest(attestation: Base64.encode(attestation), keyID: context.keyID, keyVersion: context.keyVersion,
                          connectorID: context.connectorID, userID: context.userID, wrappedKey: Base64.encode(wrapped))
    }

    private func post<Response: Decodable>(_ path: String, _ body: some Encodable) async throws -> Response {
        guard let url = URL(httpURLWithSocketPath: socketPath, uri: path) else {
            throw KeyServiceError(.unavailable, socketPath: socketPath, message: "the socket path cannot be used in a URL")
        }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "content-type", value: "application/json")
        request.body = .bytes(ByteBuffer(bytes: try JSONEncoder().encode(body)))

        let bytes: ByteBuffer
        let status: Int
        do {
            let (seconds, attoseconds) = timeout.components
            let response = try await httpClient.execute(request, timeout: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
            status = Int(response.status.code)
            bytes = try await response.body.collect(upTo: 1 << 20)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw KeyServiceError(.unavailable, socketPath: socketPath,
                                  message: "cannot reach the key service (is `alfred-key-service serve` running?): \(error)")
        }
        let data = Data(bytes.readableBytesView)
        if status == 200 {
            guard let decoded = try? JSONDecoder().decode(Response.self, from: data) else {
                throw KeyServiceError(.unexpectedResponse, socketPath: socketPath, status: status, message: "the response body is not the expected JSON")
            }
            return decoded
        }
        let refusal = try? JSONDecoder().decode(ErrorResponse.self, from: data).error
        switch (status, refusal?.code) {
        case (403, let code?):
            throw KeyServiceDenied(reason: code, message: refusal?.message ?? "")
        case (400, "invalid_ciphertext"):
            throw KeyServiceError(.invalidCiphertext, socketPath: socketPath, status: status, message: refusal?.message ?? "")
        case (400, _):
            throw KeyServiceError(.badRequest, socketPath: socketPath, status: status, message: refusal?.message ?? "")
        case (500..., _):
            throw KeyServiceError(.unavailable, socketPath: socketPath, status: status,
                                  message: "\(refusal?.code ?? "no code"): \(refusal?.message ?? "")")
        default:
            throw KeyServiceError(.unexpectedResponse, socketPath: socketPath, status: status,
                                  message: "\(refusal?.code ?? "no code"): \(refusal?.message ?? "")")
        }
    }

    private func decode(_ string: String, _ field: String) throws -> [UInt8] {
        guard let bytes = Base64.decode(string) else {
            throw KeyServiceError(.unexpectedResponse, socketPath: socketPath, status: 200, message: "\(field) is not base64")
        }
        return bytes
    }
}

/// The key service could not be asked, or could not carry out a request (a refusal by policy is
/// `KeyServiceDenied` instead). The description names the socket and the code; never key material.
public struct KeyServiceError: Error, CustomStringConvertible, Sendable, Equatable {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let name: String
        /// Not reachable, timed out, or answered 5xx: try again later.
        public static let unavailable = Code(name: "key_service_unavailable")
        /// The wrapped key does not unwrap under this key, version and context: the stored ciphertext
        /// or a bound column was changed. Retrying will not help.
        public static let invalidCiphertext = Code(name: "invalid_ciphertext")
        /// The key service could not read the request (a bug on our side).
        public static let badRequest = Code(name: "bad_request")
        /// An answer that is not the protocol (a different server on the socket?).
        public static let unexpectedResponse = Code(name: "unexpected_response")
        public var description: String { name }
    }

    public let code: Code
    public let socketPath: String
    public let status: Int?
    public let message: String

    public init(_ code: Code, socketPath: String, status: Int? = nil, message: String) {
        self.code = code
        self.socketPath = socketPath
        self.status = status
        self.message = message
    }

    /// Whether the same request may succeed later.
    public var isRetryable: Bool { code == .unavailable }

    public var description: String {
        "key service at \(socketPath): \(code.name)\(status.map { " (HTTP \($0))" } ?? ""): \(message)"
    }
}
