import LocalIPC
import AlfredCore

import NIOCore
import NIOPosix
import Synchronization

/// A worker's handle on the token broker's socket.
///
/// Many tasks may call it at once: requests are spread over a few connections, pipelined, and
/// matched to responses by id. A connection is opened on first use and opened again after it
/// drops, so a restarted broker is picked up by the next call. When the broker cannot be reached
/// calls fail with the retryable `BrokerError.Code.brokerUnavailable`, naming the socket path.
public final class BrokerClient: Sendable {
    public struct Configuration: Sendable {
        public var socketPath: String
        /// Connections kept open to the broker; requests are spread over them round-robin.
        public var connectionCount: Int = 2
        /// Default limit for one call, from sending to the answer; calls may pass their own.
        public var requestTimeout: Duration = .seconds(10)
        /// Largest frame payload sent or accepted, in bytes. Keep it equal to the broker's.
        public var maxFrameSize: Int = 64 * 1024

        public init(socketPath: String) {
            self.socketPath = socketPath
        }
    }

    private let configuration: Configuration
    private let clock: any Clock<Duration>
    private let slots: [ConnectionSlot]
    private let counters = Mutex<(request: UInt64, slot: Int)>((0, 0))

    /// - Parameter clock: measures request timeouts; tests may pass a manual clock.
    public init(
        configuration: Configuration,
        eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.configuration = configuration
        self.clock = clock
        self.slots = (0..<max(1, configuration.connectionCount)).map { _ in
            ConnectionSlot(
                socketPath: configuration.socketPath, maxFrameSize: configuration.maxFrameSize,
                eventLoopGroup: eventLoopGroup)
        }
    }

    public func accessToken(connectorID: String, forceRefresh: Bool = false,
                            timeout: Duration? = nil) async throws -> BrokerAccessToken {
        guard case .accessToken(let token) = try await send(
            .accessToken(connectorID: connectorID, forceRefresh: forceRefresh), timeout: timeout)
        else { throw Self.unexpectedReply }
        return token
    }

    public func exchangeCode(_ exchange: CodeExchange, timeout: Duration? = nil) async throws -> ConnectedConnector {
        guard case .connected(let connector) = try await send(.exchangeCode(exchange), timeout: timeout)
        else { throw Self.unexpectedReply }
        return connector
    }

    public func revoke(connectorID: String, timeout: Duration? = nil) async throws {
        _ = try await send(.revoke(connectorID: connectorID), timeout: timeout)
    }

    /// Moves the connector's data key to the active key version; returns that version.
    public func rewrap(connectorID: String, timeout: Duration? = nil) async throws -> Int {
        guard case .rewrapped(let version) = try await send(.rewrap(connectorID: connectorID), timeout: timeout)
        else { throw Self.unexpectedReply }
        return version
    }

    /// The shared APNs provider token; `rejected` is the one APNs refused as expired, if any.
    public func apnsProviderToken(rejected: String? = nil, timeout: Duration? = nil) async throws -> ProviderToken {
        guard case .providerToken(let jwt, let issuedAt) = try await send(.apnsToken(rejected: rejected.map(Redacted.init)), timeout: timeout)
        else { throw Self.unexpectedReply }
        return ProviderToken(jwt: jwt.unsafeValue, issuedAt: issuedAt)
    }

    /// Succeeds when the broker is up and admits this process's OS user.
    public func ping(timeout: Duration? = nil) async throws {
        _ = try await send(.ping, timeout: timeout)
    }

    /// Sends one request and waits for its answer. Throws `BrokerError` (the broker's, or
    /// `brokerUnavailable` / `timeout`), or `CancellationError` when the calling task is cancelled.
    public func send(_ request: BrokerRequest, timeout: Duration? = nil) async throws -> BrokerReply {
        let (id, slot) = counters.withLock { counters in
            counters.request &+= 1
            counters.slot = (counters.slot + 1) % slots.count
            return ("r\(counters.request)", slots[counters.slot])
        }
        guard
            let frame = try FrameEncoder.frame(
                BrokerRequestFrame(id: id, request: request), maxFrameSize: configuration.maxFrameSize)
        else { throw BrokerError.frameTooLarge(limit: configuration.maxFrameSize) }

        let limit = timeout ?? configuration.requestTimeout
        let clock = clock
        // Whichever finishes first decides; a late answer is dropped.
        guard let response = try await withDeadline(limit, clock: clock, { try await slot.exchange(id: id, frame: frame) }) else {
            throw BrokerError.timedOut(after: limit)
        }
        return try response.result.get()
    }

    /// Closes the connections. Calls made afterwards open new ones.
    public func close() async {
        for slot in slots { await slot.close() }
    }

    private static let unexpectedReply = BrokerError.internal("the token broker answered with an unexpected reply shape")
}
