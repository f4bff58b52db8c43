import AlfredTestKit
import AlfredCore
import Foundation
import Testing
@testable import Sealing

@Suite(.timeLimit(.minutes(5))) struct HostSealerTests {
    let sealer = try! HostSealer(keyBytes: HostSealer.generateKeyBytes())
    let user = UUID()

    @Test func sealedBoxesOpenOnlyWithTheSamePurposeAndUser() throws {
        let box = try sealer.seal(Array("Board sync".utf8), purpose: .notification, userID: user)
        #expect(try sealer.open(box, purpose: .notification, userID: user) == Array("Board sync".utf8))
        #expect(!box.contains(bytes: Array("Board".utf8)), "no plaintext in the box")
        #expect(throws: HostSealer.OpenError.self) { try sealer.open(box, purpose: .notification, userID: UUID()) }
        #expect(throws: HostSealer.OpenError.self) { try sealer.open(box, purpose: .jobPayload, userID: user) }
        let other = try HostSealer(keyBytes: HostSealer.generateKeyBytes())
        #expect(throws: HostSealer.OpenError.self) { try other.open(box, purpose: .notification, userID: user) }
    }

    @Test func everyByteIsAuthenticated() throws {
        let box = try sealer.seal(Array("x".utf8), purpose: .cursor, userID: user)
        for index in box.indices {
            var tampered = box
            tampered[index] ^= 0x01
            #expect(throws: HostSealer.OpenError.self) { try sealer.open(tampered, purpose: .cursor, userID: user) }
        }
    }

    @Test func keyedHashesAreStablePerKeyAndRevealNothing() throws {
        let a = sealer.keyedHash("reminder", user.uuidString, "evt-1")
        #expect(a == sealer.keyedHash("reminder", user.uuidString, "evt-1"))
        #expect(a != sealer.keyedHash("reminder", user.uuidString, "evt-2"))
        #expect(a != sealer.keyedHash("reminder", user.uuidString + "evt-1"), "parts are separated, not concatenated")
        #expect(a.count == 32 && !a.contains("evt"))
        let other = try HostSealer(keyBytes: HostSealer.generateKeyBytes())
        #expect(other.keyedHash("reminder", user.uuidString, "evt-1") != a)
    }

    @Test func keyFilesHoldRawOrHexBytesAndAnythingElseIsRefusedClearly() throws {
        let bytes = HostSealer.generateKeyBytes()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let raw = directory.appendingPathComponent("raw"), hex = directory.appendingPathComponent("hex")
        let bad = directory.appendingPathComponent("bad")
        try Data(bytes).write(to: raw)
        try (bytes.map { String(format: "%02x", $0) }.joined() + "\n").write(to: hex, atomically: true, encoding: .utf8)
        try "not a key".write(to: bad, atomically: true, encoding: .utf8)
        let fromRaw = try HostSealer(keyFile: raw.path), fromHex = try HostSealer(keyFile: hex.path)
        let box = try fromRaw.seal([1, 2, 3], purpose: .cursor, userID: nil)
        #expect(try fromHex.open(box, purpose: .cursor, userID: nil) == [1, 2, 3])
        let error = #expect(throws: HostSealer.OpenError.self) { try HostSealer(keyFile: bad.path) }
        #expect(error?.description.contains("64 hex characters") == true)
    }
}
