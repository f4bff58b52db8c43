import Attestation
import Dispatch
import Foundation
import Synchronization
import LocalIPC
import Logging
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
/// One exchange per connection, and every byte of it must come from the process that connected:
/// 1. the caller connects and sends its request (public key, nonce);
/// 2. the attestor pins the caller (start time, executable), then answers with a fresh challenge;
/// 3. the caller sends the proof (the challenge and its public key again);
/// 4. the attestor measures and answers with the document.
///
/// The kernel names the process that wrote each byte read (SO_PASSCRED). The proof is written after
/// the challenge existed, by the pid that connected, and that process ran the pinned executable from
/// before the challenge to after the proof. A process that shares the socket (a parent that forked
/// the broker, a holder of a passed descriptor), the state a process had before an `exec`, or a
/// pid's former owner cannot write it: only the running program itself can, and the broker's code
/// proves only its own key.
public struct AttestorServer: Service {
    public struct Configuration: Sendable {
        public var socketPath: String
        /// OS users whose processes may get evidence: the broker's.
        public var allowedUIDs: Set<UInt32>
        public var maxFrameSize = 16 * 1024
        /// The broker's group: the socket becomes 0660 and that group's. nil: any local user may
        /// connect (0666) and the uid check alone decides.
        public var socketGroup: UInt32?
        /// A caller has this long to send its request and its proof once connected; then the
        /// connection is closed. Measuring and signing are not counted.
        public var readTimeout: Duration = .seconds(5)
        /// At most this many connections are served at once (the rest are closed at accept), well
        /// under the process's open-file limit, so idle callers cannot starve the broker.
        public var maxConnections = 64

        public init(socketPath: String, allowedUIDs: Set<UInt32>) {
            self.socketPath = socketPath
            self.allowedUIDs = allowedUIDs
        }
    }

