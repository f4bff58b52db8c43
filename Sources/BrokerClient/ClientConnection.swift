import LocalIPC
import Foundation
import NIOCore
import NIOPosix
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// One of `BrokerClient`'s connections: opened on first use, replaced after it drops.
final class ConnectionSlot: Sendable {
    private enum State {
        case idle
        case connecting(EventLoopFuture<ClientConnection>)
        case open(ClientConnection)
    }

    private enum Next {
        case use(ClientConnection)
        case wait(EventLoopFuture<ClientConnection>)
        case start(EventLoopPromise<ClientConnection>)
    }

    private let socketPath: String
    private let maxFrameSize: Int
    private let eventLoopGroup: any EventLoopGroup
    private let state = Mutex<State>(.idle)

    init(socketPath: String, maxFrameSize: Int, eventLoopGroup: any EventLoopGroup) {
        self.socketPath = socketPath
        self.maxFrameSize = maxFrameSize
        self.eventLoopGroup = eventLoopGroup
    }

    func exchange(id: String, frame: ByteBuffer) async throws -> BrokerResponseFrame {
        let connection = try await connection()
        do {
            return try await connection.exchange(id: id, frame: frame)
        } catch is ClientConnection.NotSent {
            // The connection was already dead (typically: the broker restarted since our last
            // call) and the request never left this process, so sending it again cannot run it twice.
            let fresh = try await self.connection()
            do {
                return try await fresh.exchange(id: id, frame: frame)
            } catch is ClientConnection.NotSent {
                throw BrokerError.unreachable(socketPath: socketPath, reason: "the connection closed before the request was sent")
            }
        }
    }

    func close() async {
        let current = state.withLock { state -> State in
            defer { state = .idle }
            return state
        }
        switch current {
        case .idle: break
        case .connecting(let future): future.whenSuccess { $0.channel.close(promise: nil) }
        case .open(let connection): try? await connection.channel.close()
        }
    }

    /// The open connection, the one being opened, or a new one.
    private func connection() async throws -> ClientConnection {
        let next = state.withLock { state -> Next in
            switch state {
            case .open(let connection) where connection.isOpen:
                return .use(connection)
            case .connecting(let future):
                return .wait(future)
            case .idle, .open:
                let promise = eventLoopGroup.any().makePromise(of: ClientConnection.self)
                state = .connecting(promise.futureResult)
                return .start(promise)
            }
        }
        switch next {
        case .use(let connection):
            return connection
        case .wait(let future):
            return try await future.get()
        case .start(let promise):
            // Connect outside the lock; every concurrent caller waits on this one attempt.
            let attempt = promise.futureResult
            attempt.whenComplete { result in self.connectFinished(result, attempt: attempt) }
            promise.completeWith(
                ClientConnection.connect(socketPath: socketPath, maxFrameSize: maxFrameSize, group: eventLoopGroup))
            return try await attempt.get()
        }
    }

    private func connectFinished(_ result: Result<ClientConnection, any Error>, attempt: EventLoopFuture<ClientConnection>) {
        state.withLock { state in
            guard case .connecting(let current) = state, current === attempt else { return }
            switch result {
            case .success(let connection): state = .open(connection)
            case .failure: state = .idle  // the next call tries again
            }
        }
        if case .success(let connection) = result {
            connection.channel.closeFuture.whenComplete { _ in self.connectionClosed(connection) }
        }
    }

    private func connectionClosed(_ connection: ClientConnection) {
        state.withLock { state in
            if case .open(let current) = state, current === connection { state = .idle }
        }
    }
}

/// A connection to the broker and the requests waiting on it.
final class ClientConnection: Sendable {
    /// The connection was gone before the request was written.
    struct NotSent: Error {}

    let channel: any Channel
    private let pending: PendingRequests

    private init(channel: any Channel, pending: PendingRequests) {
        self.channel = channel
        self.pending = pending
    }

    var isOpen: Bool { pending.isOpen }

