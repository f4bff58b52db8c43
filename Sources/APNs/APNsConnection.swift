import Logging
import NIOCore
import NIOHPACK
import NIOHTTP2
import NIOSSL
import NIOTLS
import Synchronization

/// One request as it goes on an HTTP/2 stream: a POST to `path` with `headers` (besides the
/// pseudo-headers) and `body`.
struct APNsWireRequest: Sendable {
    var path: String
    var headers: HPACKHeaders
    var body: ByteBuffer
    /// When to stop waiting for the answer (and reset the stream).
    var deadline: NIODeadline
}

struct APNsWireResponse: Sendable {
    var status: Int
    var headers: HPACKHeaders
    var body: ByteBuffer
}

/// Why an exchange ended without an answer, in the terms that decide whether to send it again.
enum APNsTransportError: Error, Equatable {
    /// APNs did not process it: it never left this process, the stream was refused
    /// (REFUSED_STREAM), or it was above the last stream id of the server's GOAWAY. Safe to resend.
    case unprocessed(String)
    /// No connection: connecting, TLS or ALPN failed. Not sent.
    case notConnected(String)
    /// It may have reached APNs: the connection or the stream broke after it was written, or no
    /// answer came in time.
    case inDoubt(String)
}

/// One HTTP/2 connection to APNs, spoken in frames: a stream per request, no stream channels, no
/// HTTP/1 types. Requests from any thread go through an inbox that the connection's event loop
/// drains in one go, so a burst's requests share writes and flushes.
///
/// Everything below the inbox runs on `eventLoop`. The connection takes no new request once the
/// server sent GOAWAY, the connection closed, or its stream ids ran out (`isOpen`); streams above a
/// GOAWAY's last stream id fail `unprocessed`, so the pool sends them on another connection.
final class APNsConnection: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    /// Answers beyond this are cut (APNs's error bodies are a few dozen bytes).
    static let maxBodyBytes = 16 * 1024
    /// The connection window we keep open for answers.
    static let connectionWindow = 1 << 20
    /// Client stream ids are odd and below 2^31; a connection retires well before running out.
    static let lastUsableStreamID = HTTP2StreamID(Int32.max - 1024)

    private struct Pending {
        let request: APNsWireRequest
        let promise: EventLoopPromise<APNsWireResponse>
    }

    private struct Inbox {
        var items: [Pending] = []
        var drainScheduled = false
    }

    /// One stream's request and what has come back on it. Touched only on the connection's event loop.
    private final class Exchange: @unchecked Sendable {
        let promise: EventLoopPromise<APNsWireResponse>
        /// Its last frame was written to the socket: from here on a failure leaves it in doubt.
        var written = false
        var status: Int?
        var headers = HPACKHeaders()
        var body: ByteBuffer?
        init(promise: EventLoopPromise<APNsWireResponse>) { self.promise = promise }
    }

    private enum Phase {
        case connecting, active
        /// The server's GOAWAY: streams up to `lastStreamID` finish here, nothing new starts.
        case goingAway(lastStreamID: HTTP2StreamID)
        case closed(TransportFailure)
    }

    private enum TransportFailure {
        case notConnected(String), closed(String)
    }

    let eventLoop: any EventLoop
    private let authority: String
    private let logger: Logger
    private let open = Atomic<Bool>(true)
    private let inbox = Mutex(Inbox())
    private let closed: EventLoopPromise<Void>

    // Event-loop state.
    private var context: ChannelHandlerContext?
    private var phase = Phase.connecting
    private var waitingForConnection: [Pending] = []
    private var streams: [HTTP2StreamID: Exchange] = [:]
    /// Stream ids in the order they started, with their deadlines; finished ones are skipped.
    private var deadlines = CircularBuffer<(HTTP2StreamID, NIODeadline)>()
    private var nextStreamID = HTTP2StreamID(1)
    private var sweep: RepeatedTask?
    private var needsFlush = false
    private var closeReason: String?
    private var closeSignalled = false

    init(eventLoop: any EventLoop, authority: String, logger: Logger) {
        self.eventLoop = eventLoop
        self.authority = authority
        self.logger = logger
        closed = eventLoop.makePromise()
    }

    /// Whether it takes new requests (any thread).
    var isOpen: Bool { open.load(ordering: .relaxed) }

    /// Completes once the connection is closed (or never opened).
    var closeFuture: EventLoopFuture<Void> { closed.futureResult }

    func send(_ request: APNsWireRequest) async throws -> APNsWireResponse {
        let promise = eventLoop.makePromise(of: APNsWireResponse.self)
        let schedule = inbox.withLock { inbox -> Bool in
            inbox.items.append(Pending(request: request, promise: promise))
            defer { inbox.drainScheduled = true }
            return !inbox.drainScheduled
        }
        if schedule { eventLoop.execute { self.drainInbox() } }
        return try await promise.futureResult.get()
    }

    /// Closes the connection; what is in flight fails as it would on any close.
    func close() {
        eventLoop.execute {
            guard let context = self.context else {
                self.connectFailed("closed before it connected")
                return
            }
            self.closeReason = self.closeReason ?? "closed by this client"
            context.close(promise: nil)
        }
    }

    /// The bootstrap could not connect: everything waiting fails, not sent.
    func connectFailed(_ reason: String) {
        eventLoop.preconditionInEventLoop()
        if case .closed = phase { return }
        open.store(false, ordering: .relaxed)
        phase = .closed(.notConnected(reason))
        for pending in waitingForConnection { pending.promise.fail(APNsTransportError.notConnected(reason)) }
        waitingForConnection = []
        drainInbox()
        signalClosed()
    }

    private func signalClosed() {
        guard !closeSignalled else { return }
        closeSignalled = true
        closed.succeed()
    }

    // MARK: Sending

    private func drainInbox() {
        let items = inbox.withLock { inbox -> [Pending] in
            let items = inbox.items
            inbox.items.removeAll(keepingCapacity: true)
            inbox.drainScheduled = false
            return items
        }
        switch phase {
        case .connecting:
            waitingForConnection.append(contentsOf: items)
        case .active:
            for pending in items { start(pending) }
            flushIfNeeded()
        case .goingAway:
            for pending in items { pending.promise.fail(APNsTransportError.unprocessed("the connection is going away")) }
        case .closed(.notConnected(let reason)):
            for pending in items { pending.promise.fail(APNsTransportError.notConnected(reason)) }
        case .closed(.closed(let reason)):
            for pending in items { pending.promise.fail(APNsTransportError.unprocessed(reason)) }
        }
    }

    private func start(_ pending: Pending) {
        guard let context, nextStreamID <= Self.lastUsableStreamID else {
            retire()
            pending.promise.fail(APNsTransportError.unprocessed("the connection ran out of stream ids"))
            return
        }
        let streamID = nextStreamID
        nextStreamID = streamID.advanced(by: 2)
        var headers = HPACKHeaders()
        headers.reserveCapacity(pending.request.headers.count + 4)
        headers.add(name: ":method", value: "POST")
        headers.add(name: ":scheme", value: "https")
        headers.add(name: ":authority", value: authority)
        headers.add(name: ":path", value: pending.request.path)
        headers.add(contentsOf: pending.request.headers)

        let exchange = Exchange(promise: pending.promise)
        streams[streamID] = exchange
        deadlines.append((streamID, pending.request.deadline))
        context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: headers)))), promise: nil)
        let written = eventLoop.makePromise(of: Void.self)
        written.futureResult.whenComplete { result in
            switch result {
            case .success: exchange.written = true
            // Refused before it left: by the HTTP/2 state (a stream the server's GOAWAY closed) or
            // by a closing channel. The server cannot have a request whose end it never got.
            case .failure(let error): self.end(streamID, failing: "not written (\(Self.describe(error)))", unprocessed: true)
            }
        }
        let body = HTTP2Frame.FramePayload.Data(data: .byteBuffer(pending.request.body), endStream: true)
        context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .data(body))), promise: written)
        needsFlush = true
    }

    private func flushIfNeeded() {
        guard needsFlush, let context else { return }
        needsFlush = false
        context.flush()
    }

    /// Takes no new requests; closes once the last stream on it ends.
    private func retire() {
        open.store(false, ordering: .relaxed)
        if case .active = phase { phase = .goingAway(lastStreamID: .maxID) }
        closeIfIdle()
    }

    private func closeIfIdle() {
        guard case .goingAway = phase, streams.isEmpty, let context else { return }
        closeReason = closeReason ?? "went away"
        context.close(promise: nil)
    }

    // MARK: Answers

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { becameActive(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        becameActive(context: context)
        context.fireChannelActive()
    }

    private func becameActive(context: ChannelHandlerContext) {
        guard case .connecting = phase else {
            // Closed while it was connecting.
            if case .closed = phase { context.close(promise: nil) }
            return
        }
        phase = .active
        // Answers are small, but a burst's add up: keep the connection window wide open.
        let grow = Self.connectionWindow - 65_535
        context.write(wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: grow))), promise: nil)
        needsFlush = true
        let waiting = waitingForConnection
        waitingForConnection = []
        for pending in waiting { start(pending) }
        flushIfNeeded()
        sweep = context.eventLoop.scheduleRepeatedTask(initialDelay: .milliseconds(250), delay: .milliseconds(250)) { [self] _ in
            expireStreams()
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.payload {
        case .headers(let payload):
            guard let exchange = streams[frame.streamID] else { return }
            if exchange.status == nil, let status = payload.headers.first(name: ":status").flatMap(Int.init) {
                // 1xx answers are interim: the final one follows.
                if status >= 200 {
                    exchange.status = status
                    exchange.headers = payload.headers
                }
            }
            if payload.endStream { end(frame.streamID) }
        case .data(let payload):
            guard let exchange = streams[frame.streamID] else { return }
            if case .byteBuffer(var bytes) = payload.data, bytes.readableBytes > 0 {
                if exchange.body == nil { exchange.body = context.channel.allocator.buffer(capacity: bytes.readableBytes) }
                if exchange.body!.readableBytes + bytes.readableBytes <= Self.maxBodyBytes { exchange.body!.writeBuffer(&bytes) }
            }
            if payload.endStream { end(frame.streamID) }
        case .goAway(let lastStreamID, let code, _):
            goAway(lastStreamID: lastStreamID, code: code)
        default:
            break
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        flushIfNeeded()
        context.fireChannelReadComplete()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        case let closed as StreamClosedEvent:
            if streams[closed.streamID] != nil {
                if closed.reason == .refusedStream {
                    end(closed.streamID, failing: "REFUSED_STREAM", unprocessed: true)
                } else {
                    end(closed.streamID, failing: "stream closed (\(closed.reason.map { "\($0)" } ?? "no end"))")
                }
            }
        case let window as NIOHTTP2WindowUpdatedEvent where window.streamID == .rootStream:
            if let size = window.inboundWindowSize, size < Self.connectionWindow / 2 {
                let increment = Self.connectionWindow - size
                context.write(wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: increment))), promise: nil)
                needsFlush = true
            }
        case TLSUserEvent.handshakeCompleted(let negotiated) where negotiated != "h2":
            closeReason = "the server did not agree to HTTP/2 (ALPN \(negotiated ?? "none"))"
            context.close(promise: nil)
        default:
            break
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? NIOHTTP2Errors.StreamError {
            end(error.streamID, failing: "stream error (\(Self.describe(error.baseError)))")
            return
        }
        closeReason = closeReason ?? Self.describe(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        let reason = "connection closed (\(closeReason ?? "by the server"))"
        if case .closed = phase {} else { phase = .closed(.closed(reason)) }
        open.store(false, ordering: .relaxed)
        sweep?.cancel()
        let broken = streams
        streams = [:]
        for (_, exchange) in broken { Self.fail(exchange, unprocessed: !exchange.written, reason) }
        for pending in waitingForConnection { pending.promise.fail(APNsTransportError.unprocessed(reason)) }
        waitingForConnection = []
        if !broken.isEmpty {
            logger.notice("APNs connection closed with requests in flight", metadata: [
                "alfred.apns.reason": "\(closeReason ?? "closed by the server")", "alfred.apns.in_flight": "\(broken.count)",
            ])
        }
        drainInbox()
        signalClosed()
        context.fireChannelInactive()
    }

    private func goAway(lastStreamID: HTTP2StreamID, code: HTTP2ErrorCode) {
        open.store(false, ordering: .relaxed)
        switch phase {
        case .goingAway(let earlier) where earlier <= lastStreamID: break
        case .closed: break
        default: phase = .goingAway(lastStreamID: lastStreamID)
        }
        // The server says it did not and will not process these: they go to another connection.
        let unprocessed = streams.keys.filter { $0 > lastStreamID }
        for streamID in unprocessed { end(streamID, failing: "above the last stream id of the server's GOAWAY", unprocessed: true) }
        logger.notice("APNs sent GOAWAY", metadata: [
            "alfred.apns.code": "\(code)", "alfred.apns.unprocessed": "\(unprocessed.count)",
            "alfred.apns.in_flight": "\(streams.count)",
        ])
        closeIfIdle()
    }

    private func expireStreams() {
        let now = NIODeadline.now()
        var stalled = false
        while let (streamID, deadline) = deadlines.first, deadline <= now {
            deadlines.removeFirst()
            guard let exchange = streams[streamID] else { continue }
            // Not even written in all that time: the connection is stuck (a handshake that never
            // ends, a peer that stopped reading). It goes, and its requests go elsewhere.
            if !exchange.written {
                stalled = true
                open.store(false, ordering: .relaxed)  // before its caller hears, so it is not picked again
            }
            end(streamID, failing: "no answer in time")
            context?.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .rstStream(.cancel))), promise: nil)
            needsFlush = true
        }
        flushIfNeeded()
        if stalled, let context {
            closeReason = closeReason ?? "stalled: a request was not written before its deadline"
            context.close(promise: nil)
        }
    }

    // MARK: Ending a stream

    /// The answer is complete.
    private func end(_ streamID: HTTP2StreamID) {
        guard let exchange = streams.removeValue(forKey: streamID) else { return }
        if let status = exchange.status {
            exchange.promise.succeed(APNsWireResponse(status: status, headers: exchange.headers, body: exchange.body ?? ByteBuffer()))
        } else {
            exchange.promise.fail(APNsTransportError.inDoubt("an answer without a status"))
        }
        closeIfIdle()
    }

    /// Ended without its complete answer: not processed if APNs cannot have it (`unprocessed`, or its
    /// request never reached the socket), else in doubt.
    private func end(_ streamID: HTTP2StreamID, failing reason: String, unprocessed: Bool = false) {
        guard let exchange = streams.removeValue(forKey: streamID) else { return }
        Self.fail(exchange, unprocessed: unprocessed || !exchange.written, reason)
        closeIfIdle()
    }

    private static func fail(_ exchange: Exchange, unprocessed: Bool, _ reason: String) {
        // A 200 is final once its status arrived, whatever happens to the (empty) rest of it.
        if exchange.status == 200 {
            exchange.promise.succeed(APNsWireResponse(status: 200, headers: exchange.headers, body: ByteBuffer()))
        } else if unprocessed {
            exchange.promise.fail(APNsTransportError.unprocessed(reason))
        } else {
            exchange.promise.fail(APNsTransportError.inDoubt(reason))
        }
    }

    /// An error's type (and HTTP/2 code), never its values.
    static func describe(_ error: any Error) -> String {
        if let closed = error as? NIOHTTP2Errors.StreamClosed { return "StreamClosed(\(closed.errorCode))" }
        return "\(type(of: error))"
    }
}
