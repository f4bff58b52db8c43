import Attestation
import Foundation
import Synchronization
import LocalIPC
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The local attestor: plays the part of the Nitro security module for a broker on an ordinary
/// host. It alone holds the attestation authority's key. A process asks for evidence over a Unix
/// socket; the attestor takes the caller's pid and uid from the kernel (SO_PEERCRED), refuses users
/// that are not allowed, measures that pid's executable (`ProcessMeasurer`), and signs a
/// Nitro-format document binding the measurement, the caller's OS user (PCR3), the public key the
/// key service must encrypt to, and the key service's nonce.
///
/// One request per connection: the caller connects, sends one frame, reads one frame.
public struct AttestorServer: Service {
    public struct Configuration: Sendable {
        public var socketPath: String
        /// OS users whose processes may get evidence: the broker's.
        public var allowedUIDs: Set<UInt32>
        public var maxFrameSize = 16 * 1024
        /// The broker's group: the socket becomes 0660 and that group's. nil: any local user may
        /// connect (0666) and the uid check alone decides.
        public var socketGroup: UInt32?
        /// A caller has this long to send its request once connected; then the connection is closed.
        public var readTimeout: Duration = .seconds(5)
        /// At most this many connections are served at once (the rest are closed at accept), well
        /// under the process's open-file limit, so idle callers cannot starve the broker.
        public var maxConnections = 64

        public init(socketPath: String, allowedUIDs: Set<UInt32>) {
            self.socketPath = socketPath
            self.allowedUIDs = allowedUIDs
        }
    }

    private typealias Connection = FramedConnection

    private let configuration: Configuration
    private let authority: LocalAttestation.Authority
    private let measurer: ProcessMeasurer
    private let logger: Logger
    private let onListening: @Sendable () async -> Void
    private let inFlight = ConnectionCount()

    public init(configuration: Configuration, authority: LocalAttestation.Authority, measurer: ProcessMeasurer = ProcessMeasurer(),
                logger: Logger, onListening: @escaping @Sendable () async -> Void = {}) {
        self.configuration = configuration
        self.authority = authority
        self.measurer = measurer
        self.logger = logger
        self.onListening = onListening
    }

