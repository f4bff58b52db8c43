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

typealias APNsWireResponse = APNsAnswer<HPACKHeaders>

/// One HTTP/2 connection to APNs, spoken in frames: a stream per request, no stream channels, no
/// HTTP/1 types. Requests from any thread go through an inbox that the connection's event loop
/// drains in one go, so a burst's requests share writes and flushes.
///
/// What each stream's end means (answered, unprocessed, in doubt) is decided by `APNsStreams`, a
/// value with no I/O; this handler only translates NIO's events for it and carries out its actions.
/// Everything below the inbox runs on `eventLoop`.
final class APNsConnection: ChannelInboundHandler, @unchecked Sendable {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame
    typealias Streams = APNsStreams<Pending, HPACKHeaders, NIODeadline>

    /// The connection window we keep open for answers.
    static let connectionWindow = 1 << 20

    struct Pending: Sendable {
        let request: APNsWireRequest
        let promise: EventLoopPromise<APNsWireResponse>
    }

    private struct Inbox {
        var items: [Pending] = []
        var drainScheduled = false
    }

    let eventLoop: any EventLoop
    private let authority: String
    private let logger: Logger
    private let open = Atomic<Bool>(true)
    private let inbox = Mutex(Inbox())
    private let closed: EventLoopPromise<Void>

    // Event-loop state.
    private var streams: Streams
    private var context: ChannelHandlerContext?
    private var sweep: RepeatedTask?
    private var needsFlush = false
    private var closeSignalled = false

