import Crypto
import Foundation
import Testing
@testable import Attestation

/// Evidence from the local provider passes the same verifier as AWS's, and measures the executable.
@Suite(.timeLimit(.minutes(5))) struct LocalAttestationTests {
    static let authority = Result { try LocalAttestation.Authority.create() }

    func fixture() throws -> (LocalAttestation.Authority, AttestationVerifier, URL) {
        let authority = try Self.authority.get()
        let verifier = try AttestationVerifier(rootPEM: authority.rootPEM)
        let executable = FileManager.default.temporaryDirectory.appendingPathComponent("broker-\(UUID().uuidString)")
        try Data("pretend this is the broker binary".utf8).write(to: executable)
        return (authority, verifier, executable)
    }

    @Test func localEvidenceVerifiesAndCarriesTheMeasurementKeyAndNonce() throws {
        let (authority, verifier, executable) = try fixture()
        defer { try? FileManager.default.removeItem(at: executable) }
        let recipient = P384.KeyAgreement.PrivateKey()
        let nonce = Array(repeating: UInt8(7), count: 32)
        let document = try authority.attest(executable: executable, publicKey: Array(recipient.publicKey.derRepresentation), nonce: nonce)
        let measurement = AttestationVerifier.hex(try LocalAttestation.measure(executable))
        let policy = AttestationPolicy(runtime: "alfred-local", measurements: [["PCR0": measurement]], requirePublicKey: true)
        let verified = try verifier.verify(document, policy: policy, at: Date(), nonce: { $0 == nonce })
        #expect(verified.runtime == "alfred-local")
        #expect(verified.document.publicKey == Array(recipient.publicKey.derRepresentation))
        #expect(verified.document.cabundle.count == 2)
    }

    @Test func aReplacedExecutableIsDenied() throws {
        let (authority, verifier, executable) = try fixture()
        defer { try? FileManager.default.removeItem(at: executable) }
        let allowed = AttestationVerifier.hex(try LocalAttestation.measure(executable))
        try Data("a different broker binary".utf8).write(to: executable)
        let document = try authority.attest(executable: executable, publicKey: nil, nonce: nil)
        #expect(throws: AttestationError(.measurementNotAllowed, "PCR0 \(AttestationVerifier.hex(try LocalAttestation.measure(executable))) is not in the allow-list")) {
            _ = try verifier.verify(document, policy: .init(measurements: [["PCR0": allowed]]), at: Date())
        }
    }

    @Test func evidenceFromAnotherAuthorityIsUntrusted() throws {
        let (_, verifier, executable) = try fixture()
        defer { try? FileManager.default.removeItem(at: executable) }
        let stranger = try LocalAttestation.Authority.create()
        let document = try stranger.attest(executable: executable, publicKey: nil, nonce: nil)
        do {
            _ = try verifier.verify(document, policy: .init(), at: Date())
            Issue.record("a document from an unpinned root was accepted")
        } catch {
            #expect(error.reason == .untrustedRoot)
        }
    }

    @Test func theAuthorityKeyRoundTripsThroughPEM() throws {
        let authority = try Self.authority.get()
        let reloaded = try LocalAttestation.Authority(rootDER: authority.rootDER, authorityDER: authority.authorityDER,
                                                      authorityKeyPEM: authority.authorityKeyPEM)
        // The same key: same bytes, and what one signs the other's public key verifies.
        #expect(reloaded.authorityKey.rawRepresentation == authority.authorityKey.rawRepresentation)
        #expect(reloaded.authorityKeyPEM == authority.authorityKeyPEM)
        let message = Data("signed by the reloaded key".utf8)
        #expect(authority.authorityKey.publicKey.isValidSignature(try reloaded.authorityKey.signature(for: message), for: message))
        #expect(!P384.Signing.PrivateKey().publicKey.isValidSignature(try reloaded.authorityKey.signature(for: message), for: message))
        // And its evidence passes the verifier pinned to the original root.
        let (_, verifier, executable) = try fixture()
        defer { try? FileManager.default.removeItem(at: executable) }
        let verified = try verifier.verify(try reloaded.attest(executable: executable, publicKey: nil, nonce: nil), policy: .init(), at: Date())
        #expect(verified.runtime == "alfred-local")
    }
}
