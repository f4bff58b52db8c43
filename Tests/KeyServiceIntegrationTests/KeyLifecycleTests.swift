import AlfredCore
import AlfredTestCluster
import Crypto
import Foundation
import Testing
@testable import Attestation
@testable import KeyService
@testable import KeyServiceClient

/// Keys with a lifecycle, against a running key service: the attestation authority renewed without
/// touching the key-encryption keys, and an old key version retired once it is no longer needed.
@Suite(.timeLimit(.minutes(5))) struct KeyLifecycleTests {
    func kekFiles(_ fixture: KeyServerFixture) throws -> [String: Data] {
        let names = try FileManager.default.contentsOfDirectory(atPath: fixture.directory.keys.path)
        return try Dictionary(uniqueKeysWithValues: names.map { ($0, try Data(contentsOf: fixture.directory.keys.appendingPathComponent($0))) })
    }

    /// A data key wrapped under the first authority opens with evidence from the renewed one (the keys
    /// did not change); evidence signed by the previous authority verifies until the next renewal,
    /// then is refused as an untrusted root.
    @Test func renewingTheAuthorityKeepsTheKeysAndThePreviousRootUntilTheNextRenewal() async throws {
        let fixture = try KeyServerFixture()
        defer { fixture.remove() }
        let attestorDir = fixture.folder.appendingPathComponent("attestor")
        let keysBefore = try kekFiles(fixture)
        try await fixture.withServer { client in
            let connector = UUID(), user = UUID()
            let generated = try await client.generateDataKey(keyID: "kek-main", connectorID: connector, userID: user,
                                                             attestation: try await fixture.freshEvidence(client))
            let dataKey = try fixture.open(generated.ciphertextForRecipient)
            let context = TokenContext(connectorID: connector, userID: user, keyID: "kek-main", keyVersion: 1)
            func decrypt(with authority: LocalAttestation.Authority) async throws -> [UInt8] {
                try fixture.open(try await client.decrypt(wrapped: generated.wrapped, context: context,
                                                          attestation: try fixture.evidence(nonce: try await client.nonce(), authority: authority)))
            }

            let expiry = try fixture.directory.renewAuthority(attestorDirectory: attestorDir, now: fixture.clock.date)
            #expect(expiry > fixture.clock.date.addingTimeInterval(700 * 86_400), "a new authority lasts two years")
            let second = try AttestorDirectory(attestorDir).loadAuthority()
            #expect(second.authorityDER != fixture.authority.authorityDER)
            #expect(try await decrypt(with: second) == dataKey, "the key-encryption keys did not change")
            #expect(try await decrypt(with: fixture.authority) == dataKey, "the previous root stays pinned until the next renewal")

            try fixture.directory.renewAuthority(attestorDirectory: attestorDir, now: fixture.clock.date)
            let third = try AttestorDirectory(attestorDir).loadAuthority()
            #expect(try await decrypt(with: third) == dataKey)
            #expect(try await decrypt(with: second) == dataKey)
            let denial = await #expect(throws: KeyServiceDenied.self) { _ = try await decrypt(with: fixture.authority) }
            #expect(denial?.reason == "untrusted_root")
        }
        #expect(try kekFiles(fixture) == keysBefore)
        let mode = try FileManager.default.attributesOfItem(atPath: AttestorDirectory(attestorDir).authorityKey.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    /// After a rotation and rewrap, the old version is retired: out of the policy, its key gone; a
    /// data key still wrapped under it is refused. The active version cannot be retired.
    @Test func retiringAnOldVersionTakesItOutForGood() async throws {
        let fixture = try KeyServerFixture()
        defer { fixture.remove() }
        try await fixture.withServer { client in
            let connector = UUID(), user = UUID()
            let old = try await client.generateDataKey(keyID: "kek-main", connectorID: connector, userID: user,
                                                       attestation: try await fixture.freshEvidence(client))
            let v1 = TokenContext(connectorID: connector, userID: user, keyID: "kek-main", keyVersion: 1)
            #expect(try fixture.directory.rotate(keyID: "kek-main") == 2)
            let (rewrapped, _) = try await client.rewrap(wrapped: old.wrapped, context: v1, attestation: try await fixture.freshEvidence(client))

            #expect(throws: KeyConfigurationError.self) { try fixture.directory.retire(keyID: "kek-main", version: 2) }
            try fixture.directory.retire(keyID: "kek-main", version: 1)
            #expect(try KeyPolicy.load(from: fixture.directory.policy).keys["kek-main"] == .init(active: 2, allowed: [2]))
            #expect(!FileManager.default.fileExists(atPath: fixture.directory.keys.appendingPathComponent("kek-main.v1.key").path))
            #expect(throws: KeyConfigurationError.self) { try fixture.directory.retire(keyID: "kek-main", version: 1) }

            let denial = await #expect(throws: KeyServiceDenied.self) {
                _ = try await client.decrypt(wrapped: old.wrapped, context: v1, attestation: try await fixture.freshEvidence(client))
            }
            #expect(denial?.reason == "key_policy_mismatch")
            let opened = try await client.decrypt(wrapped: rewrapped, context: v1.with(keyVersion: 2),
                                                  attestation: try await fixture.freshEvidence(client))
            #expect(try fixture.open(opened) == (try fixture.open(old.ciphertextForRecipient)))
        }
    }
}
