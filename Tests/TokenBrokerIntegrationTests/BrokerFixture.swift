import AlfredTestCluster
import AlfredCore
import Foundation
import NIOCore
import NIOPosix
import Synchronization
@testable import BrokerClient
import Attestation
import KeyServiceClient
import LocalIPC
import TokenBroker

/// Stands in for the token logic: answers from fixed rules so tests can reach every outcome.
///   "missing" -> not_found, "reconsent" -> needs_reconsent, "flaky" -> upstream_unavailable,
///   "boom" -> an unclassified error, "hang" -> waits for `gate` (when given), else a token.
struct FakeTokenLogic: BrokerRequestHandler {
    static let expiry = Date(timeIntervalSince1970: 1_900_000_000)

    /// Holds "hang" requests until opened.
    var gate: Gate?
    /// Opened when a "hang" request reaches the handler.
    var entered: Gate?
    let calls = CallLog()

    func accessToken(connectorID: String, forceRefresh: Bool, context: BrokerRequestContext) async throws -> BrokerAccessToken {
        calls.record("access_token \(connectorID) uid=\(context.peer.uid)")
        switch connectorID {
        case "missing": throw BrokerError.notFound("no such connector")
        case "reconsent": throw BrokerError.needsReconsent("the user must connect Google again")
        case "flaky": throw BrokerError.upstreamUnavailable("Google answered 503")
        case "boom": throw UnclassifiedFailure(detail: "refresh_token=1//secret")
        case "hang":
            entered?.open()
            await gate?.wait()
        default: break
        }
        return BrokerAccessToken(token: Redacted("token-for-\(connectorID)"), expiresAt: Self.expiry)
    }

    func exchangeCode(_ exchange: CodeExchange, context: BrokerRequestContext) async throws -> ConnectedConnector {
        calls.record("exchange_code \(exchange.userID) \(exchange.code.unsafeValue) \(exchange.codeVerifier.unsafeValue) \(exchange.redirectURI)")
        if exchange.code.unsafeValue == "used" { throw BrokerError.needsReconsent("code already used") }
        return ConnectedConnector(connectorID: "conn-of-\(exchange.userID)", scopes: ["calendar.readonly", "gmail.metadata"])
    }

    func revoke(connectorID: String, context: BrokerRequestContext) async throws {
        calls.record("revoke \(connectorID)")
        if connectorID == "missing" { throw BrokerError.notFound("no such connector") }
    }

    func rewrap(connectorID: String, context: BrokerRequestContext) async throws -> Int {
        calls.record("rewrap \(connectorID)")
        if connectorID == "missing" { throw BrokerError.notFound("no such connector") }
        return 2
    }
}

struct UnclassifiedFailure: Error { let detail: String }

final class CallLog: Sendable {
    private let entries = Mutex<[String]>([])
    func record(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}


struct TestFailure: Error, CustomStringConvertible { let description: String }

/// A fresh directory under /tmp (short, so socket paths stay under the 108-byte limit), removed afterwards.
func withTemporaryDirectory<T>(_ body: (String) async throws -> T) async throws -> T {
    var template = Array("/tmp/alfred-broker-XXXXXX".utf8CString)
    guard let created = mkdtemp(&template) else { throw TestFailure(description: "mkdtemp failed") }
    let directory = String(cString: created)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    return try await body(directory)
}

/// Runs a broker on `socketPath` for the duration of `body`, then stops it (by cancellation).
func withBroker<T>(
    at socketPath: String,
    handler: FakeTokenLogic = FakeTokenLogic(),
    configure: (inout BrokerServer<FakeTokenLogic>.Configuration) -> Void = { _ in },
    _ body: () async throws -> T
) async throws -> T {
    var configuration = BrokerServer<FakeTokenLogic>.Configuration(socketPath: socketPath)
    configure(&configuration)
    let (listening, signal) = AsyncStream.makeStream(of: Void.self)
    let server = BrokerServer(
        configuration: configuration, handler: handler, onListening: { signal.yield() })

    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
            defer { signal.finish() }
            try await server.run()
        }
        var iterator = listening.makeAsyncIterator()
        guard await iterator.next() != nil else {
            try await group.next()
            throw TestFailure(description: "broker stopped before listening")
        }
        defer { group.cancelAll() }
        return try await body()
    }
}

