import AlfredCore
import Crypto
import Foundation
import LocalIPC
import NIOCore
import NIOPosix

/// Attestation evidence for this process, carrying `recipientKey`'s public half.
public protocol AttestationSource: Sendable {
    var recipientKey: P384.KeyAgreement.PrivateKey { get }
    func evidence(nonce: [UInt8]) async throws -> [UInt8]
}

/// The attestor's wire format: length-prefixed JSON frames, byte strings as standard base64. The
/// caller sends a request, the attestor answers with a challenge, the caller sends the proof (the
/// challenge and its key again) and the attestor answers with the document or an error. The
/// request names no process: the attestor measures the caller, and takes every frame only from
/// the process that connected.
package struct AttestorRequest: Codable, Sendable {
    package var publicKey: String
    package var nonce: String
    package var userData: String?
    package init(publicKey: String, nonce: String, userData: String? = nil) {
        self.publicKey = publicKey
        self.nonce = nonce
        self.userData = userData
    }
    enum CodingKeys: String, CodingKey { case publicKey = "public_key", nonce, userData = "user_data" }
}

package struct AttestorResponse: Codable, Sendable {
    package var document: String?
    package var error: AttestorError?
    /// Fresh random bytes the caller must send back in its proof, on this connection, itself.
    package var challenge: String?
    package init(document: String? = nil, error: AttestorError? = nil, challenge: String? = nil) {
        self.document = document
        self.error = error
        self.challenge = challenge
    }
}

/// The caller's answer to a challenge: written after the challenge existed, by the process that
/// connected, so by the program the attestor pinned, for the key it will bind.
package struct AttestorProof: Codable, Sendable {
    package var challenge: String
    package var publicKey: String
    package init(challenge: String, publicKey: String) {
        self.challenge = challenge
        self.publicKey = publicKey
    }
    enum CodingKeys: String, CodingKey { case challenge, publicKey = "public_key" }
}

/// Why the attestor gave no evidence.
public struct AttestorError: Error, Codable, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Codable, Sendable {
        /// The caller's OS user may not ask for evidence.
        case denied
        /// The caller could not be measured (it exited, or its executable cannot be read).
        case unmeasurable
        case badRequest = "bad_request"
        /// The attestor could not be reached or did not answer.
        case unavailable
        case `internal`
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Worth asking again later: the attestor was down or the process could not be measured this time.
    public var isRetryable: Bool { code == .unavailable || code == .internal }
    public var description: String { "attestor \(code.rawValue): \(message)" }
}

/// Asks the local attestor (`alfred-attestor`) for evidence about this very process. The attestor
/// measures the process at the other end of the socket itself, so a client cannot ask for evidence
/// about another executable.
public struct AttestorClient: AttestationSource {
    public let socketPath: String
    public let recipientKey: P384.KeyAgreement.PrivateKey
    public let timeout: Duration
    static let maxFrameSize = 256 * 1024

    public init(socketPath: String, timeout: Duration = .seconds(10),
                recipientKey: P384.KeyAgreement.PrivateKey = P384.KeyAgreement.PrivateKey()) {
        self.socketPath = socketPath
        self.timeout = timeout
        self.recipientKey = recipientKey
    }

    public func evidence(nonce: [UInt8]) async throws -> [UInt8] {
        let publicKey = Data(recipientKey.publicKey.derRepresentation).base64EncodedString()
        let request = AttestorRequest(publicKey: publicKey, nonce: Data(nonce).base64EncodedString())
        guard let frame = try FrameEncoder.frame(request, maxFrameSize: Self.maxFrameSize) else {
            throw AttestorError(.badRequest, "the request exceeds the frame limit")
        }
        let socketPath = socketPath
        let answer = try await withDeadline(timeout) {
            try await Self.exchange(frame, publicKey: publicKey, socketPath: socketPath)
        }
        guard let answer else { throw AttestorError(.unavailable, "no answer from the attestor at \(socketPath) within \(timeout)") }
        if let error = answer.error { throw error }
        guard let encoded = answer.document, let document = Data(base64Encoded: encoded) else {
            throw AttestorError(.internal, "the attestor answered without a document")
        }
        return Array(document)
    }

    private static func exchange(_ frame: ByteBuffer, publicKey: String, socketPath: String) async throws -> AttestorResponse {
        let channel: NIOAsyncChannel<InboundFrame, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(unixDomainSocketPath: socketPath) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(FrameDecoder(maxFrameSize: maxFrameSize)))
                        return try NIOAsyncChannel<InboundFrame, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw AttestorError(.unavailable, "cannot connect to the attestor at \(socketPath): \(error)")
        }
        return try await channel.executeThenClose { inbound, outbound in
            // The attestor may answer and close before reading anything (a user it refuses at
            // accept), so a write that finds the connection closed is not the outcome: the answer
            // already received is.
            var unsent: (any Error)?
            do { try await outbound.write(frame) } catch { unsent = error }
            for try await reply in inbound {
                guard case .payload(let payload) = reply,
                      let response = try? JSONDecoder().decode(AttestorResponse.self, from: Data(payload.readableBytesView))
                else { throw AttestorError(.internal, "the attestor's answer is not a response frame") }
                // This process proves it is the one that asked: the attestor reads who wrote it.
                if let challenge = response.challenge, response.document == nil, response.error == nil {
                    guard let proof = try FrameEncoder.frame(AttestorProof(challenge: challenge, publicKey: publicKey), maxFrameSize: maxFrameSize)
                    else { throw AttestorError(.internal, "the attestor's challenge is too large to answer") }
                    do { try await outbound.write(proof) } catch { unsent = error }
                    continue
                }
                return response
            }
            throw AttestorError(.unavailable, "the attestor closed the connection without answering"
                                + (unsent.map { " (writing to it failed: \($0))" } ?? ""))
        }
    }

}

/// Where `alfred-attestor` keeps the local attestation PKI (mode 0700, owned by the attestor's OS
/// user; nothing else may read the key):
///
///     attestation-root.pem         the root the key service pins (public; a copy sits in the key directory)
///     attestation-authority.pem    the authority certificate evidence chains through (public)
///     attestation-authority.key    the authority's signing key (0600)
public struct AttestorDirectory: Sendable {
    public let url: URL
    public init(_ url: URL) { self.url = url }

    public var rootCertificate: URL { url.appendingPathComponent("attestation-root.pem") }
    public var authorityCertificate: URL { url.appendingPathComponent("attestation-authority.pem") }
    public var authorityKey: URL { url.appendingPathComponent("attestation-authority.key") }

    public func loadAuthority() throws -> LocalAttestation.Authority {
        try LocalAttestation.Authority(rootPEMFile: rootCertificate, authorityPEMFile: authorityCertificate,
                                       authorityKeyFile: authorityKey)
    }
}
