import AlfredCore
import AlfredTestCluster
import Foundation
import NIOCore
import PostgresNIO
import Store
import Testing
@testable import Assistant
@testable import Delivery
@testable import Sealing

/// `alfred keys data-key …` as an operator runs it, on a key file and a real database: the file
/// keeps its mode, and a key is removed only once no stored value names it.
@Suite(.timeLimit(.minutes(10))) struct DataKeyCLITests {
    func alfred(_ arguments: [String], _ url: DatabaseURL) async throws -> (code: Int32, output: String) {
        try await run(AlfredBinary.path, ["keys", "data-key"] + arguments, environment: ["ALFRED_DATABASE_URL": url.secretString.unsafeValue])
    }

    @Test func addActivateResealAndRemoveAnOldKey() async throws {
        let url = try await TestDatabase.fresh()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dk-\(UUID().uuidString.prefix(6))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("data.key")
        try (HostSealer.generateKeyBytes().map { String(format: "%02x", $0) }.joined() + "\n").write(to: file, atomically: true, encoding: .utf8)
        chmod(file.path, 0o640)
        let first = try HostSealer(keyFile: file.path).activeKeyID
        let keyFile = ["--data-key-file", file.path]
        func mode() throws -> Int? { try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int }

        // A second key, activated; a device token sealed with it.
        let added = try await alfred(["add"] + keyFile, url)
        #expect(added.code == 0, "\(added.output)")
        let second = try #require(try HostSealer(keyFile: file.path).keyIDs.last)
        #expect(added.output.contains("added data key \(second)"))
        #expect(try HostSealer(keyFile: file.path).activeKeyID == first)
        #expect(try mode() == 0o640, "the hosts' users still read it")
        #expect(try await alfred(["activate", "--key-id", second] + keyFile, url).code == 0)
        let sealer = try HostSealer(keyFile: file.path)
        #expect(sealer.activeKeyID == second)
        let user = UUID()
        try await TestDatabase.withClient(url) { client in
            _ = try await client.query("INSERT INTO users (id) VALUES (\(user))", logger: TestDatabase.quietLogger).collect()
            _ = try await client.query("""
                INSERT INTO devices (id, user_id, apns_token_ciphertext, environment)
                VALUES (\(UUID()), \(user), \(ByteBuffer(bytes: try sealer.seal([1, 2], purpose: .deviceToken, userID: user))), 'production')
                """, logger: TestDatabase.quietLogger).collect()
        }

        // A third key: the second is still in use, so it stays until the re-seal.
        _ = try await alfred(["add"] + keyFile, url)
        let third = try #require(try HostSealer(keyFile: file.path).keyIDs.last)
        #expect(try await alfred(["activate", "--key-id", third] + keyFile, url).code == 0)
        let refused = try await alfred(["remove", "--key-id", second] + keyFile, url)
        #expect(refused.code != 0 && refused.output.contains("still seals stored values (devices.apns_token_ciphertext: 1)"), "\(refused.output)")
        let usage = try await alfred(["usage"], url)
        #expect(usage.output.contains("devices.apns_token_ciphertext: \(second) 1"), "\(usage.output)")
        let reseal = try await alfred(["reseal"] + keyFile, url)
        #expect(reseal.output.contains("re-seal onto data key \(third) enqueued"), "\(reseal.output)")
        #expect(try await alfred(["reseal"] + keyFile, url).output.contains("already queued"))

        // What a worker runs for that job.
        var worker = url
        worker.username = "alfred_worker"
        let current = try HostSealer(keyFile: file.path)
        try await TestDatabase.withClient(worker) { client in
            _ = try await DataKeyReseal.Handler(store: PostgresSealedDataStore(client: client, logger: TestDatabase.quietLogger),
                                                sealer: current).reseal()
        }
        #expect(try await alfred(["usage"], url).output.contains("devices.apns_token_ciphertext: \(third) 1"))
        let removed = try await alfred(["remove", "--key-id", second] + keyFile, url)
        #expect(removed.code == 0, "\(removed.output)")
        #expect(try HostSealer(keyFile: file.path).keyIDs == [first, third])
        let firstRefused = try await alfred(["remove", "--key-id", first] + keyFile, url)
        #expect(firstRefused.code != 0 && firstRefused.output.contains("keys the hashes"), "\(firstRefused.output)")
        #expect(try mode() == 0o640)
    }
}