    static func connect(
        socketPath: String, maxFrameSize: Int, group: any EventLoopGroup
    ) -> EventLoopFuture<ClientConnection> {
        let pending = PendingRequests(socketPath: socketPath)
        return ClientBootstrap(group: group)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(FrameDecoder(maxFrameSize: maxFrameSize)))
                    try channel.pipeline.syncOperations.addHandler(
                        ResponseRouter(pending: pending, maxFrameSize: maxFrameSize))
                }
            }
            .connect(unixDomainSocketPath: socketPath)
            .map { ClientConnection(channel: $0, pending: pending) }
            .flatMapErrorThrowing { error in
                throw BrokerError.unreachable(socketPath: socketPath, reason: Self.describe(error))
            }
    }

    func exchange(id: String, frame: ByteBuffer) async throws -> BrokerResponseFrame {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                if let refusal = pending.register(id, continuation) {
                    continuation.resume(throwing: refusal)
                    return
                }
                // Cancellation that arrived before registering found nothing to cancel; the flag is
                // already set by then, so checking it here closes that gap.
                if Task.isCancelled {
                    pending.fail(id, with: CancellationError())
                    return
                }
                channel.writeAndFlush(frame).whenComplete { [pending, channel] result in
                    switch result {
                    case .success:
                        pending.markSent(id)
                    case .failure:
                        // This request never left; the others on the connection may have, and
                        // the connection is unusable either way.
                        pending.fail(id, with: NotSent())
                        pending.close(reason: nil)
                        channel.close(promise: nil)
                    }
                }
            }
        } onCancel: {
            pending.fail(id, with: CancellationError())
        }
    }

    /// errno text for socket errors ("No such file or directory", "Connection refused").
    private static func describe(_ error: any Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        return "\(error)"
    }
}

/// The callers waiting for answers on one connection, by request id.
final class PendingRequests: Sendable {
    private struct Waiter {
        let continuation: CheckedContinuation<BrokerResponseFrame, any Error>
        /// Whether the request was written: decides whether a dropped connection may have run it.
        var sent = false
    }

    private enum Ending {
        /// The connection dropped without the broker saying why.
        case dropped
        /// The broker said why before closing (`denied`, a protocol violation).
        case refused(BrokerError)
    }

    private struct State {
        var waiters: [String: Waiter] = [:]
        var ending: Ending?
    }

    private let socketPath: String
    private let state = Mutex(State())

    init(socketPath: String) {
        self.socketPath = socketPath
    }

    var isOpen: Bool { state.withLock { $0.ending == nil } }

    /// Returns the error to fail with instead of waiting, if any.
    func register(_ id: String, _ continuation: CheckedContinuation<BrokerResponseFrame, any Error>) -> (any Error)? {
        state.withLock { state in
            switch state.ending {
            case .dropped: return ClientConnection.NotSent()
            case .refused(let error): return error
            case nil:
                state.waiters[id] = Waiter(continuation: continuation)
                return nil
            }
        }
    }

    func markSent(_ id: String) {
        state.withLock { $0.waiters[id]?.sent = true }
    }

    func resolve(_ response: BrokerResponseFrame, id: String) {
        // An unknown id is an answer to a caller that already timed out or was cancelled.
        take(id)?.resume(returning: response)
    }

    func fail(_ id: String, with error: any Error) {
        take(id)?.resume(throwing: error)
    }

    /// Fails every waiter. `reason` is the broker's own error when it sent one before closing.
    func close(reason: BrokerError?) {
        let waiters = state.withLock { state -> [Waiter] in
            if state.ending == nil { state.ending = reason.map(Ending.refused) ?? .dropped }
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters {
            if let reason {
                waiter.continuation.resume(throwing: reason)
            } else if waiter.sent {
                waiter.continuation.resume(
                    throwing: BrokerError.unreachable(
                        socketPath: socketPath,
                        reason: "the connection closed before the broker answered; the request may or may not have run"))
            } else {
                waiter.continuation.resume(throwing: ClientConnection.NotSent())
            }
        }
    }

    private func take(_ id: String) -> CheckedContinuation<BrokerResponseFrame, any Error>? {
        state.withLock { $0.waiters.removeValue(forKey: id)?.continuation }
    }
}

/// Routes decoded response frames to their waiting callers.
private final class ResponseRouter: ChannelInboundHandler {
    typealias InboundIn = InboundFrame

    private let pending: PendingRequests
    private let maxFrameSize: Int

    init(pending: PendingRequests, maxFrameSize: Int) {
        self.pending = pending
        self.maxFrameSize = maxFrameSize
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .payload(let payload):
            guard let response = try? JSONDecoder().decode(BrokerResponseFrame.self, from: Data(payload.readableBytesView))
            else {
                pending.close(reason: .internal("the token broker sent a malformed response"))
                context.close(promise: nil)
                return
            }
            if let id = response.id {
                pending.resolve(response, id: id)
            } else if case .failure(let error) = response.result {
                // No id: the broker refused the whole connection (say, `denied`) and is closing it.
                pending.close(reason: error)
            }
        case .tooLarge:
            pending.close(reason: .internal("the token broker sent a frame over the \(maxFrameSize)-byte limit"))
            context.close(promise: nil)
        case .truncated:
            break  // channelInactive follows and fails what is still waiting
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        pending.close(reason: nil)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        pending.close(reason: nil)
        context.close(promise: nil)
    }
}
