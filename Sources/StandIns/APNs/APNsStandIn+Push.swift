import Crypto
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP2

/// Hummingbird's request context plus the channel, which an injected reset closes.
package struct APNsRequestContext: RequestContext {
    package var coreContext: CoreRequestContextStorage
    let channel: any Channel

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// Sends `/_fake/…` to the control plane and everything else to the APNs emulation.
package struct APNsResponder: HTTPResponder {
    let standIn: APNsStandIn

    package func respond(to request: Request, context: APNsRequestContext) async throws -> Response {
        if request.uri.path.hasPrefix(APNsStandIn.controlPrefix) { return await standIn.control(request) }
        return try await standIn.push(request, channel: context.channel)
    }
}

extension APNsStandIn {
    /// Bodies beyond this are answered 413 without reading them fully.
    static let maxBodyBytes = 1 << 20

    /// One APNs request: checks in Apple's order (path/method, provider token, headers, payload,
    /// device, per-device limit, faults), then the answer, the record and one log line.
    func push(_ request: Request, channel: any Channel) async throws -> Response {
        let receivedAt = clock.now()
        // Real time by default: the client under test is what measures this latency.
        if configuration.latency > .zero { try await latencyClock.sleep(for: configuration.latency) }
        let apnsID = PushRequest.validAPNsID(request.headers[.apnsID]) ?? UUID().uuidString.lowercased()
        var request = request
        var deviceToken = ""
        var decision = APNsLedger.Decision(outcome: .accepted)
        // The whole request is read before any answer, as a server should: answering while the client
        // still sends its body ends the stream early, which HTTP/2 peers count against the connection.
        let body: Result<Data, APNsRejection>
        do throws(APNsRejection) { body = .success(try await Self.collectPayload(&request)) } catch { body = .failure(error) }
        do throws(APNsRejection) {
            deviceToken = try PushRequest.deviceToken(method: request.method, path: request.uri.path)
            let authorization = request.headers[.authorization]
            if let token = try? ProviderTokenCheck.bearerToken(authorization) {
                ledger.withLock { $0.notePresented(token: token) }
            }
            let token = try ProviderTokenCheck.verify(authorization: authorization, keys: configuration.providerKeys,
                                                      teamID: configuration.teamID, now: receivedAt, verified: verifiedTokens)
            let maxChanges = configuration.maxTokenChangesPer20Minutes
            try ledger.withLock { ledger throws(APNsRejection) in
                try ledger.admit(token: token, now: receivedAt, maxChanges: maxChanges)
            }
            let headers = try PushRequest.Headers(request.headers, appTopic: configuration.topic)
            let payload = try body.get()
            try PushRequest.checkPayload(payload, headers: headers)
            let delivery = APNsDelivery(
                deviceToken: deviceToken, apnsID: apnsID, pushType: headers.pushType, priority: headers.priority,
                expiration: headers.expiration, collapseID: headers.collapseID, topic: headers.topic,
                payload: payload, receivedAt: receivedAt)
            do {
                let stream = try await stream(of: channel, tracked: ledger.withLock { $0.tracksStreams })
                decision = ledger.withLock { $0.decide(delivery, stream: stream, configuration: configuration) }
            } catch {
                // Its stream or connection is gone (a GOAWAY dropped it): not processed, as a server
                // that no longer has the stream cannot answer it.
                decision = APNsLedger.Decision(outcome: .unprocessed)
            }
        } catch {
            decision = APNsLedger.Decision(outcome: .rejected(error))
        }
        if let delay = decision.delay, delay > .zero { try await latencyClock.sleep(for: delay) }

        let status: Int, reason: String?, response: Response
        switch decision.outcome {
        case .accepted:
            (status, reason) = (200, nil)
            response = endStreamLater(Self.answer(apnsID: apnsID))
        case .rejected(let rejection):
            (status, reason) = (rejection.status, rejection.reason)
            response = Self.answer(apnsID: apnsID, rejection: rejection)
        case .reset:
            (status, reason) = (0, nil)
            response = Response(status: .internalServerError)  // never reaches the client
        case .goAway(let lastStreamID, let accepted):
            try? await Self.goAway(Self.connection(of: channel), lastStreamID: lastStreamID)
            guard accepted else { return Response(status: .serviceUnavailable) }  // its stream is gone
            (status, reason) = (200, nil)
            response = Self.answer(apnsID: apnsID)
        case .unprocessed:
            return Response(status: .serviceUnavailable)  // its stream is gone
        }
        // Recorded before a reset closes anything: the client may look as soon as it sees the close.
        let record = APNsRequestRecord(deviceToken: deviceToken, status: status, reason: reason, apnsID: apnsID,
                                       receivedAt: receivedAt)
        ledger.withLock { $0.requests.append(record) }
        logger.debug("apns stand-in push", metadata: [
            "alfred.standin.status": "\(status)",
            "alfred.standin.reason": "\(reason ?? (status == 0 ? "reset" : "none"))",
            "alfred.standin.device": "\(Self.tokenHash(deviceToken))",
        ])
        if case .reset = decision.outcome {
            // Not awaited: TLS shutdown waits for the peer's close_notify, which only comes in once
            // this handler returns and reading resumes. The close is queued on the connection's
            // event loop ahead of any response write, so nothing is answered.
            Self.connection(of: channel).close(promise: nil)
        }
        return response
    }

    /// With `endStreamDelay`, the answer's END_STREAM goes out that much after its headers; a
    /// client that reset the stream meanwhile is counted (`abandonedAnswers`).
    private func endStreamLater(_ response: Response) -> Response {
        let delay = configuration.endStreamDelay
        guard delay > .zero else { return response }
        var response = response
        response.body = ResponseBody { [self] writer in
            try await latencyClock.sleep(for: delay)
            do { try await writer.finish(nil) } catch {
                ledger.withLock { $0.abandonedAnswers += 1 }
                throw error
            }
        }
        return response
    }

    /// A push's HTTP/2 stream, when streams are tracked (and the request came over HTTP/2). A
    /// connection's entry goes when it closes: its object id may name the next connection.
    private func stream(of channel: any Channel, tracked: Bool) async throws -> APNsLedger.APNsStream? {
        guard tracked, let connection = channel.parent, connection.parent != nil else { return nil }
        let id = try await channel.getOption(HTTP2StreamChannelOptions.streamID).get()
        guard channel.isActive, connection.isActive else { throw ChannelError.ioOnClosedChannel }
        let key = ObjectIdentifier(connection)
        let isNew = ledger.withLock { ledger -> Bool in
            guard ledger.connections[key] == nil else { return false }
            ledger.connections[key] = APNsLedger.ConnectionStreams()
            return true
        }
        if isNew {
            connection.closeFuture.whenComplete { _ in self.ledger.withLock { _ = $0.connections.removeValue(forKey: key) } }
        }
        return APNsLedger.APNsStream(connection: key, id: Int32(Int(id)))
    }

    /// GOAWAY as a server going away sends it: streams above `lastStreamID` are dropped unprocessed;
    /// the connection closes 2 s later.
    private static func goAway(_ connection: any Channel, lastStreamID: Int32) async throws {
        let frame = HTTP2Frame(streamID: .rootStream, payload: .goAway(lastStreamID: HTTP2StreamID(lastStreamID), errorCode: .noError, opaqueData: nil))
        try await connection.writeAndFlush(frame).get()
        connection.eventLoop.scheduleTask(in: .seconds(2)) { connection.close(promise: nil) }
    }

    /// The TCP connection a request came on. Over HTTP/2 the request's channel is a stream whose
    /// parent is the connection; over HTTP/1.1 it is the connection, whose parent is the listener.
    private static func connection(of channel: any Channel) -> any Channel {
        if let parent = channel.parent, parent.parent != nil { return parent }
        return channel
    }

    /// The body, or 413 `PayloadTooLarge` if it exceeds what we are willing to read.
    private static func collectPayload(_ request: inout Request) async throws(APNsRejection) -> Data {
        do {
            return Data(try await request.collectBody(upTo: maxBodyBytes).readableBytesView)
        } catch {
            throw APNsRejection(status: 413, reason: "PayloadTooLarge")
        }
    }

    /// Apple's answer: `apns-id` always; 200 with no body, or `{"reason": …}` (+ `timestamp`).
    static func answer(apnsID: String, rejection: APNsRejection? = nil) -> Response {
        var headers = HTTPFields()
        headers[.apnsID] = apnsID
        guard let rejection else { return Response(status: .ok, headers: headers) }
        headers[.contentType] = "application/json"
        if let seconds = rejection.retryAfterSeconds { headers[.retryAfter] = "\(seconds)" }
        let body = (try? JSONEncoder().encode(ErrorBody(reason: rejection.reason, timestamp: rejection.timestamp))) ?? Data()
        return Response(status: .init(code: rejection.status), headers: headers,
                        body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// `{"reason":"Unregistered","timestamp":1772441112000}`; `timestamp` only when set.
    private struct ErrorBody: Encodable {
        var reason: String
        var timestamp: Int64?
    }

    /// The first 8 hex digits of SHA-256(token): enough to tell devices apart in a log, no more.
    static func tokenHash(_ token: String) -> String {
        guard !token.isEmpty else { return "none" }
        return SHA256.hash(data: Data(token.utf8)).prefix(4).map { String(format: "%02x", $0) }.joined()
    }
}
