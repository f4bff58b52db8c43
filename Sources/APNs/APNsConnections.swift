import Foundation
import Logging
import NIOCore
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// The HTTP/2 connections to APNs: a few per host, opened when first needed, replaced when they
/// close or go away. A request the server did not process (refused, or above a GOAWAY's last
/// stream id) is sent again on another connection, up to `maxUnprocessedResends` times.
final class APNsConnections: Sendable {
    struct Origin: Hashable, Sendable {
        var host: String
        var port: Int

        /// `https://host[:port]`.
        init(url: String) throws {
            guard let components = URLComponents(string: url), components.scheme == "https", let host = components.host,
                  !host.isEmpty else {
                throw APNsClientError.network("APNs URL \(url) is not https://host[:port]")
            }
            self.host = host
            port = components.port ?? 443
        }

        var authority: String { port == 443 ? host : "\(host):\(port)" }
        /// SNI takes names only; an IP address is checked against the certificate's IP entries.
        var serverName: String? { (try? SocketAddress(ipAddress: host, port: port)) == nil ? host : nil }
    }

    static let maxUnprocessedResends = 2

    private struct State {
        var connections: [Origin: [APNsConnection]] = [:]
        var turn = 0
        var shutDown = false
    }

    private let state = Mutex(State())
    private let group: any EventLoopGroup
    private let tls: NIOSSLContext
    private let perOrigin: Int
    private let connectTimeout: TimeAmount
    private let logger: Logger

    init(configuration: APNsConfiguration, logger: Logger, group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) throws {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.applicationProtocols = ["h2"]
        let extra = try configuration.extraTrustRootsPEM.flatMap { try NIOSSLCertificate.fromPEMBytes(Array($0.utf8)) }
        if !extra.isEmpty { tls.additionalTrustRoots = [.certificates(extra)] }
        self.tls = try NIOSSLContext(configuration: tls)
        self.group = group
        perOrigin = max(1, configuration.connectionsPerHost)
        connectTimeout = .nanoseconds(Int64(configuration.timeout.seconds * 1e9))
        self.logger = logger
    }

    func send(_ request: APNsWireRequest, to origin: Origin) async throws -> APNsWireResponse {
        var resends = 0
        while true {
            do {
                return try await connection(to: origin).send(request)
            } catch APNsTransportError.unprocessed(let reason) where resends < Self.maxUnprocessedResends && request.deadline > .now() {
                // Past its deadline it goes back to the caller as not sent, whose retry policy decides.
                resends += 1
                logger.debug("resending a push APNs did not process", metadata: ["alfred.apns.reason": "\(reason)"])
            }
        }
    }

    /// Closes every connection and takes no more requests.
    func shutdown() async {
        let all = state.withLock { state -> [APNsConnection] in
            state.shutDown = true
            defer { state.connections = [:] }
            return state.connections.values.flatMap { $0 }
        }
        for connection in all { connection.close() }
        for connection in all { try? await connection.closeFuture.get() }
    }

    /// Open connections to `origin` (tests).
    func openConnections(to origin: Origin) -> Int {
        state.withLock { $0.connections[origin, default: []].filter(\.isOpen).count }
    }

    /// The next connection to `origin` in turn; a closed one in its place is replaced.
    private func connection(to origin: Origin) throws -> APNsConnection {
        try state.withLock { state in
            guard !state.shutDown else { throw APNsTransportError.notConnected("the APNs client is shut down") }
            state.turn &+= 1
            // The common case touches nothing: all there, and the one whose turn it is open.
            if let connections = state.connections[origin], connections.count == perOrigin {
                let next = connections[state.turn % perOrigin]
                if next.isOpen { return next }
            }
            var connections = state.connections[origin, default: []].filter(\.isOpen)
            let connection = connections.count < perOrigin ? open(origin) : connections[state.turn % connections.count]
            if connections.count < perOrigin { connections.append(connection) }
            state.connections[origin] = connections
            return connection
        }
    }

    private func open(_ origin: Origin) -> APNsConnection {
        let eventLoop = group.next()
        let connection = APNsConnection(eventLoop: eventLoop, authority: origin.authority, logger: logger)
        let tls = tls
        ClientBootstrap(group: eventLoop)
            .connectTimeout(connectTimeout)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(NIOSSLClientHandler(context: tls, serverHostname: origin.serverName))
                    try pipeline.addHandler(NIOHTTP2Handler(mode: .client))
                    try pipeline.addHandler(connection)
                }
            }
            .connect(host: origin.host, port: origin.port)
            .whenFailure { error in
                connection.connectFailed("could not connect (\(APNsConnection.describe(error)))")
            }
        return connection
    }
}
