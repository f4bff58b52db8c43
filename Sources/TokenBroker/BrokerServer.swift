import BrokerClient
import LocalIPC
import AlfredCore

import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The broker's socket: accepts local connections, admits only allowed OS users, decodes frames
/// and hands each request to a `BrokerRequestHandler`.
///
/// Requests on one connection are pipelined and run concurrently (up to
/// `maxConcurrentRequestsPerConnection`; beyond that the broker stops reading the connection until
/// one finishes). Responses are therefore matched to requests by `id`, not by order.
///
/// On graceful shutdown or cancellation it stops accepting, stops reading new requests, answers
/// the ones in flight, closes every connection and removes the socket file.
public struct BrokerServer<Handler: BrokerRequestHandler>: Service {
    public struct Configuration: Sendable {
        public var socketPath: String
        /// OS users allowed to call (checked with the kernel's peer credentials). Default: the
        /// broker's own user; in production, the worker's service account.
        public var allowedUIDs: Set<UInt32>
        /// OS users allowed only to connect and disconnect (`exchange_code`, `revoke`, `ping`): the
        /// API's. They can turn a consent into a connector but never obtain a token.
        public var connectOnlyUIDs: Set<UInt32> = []
        /// The group its callers share (the socket becomes 0660 and that group's); nil: 0600.
        public var socketGroup: UInt32?
        /// Largest frame payload accepted, in bytes.
        public var maxFrameSize: Int = 64 * 1024
        public var maxConcurrentRequestsPerConnection: Int = 32
        /// Mints the APNs provider token for `apns_token` (nil: the op answers `not_found`).
        public var providerTokens: (any ProviderTokenSource)?

        public init(socketPath: String, allowedUIDs: Set<UInt32> = [PeerCredentials.currentUID]) {
            self.socketPath = socketPath
            self.allowedUIDs = allowedUIDs
        }
    }

    private typealias Connection = FramedConnection

    private let configuration: Configuration
    private let handler: Handler
    private let eventLoopGroup: any EventLoopGroup
    private let logger: Logger
    private let onListening: @Sendable () async -> Void

    /// - Parameter onListening: called once the socket is bound and restricted to mode 0600.
    public init(
        configuration: Configuration,
        handler: Handler,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        logger: Logger = Logger(label: "alfred.broker"),
        onListening: @escaping @Sendable () async -> Void = {}
    ) {
        self.configuration = configuration
        self.handler = handler
        self.eventLoopGroup = eventLoopGroup
        var logger = logger
        logger[metadataKey: "alfred.broker.socket"] = "\(configuration.socketPath)"
        self.logger = logger
        self.onListening = onListening
    }

    public func run() async throws {
        // Allowing half-closure lets a caller send its last requests and half-close; it still gets every answer.
        let listener: NIOAsyncChannel<Connection, Never>
        do {
            listener = try await FramedListener.bind(configuration.socketPath, access: SocketAccess(group: configuration.socketGroup), maxFrameSize: configuration.maxFrameSize,
                                                     backlog: 256, allowHalfClosure: true, group: eventLoopGroup)
        } catch let error as FramedListener.ModeError {
            throw BrokerError.internal(error.description)
        }
        defer {
            unlink(configuration.socketPath)
            logger.info("token broker stopped")
        }
        logger.info("token broker listening", metadata: ["alfred.broker.allowed_uids": "\(configuration.allowedUIDs.sorted())"])
        await onListening()

        try await withTaskCancellationOrGracefulShutdownHandler {
            try await listener.executeThenClose { connections in
                try await withThrowingDiscardingTaskGroup { group in
                    for try await connection in connections {
                        group.addTask { await serve(connection) }
                    }
                }
            }
        } onCancelOrGracefulShutdown: {
            // Ends the accept loop; each connection notices shutdown on its own (see `serve`).
            listener.channel.close(promise: nil)
        }
    }

    /// Serves one connection until the peer closes it, it breaks the framing, or shutdown.
    private func serve(_ connection: Connection) async {
        do {
            try await connection.executeThenClose { inbound, outbound in
                guard let peer = try await admit(connection.channel, outbound: outbound) else { return }
                var logger = logger
                logger[metadataKey: "alfred.broker.peer_uid"] = "\(peer.uid)"
                logger[metadataKey: "alfred.broker.peer_pid"] = "\(peer.pid)"
                try await serveRequests(from: inbound, to: outbound, peer: peer, logger: logger)
            }
        } catch {
            // The peer went away mid-write, or the channel failed: nothing left to answer.
            logger.debug("connection ended", metadata: ["alfred.broker.error": "\(type(of: error))"])
        }
    }

    /// The caller's credentials if its OS user is allowed; otherwise answers `denied` and returns nil.
    private func admit(
        _ channel: any Channel, outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) async throws -> PeerCredentials? {
        let peer: PeerCredentials
        do {
            peer = try await PeerCredentials.of(channel)
        } catch {
            logger.error("cannot read peer credentials; refusing connection")
            try await write(.failure(.denied("caller identity could not be verified")), id: nil, to: outbound)
            return nil
        }
        guard configuration.allowedUIDs.contains(peer.uid) || configuration.connectOnlyUIDs.contains(peer.uid) else {
            logger.warning(
                "refused connection from a user that is not allowed",
                metadata: ["alfred.broker.peer_uid": "\(peer.uid)", "alfred.broker.peer_pid": "\(peer.pid)"])
            try await write(.failure(.denied("OS user \(peer.uid) may not use the token broker")), id: nil, to: outbound)
            return nil
        }
        return peer
    }

