/// A failure the token broker reports to a caller, or the client reports about reaching the broker.
///
/// Callers act on `code` and `retryable`, never on `message`. The message is safe to log: it never
/// holds a token, a code, a verifier or a request's content. New codes can be added without
/// breaking callers, so `Code` is a struct rather than an enum.
public struct BrokerError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable string sent on the wire (`"needs_reconsent"`).
        public let rawValue: String
        init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        // Sent by the broker.
        public static let badRequest = Code(rawValue: "bad_request")
        public static let frameTooLarge = Code(rawValue: "frame_too_large")
        public static let unsupportedVersion = Code(rawValue: "unsupported_version")
        public static let unknownOp = Code(rawValue: "unknown_op")
        public static let notFound = Code(rawValue: "not_found")
        /// Google answered `invalid_grant`: the user must connect the account again.
        public static let needsReconsent = Code(rawValue: "needs_reconsent")
        /// A connect whose grant lacks scopes the caller requires (the grant was revoked at Google).
        public static let missingScopes = Code(rawValue: "missing_scopes")
        public static let upstreamUnavailable = Code(rawValue: "upstream_unavailable")
        /// The caller's OS user is not allowed, or attestation / the key service refused.
        public static let denied = Code(rawValue: "denied")
        public static let `internal` = Code(rawValue: "internal")

        // Raised by `BrokerClient` itself; never sent on the wire.
        /// The socket is missing, refused the connection, or the connection dropped.
        public static let brokerUnavailable = Code(rawValue: "broker_unavailable")
        public static let timeout = Code(rawValue: "timeout")
    }

    public let code: Code
    /// Safe to log and to show an operator; never contains secrets or request content.
    public let message: String
    /// Whether the same request may succeed later (the job should retry with backoff).
    public let retryable: Bool

    public init(code: Code, message: String, retryable: Bool) {
        self.code = code
        self.message = message
        self.retryable = retryable
    }

    public var description: String {
        "token broker \(code.rawValue)\(retryable ? " (retryable)" : ""): \(message)"
    }
}

extension BrokerError {
    public static func badRequest(_ message: String) -> BrokerError {
        BrokerError(code: .badRequest, message: message, retryable: false)
    }
    public static func frameTooLarge(limit: Int) -> BrokerError {
        BrokerError(code: .frameTooLarge, message: "frame exceeds the \(limit)-byte limit", retryable: false)
    }
    public static func unsupportedVersion(_ version: Int) -> BrokerError {
        BrokerError(
            code: .unsupportedVersion,
            message: "protocol version \(version) is not supported; this broker speaks \(BrokerRequestFrame.version)",
            retryable: false)
    }
    public static func unknownOp() -> BrokerError {
        BrokerError(
            code: .unknownOp,
            message: "unknown op; expected one of \(BrokerOperation.allCases.map(\.rawValue).joined(separator: ", "))",
            retryable: false)
    }
    public static func notFound(_ message: String) -> BrokerError {
        BrokerError(code: .notFound, message: message, retryable: false)
    }
    public static func needsReconsent(_ message: String) -> BrokerError {
        BrokerError(code: .needsReconsent, message: message, retryable: false)
    }
    public static func missingScopes(_ message: String) -> BrokerError {
        BrokerError(code: .missingScopes, message: message, retryable: false)
    }
    public static func upstreamUnavailable(_ message: String) -> BrokerError {
        BrokerError(code: .upstreamUnavailable, message: message, retryable: true)
    }
    public static func denied(_ message: String) -> BrokerError {
        BrokerError(code: .denied, message: message, retryable: false)
    }
    public static func `internal`(_ message: String, retryable: Bool = false) -> BrokerError {
        BrokerError(code: .internal, message: message, retryable: retryable)
    }
    static func unreachable(socketPath: String, reason: String) -> BrokerError {
        BrokerError(
            code: .brokerUnavailable,
            message: "token broker not reachable at \(socketPath); is `alfred-broker` running? (\(reason))",
            retryable: true)
    }
    static func timedOut(after timeout: Duration) -> BrokerError {
        BrokerError(code: .timeout, message: "token broker did not answer within \(timeout)", retryable: true)
    }
}

extension BrokerError: Codable {
    private enum Key: String, CodingKey { case code, message, retryable }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        self.init(
            code: Code(rawValue: try container.decode(String.self, forKey: .code)),
            message: try container.decode(String.self, forKey: .message),
            retryable: try container.decode(Bool.self, forKey: .retryable))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(code.rawValue, forKey: .code)
        try container.encode(message, forKey: .message)
        try container.encode(retryable, forKey: .retryable)
    }
}
