import AlfredTestCluster
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The key service as a real process: its decisions are counted by reason on /metrics.
@Suite(.timeLimit(.minutes(10))) struct KeyServiceProcessTests {
    @Test func keyDecisionsAreCountedByReasonOnMetrics() async throws {
        let folder = URL(fileURLWithPath: "/tmp/alfred-kp-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let keys = folder.appendingPathComponent("keys").path
        let socket = folder.appendingPathComponent("ks.sock").path
        let initialized = try await run(AlfredBinary.keyService, ["init", "--dir", keys, "--attestor-dir", folder.appendingPathComponent("attestor").path])
        #expect(initialized.code == 0, "\(initialized.output)")
        let port = try EmbeddedPostgres.freePort()
        let service = try ChildProcess(AlfredBinary.keyService, ["serve", "--dir", keys, "--socket", socket, "--metrics-port", "\(port)"])
        defer { service.signal(SIGTERM) }
        #expect(try await eventually { FileManager.default.fileExists(atPath: socket) }, "\(service.output)")

        // A decrypt with evidence that is not even CBOR: denied, and counted.
        let curl = try await run(try await Prerequisites.path(of: .curl), ["-s", "--unix-socket", socket, "-X", "POST", "http://localhost/v1/decrypt",
                                                  "-d", #"{"attestation":"AAAA","key_id":"kek-main","key_version":1,"connector_id":"00000000-0000-0000-0000-000000000001","user_id":"00000000-0000-0000-0000-000000000002","wrapped_key":"AAAA"}"#])
        #expect(curl.output.contains("malformed_document"), "\(curl.output)")
        var metrics = ""
        #expect(try await eventually {
            let data = try? await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/metrics")!).0
            metrics = data.map { String(decoding: $0, as: UTF8.self) } ?? ""
            return metrics.contains("alfred_key_service_decisions_total")
        }, "\(service.output)")
        #expect(metrics.contains(#"decision="deny""#) && metrics.contains(#"reason="malformed_document""#), "\(metrics)")
        service.signal(SIGTERM)
        #expect(await service.waitForExit(timeout: .seconds(60)) == 0)
    }
}
