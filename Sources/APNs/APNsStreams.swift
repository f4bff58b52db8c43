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

/// What came back on a stream: its final status, headers and (cut) body.
struct APNsAnswer<Headers> {
    var status: Int
    var headers: Headers
    var body: [UInt8]
}

extension APNsAnswer: Sendable where Headers: Sendable {}
extension APNsAnswer: Equatable where Headers: Equatable {}

/// The streams of one HTTP/2 connection to APNs, without I/O: events in, actions out.
///
/// This is where exactly-once delivery is decided for the transport: every request ends in exactly
/// one `answer` or `fail`, and a failure says whether APNs cannot have the push (`unprocessed`, resent
/// at once on another connection), never had a connection (`notConnected`), or may have it
/// (`inDoubt`, which delivery resends only under its collapse id). The rules:
/// - A request whose last frame never reached the socket is unprocessed, whatever ends it.
/// - REFUSED_STREAM, and any stream above the last stream id of the server's GOAWAY, is unprocessed.
/// - A written request that ends without its complete answer (reset, stream error, connection lost,
///   deadline) is in doubt, except that a `:status 200` is final as soon as it arrived.
/// - An answer is complete at END_STREAM; one without a final status is in doubt.
///
/// `APNsConnection` feeds it what NIO reports and carries out what it returns. Generic over the
/// request (the connection's promise), the answer's headers and the deadline's instant, so tests drive
/// it with plain values and no event loop.
struct APNsStreams<Request, Headers, Instant: Comparable> {
    typealias Response = APNsAnswer<Headers>

    enum Action {
        /// Open stream `streamID` with the request's HEADERS and DATA (END_STREAM); report
        /// `written(_:)` or `writeFailed(_:reason:)` once the last frame left or could not.
        case write(streamID: Int32, Request)
        case answer(Request, Response)
        case fail(Request, APNsTransportError)
        /// RST_STREAM (CANCEL): we stopped waiting for it.
        case reset(streamID: Int32)
        /// Close the connection; `closed(_:)` follows when it is gone.
        case closeConnection
    }

    enum Phase: Equatable, Sendable {
        case connecting, active
        /// The server's GOAWAY, or ours (out of stream ids): streams up to `lastStreamID` finish, nothing new starts.
        case goingAway(lastStreamID: Int32)
        case notConnected(String)
        case closed(String)
    }

    private struct Stream {
        let request: Request
        /// Its last frame reached the socket: from here on a failure leaves it in doubt.
        var written = false
        var status: Int?
        var headers: Headers?
        var body: [UInt8] = []
    }

    /// Answers beyond this are cut (APNs's error bodies are a few dozen bytes).
    static var maxBodyBytes: Int { 16 * 1024 }

    private(set) var phase = Phase.connecting
    /// Why we closed the connection, if we did (the reason callers get when it is gone).
    private(set) var closeReason: String?
    private var waiting: [(Request, Instant)] = []
    private var streams: [Int32: Stream] = [:]
    /// Stream ids in the order they started, with their deadlines; finished ones are skipped.
    private var deadlines: [(Int32, Instant)] = []
    private var deadlinesStart = 0
    private var nextStreamID: Int32 = 1
    private let lastUsableStreamID: Int32

    /// - Parameter lastUsableStreamID: client stream ids are odd and below 2^31; a connection retires
    ///   well before running out.
    init(lastUsableStreamID: Int32 = Int32.max - 1024) {
        self.lastUsableStreamID = lastUsableStreamID
    }

    /// Whether it takes new requests.
    var isOpen: Bool { if case .active = phase { true } else { phase == .connecting } }

    /// Streams started and not yet ended.
    var inFlight: Int { streams.count }

    // MARK: Events

    /// A caller's request, with the instant to stop waiting for its answer.
    mutating func submit(_ request: Request, deadline: Instant) -> [Action] {
        switch phase {
        case .connecting:
            waiting.append((request, deadline))
            return []
        case .active:
            var actions: [Action] = []
            start(request, deadline: deadline, into: &actions)
            return actions
        case .goingAway:
            return [.fail(request, .unprocessed("the connection is going away"))]
        case .notConnected(let reason):
            return [.fail(request, .notConnected(reason))]
        case .closed(let reason):
            return [.fail(request, .unprocessed(reason))]
        }
    }