/// Fails with a clear error instead of hanging when `body` does not finish in time (a hang detector,
/// not a speed bound: keep it generous).
func withDeadline<T: Sendable>(
    _ limit: Duration = .seconds(60), _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T?.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: limit)
            return nil
        }
        defer { group.cancelAll() }
        guard let result = try await group.next()! else { throw TestFailure(description: "timed out after \(limit)") }
        return result
    }
}

/// What a raw peer saw: the whole response frames, decoded as plain JSON, and anything left over.
struct RawExchange {
    var responses: [[String: Any]]
    var leftoverBytes: Int
}

/// A peer that speaks bytes, not our client: writes `bytes`, optionally half-closes, and reads
/// until the broker closes the connection.
func rawExchange(socketPath: String, bytes: [UInt8], halfClose: Bool = true) async throws -> RawExchange {
    let received = try await withDeadline {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(unixDomainSocketPath: socketPath) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(
                        wrappingChannelSynchronously: channel,
                        configuration: .init(isOutboundHalfClosureEnabled: true))
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            // The broker may close before reading everything (oversized frame): a failed write is expected then.
            try? await outbound.write(ByteBuffer(bytes: bytes))
            if halfClose { outbound.finish() }
            var received = ByteBuffer()
            do {
                for try await chunk in inbound { received.writeImmutableBuffer(chunk) }
            } catch {
                // A reset after the broker closed with our bytes unread; what arrived before still counts.
            }
            return received
        }
    }
    return try parseFrames(received)
}

func parseFrames(_ buffer: ByteBuffer) throws -> RawExchange {
    var buffer = buffer
    var responses: [[String: Any]] = []
    while let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self),
        buffer.readableBytes >= 4 + Int(length)
    {
        buffer.moveReaderIndex(forwardBy: 4)
        let payload = Data(buffer.readBytes(length: Int(length))!)
        guard let object = try JSONSerialization.jsonObject(with: payload) as? [String: Any] else {
            throw TestFailure(description: "response is not a JSON object")
        }
        responses.append(object)
    }
    return RawExchange(responses: responses, leftoverBytes: buffer.readableBytes)
}

func frame(_ json: String) -> [UInt8] { frame(Array(json.utf8)) }

func frame(_ payload: [UInt8]) -> [UInt8] {
    let length = UInt32(payload.count)
    return [UInt8(length >> 24), UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff)] + payload
}

let knownErrorCodes: Set<String> = [
    "bad_request", "frame_too_large", "unsupported_version", "unknown_op", "not_found", "needs_reconsent",
    "upstream_unavailable", "denied", "internal",
]

/// Checks the envelope every response must have; returns a reason when it does not.
func envelopeProblem(_ response: [String: Any]) -> String? {
    guard response["v"] as? Int == 1 else { return "v is not 1" }
    guard response["id"] is String || response["id"] is NSNull else { return "id is neither a string nor null" }
    guard let ok = response["ok"] as? Bool else { return "ok is not a bool" }
    if ok { return nil }
    guard let error = response["error"] as? [String: Any],
        let code = error["code"] as? String, knownErrorCodes.contains(code),
        error["message"] is String, error["retryable"] is Bool
    else { return "malformed error object" }
    return nil
}

extension Dictionary where Key == String, Value == Any {
    var errorCode: String? { (self["error"] as? [String: Any])?["code"] as? String }
    var responseID: String? { self["id"] as? String }
}

/// A client for the duration of `body`, closed afterwards. Its calls may take 120 s (not the
/// production 10 s): how fast the broker answers is the benchmark's business, and a starved test
/// process must not fail on it; a test about timeouts passes its own.
func withClient<T>(
    socketPath: String, configure: (inout BrokerClient.Configuration) -> Void = { _ in },
    _ body: (BrokerClient) async throws -> T
) async throws -> T {
    var configuration = BrokerClient.Configuration(socketPath: socketPath)
    configuration.requestTimeout = .seconds(120)
    configure(&configuration)
    let client = BrokerClient(configuration: configuration)
    do {
        let result = try await body(client)
        await client.close()
        return result
    } catch {
        await client.close()
        throw error
    }
}

extension PeerCredentials {
    /// This test process, as an in-process caller of the handler.
    static var current: PeerCredentials { PeerCredentials(uid: UInt32(getuid()), gid: UInt32(getgid()), pid: getpid()) }
}