    /// Reads frames and runs up to `maxConcurrentRequestsPerConnection` of them at once. A framing
    /// error ends the connection after the requests already read have been answered.
    private func serveRequests(
        from inbound: NIOAsyncChannelInboundStream<InboundFrame>,
        to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>,
        peer: PeerCredentials,
        logger: Logger
    ) async throws {
        var closingError: BrokerError?
        try await withThrowingTaskGroup(of: Void.self) { group in
            var inFlight = 0
            reading: for try await frame in inbound.cancelOnGracefulShutdown() {
                switch frame {
                case .payload(let payload):
                    if inFlight == configuration.maxConcurrentRequestsPerConnection {
                        try await group.next()
                        inFlight -= 1
                    }
                    inFlight += 1
                    group.addTask {
                        let (id, result) = await respond(to: payload, peer: peer, logger: logger)
                        try await write(result, id: id, to: outbound)
                    }
                case .tooLarge:
                    closingError = .frameTooLarge(limit: configuration.maxFrameSize)
                    break reading
                case .truncated:
                    closingError = .badRequest("connection closed in the middle of a frame")
                    break reading
                }
            }
            try await group.waitForAll()
        }
        if let closingError {
            logger.debug("closing connection after a framing error", metadata: ["alfred.broker.error": "\(closingError.code)"])
            try await write(.failure(closingError), id: nil, to: outbound)
        }
    }

    /// Decodes one request and runs it. Never throws: every failure becomes an error response.
    private func respond(
        to payload: ByteBuffer, peer: PeerCredentials, logger: Logger
    ) async -> (id: String?, result: Result<BrokerReply, BrokerError>) {
        let bytes = Data(payload.readableBytesView)
        let frame: BrokerRequestFrame
        do {
            frame = try JSONDecoder().decode(BrokerRequestFrame.self, from: bytes)
        } catch {
            let id = (try? JSONDecoder().decode(RequestIDProbe.self, from: bytes))?.id
            return (id, .failure(error as? BrokerError ?? .badRequest("frame is not a JSON object")))
        }

        var context = BrokerRequestContext(
            requestID: frame.id, operation: frame.request.operation, peer: peer, logger: logger)
        context.logger[metadataKey: "alfred.broker.request_id"] = "\(frame.id)"
        context.logger[metadataKey: "alfred.broker.op"] = "\(frame.request.operation.rawValue)"
        if !configuration.allowedUIDs.contains(peer.uid), !Self.connectOperations.contains(frame.request.operation) {
            logger.warning("refused an operation to a connect-only caller",
                           metadata: ["alfred.broker.peer_uid": "\(peer.uid)", "alfred.broker.op": "\(frame.request.operation.rawValue)"])
            return (frame.id, .failure(.denied("OS user \(peer.uid) may only connect and disconnect Google (exchange_code, revoke)")))
        }
        do {
            switch frame.request {
            case .accessToken(let connectorID, let force):
                return (frame.id, .success(.accessToken(
                    try await handler.accessToken(connectorID: connectorID, forceRefresh: force, context: context))))
            case .exchangeCode(let exchange):
                return (frame.id, .success(.connected(try await handler.exchangeCode(exchange, context: context))))
            case .revoke(let connectorID):
                try await handler.revoke(connectorID: connectorID, context: context)
                return (frame.id, .success(.empty))
            case .rewrap(let connectorID):
                return (frame.id, .success(.rewrapped(keyVersion: try await handler.rewrap(connectorID: connectorID, context: context))))
            case .apnsToken(let rejected):
                guard let minter = configuration.providerTokens else {
                    throw BrokerError(code: .notFound, message: "this broker has no APNs signing key (--apns-key-file)", retryable: false)
                }
                let token = try await minter.providerToken(rejected: rejected?.unsafeValue)
                return (frame.id, .success(.providerToken(jwt: Redacted(token.jwt), issuedAt: token.issuedAt)))
            case .ping:
                return (frame.id, .success(.empty))
            }
        } catch let error as BrokerError {
            return (frame.id, .failure(error))
        } catch {
            // Only the type: an unclassified error's description may quote a token or a response body.
            context.logger.error("request handler failed with an unclassified error", metadata: ["alfred.broker.error": "\(type(of: error))"])
            return (frame.id, .failure(.internal("the token broker failed while handling the request")))
        }
    }

    /// What a connect-only caller (the API) may ask for.
    static var connectOperations: Set<BrokerOperation> { [.exchangeCode, .revoke, .ping] }

    private func write(
        _ result: Result<BrokerReply, BrokerError>, id: String?, to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    ) async throws {
        let limit = configuration.maxFrameSize
        let response = BrokerResponseFrame(id: id, result: result)
        // An oversized answer (say, a huge scope list) would be refused by the client: say so instead.
        let oversized = BrokerResponseFrame(id: nil, result: .failure(.internal("the response exceeded the frame limit")))
        guard
            let frame = try FrameEncoder.frame(response, maxFrameSize: limit)
                ?? FrameEncoder.frame(oversized, maxFrameSize: limit)
        else { return }
        try await outbound.write(frame)
    }
}
