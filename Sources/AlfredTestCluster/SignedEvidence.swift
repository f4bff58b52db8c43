import Attestation
import Crypto
import Foundation

/// Evidence signed in the test process with a test authority, for tests that run the broker's code
/// in-process (where the attestor, which measures a separate process, has nothing to measure). The
/// attestor itself is tested with real processes (`AttestorProcessTests`).
public struct AuthoritySignedEvidence: AttestationSource {
    public let recipientKey = P384.KeyAgreement.PrivateKey()
    let authority: LocalAttestation.Authority
    let measurement: [UInt8]

    /// Evidence naming `executable`'s measurement.
    public init(authority: LocalAttestation.Authority, executable: URL) throws {
        self.authority = authority
        measurement = try LocalAttestation.measure(executable)
    }

    public func evidence(nonce: [UInt8]) async throws -> [UInt8] {
        try authority.attest(measurement: measurement, publicKey: Array(recipientKey.publicKey.derRepresentation), nonce: nonce)
    }
}