    init(eventLoop: any EventLoop, authority: String, logger: Logger, lastUsableStreamID: Int32 = Int32.max - 1024) {
        self.eventLoop = eventLoop
        self.authority = authority
        self.logger = logger
        streams = Streams(lastUsableStreamID: lastUsableStreamID)
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
            self.apply(self.streams.close("closed by this client"))
            if self.context == nil { self.signalClosed() }
        }
    }

    /// The bootstrap could not connect: everything waiting fails, not sent.
    func connectFailed(_ reason: String) {
        eventLoop.preconditionInEventLoop()
        apply(streams.connectFailed(reason))
        drainInbox()
        signalClosed()
    }

    private func signalClosed() {
        guard !closeSignalled else { return }
        closeSignalled = true
        closed.succeed()
    }

    // MARK: Carrying out the streams' actions

    private func drainInbox() {
        let items = inbox.withLock { inbox -> [Pending] in
            let items = inbox.items
            inbox.items.removeAll(keepingCapacity: true)
            inbox.drainScheduled = false
            return items
        }
        for pending in items { apply(streams.submit(pending, deadline: pending.request.deadline)) }
        flushIfNeeded()
    }

    /// Publishes whether new requests are taken before any caller hears of a failure (so a failed
    /// request is not sent again on this connection), then does what the streams asked.
    private func apply(_ actions: [Streams.Action]) {
        open.store(streams.isOpen, ordering: .relaxed)
        for action in actions {
            switch action {
            case .write(let streamID, let pending):
                write(pending.request, on: HTTP2StreamID(streamID))
            case .answer(let pending, let response):
                pending.promise.succeed(response)
            case .fail(let pending, let error):
                pending.promise.fail(error)
            case .reset(let streamID):
                context?.write(wrapOutboundOut(HTTP2Frame(streamID: HTTP2StreamID(streamID), payload: .rstStream(.cancel))), promise: nil)
                needsFlush = true
            case .closeConnection:
                context?.close(promise: nil)
            }
        }
    }

    private func write(_ request: APNsWireRequest, on streamID: HTTP2StreamID) {
        guard let context else { return }
        var headers = HPACKHeaders()
        headers.reserveCapacity(request.headers.count + 4)
        headers.add(name: ":method", value: "POST")
        headers.add(name: ":scheme", value: "https")
        headers.add(name: ":authority", value: authority)
        headers.add(name: ":path", value: request.path)
        headers.add(contentsOf: request.headers)
        context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .headers(.init(headers: headers)))), promise: nil)
        let written = eventLoop.makePromise(of: Void.self)
        written.futureResult.whenComplete { result in
            switch result {
            case .success: self.streams.written(Int32(streamID))
            case .failure(let error): self.apply(self.streams.writeFailed(Int32(streamID), reason: Self.describe(error)))
            }
        }
        let body = HTTP2Frame.FramePayload.Data(data: .byteBuffer(request.body), endStream: true)
        context.write(wrapOutboundOut(HTTP2Frame(streamID: streamID, payload: .data(body))), promise: written)
        needsFlush = true
    }

    private func flushIfNeeded() {
        guard needsFlush, let context else { return }
        needsFlush = false
        context.flush()
    }

    // MARK: NIO's events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { becameActive(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        becameActive(context: context)
        context.fireChannelActive()
    }

    private func becameActive(context: ChannelHandlerContext) {
        let wasConnecting = streams.phase == .connecting
        let actions = streams.connected()
        if wasConnecting {
            // Answers are small, but a burst's add up: keep the connection window wide open.
            let grow = Self.connectionWindow - 65_535
            context.write(wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: grow))), promise: nil)
            needsFlush = true
            sweep = context.eventLoop.scheduleRepeatedTask(initialDelay: .milliseconds(250), delay: .milliseconds(250)) { [self] _ in
                apply(streams.expire(now: .now()))
                flushIfNeeded()
            }
        }
        apply(actions)
        flushIfNeeded()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        let streamID = Int32(frame.streamID)
        switch frame.payload {
        case .headers(let payload):
            let status = payload.headers.first(name: ":status").flatMap(Int.init)
            apply(streams.headers(streamID, status: status, payload.headers, endStream: payload.endStream))
        case .data(let payload):
            if case .byteBuffer(let bytes) = payload.data {
                apply(streams.data(streamID, bytes.readableBytesView, endStream: payload.endStream))
            } else if payload.endStream {
                apply(streams.data(streamID, EmptyCollection(), endStream: true))
            }
        case .goAway(let lastStreamID, let code, _):
            let inFlight = streams.inFlight
            let actions = streams.goAway(lastStreamID: Int32(lastStreamID))
            let unprocessed = actions.count { if case .fail(_, .unprocessed) = $0 { true } else { false } }
            logger.notice("APNs sent GOAWAY", metadata: [
                "alfred.apns.code": "\(code)", "alfred.apns.unprocessed": "\(unprocessed)",
                "alfred.apns.in_flight": "\(inFlight - unprocessed)",
            ])
            apply(actions)
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
            apply(streams.streamClosed(Int32(closed.streamID), refused: closed.reason == .refusedStream,
                                       reason: closed.reason.map { "\($0)" } ?? "no end"))
        case let window as NIOHTTP2WindowUpdatedEvent where window.streamID == .rootStream:
            if let size = window.inboundWindowSize, size < Self.connectionWindow / 2 {
                let increment = Self.connectionWindow - size
                context.write(wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: increment))), promise: nil)
                needsFlush = true
            }
        case TLSUserEvent.handshakeCompleted(let negotiated):
            apply(streams.negotiated(negotiated))
        default:
            break
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let error = error as? NIOHTTP2Errors.StreamError {
            apply(streams.streamError(Int32(error.streamID), reason: Self.describe(error.baseError)))
        } else {
            apply(streams.connectionError(Self.describe(error)))
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        sweep?.cancel()
        let inFlight = streams.inFlight
        let reason = streams.closeReason ?? "closed by the server"
        apply(streams.closed())
        if inFlight > 0 {
            logger.notice("APNs connection closed with requests in flight", metadata: [
                "alfred.apns.reason": "\(reason)", "alfred.apns.in_flight": "\(inFlight)",
            ])
        }
        drainInbox()
        signalClosed()
        context.fireChannelInactive()
    }

    /// An error's type (and HTTP/2 code), never its values.
    static func describe(_ error: any Error) -> String {
        if let closed = error as? NIOHTTP2Errors.StreamClosed { return "StreamClosed(\(closed.errorCode))" }
        return "\(type(of: error))"
    }
}