    public func run() async throws {
        // The broker runs as another user: it connects through the callers' group (or, without one,
        // as any local user); the peer-credential check on every connection decides who gets evidence.
        let listener: NIOAsyncChannel<Connection, Never>
        do {
            listener = try await FramedListener.bind(configuration.socketPath,
                                                     access: configuration.socketGroup.map { SocketAccess(group: $0) } ?? .anyLocalUser,
                                                     maxFrameSize: configuration.maxFrameSize,
                                                     backlog: 64)
        } catch let error as FramedListener.ModeError {
            throw AttestorError(.internal, error.description)
        }
        defer { unlink(configuration.socketPath) }
        logger.info("attestor listening", metadata: [
            "alfred.attestor.socket": "\(configuration.socketPath)", "alfred.attestor.allowed_uids": "\(configuration.allowedUIDs.sorted())",
        ])
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
            listener.channel.close(promise: nil)
        }
        logger.info("attestor stopped")
    }

    private func serve(_ connection: Connection) async {
        let channel = connection.channel
        // Decided at accept: a user that may not ask is answered at once, nothing is read from it,
        // and it holds no place under the cap (so it cannot crowd out the broker).
        let peer = try? await PeerCredentials.of(channel)
        guard let peer, configuration.allowedUIDs.contains(peer.uid) else {
            let error = peer.map { peer in
                logger.warning("refused evidence to a user that is not allowed", metadata: ["alfred.attestor.peer_uid": "\(peer.uid)"])
                return AttestorError(.denied, "OS user \(peer.uid) may not get attestation evidence")
            } ?? AttestorError(.denied, "the caller's identity could not be read")
            await reply(on: connection) { _ in AttestorResponse(error: error) }
            return
        }
        // Over the cap: closed at once, before anything is read or measured.
        guard let place = inFlight.enter(limit: configuration.maxConnections) else {
            logger.warning("connection refused: too many open connections", metadata: ["alfred.attestor.limit": "\(configuration.maxConnections)"])
            try? await channel.close()
            return
        }
        // The place is given back before the connection closes, however it ends, so a caller that
        // sees the close finds it free.
        defer { place.release() }
        // A request not sent in time closes the connection (and so ends the read below).
        let deadline = channel.eventLoop.scheduleTask(in: .nanoseconds(Int64(configuration.readTimeout.seconds * 1e9))) {
            place.release()
            channel.close(promise: nil)
        }
        defer { deadline.cancel() }
        // Who the caller is now, before its request: compared when it is answered.
        let pin = Result { () throws(AttestorError) in try measurer.pin(pid: peer.pid) }
        await reply(on: connection) { inbound in
            // The deadline is for sending the request: measuring and signing are not cut short.
            await answer(inbound, peer: peer, pin: pin, requestRead: { deadline.cancel() })
        } then: {
            place.release()
        }
    }

    /// Sends the one response `make` answers from the inbound frames, runs `then` once it is
    /// written, and closes.
    private func reply(on connection: Connection,
                       make: (NIOAsyncChannelInboundStream<InboundFrame>) async -> AttestorResponse,
                       then: () -> Void = {}) async {
        do {
            try await connection.executeThenClose { inbound, outbound in
                defer { then() }
                let response = await make(inbound)
                if let frame = try FrameEncoder.frame(response, maxFrameSize: AttestorServer.maxResponseSize) {
                    try await outbound.write(frame)
                }
            }
        } catch {
            logger.debug("connection ended", metadata: ["alfred.attestor.error": "\(type(of: error))"])
        }
    }

    static let maxResponseSize = 256 * 1024

    private func answer(_ inbound: NIOAsyncChannelInboundStream<InboundFrame>, peer: PeerCredentials,
                        pin: Result<ProcessMeasurer.Pin, AttestorError>, requestRead: () -> Void) async -> AttestorResponse {
        var logger = logger
        logger[metadataKey: "alfred.attestor.peer_uid"] = "\(peer.uid)"
        logger[metadataKey: "alfred.attestor.peer_pid"] = "\(peer.pid)"
        // The request is read before the rest is decided, so that even a refusal reaches a caller
        // still writing it (closing first would fail its write instead).
        var first: InboundFrame?
        do {
            for try await frame in inbound { first = frame; break }
        } catch {
            first = nil
        }
        requestRead()
        guard case .payload(let payload)? = first,
              let request = try? JSONDecoder().decode(AttestorRequest.self, from: Data(payload.readableBytesView))
        else { return AttestorResponse(error: AttestorError(.badRequest, "expected one attestor request frame")) }
        guard let publicKey = Data(base64Encoded: request.publicKey), let nonce = Data(base64Encoded: request.nonce),
              nonce.count <= 512, publicKey.count <= 1024
        else { return AttestorResponse(error: AttestorError(.badRequest, "public_key and nonce must be base64 (at most 1024 and 512 bytes)")) }
        let userData: Data?
        if let encoded = request.userData {
            guard let decoded = Data(base64Encoded: encoded), decoded.count <= 512 else {
                return AttestorResponse(error: AttestorError(.badRequest, "user_data must be base64 (at most 512 bytes)"))
            }
            userData = decoded
        } else {
            userData = nil
        }
        do {
            // Measuring reads and hashes the caller's whole executable (hundreds of MB for a test
            // binary; a FIFO in a test blocks it on purpose): blocking work that runs on NIO's thread
            // pool, never on the Swift concurrency threads, which the rest of the attestor (and, in
            // the test process, every other test) needs meanwhile.
            let (measurement, document) = try await NIOThreadPool.singleton.runIfActive { [measurer, authority] in
                // Still the process that connected, running what it ran then, untraced, no LD_*.
                try measurer.check(pid: peer.pid, against: try pin.get())
                let measurement = try measurer.measure(pid: peer.pid, uid: peer.uid)
                let document = try authority.attest(measurement: measurement, publicKey: Array(publicKey), nonce: Array(nonce),
                                                    userData: userData.map(Array.init), uid: peer.uid, pid: peer.pid)
                return (measurement, document)
            }
            logger.debug("evidence issued", metadata: ["alfred.attestor.pcr0_prefix": "\(AttestationVerifier.hex(measurement).prefix(16))"])
            return AttestorResponse(document: Data(document).base64EncodedString())
        } catch let error as AttestorError {
            logger.warning("no evidence", metadata: ["alfred.attestor.reason": "\(error.code.rawValue)"])
            return AttestorResponse(error: error)
        } catch {
            logger.error("signing failed", metadata: ["alfred.attestor.error": "\(type(of: error))"])
            return AttestorResponse(error: AttestorError(.internal, "the attestor could not sign the document"))
        }
    }
}

/// Connections being served now, against the cap.
final class ConnectionCount: Sendable {
    private let count = Mutex(0)

    /// A place under the cap, or nil when every place is taken.
    func enter(limit: Int) -> Place? {
        let entered = count.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
        return entered ? Place(self) : nil
    }

    fileprivate func leave() { count.withLock { $0 -= 1 } }

    var current: Int { count.withLock { $0 } }

    /// One taken place; released once, whichever path releases it first.
    final class Place: Sendable {
        private let owner: ConnectionCount
        private let released = Atomic(false)

        fileprivate init(_ owner: ConnectionCount) { self.owner = owner }

        func release() {
            if !released.exchange(true, ordering: .acquiringAndReleasing) { owner.leave() }
        }
    }
}
