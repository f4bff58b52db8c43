import Attestation
import KeyServiceClient
import Foundation
import Hummingbird
import LocalIPC
import Logging
import NIOCore
import ServiceLifecycle
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The key service process: HTTP/1.1 with JSON bodies on a Unix domain socket (mode 0600), standing
/// in for AWS KMS with a `Recipient`. Byte strings are standard base64.
///
///     POST /v1/nonce               -> {"nonce", "expires_in_seconds"}
///     POST /v1/generate-data-key   {"attestation", "key_id", "connector_id", "user_id"}
///                                  -> {"key_version", "wrapped_key", "ciphertext_for_recipient"}
///     POST /v1/decrypt             {"attestation", "key_id", "key_version", "connector_id", "user_id", "wrapped_key"}
///                                  -> {"ciphertext_for_recipient"}
///     POST /v1/rewrap              (same body as decrypt) -> {"key_version", "wrapped_key"}
///
/// Refusals are `{"error": {"code", "message"}}`: 403 for a failed release rule (an
/// `AttestationError.Reason` code or `key_policy_mismatch`), 400 `bad_request` or
/// `invalid_ciphertext`, 503 when the decision cannot be audited. Decisions are made by `KeyGate`.
public struct KeyServer: Service {
    public struct Configuration: Sendable {
        public var socketPath: String
        public var directory: KeyDirectory
        /// Default: `audit.log` in the key directory.
        public var auditLog: URL
        public var nonceLifetimeSeconds: TimeInterval = 60
        /// Outstanding nonces kept; beyond this the oldest are forgotten.
        public var maxOutstandingNonces = 10_000
        /// Set on the socket once it is bound. Connecting needs write permission, so without a group
        /// (0600) only the key service's own OS user (and root) may; with the broker's group, 0660.
        /// Put the socket in a directory only that user owns, so nothing can connect in the moment
        /// between bind and chmod.
        public var socketGroup: UInt32?
        /// Evidence is at most 32 KiB, which is about 43 KiB in base64.
        public var maxBodyBytes = 64 * 1024

        public init(socketPath: String, directory: KeyDirectory) {
            self.socketPath = socketPath
            self.directory = directory
            auditLog = directory.auditLog
        }
    }

    let configuration: Configuration
    let application: Application<RouterResponder<BasicRequestContext>>
    let logger: Logger

    /// Loads the policy, keys and root from the directory and opens the audit log; throws
    /// `KeyConfigurationError` when any of them is unusable.
    /// - Parameters:
    ///   - now: the time evidence and nonces are judged at.
    ///   - onListening: called once the socket is bound and its mode set.
    public init(configuration: Configuration, now: @escaping @Sendable () -> Date = { Date() }, logger: Logger,
                onListening: @escaping @Sendable () async -> Void = {}) throws {
        let gate = try KeyGate(
            directory: configuration.directory,
            nonces: NonceStore(lifetime: configuration.nonceLifetimeSeconds, capacity: configuration.maxOutstandingNonces),
            audit: try AuditLog(path: configuration.auditLog.path), now: now, logger: logger)
        let router = Router()
        let maxBody = configuration.maxBodyBytes
        router.post("/v1/nonce") { _, _ in Self.json(gate.issueNonce(), status: .ok) }
        router.post("/v1/generate-data-key") { request, _ in
            await Self.handle(request, .generateDataKey, gate: gate, maxBody: maxBody) { (body: GenerateDataKeyRequest) throws(KeyGateRefusal) in
                try gate.generateDataKey(body)
            }
        }
        router.post("/v1/decrypt") { request, _ in
            await Self.handle(request, .decrypt, gate: gate, maxBody: maxBody) { (body: WrappedKeyRequest) throws(KeyGateRefusal) in
                try gate.decrypt(body)
            }
        }
        router.post("/v1/rewrap") { request, _ in
            await Self.handle(request, .rewrap, gate: gate, maxBody: maxBody) { (body: WrappedKeyRequest) throws(KeyGateRefusal) in
                try gate.rewrap(body)
            }
        }
        let socketPath = configuration.socketPath
        let access = SocketAccess(group: configuration.socketGroup)
        application = Application(
            router: router,
            configuration: .init(address: .unixDomainSocket(path: socketPath), serverName: nil),
            onServerRunning: { channel in
                do {
                    try access.apply(to: socketPath)
                } catch {
                    // Serving on a socket anyone may connect to would defeat the point; stop instead.
                    logger.critical("cannot set the key service socket's access; shutting down",
                                    metadata: ["alfred.socket": "\(socketPath)", "alfred.error": "\(error)"])
                    try? await channel.close()
                    return
                }
                logger.info("key service listening", metadata: ["alfred.socket": "\(socketPath)"])
                await onListening()
            },
            logger: logger)
        self.configuration = configuration
        self.logger = logger
    }

    /// Serves until graceful shutdown or cancellation, then removes the socket file.
    public func run() async throws {
        defer { removeSocket() }
        try await application.run()
    }

    private func removeSocket() {
        let path = configuration.socketPath
        if let type = try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType, type == .typeSocket {
            unlink(path)
        }
    }

    // MARK: HTTP

    private static func handle<Body: Decodable, Result: Encodable>(
        _ request: Request, _ operation: KeyGate.Operation, gate: KeyGate, maxBody: Int,
        _ perform: (Body) throws(KeyGateRefusal) -> Result
    ) async -> Response {
        var request = request
        let buffer: ByteBuffer
        do { buffer = try await request.collectBody(upTo: maxBody) } catch {
            return errorResponse(gate.refuseMalformed(operation, "the body is larger than \(maxBody) bytes or was cut off"))
        }
        let body: Body
        do { body = try JSONDecoder().decode(Body.self, from: Data(buffer.readableBytesView)) } catch {
            return errorResponse(gate.refuseMalformed(operation, "the body is not the expected JSON: \(KeyPolicy.describe(error))"))
        }
        do { return json(try perform(body), status: .ok) } catch { return errorResponse(error) }
    }

    private static func errorResponse(_ refusal: KeyGateRefusal) -> Response {
        let status: HTTPResponse.Status = switch refusal.kind {
        case .denied: .forbidden
        case .badRequest, .invalidCiphertext: .badRequest
        case .unavailable: .serviceUnavailable
        }
        return json(ErrorResponse(error: .init(code: refusal.code, message: refusal.message)), status: status)
    }

    private static func json(_ value: some Encodable, status: HTTPResponse.Status) -> Response {
        let data = (try? JSONEncoder().encode(value)) ?? Data(#"{"error":{"code":"internal","message":"response does not encode"}}"#.utf8)
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
