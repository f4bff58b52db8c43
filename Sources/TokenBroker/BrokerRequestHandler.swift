import BrokerClient
import LocalIPC
import AlfredCore
import Logging

/// The token logic behind the broker's socket: one method per operation (`ping` is answered by
/// the transport itself).
///
/// Throw `BrokerError` to give the caller a stable code (`.notFound`, `.needsReconsent` for
/// Google's `invalid_grant`, `.upstreamUnavailable` for transient Google failures, `.denied` when
/// attestation or the key service refuses). Any other error reaches the caller as `internal` with
/// a generic message, because its description could carry a secret; the broker logs its type.
public protocol BrokerRequestHandler: Sendable {
    /// `forceRefresh`: the caller's cached token was refused by Google; do not hand it out again.
    func accessToken(connectorID: String, forceRefresh: Bool, context: BrokerRequestContext) async throws -> BrokerAccessToken
    func exchangeCode(_ exchange: CodeExchange, context: BrokerRequestContext) async throws -> ConnectedConnector
    func revoke(connectorID: String, context: BrokerRequestContext) async throws
    /// Key rotation: returns the key version the connector's data key is wrapped under afterwards.
    func rewrap(connectorID: String, context: BrokerRequestContext) async throws -> Int
}

/// Who asked, and a logger already carrying the request's id, op and caller.
public struct BrokerRequestContext: Sendable {
    public let requestID: String
    public let operation: BrokerOperation
    public let peer: PeerCredentials
    public var logger: Logger

    public init(requestID: String, operation: BrokerOperation, peer: PeerCredentials, logger: Logger) {
        self.requestID = requestID
        self.operation = operation
        self.peer = peer
        self.logger = logger
    }
}