    /// The connection is up (TLS and the HTTP/2 preface done): what waited starts.
    mutating func connected() -> [Action] {
        switch phase {
        case .connecting:
            phase = .active
            var actions: [Action] = []
            let waiting = self.waiting
            self.waiting = []
            for (request, deadline) in waiting { start(request, deadline: deadline, into: &actions) }
            return actions
        case .notConnected, .closed:
            // Closed while it was connecting.
            return [.closeConnection]
        case .active, .goingAway:
            return []
        }
    }

    /// The server chose a protocol other than HTTP/2.
    mutating func negotiated(_ protocolName: String?) -> [Action] {
        guard protocolName != "h2" else { return [] }
        closeReason = "the server did not agree to HTTP/2 (ALPN \(protocolName ?? "none"))"
        return [.closeConnection]
    }

    /// Connecting failed (TCP, TLS): everything waiting fails, not sent.
    mutating func connectFailed(_ reason: String) -> [Action] {
        switch phase {
        case .notConnected, .closed: return []
        default: break
        }
        phase = .notConnected(reason)
        let waiting = self.waiting
        self.waiting = []
        return waiting.map { .fail($0.0, .notConnected(reason)) }
    }

    /// We close it (the pool retires it, or shuts down); what is in flight fails as on any close.
    mutating func close(_ reason: String) -> [Action] {
        if phase == .connecting { return connectFailed("closed before it connected") + [.closeConnection] }
        closeReason = closeReason ?? reason
        return [.closeConnection]
    }

    /// A stream's last frame reached the socket.
    mutating func written(_ streamID: Int32) {
        streams[streamID]?.written = true
    }

    /// A stream's frames could not be written (the HTTP/2 state refused them, or the channel was
    /// closing): the server cannot have a request whose end it never got.
    mutating func writeFailed(_ streamID: Int32, reason: String) -> [Action] {
        end(streamID, failing: "not written (\(reason))", unprocessed: true)
    }

    /// A HEADERS frame on a stream. 1xx answers are interim: the final one follows.
    mutating func headers(_ streamID: Int32, status: Int?, _ headers: Headers, endStream: Bool) -> [Action] {
        guard var stream = streams[streamID] else { return [] }
        if stream.status == nil, let status, status >= 200 {
            stream.status = status
            stream.headers = headers
            streams[streamID] = stream
        }
        return endStream ? end(streamID) : []
    }

    /// A DATA frame on a stream.
    mutating func data(_ streamID: Int32, _ bytes: some Collection<UInt8>, endStream: Bool) -> [Action] {
        guard streams[streamID] != nil else { return [] }
        if !bytes.isEmpty, streams[streamID]!.body.count + bytes.count <= Self.maxBodyBytes {
            streams[streamID]!.body.append(contentsOf: bytes)
        }
        return endStream ? end(streamID) : []
    }

    /// The stream closed without its END_STREAM (RST_STREAM from the server, or the HTTP/2 layer).
    mutating func streamClosed(_ streamID: Int32, refused: Bool, reason: String) -> [Action] {
        refused ? end(streamID, failing: "REFUSED_STREAM", unprocessed: true) : end(streamID, failing: "stream closed (\(reason))")
    }

    /// The HTTP/2 layer found an error on one stream.
    mutating func streamError(_ streamID: Int32, reason: String) -> [Action] {
        end(streamID, failing: "stream error (\(reason))")
    }

    /// An error on the connection: it closes.
    mutating func connectionError(_ reason: String) -> [Action] {
        closeReason = closeReason ?? reason
        return [.closeConnection]
    }

    /// The server's GOAWAY: streams above `lastStreamID` were not and will not be processed.
    mutating func goAway(lastStreamID: Int32) -> [Action] {
        switch phase {
        case .goingAway(let earlier) where earlier <= lastStreamID: break
        case .notConnected, .closed: break
        default: phase = .goingAway(lastStreamID: lastStreamID)
        }
        var actions: [Action] = []
        for streamID in streams.keys.sorted() where streamID > lastStreamID {
            actions += end(streamID, failing: "above the last stream id of the server's GOAWAY", unprocessed: true, closeWhenIdle: false)
        }
        return actions + closeIfIdle()
    }

