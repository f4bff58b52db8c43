import AlfredCore
import Crypto
import Foundation
import SwiftASN1
import X509

/// What the verifier requires beyond authenticity. Loaded from the key policy file.
public struct AttestationPolicy: Sendable, Codable, Equatable {
    /// The runtime the evidence must come from (`aws-nitro` or `alfred-local`); nil accepts any.
    public var runtime: String?
    /// Allowed measurements. A document matches an entry when every PCR it names is equal, e.g.
    /// `{"PCR0": "<96 hex>"}`. Nil means "measurements not checked" (only for authenticity checks by
    /// operators); an empty list allows nothing. All-zero values (debug enclaves) never match.
    public var measurements: [[String: String]]?
    public var maxAgeSeconds: Double
    public var maxFutureSeconds: Double
    public var requirePublicKey: Bool

    public init(runtime: String? = nil, measurements: [[String: String]]? = nil, maxAgeSeconds: Double = 300,
                maxFutureSeconds: Double = 30, requirePublicKey: Bool = false) {
        self.runtime = runtime
        self.measurements = measurements
        self.maxAgeSeconds = maxAgeSeconds
        self.maxFutureSeconds = maxFutureSeconds
        self.requirePublicKey = requirePublicKey
    }

    enum CodingKeys: String, CodingKey {
        case runtime, measurements
        case maxAgeSeconds = "max_age_seconds", maxFutureSeconds = "max_future_seconds"
        case requirePublicKey = "require_public_key"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(runtime: try c.decodeIfPresent(String.self, forKey: .runtime),
                  measurements: try c.decodeIfPresent([[String: String]].self, forKey: .measurements),
                  maxAgeSeconds: try c.decodeIfPresent(Double.self, forKey: .maxAgeSeconds) ?? 300,
                  maxFutureSeconds: try c.decodeIfPresent(Double.self, forKey: .maxFutureSeconds) ?? 30,
                  requirePublicKey: try c.decodeIfPresent(Bool.self, forKey: .requirePublicKey) ?? false)
    }
}

/// Evidence that passed every check.
public struct VerifiedAttestation: Sendable {
    public let document: AttestationDocument
    public let runtime: String
    /// When the first CA of the chain (the pinned root or an authority under it) stops being valid:
    /// from then on no evidence verifies until the authority is renewed.
    public let chainExpiresAt: Date
}

/// Verifies attestation documents exactly as a real Nitro document is verified: the chain from the
/// pinned root (by SHA-256 of its DER) through `cabundle` to `certificate`, link by link by name and
/// signature (real Nitro leaves carry no key identifiers), CA flags, path lengths and key usage, all
/// valid at the given time; then the COSE ES384 signature with the leaf key; then the policy.
public struct AttestationVerifier: Sendable {
    /// The runtime each trusted root stands for, by lower-case hex SHA-256 of the root's DER. The
    /// runtime a document comes from is the one of the root its chain ends at: nothing the document
    /// says about itself (such as `module_id`) can change it.
    public let trustedRoots: [String: String]

    /// SHA-256 of the DER of AWS's Nitro Enclaves root (G1): documents chaining to it are `aws-nitro`.
    public static let awsNitroRootG1SHA256 = "641a0321a3e244efe456463195d606317ed7cdcc3c1756e09893f3c68f79bb5b"

    public init(trustedRoots: [String: String]) {
        self.trustedRoots = Dictionary(trustedRoots.map { ($0.key.lowercased().replacingOccurrences(of: ":", with: ""), $0.value) },
                                       uniquingKeysWith: { first, _ in first })
    }

    /// Pins the root certificates in a PEM file: AWS's Nitro root as `aws-nitro`, any other as
    /// `alfred-local` (a root `alfred-key-service init` made).
    public init(rootPEM: String) throws {
        let documents = try PEMDocument.parseMultiple(pemString: rootPEM)
        guard !documents.isEmpty else { throw AttestationError(.untrustedRoot, "no certificate in the root PEM") }
        self.init(trustedRoots: Dictionary(documents.map { document in
            let fingerprint = Self.sha256Hex(document.derBytes)
            return (fingerprint, fingerprint == Self.awsNitroRootG1SHA256 ? "aws-nitro" : "alfred-local")
        }, uniquingKeysWith: { first, _ in first }))
    }

