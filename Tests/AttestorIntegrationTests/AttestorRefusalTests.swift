import AlfredTestCluster
import Attestation
import Attestor
import Foundation
import Logging
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A user the attestor does not allow is answered "denied" at accept and the connection closed
/// before anything is read. The caller has usually not written its request yet, so its write can
/// find the connection closed: it must still report the answer it received, never a closed channel
/// (clean-clone CI saw "I/O on closed channel" here once in several hundred runs).
@Suite(.timeLimit(.minutes(2))) struct AttestorRefusalTests {
    @Test func aRefusedCallerAlwaysLearnsItWasDenied() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("attestor-refusal-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let socket = folder.appendingPathComponent("a.sock").path
        var logger = Logger(label: "attestor-refusal-test")
        logger.logLevel = .error  // one refusal warning per connection otherwise
        let server = AttestorServer(configuration: .init(socketPath: socket, allowedUIDs: [getuid() &+ 1]),
                                    authority: try LocalAttestation.Authority.create(),
                                    measurer: ProcessMeasurer(), logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group async throws in
            group.addTask { try await server.run() }
            defer { group.cancelAll() }
            #expect(try await eventually { FileManager.default.fileExists(atPath: socket) })
            var outcomes: [String: Int] = [:]
            for _ in 0..<300 {
                do {
                    _ = try await AttestorClient(socketPath: socket).evidence(nonce: [1, 2, 3])
                    outcomes["evidence", default: 0] += 1
                } catch let error as AttestorError {
                    outcomes[error.code.rawValue, default: 0] += 1
                } catch {
                    outcomes["\(type(of: error)): \(error)", default: 0] += 1
                }
            }
            #expect(outcomes == ["denied": 300])
        }
    }
}