    private let configuration: Configuration
    private let authority: LocalAttestation.Authority
    private let measurer: ProcessMeasurer
    private let logger: Logger
    private let onListening: @Sendable () async -> Void
    private let inFlight = ConnectionCount()
    /// Measuring and signing (a fresh leaf certificate and a P-384 signature per document) run at most
    /// one per core at once. Connections each have a thread, and a broker that restarts asks for
    /// evidence for every refresh at once: unbounded, those threads took the cores from the workers
    /// (reminders up to 23 s late in the 10,000-user chaos run).
    private let signing = DispatchSemaphore(value: max(1, ProcessInfo.processInfo.activeProcessorCount))

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
        let listener: AttributedListener
        do {
            listener = try AttributedListener(path: configuration.socketPath,
                                              access: configuration.socketGroup.map { SocketAccess(group: $0) } ?? .anyLocalUser,
                                              backlog: 64)
        } catch {
            throw AttestorError(.internal, error.description)
        }
        defer { unlink(configuration.socketPath) }
        logger.info("attestor listening", metadata: [
            "alfred.attestor.socket": "\(configuration.socketPath)", "alfred.attestor.allowed_uids": "\(configuration.allowedUIDs.sorted())",
        ])
        await onListening()
        await withTaskCancellationOrGracefulShutdownHandler {
            await listener.acceptUntilStopped { connection in serve(connection) }
        } onCancelOrGracefulShutdown: {
            listener.stop()
        }
        logger.info("attestor stopped")
    }

    /// Serves one connection on its own thread (blocking calls: reading, hashing the caller's
    /// executable, signing); the listener closes it afterwards.
    private func serve(_ connection: AttributedConnection) {
        // Decided at accept: a user that may not ask is answered at once, nothing is read from it,
        // and it holds no place under the cap (so it cannot crowd out the broker).
        guard let peer = connection.peer, configuration.allowedUIDs.contains(peer.uid) else {
            let error = connection.peer.map { peer in
                logger.warning("refused evidence to a user that is not allowed", metadata: ["alfred.attestor.peer_uid": "\(peer.uid)"])
                return AttestorError(.denied, "OS user \(peer.uid) may not get attestation evidence")
            } ?? AttestorError(.denied, "the caller's identity could not be read")
            send(AttestorResponse(error: error), on: connection)
            connection.finish()
            return
        }
        // Over the cap: closed at once, before anything is read or measured.
        guard let place = inFlight.enter(limit: configuration.maxConnections) else {
            logger.warning("connection refused: too many open connections", metadata: ["alfred.attestor.limit": "\(configuration.maxConnections)"])
            return
        }
        // The place is given back before the connection closes, so a caller that sees the close finds it free.
        defer { place.release() }
        var log = logger
        log[metadataKey: "alfred.attestor.peer_uid"] = "\(peer.uid)"
        log[metadataKey: "alfred.attestor.peer_pid"] = "\(peer.pid)"
        // Who the caller is now, before its request: compared before the challenge and at the answer.
        let pin = Result { () throws(AttestorError) in try measurer.pin(pid: peer.pid) }
        let deadline = ContinuousClock.now.advanced(by: configuration.readTimeout)
        do {
            let request = try receive(AttestorRequest.self, on: connection, from: peer, until: deadline, what: "request")
            guard let publicKey = Data(base64Encoded: request.publicKey), let nonce = Data(base64Encoded: request.nonce),
                  nonce.count <= 512, publicKey.count <= 1024
            else { throw AttestorError(.badRequest, "public_key and nonce must be base64 (at most 1024 and 512 bytes)") }
            let userData: Data?
            if let encoded = request.userData {
                guard let decoded = Data(base64Encoded: encoded), decoded.count <= 512 else {
                    throw AttestorError(.badRequest, "user_data must be base64 (at most 512 bytes)")
                }
                userData = decoded
            } else {
                userData = nil
            }
            // Still the process that connected, running what it ran then: from here on, only that
            // program can write to this connection as this pid.
            try measurer.check(pid: peer.pid, against: try pin.get())
            let challenge = Data((0..<32).map { _ in UInt8.random(in: .min ... .max) }).base64EncodedString()
            guard send(AttestorResponse(challenge: challenge), on: connection) else { throw Closed() }
            let proof = try receive(AttestorProof.self, on: connection, from: peer, until: deadline, what: "proof")
            guard proof.challenge == challenge, proof.publicKey == request.publicKey else {
                throw AttestorError(.denied, "the proof does not answer this connection's challenge for the requested key")
            }
            // Measuring reads and hashes the caller's whole executable: this connection's own thread.
            signing.wait()
            defer { signing.signal() }
            try measurer.check(pid: peer.pid, against: try pin.get())
            let measurement = try measurer.measure(pid: peer.pid, uid: peer.uid)
            let document: [UInt8]
            do {
                document = try authority.attest(measurement: measurement, publicKey: Array(publicKey), nonce: Array(nonce),
                                                userData: userData.map(Array.init), uid: peer.uid, pid: peer.pid)
            } catch {
                log.error("signing failed", metadata: ["alfred.attestor.error": "\(type(of: error))"])
                throw AttestorError(.internal, "the attestor could not sign the document")
            }
            log.debug("evidence issued", metadata: ["alfred.attestor.pcr0_prefix": "\(AttestationVerifier.hex(measurement).prefix(16))"])
            send(AttestorResponse(document: Data(document).base64EncodedString()), on: connection)
        } catch let error as AttestorError {
            log.warning("no evidence", metadata: ["alfred.attestor.reason": "\(error.code.rawValue)", "alfred.attestor.why": "\(error.message)"])
            send(AttestorResponse(error: error), on: connection)
        } catch {
            // Closed, silent past the deadline, or stopping: nothing to answer.
            log.debug("connection ended", metadata: ["alfred.attestor.error": "\(type(of: error))"])
        }
    }

    /// The connection ended (closed, deadline passed, or the attestor is stopping) before a frame.
    private struct Closed: Error {}

    /// The next frame as `Message`, written entirely by the process that connected.
    private func receive<Message: Decodable>(_: Message.Type, on connection: AttributedConnection, from peer: PeerCredentials,
                                             until deadline: ContinuousClock.Instant, what: String) throws -> Message {
        switch connection.readFrame(maxSize: configuration.maxFrameSize, until: deadline) {
        case .frame(let payload, let writers):
            guard writers == [peer.pid] else {
                let others = writers.subtracting([peer.pid]).sorted().map { $0 == 0 ? "an unknown process" : "process \($0)" }
                throw AttestorError(.denied, "the \(what) was written by \(others.joined(separator: ", ")), not by process \(peer.pid), which connected (a shared socket)")
            }
            guard let message = try? JSONDecoder().decode(Message.self, from: Data(payload)) else {
                throw AttestorError(.badRequest, "expected one attestor \(what) frame")
            }
            return message
        case .tooLarge:
            throw AttestorError(.badRequest, "the \(what) exceeds \(configuration.maxFrameSize) bytes")
        case .closed, .timedOut, .stopped:
            throw Closed()
        }
    }

    @discardableResult
    private func send(_ response: AttestorResponse, on connection: AttributedConnection) -> Bool {
        guard let frame = try? FramePrefix.frame(response, maxSize: Self.maxResponseSize) else { return false }
        return connection.write(frame, until: ContinuousClock.now.advanced(by: configuration.readTimeout))
    }

    static let maxResponseSize = 256 * 1024
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
