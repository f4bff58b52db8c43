import AlfredCore
import AlfredTestCluster
import Crypto
import Foundation
@testable import JobQueue
import Logging
import NIOCore
import NIOFoundationCompat
import PostgresNIO
import Store
import Testing
@testable import Assistant
@testable import Delivery
@testable import Sealing

/// The host data key as a keyring: file format, what each key opens, and a whole rotation against a
/// real database as the worker role, ending with the old key removed.
@Suite(.timeLimit(.minutes(5))) struct DataKeyRotationTests {
    let user = UUID()

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func keyringFilesParseAndRenderAndRefuseWhatIsAmbiguous() throws {
        let a = HostSealer.generateKeyBytes(), b = HostSealer.generateKeyBytes()
        // The original forms are a ring of one.
        #expect(try DataKeyring(contents: Data(a)).keys == [a])
        #expect(try DataKeyring(contents: Data((Self.hex(a) + "\n").utf8)).active == 0)
        let ring = try DataKeyring(contents: Data("# comment\n\(Self.hex(a))\n\(Self.hex(b)) active  # the new one\n".utf8))
        #expect(ring.keys == [a, b] && ring.active == 1)
        #expect(try DataKeyring(contents: Data(ring.rendered().utf8)) == ring)
        #expect(ring.ids.allSatisfy { $0.count == 8 } && Set(ring.ids).count == 2)
        #expect(!ring.rendered().contains(ring.ids[0]), "the file holds keys, the ids are derived")
        for (text, message) in [
            ("\(Self.hex(a))\n\(Self.hex(b))\n", "mark the key"),
            ("\(Self.hex(a)) active\n\(Self.hex(b)) active\n", "only one key may be active"),
            ("\(Self.hex(a)) current\n", "unknown word"),
            ("\(Self.hex(a))\n\(Self.hex(a)) active\n", "appears twice"),
            ("abcd active\n", "64 hex characters"),
        ] {
            let error = #expect(throws: DataKeyring.FormatError.self) { _ = try DataKeyring(contents: Data(text.utf8)) }
            #expect(error?.description.contains(message) == true, "\(text): \(error?.description ?? "")")
        }
    }

    @Test func theFirstAndTheActiveKeyCannotBeRemoved() throws {
        var ring = try DataKeyring(keys: [HostSealer.generateKeyBytes()], active: 0)
        let first = ring.activeID
        let second = ring.add()
        #expect(ring.activeID == first, "a new key is not active until activated")
        #expect(throws: DataKeyring.FormatError.self) { try ring.remove(id: "00000000") }
        try ring.activate(id: second)
        let third = ring.add()
        try ring.activate(id: third)
        try ring.remove(id: second)
        #expect(ring.ids == [first, third] && ring.activeID == third)
        #expect(throws: DataKeyring.FormatError.self) { try ring.remove(id: first) }
        #expect(throws: DataKeyring.FormatError.self) { try ring.remove(id: third) }
    }

    /// Boxes name their key; every key of the ring opens its own; a key that left the ring is named
    /// in the error; boxes from before key ids open with the first key; hashes never change.
    @Test func everyKeyInTheRingOpensWhatItSealed() throws {
        let original = HostSealer.generateKeyBytes()
        let before = try HostSealer(keyBytes: original)
        let legacy = try Self.legacyBox(Array("cursor".utf8), key: original, purpose: .cursor, userID: user)
        #expect(try before.open(legacy, purpose: .cursor, userID: user) == Array("cursor".utf8))
        let old = try before.seal([1], purpose: .cursor, userID: user)
        #expect(HostSealer.keyID(of: old) == before.activeKeyID)

        var ring = try DataKeyring(keys: [original], active: 0)
        try ring.activate(id: ring.add())
        let after = try HostSealer(ring: ring)
        #expect(after.activeKeyID != before.activeKeyID && after.keyIDs == ring.ids)
        let new = try after.seal([2], purpose: .cursor, userID: user)
        #expect(HostSealer.keyID(of: new) == after.activeKeyID && after.isCurrent(new) && !after.isCurrent(old))
        #expect(try after.open(old, purpose: .cursor, userID: user) == [1])
        #expect(try after.open(legacy, purpose: .cursor, userID: user) == Array("cursor".utf8))
        let error = #expect(throws: HostSealer.OpenError.self) { try before.open(new, purpose: .cursor, userID: user) }
        #expect(error?.description.contains(after.activeKeyID) == true)
        #expect(after.keyedHash("mailbox", "x") == before.keyedHash("mailbox", "x"), "hashes are lookup keys: they stay")
    }

    /// A box as sealers wrote them before key ids: `ALFH | 1 | nonce | ciphertext | tag`.
    static func legacyBox(_ plain: [UInt8], key: [UInt8], purpose: HostSealer.Purpose, userID: UUID) throws -> [UInt8] {
        let sealKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: key), info: Data("alfred host seal v1".utf8),
                                             outputByteCount: 32)
        let box = try AES.GCM.seal(plain, using: sealKey,
                                   authenticating: Data("alfred/\(purpose.rawValue)/\(userID.uuidString.lowercased())".utf8))
        return Array("ALFH".utf8) + [1] + Array(box.nonce) + Array(box.ciphertext) + Array(box.tag)
    }

    /// The whole rotation as the worker role: values sealed under the first two keys (and one from
    /// before key ids) in every sealed column and in a queued push's payload; a third key activated;
    /// the re-seal; then nothing names the second key, it is removed, and everything still opens.
    @Test func aRotationResealsEveryStoredValueAndTheOldKeyCanGo() async throws {
        let url = try await TestDatabase.fresh()
        let logger = TestDatabase.quietLogger
        var ring = try DataKeyring(keys: [HostSealer.generateKeyBytes()], active: 0)
        let first = ring.activeID
        let second = ring.add()
        try ring.activate(id: second)
        let old = try HostSealer(ring: ring)
        let (userID, connector) = try await TestDatabase.withClient(url) { try await Seed.user($0, logger: logger) }
        let device = UUID()
        let token = String(repeating: "ab", count: 32)
        let legacyCursor = try Self.legacyBox(Array(#"{"historyId":"7"}"#.utf8), key: ring.keys[0], purpose: .cursor, userID: userID)
        let push = PushContent(kind: "meeting.reminder", title: "Board sync", body: "in 10 minutes", scheduledAt: Date(), collapseID: "c")
        try await TestDatabase.withClient(url) { client in
            _ = try await client.query("""
                INSERT INTO devices (id, user_id, apns_token_ciphertext, environment)
                VALUES (\(device), \(userID), \(ByteBuffer(bytes: try old.seal(Array(token.utf8), purpose: .deviceToken, userID: userID))), 'sandbox')
                """, logger: logger).collect()
            _ = try await client.query("UPDATE preferences SET urgency_ciphertext = \(ByteBuffer(bytes: try old.seal([7], purpose: .preferences, userID: userID))) WHERE user_id = \(userID)",
                                       logger: logger).collect()
            _ = try await client.query("""
                INSERT INTO sync_cursors (connector_id, user_id, kind, state_ciphertext) VALUES
                (\(connector), \(userID), 'gmail', \(ByteBuffer(bytes: legacyCursor))),
                (\(connector), \(userID), 'calendar', \(ByteBuffer(bytes: try old.seal([3], purpose: .cursor, userID: userID))))
                """, logger: logger).collect()
            _ = try await client.query("""
                INSERT INTO mail_alerts (user_id, message_key, message_ciphertext, disposition, score)
                VALUES (\(userID), 'k1', \(ByteBuffer(bytes: try old.seal(Array("msg-1".utf8), purpose: .mailID, userID: userID))), 'held', 9)
                """, logger: logger).collect()
            let jobs = PostgresJobStore(client: client, logger: logger)
            _ = try await jobs.enqueue([NewJob(kind: AssistantKind.pushDeliver,
                                               payload: try SealedPayload.make(push, sealer: old, userID: userID, purpose: .notification),
                                               schedule: .at(Date().addingTimeInterval(3600)), userID: userID)], onConflict: .keep)
        }

        let third = ring.add()
        try ring.activate(id: third)
        let sealer = try HostSealer(ring: ring)
        var worker = url
        worker.username = "alfred_worker"
        try await TestDatabase.withClient(worker) { client in
            let store = PostgresSealedDataStore(client: client, logger: logger)
            let before = try await DataKeyReseal.usage(store)
            #expect(before["devices.apns_token_ciphertext"] == [second: 1])
            #expect(before["sync_cursors.state_ciphertext"] == ["v1": 1, second: 1])
            #expect(before["jobs.payload"] == [second: 1])

            let tallies = try await DataKeyReseal.Handler(store: store, sealer: sealer).reseal()
            #expect(tallies.values.reduce(0) { $0 + $1.resealed } == 6, "\(tallies)")
            #expect(tallies.values.allSatisfy { $0.unopenable == 0 && $0.changed == 0 }, "\(tallies)")
            let after = try await DataKeyReseal.usage(store)
            #expect(after.values.allSatisfy { $0.keys.sorted() == [third] }, "\(after)")
            #expect(after.count == 5, "every column and the job payload: \(after)")
            // A second run finds nothing to do.
            #expect(try await DataKeyReseal.Handler(store: store, sealer: sealer).reseal().values.allSatisfy { $0 == .init() })
        }
        #expect(first != second)
        try ring.remove(id: second)
        let trimmed = try HostSealer(ring: ring)
        #expect(!trimmed.keyIDs.contains(second))
        try await TestDatabase.withClient(url) { client in
            for try await sealed in try await client.query("SELECT apns_token_ciphertext FROM devices WHERE id = \(device)", logger: logger)
                .decode(ByteBuffer.self) {
                #expect(try trimmed.open(Array(buffer: sealed), purpose: .deviceToken, userID: userID) == Array(token.utf8))
            }
            for try await payload in try await client.query("SELECT payload FROM jobs WHERE user_id = \(userID) AND kind = 'push.deliver'", logger: logger)
                .decode(ByteBuffer.self) {
                let box = try JSONDecoder().decode(SealedPayload.self, from: Data(buffer: payload))
                #expect(try box.open(PushContent.self, sealer: trimmed, userID: userID, purpose: .notification) == push)
            }
            for try await (kind, sealed) in try await client.query("SELECT kind, state_ciphertext FROM sync_cursors ORDER BY kind", logger: logger)
                .decode((String, ByteBuffer).self) {
                #expect(try trimmed.open(Array(buffer: sealed), purpose: .cursor, userID: userID) == (kind == "gmail" ? Array(#"{"historyId":"7"}"#.utf8) : [3]))
            }
        }
    }

    /// A worker whose ring has another active key (a rollout in progress) waits instead of sealing
    /// with the wrong key.
    @Test func aWorkerWithAnotherActiveKeyWaits() async throws {
        let sealer = try HostSealer(keyBytes: HostSealer.generateKeyBytes())
        let url = try await TestDatabase.fresh()
        try await TestDatabase.withClient(url) { (client: PostgresClient) async throws in
            let handler = DataKeyReseal.Handler(store: PostgresSealedDataStore(client: client, logger: TestDatabase.quietLogger), sealer: sealer)
            let context = JobContext(id: JobID(), kind: DataKeyReseal.kind.name, attempt: 1, maxAttempts: 20, deadline: nil, userID: nil,
                                     lateness: .zero, logger: TestDatabase.quietLogger, leaseLost: { false })
            let error = await #expect(throws: JobError.self) { _ = try await handler.run(.init(toKeyID: "00000000"), context: context) }
            #expect(error?.action == .snooze(.seconds(60)))
            #expect(try await handler.run(.init(toKeyID: sealer.activeKeyID), context: context) == .done)
        }
    }
}
