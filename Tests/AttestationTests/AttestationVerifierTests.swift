import AlfredTestKit
import Foundation
import Testing
@testable import Attestation

/// The verifier against genuine AWS Nitro attestation documents (`Tests/Fixtures/nitro`, whose README
/// gives their provenance) and the negative variants derived from them.
@Suite(.timeLimit(.minutes(5))) struct AttestationVerifierTests {
    static let fixtures = Repository.fixture("nitro")

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    static func verifier() throws -> AttestationVerifier {
        try AttestationVerifier(rootPEM: String(contentsOf: fixtures.appendingPathComponent("aws-nitro-root-g1.pem"), encoding: .utf8))
    }

    static func at(_ ms: UInt64, plus seconds: Double = 0) -> Date {
        Date(timeIntervalSince1970: Double(ms) / 1000 + seconds)
    }

    static let prod = "eternis-prod-2024-07-31.cbor"
    static let prodTimestamp: UInt64 = 1_722_457_107_047
    static let prodPCR0 = "a6cdfede5b1e7950de33218995add7d8f1f6e059c9cccd204316e69feaa2ce54f6f9ff6f5992db0f1ca6135f9b095b85"

    @Test func rootIsPinnedByTheFingerprintAWSPublishes() throws {
        #expect(try Self.verifier().trustedRoots == ["641a0321a3e244efe456463195d606317ed7cdcc3c1756e09893f3c68f79bb5b": "aws-nitro"])
    }

    @Test(arguments: [
        ("eternis-prod-2024-07-31.cbor", UInt64(1_722_457_107_047), "i-0809070ca8037095f-enc01910a70380dca7e"),
        ("eternis-debug-2024-09-09.cbor", UInt64(1_725_911_352_400), "i-0bbf1bfe232b8c2ce-enc0191ba35c9d1b77a"),
        ("uid2-debug-2021-04-26.cbor", UInt64(1_619_410_153_100), "i-0fd25f30661854f2b-enc01790c5d9eab829d"),
    ])
    func realDocumentsVerifyAtTheirOwnTimestamp(file: String, timestamp: UInt64, moduleID: String) throws {
        let verified = try Self.verifier().verify(try Self.bytes(file), policy: AttestationPolicy(), at: Self.at(timestamp))
        #expect(verified.document.moduleID == moduleID)
        #expect(verified.document.timestampMilliseconds == timestamp)
        #expect(verified.runtime == "aws-nitro")
        #expect(verified.document.pcrs.count == 16)
        #expect(verified.document.cabundle.count == 4)
    }

    @Test func decodesTheOptionalFieldsAsTheyAre() throws {
        let prod = try AttestationDocument(bytes: try Self.bytes(Self.prod))
        #expect(prod.publicKey == Array("dummy".utf8))
        #expect(prod.nonce == Array(repeating: 0, count: 19) + [1])
        #expect(prod.userData?.count == 68)
        #expect(AttestationVerifier.hex(prod.pcrs[0]!) == Self.prodPCR0)
        let uid2 = try AttestationDocument(bytes: try Self.bytes("uid2-debug-2021-04-26.cbor"))
        #expect(uid2.publicKey == nil && uid2.userData == nil && uid2.nonce == nil, "CBOR null reads as absent")
    }

    func reason(_ file: String, policy: AttestationPolicy = AttestationPolicy(), at: Date,
                nonce: (([UInt8]) -> Bool)? = nil) throws -> AttestationError.Reason? {
        do {
            _ = try Self.verifier().verify(try Self.bytes(file), policy: policy, at: at, nonce: nonce)
            return nil
        } catch let error as AttestationError {
            return error.reason
        }
    }

    @Test(arguments: [
        ("eternis-prod-2024-07-31.neg-payload-byte-flipped.cbor", AttestationError.Reason.invalidSignature),
        ("eternis-prod-2024-07-31.neg-signature-byte-flipped.cbor", .invalidSignature),
        ("eternis-prod-2024-07-31.neg-cabundle-root-replaced.cbor", .untrustedRoot),
        ("eternis-prod-2024-07-31.neg-forged-chain-resigned.cbor", .untrustedRoot),
    ])
    func negativeVariantsAreDeniedWithTheRightReason(file: String, expected: AttestationError.Reason) throws {
        #expect(try reason(file, at: Self.at(Self.prodTimestamp)) == expected)
    }

    @Test func certificatesAreCheckedAtTheVerificationTime() throws {
        // The leaf is valid 2024-07-31T20:18:24Z .. 23:18:27Z.
        #expect(try reason(Self.prod, at: Date()) == .certificateNotValidAtTime)
        let notAfter = Date(timeIntervalSince1970: 1_722_467_907)  // 23:18:27Z
        let notBefore = Date(timeIntervalSince1970: 1_722_457_104)  // 20:18:24Z
        let wide = AttestationPolicy(maxAgeSeconds: 86_400, maxFutureSeconds: 86_400)
        #expect(try reason(Self.prod, policy: wide, at: notAfter) == nil)
        #expect(try reason(Self.prod, policy: wide, at: notAfter.addingTimeInterval(1)) == .certificateNotValidAtTime)
        #expect(try reason(Self.prod, policy: wide, at: notBefore) == nil)
        #expect(try reason(Self.prod, policy: wide, at: notBefore.addingTimeInterval(-1)) == .certificateNotValidAtTime)
    }

    @Test func eachPolicyRuleDeniesOnItsOwn() throws {
        let at = Self.at(Self.prodTimestamp)
        let allowProd = [["PCR0": Self.prodPCR0]]
        #expect(try reason(Self.prod, policy: .init(runtime: "aws-nitro", measurements: allowProd), at: at) == nil)
        #expect(try reason(Self.prod, policy: .init(runtime: "alfred-local"), at: at) == .wrongRuntime)
        #expect(try reason(Self.prod, policy: .init(measurements: [["PCR0": String(repeating: "ab", count: 48)]]), at: at)
                == .measurementNotAllowed)
        #expect(try reason(Self.prod, policy: .init(measurements: [["PCR0": Self.prodPCR0, "PCR2": String(repeating: "00", count: 48)]]),
                           at: at) == .measurementNotAllowed, "every named PCR must match")
        #expect(try reason(Self.prod, policy: .init(measurements: []), at: at) == .measurementNotAllowed)
        #expect(try reason(Self.prod, at: Self.at(Self.prodTimestamp, plus: 301)) == .staleTimestamp)
        #expect(try reason(Self.prod, policy: .init(maxFutureSeconds: 1), at: Self.at(Self.prodTimestamp, plus: -2)) == .futureTimestamp)
        #expect(try reason(Self.prod, at: at, nonce: { _ in false }) == .nonceUnknownOrReplayed)
        #expect(try reason("uid2-debug-2021-04-26.cbor", at: Self.at(1_619_410_153_100), nonce: { _ in true }) == .nonceMissing)
        #expect(try reason("uid2-debug-2021-04-26.cbor", policy: .init(requirePublicKey: true), at: Self.at(1_619_410_153_100))
                == .publicKeyMissing)
    }

    @Test func debugEnclavesZeroMeasurementsNeverMatchTheAllowList() throws {
        let zeros = String(repeating: "00", count: 48)
        #expect(try reason("eternis-debug-2024-09-09.cbor", policy: .init(measurements: [["PCR0": zeros]]),
                           at: Self.at(1_725_911_352_400)) == .measurementNotAllowed)
    }

    @Test func aNonceIsAcceptedOnceThenRefusedAsAReplay() throws {
        var outstanding: Set<[UInt8]> = [Array(repeating: 0, count: 19) + [1]]
        let consume: ([UInt8]) -> Bool = { outstanding.remove($0) != nil }
        #expect(try reason(Self.prod, at: Self.at(Self.prodTimestamp), nonce: consume) == nil)
        #expect(try reason(Self.prod, at: Self.at(Self.prodTimestamp), nonce: consume) == .nonceUnknownOrReplayed)
    }

    /// Seeded and reproducible: thousands of mutated documents and random inputs are each rejected
    /// with a reason (or, for a mutation that changed nothing, accepted) — never a crash or a hang.
    /// Seconds of P-384 work in a debug build: it yields now and then, so the two cooperative threads
    /// this machine has are not taken from every other suite for that long.
    @Test func mutatedAndRandomDocumentsAreRejectedCleanly() async throws {
        let original = try Self.bytes(Self.prod)
        let verifier = try Self.verifier()
        var rng = SeededGenerator(seed: 20_261_121)
        var rejected = 0
        for round in 0..<1500 {
            if round % 10 == 0 { await Task.yield() }
            var bytes = original
            switch round % 4 {
            case 0:
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    bytes[Int.random(in: 0..<bytes.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng)
                }
            case 1: bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &rng)))
            case 2: bytes.insert(UInt8.random(in: 0...255, using: &rng), at: Int.random(in: 0...bytes.count, using: &rng))
            default: bytes = (0..<Int.random(in: 0...600, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            }
            do {
                _ = try verifier.verify(bytes, policy: AttestationPolicy(), at: Self.at(Self.prodTimestamp))
                #expect(bytes == original, "only the unmodified document may pass (round \(round))")
            } catch {
                rejected += 1
            }
        }
        #expect(rejected >= 1490)
    }
}