    /// Time passed: streams past their deadline end in doubt (or unprocessed if never written) and
    /// are reset. A stream not even written by then means the connection is stuck (a handshake that
    /// never ends, a peer that stopped reading): it closes, and takes no new request first.
    mutating func expire(now: Instant) -> [Action] {
        var actions: [Action] = []
        var stalled = false
        while deadlinesStart < deadlines.count, deadlines[deadlinesStart].1 <= now {
            let (streamID, _) = deadlines[deadlinesStart]
            deadlinesStart += 1
            guard let stream = streams[streamID] else { continue }
            if !stream.written {
                stalled = true
                if isOpen { phase = .goingAway(lastStreamID: nextStreamID - 2) }
            }
            actions += end(streamID, failing: "no answer in time", closeWhenIdle: false)
            actions.append(.reset(streamID: streamID))
        }
        compactDeadlines()
        if stalled {
            closeReason = closeReason ?? "stalled: a request was not written before its deadline"
            actions.append(.closeConnection)
        } else {
            actions += closeIfIdle()
        }
        return actions
    }

    /// The connection is gone: everything in flight or waiting fails, and nothing new starts.
    mutating func closed() -> [Action] {
        let reason = "connection closed (\(closeReason ?? "by the server"))"
        switch phase {
        case .notConnected, .closed: break
        default: phase = .closed(reason)
        }
        var actions: [Action] = []
        for streamID in streams.keys.sorted() {
            let stream = streams.removeValue(forKey: streamID)!
            actions.append(Self.failure(stream, unprocessed: !stream.written, reason))
        }
        for (request, _) in waiting { actions.append(.fail(request, .unprocessed(reason))) }
        waiting = []
        deadlines = []
        deadlinesStart = 0
        return actions
    }

    // MARK: Streams

    private mutating func start(_ request: Request, deadline: Instant, into actions: inout [Action]) {
        guard nextStreamID <= lastUsableStreamID else {
            if case .active = phase { phase = .goingAway(lastStreamID: nextStreamID - 2) }
            actions.append(.fail(request, .unprocessed("the connection ran out of stream ids")))
            actions += closeIfIdle()
            return
        }
        let streamID = nextStreamID
        nextStreamID += 2
        streams[streamID] = Stream(request: request)
        deadlines.append((streamID, deadline))
        actions.append(.write(streamID: streamID, request))
    }

    /// The answer is complete.
    private mutating func end(_ streamID: Int32) -> [Action] {
        guard let stream = streams.removeValue(forKey: streamID) else { return [] }
        let action: Action = if let status = stream.status, let headers = stream.headers {
            .answer(stream.request, Response(status: status, headers: headers, body: stream.body))
        } else {
            .fail(stream.request, .inDoubt("an answer without a status"))
        }
        return [action] + closeIfIdle()
    }

    /// Ended without its complete answer: unprocessed if APNs cannot have it (`unprocessed`, or its
    /// request never reached the socket), else in doubt.
    private mutating func end(_ streamID: Int32, failing reason: String, unprocessed: Bool = false,
                              closeWhenIdle: Bool = true) -> [Action] {
        guard let stream = streams.removeValue(forKey: streamID) else { return [] }
        let failure = Self.failure(stream, unprocessed: unprocessed || !stream.written, reason)
        return closeWhenIdle ? [failure] + closeIfIdle() : [failure]
    }

    private static func failure(_ stream: Stream, unprocessed: Bool, _ reason: String) -> Action {
        // A 200 is final once its status arrived, whatever happens to the (empty) rest of it.
        if stream.status == 200, let headers = stream.headers {
            return .answer(stream.request, Response(status: 200, headers: headers, body: []))
        }
        return .fail(stream.request, unprocessed ? .unprocessed(reason) : .inDoubt(reason))
    }

    /// Going away and nothing left in flight: close.
    private mutating func closeIfIdle() -> [Action] {
        guard case .goingAway = phase, streams.isEmpty else { return [] }
        closeReason = closeReason ?? "went away"
        return [.closeConnection]
    }

    private mutating func compactDeadlines() {
        // Drop what was consumed once it is most of the buffer, so it never grows past twice the in-flight count.
        if deadlinesStart > 64 && deadlinesStart * 2 > deadlines.count {
            deadlines.removeFirst(deadlinesStart)
            deadlinesStart = 0
        }
    }
}

extension APNsStreams.Action: Equatable where Request: Equatable, Headers: Equatable {}
