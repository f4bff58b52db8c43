import AlfredTestKit
import Crypto
import Foundation
import Testing
@testable import Attestation
@testable import KeyService
@testable import KeyServiceClient

@Suite(.timeLimit(.minutes(5))) struct TokenEnvelopeTests {
    let context = TokenContext(connectorID: UUID(), userID: UUID(), keyID: "kek-main", keyVersion: 1)
    let token = Array("1//0gCanaryRefreshToken-do-not-log".utf8)

    func ring() -> KeyRing {
        var ring = KeyRing()
        _ = ring.rotate("kek-main")
        return ring
    }

    @Test func sealsAndOpensWithTheUnwrappedDataKey() throws {
        let ring = ring()
        let (dataKey, wrapped) = try ring.generateDataKey(for: context)
        let envelope = try TokenEnvelope.seal(token, context: context, dataKey: dataKey, wrappedDataKey: wrapped)
        #expect(!envelope.contains(bytes: token), "no plaintext in the stored bytes")
        let unwrapped = try ring.unwrap(try TokenEnvelope.wrappedDataKey(in: envelope), for: context)
        #expect(try TokenEnvelope.open(envelope, context: context, dataKey: unwrapped) == token)
    }

    @Test func everyByteIsAuthenticated() throws {
        let ring = ring()
        let (dataKey, wrapped) = try ring.generateDataKey(for: context)
        let envelope = try TokenEnvelope.seal(token, context: context, dataKey: dataKey, wrappedDataKey: wrapped)
        for index in envelope.indices {
            var tampered = envelope
            tampered[index] ^= 0x01
            #expect(throws: (any Error).self, "byte \(index)") {
                let key = try ring.unwrap(try TokenEnvelope.wrappedDataKey(in: tampered), for: context)
                _ = try TokenEnvelope.open(tampered, context: context, dataKey: key)
            }
        }
    }

    @Test func aChangedBoundColumnFailsToDecrypt() throws {
        var ring = ring()
        _ = ring.rotate("kek-main")  // v2 exists too, so a changed version still finds a key
        let (dataKey, wrapped) = try ring.generateDataKey(for: context)
        let envelope = try TokenEnvelope.seal(token, context: context, dataKey: dataKey, wrappedDataKey: wrapped)
        let moved = [
            TokenContext(connectorID: UUID(), userID: context.userID, keyID: "kek-main", keyVersion: 1),
            TokenContext(connectorID: context.connectorID, userID: UUID(), keyID: "kek-main", keyVersion: 1),
            context.with(keyVersion: 2),
        ]
        for other in moved {
            #expect(throws: EnvelopeError.self, "the data key is bound to every column") { _ = try ring.unwrap(wrapped, for: other) }
        }
        for other in moved.prefix(2) {
            #expect(throws: EnvelopeError.self, "the token is bound to its connector and user") {
                _ = try TokenEnvelope.open(envelope, context: other, dataKey: dataKey)
            }
        }
    }

    @Test func rotationRewrapsWithoutTouchingTheToken() throws {
        var ring = ring()
        let (dataKey, wrapped) = try ring.generateDataKey(for: context)
        let envelope = try TokenEnvelope.seal(token, context: context, dataKey: dataKey, wrappedDataKey: wrapped)
        let (version, _) = ring.rotate("kek-main")
        #expect(version == 2)
        let (rewrapped, newVersion) = try ring.rewrap(wrapped, for: context)
        #expect(newVersion == 2)
        let moved = try TokenEnvelope.replacingWrappedDataKey(in: envelope, with: rewrapped)
        let newContext = context.with(keyVersion: 2)
        let key = try ring.unwrap(try TokenEnvelope.wrappedDataKey(in: moved), for: newContext)
        #expect(try TokenEnvelope.open(moved, context: newContext, dataKey: key) == token)
    }

    @Test func keyFilesRoundTripAndAreOwnerOnly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = SymmetricKey(size: .bits256), second = SymmetricKey(size: .bits256)
        try KeyRing.write(first, id: "kek-main", version: 1, to: directory)
        try KeyRing.write(second, id: "kek-main", version: 2, to: directory)
        let mode = try FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("kek-main.v2.key").path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let ring = try KeyRing.load(directory: directory)
        #expect(ring.active == ["kek-main": 2])
        let (dataKey, wrapped) = try ring.generateDataKey(for: context)
        #expect(try ring.unwrap(wrapped, for: context).withUnsafeBytes { Array($0) } == dataKey.withUnsafeBytes { Array($0) })
    }
}
