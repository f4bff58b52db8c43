import AlfredTestCluster
import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import Testing
import AlfredCore
@testable import Attestation
@testable import KeyService
@testable import KeyServiceClient

/// A key directory in a private temp folder, a local attestation authority, a stand-in "broker
/// executable" and the broker's ephemeral key; runs a real `KeyServer` on a Unix socket there.
/// Server, authority and evidence share one manual clock (pinned at the fixture's creation), so
/// nonce lifetimes and evidence ages depend only on what a test advances, never on how slow it ran.
struct KeyServerFixture: Sendable {
    let clock = ManualClock(start: Date())
    let folder: URL
    let directory: KeyDirectory
    let authority: LocalAttestation.Authority
    let executable: URL
    let socketPath: String
    let broker = P384.KeyAgreement.PrivateKey()

    static let quiet = Logger(label: "key-service-test", factory: { _ in SwiftLogNoOpLogHandler() })

    init(editPolicy: (inout KeyPolicy) -> Void = { _ in }) throws {
        // Short, so the socket path stays well inside sun_path's 108 bytes.
        folder = URL(fileURLWithPath: "/tmp/alfred-ks-\(UUID().uuidString.prefix(8))")
        try PrivateFile.createDirectory(folder)
        executable = folder.appendingPathComponent("broker")
        try Data("pretend this is the broker binary \(UUID())".utf8).write(to: executable)
        authority = try LocalAttestation.Authority.create(now: clock.date)
        directory = try KeyDirectory.initialize(at: folder.appendingPathComponent("keys-dir"), brokerExecutable: executable,
                                                authority: authority).directory
        socketPath = folder.appendingPathComponent("ks.sock").path
        var policy = try KeyPolicy.load(from: directory.policy)
        editPolicy(&policy)
        try PrivateFile.replace(directory.policy, contents: try policy.encoded())
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    var recipientDER: [UInt8] { Array(broker.publicKey.derRepresentation) }

    /// Evidence as the broker makes it: its measurement, its public key and the key service's nonce.
    /// `now`: when the evidence is made (default: the fixture's clock).
    func evidence(nonce: [UInt8]?, executable: URL? = nil, withPublicKey: Bool = true,
                  authority: LocalAttestation.Authority? = nil, now: Date? = nil) throws -> [UInt8] {
        try (authority ?? self.authority).attest(executable: executable ?? self.executable,
                                                 publicKey: withPublicKey ? recipientDER : nil, nonce: nonce, now: now ?? clock.date)
    }

    func freshEvidence(_ client: KeyServiceClient) async throws -> [UInt8] {
        try evidence(nonce: try await client.nonce())
    }

    func open(_ ciphertextForRecipient: [UInt8]) throws -> [UInt8] {
        try RecipientCipher.open(ciphertextForRecipient, with: broker).withUnsafeBytes { Array($0) }
    }

    func auditRecords() throws -> [[String: Any]] {
        let text = try String(contentsOf: directory.auditLog, encoding: .utf8)
        return try text.split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// Runs the server until `body` returns (then cancels it), with the real client (its request limit
    /// generous: a starved test process must not fail on speed). The server judges nonces and evidence
    /// at the fixture's clock, and logs to `logger` (default: nowhere).
    func withServer<T: Sendable>(logger: Logger = quiet,
                                 _ body: @escaping @Sendable (KeyServiceClient) async throws -> T) async throws -> T {
        let (listening, signal) = AsyncStream<Void>.makeStream()
        let server = try KeyServer(configuration: .init(socketPath: socketPath, directory: directory), now: clock.nowDate,
                                   logger: logger, onListening: { signal.yield() })
        let client = KeyServiceClient(socketPath: socketPath, timeout: .seconds(60))
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await server.run()
                return nil
            }
            group.addTask {
                for await _ in listening { break }
                return try await body(client)
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else {
                throw KeyServiceError(.unavailable, socketPath: socketPath, message: "the server stopped before the test finished")
            }
            return result
        }
    }

    /// A raw POST (for bodies the real client would never send); returns status and JSON body.
    static func post(_ path: String, body: [UInt8], socketPath: String) async throws -> (status: Int, json: [String: Any]) {
        var request = HTTPClientRequest(url: try #require(URL(httpURLWithSocketPath: socketPath, uri: path)).absoluteString)
        request.method = .POST
        request.body = .bytes(body)
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let bytes = try await response.body.collect(upTo: 1 << 20)
        let json = (try? JSONSerialization.jsonObject(with: Data(bytes.readableBytesView))) as? [String: Any] ?? [:]
        return (Int(response.status.code), json)
    }
}

extension Sequence where Element == UInt8 {
    var base64: String { Data(self).base64EncodedString() }
    var hex: String { map { String(format: "%02x", $0) }.joined() }
}