    /// Checks, in order: structure, algorithm, root pin, chain, validity at `now`, signature,
    /// runtime, measurement, freshness, public key, nonce. The first failure decides the reason.
    /// `nonce` consumes a nonce and returns false when it was not issued or already used.
    public func verify(_ bytes: [UInt8], policy: AttestationPolicy, at now: Date,
                       nonce: ((_ nonce: [UInt8]) -> Bool)? = nil) throws(AttestationError) -> VerifiedAttestation {
        let document: AttestationDocument
        do { document = try AttestationDocument(bytes: bytes) } catch let error as AttestationError { throw error }
        catch { throw AttestationError(.malformed, "\(error)") }
        guard document.algorithm == AttestationDocument.es384 else {
            throw AttestationError(.unsupportedAlgorithm, "COSE algorithm \(document.algorithm), expected ES384 (-35)")
        }
        guard document.digest == "SHA384" else { throw AttestationError(.malformed, "digest \(document.digest), expected SHA384") }

        let (leaf, chainExpiresAt) = try verifyChain(document, at: now)
        guard let key = P384.Signing.PublicKey(leaf.publicKey),
              let signature = try? P384.Signing.ECDSASignature(rawRepresentation: document.signature),
              key.isValidSignature(signature, for: document.signedBytes)
        else { throw AttestationError(.invalidSignature, "the COSE signature does not verify with the leaf certificate's P-384 key") }

        let runtime = self.runtime(of: document) ?? "unknown"
        if let expected = policy.runtime, expected != runtime {
            throw AttestationError(.wrongRuntime, "evidence is from runtime \(runtime), policy expects \(expected)")
        }
        if let allowed = policy.measurements, !Self.matches(document.pcrs, allowed) {
            let pcr0 = document.pcrs[0].map(Self.hex) ?? "absent"
            throw AttestationError(.measurementNotAllowed, "PCR0 \(pcr0) is not in the allow-list")
        }
        let age = now.timeIntervalSince(document.timestamp)
        if age > policy.maxAgeSeconds {
            throw AttestationError(.staleTimestamp, String(format: "document is %.0f s old; at most %.0f s allowed", age, policy.maxAgeSeconds))
        }
        if -age > policy.maxFutureSeconds {
            throw AttestationError(.futureTimestamp, String(format: "document is dated %.0f s in the future", -age))
        }
        if policy.requirePublicKey && document.publicKey == nil {
            throw AttestationError(.publicKeyMissing, "evidence carries no public key to encrypt the data key to")
        }
        if let nonce {
            guard let value = document.nonce else { throw AttestationError(.nonceMissing, "evidence carries no nonce") }
            guard nonce(value) else { throw AttestationError(.nonceUnknownOrReplayed, "nonce was not issued here, expired, or was used before") }
        }
        return VerifiedAttestation(document: document, runtime: runtime, chainExpiresAt: chainExpiresAt)
    }

    private func verifyChain(_ document: AttestationDocument, at now: Date) throws(AttestationError) -> (leaf: Certificate, caExpiry: Date) {
        guard trustedRoots[Self.sha256Hex(document.cabundle[0])] != nil else {
            throw AttestationError(.untrustedRoot, "cabundle[0] is not the pinned attestation root")
        }
        var chain: [Certificate] = []
        for (index, der) in (document.cabundle + [document.certificate]).enumerated() {
            do { chain.append(try Certificate(derEncoded: der)) } catch {
                throw AttestationError(.malformed, "certificate \(Self.position(index, of: document)) is not valid DER X.509")
            }
        }
        let root = chain[0]
        guard root.subject == root.issuer, root.publicKey.isValidSignature(root.signature, for: root) else {
            throw AttestationError(.invalidChain, "the pinned root is not self-signed")
        }
        for index in chain.indices {
            let certificate = chain[index]
            let name = Self.position(index, of: document)
            let second = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
            guard certificate.notValidBefore <= now && second <= certificate.notValidAfter else {
                throw AttestationError(.certificateNotValidAtTime,
                                       "\(name) is valid \(Self.iso(certificate.notValidBefore)) to \(Self.iso(certificate.notValidAfter)), not at \(Self.iso(now))")
            }
            let isLeaf = index == chain.count - 1
            let constraints = try? certificate.extensions.basicConstraints
            let usage = try? certificate.extensions.keyUsage
            if isLeaf {
                if case .isCertificateAuthority? = constraints {
                    throw AttestationError(.invalidChain, "the signing certificate is a CA")
                }
                if let usage, !usage.digitalSignature {
                    throw AttestationError(.invalidChain, "the signing certificate may not sign (keyUsage)")
                }
            } else {
                guard case .isCertificateAuthority(let maxPathLength)? = constraints else {
                    throw AttestationError(.invalidChain, "\(name) is not a CA")
                }
                let intermediatesBelow = chain.count - 2 - index
                if let maxPathLength, intermediatesBelow > maxPathLength {
                    throw AttestationError(.invalidChain, "\(name) allows \(maxPathLength) CAs below it, the chain has \(intermediatesBelow)")
                }
                if let usage, !usage.keyCertSign {
                    throw AttestationError(.invalidChain, "\(name) may not sign certificates (keyUsage)")
                }
            }
            guard index > 0 else { continue }
            let issuer = chain[index - 1]
            guard certificate.issuer == issuer.subject else {
                throw AttestationError(.invalidChain, "\(name) names an issuer other than \(Self.position(index - 1, of: document))")
            }
            guard issuer.publicKey.isValidSignature(certificate.signature, for: certificate) else {
                throw AttestationError(.invalidChain, "\(name) is not signed by \(Self.position(index - 1, of: document))")
            }
        }
        return (chain[chain.count - 1], chain.dropLast().map(\.notValidAfter).min() ?? .distantFuture)
    }

    /// The runtime of the pinned root `cabundle[0]` names, or nil when it is not pinned here. Before
    /// verification this is only a claim (the key service's audit records it as such).
    public func runtime(of document: AttestationDocument) -> String? {
        document.cabundle.first.flatMap { trustedRoots[Self.sha256Hex($0)] }
    }

    static func matches(_ pcrs: [Int: [UInt8]], _ allowed: [[String: String]]) -> Bool {
        allowed.contains { entry in
            !entry.isEmpty && entry.allSatisfy { name, expected in
                guard let index = Int(name.uppercased().replacingOccurrences(of: "PCR", with: "")),
                      let value = pcrs[index], value.contains(where: { $0 != 0 })
                else { return false }
                return hex(value) == expected.lowercased()
            }
        }
    }

    static func position(_ index: Int, of document: AttestationDocument) -> String {
        index < document.cabundle.count ? "cabundle[\(index)]" : "the signing certificate"
    }

    public static func sha256Hex(_ bytes: [UInt8]) -> String { hex(Array(SHA256.hash(data: bytes))) }
    public static func hex(_ bytes: [UInt8]) -> String { Hex.encode(bytes) }
    static func iso(_ date: Date) -> String { date.formatted(.iso8601) }
}

