import Crypto
import Foundation
import SwiftASN1
import X509

/// Alfred's local attestation provider, for machines without an enclave.
///
/// It produces documents in the Nitro format, verified by the same `AttestationVerifier` as real
/// ones: PCR0 is the SHA-384 of the attested process's executable file, PCR3 a hash of its OS user,
/// and the document is signed (ES384) by a fresh three-hour leaf certificate, issued by a local
/// *attestation authority* (standing in for the Nitro hypervisor's PKI), itself issued by a local
/// root that the key service pins.
///
/// Only the attestor (`alfred-attestor`, its own OS user) holds the authority key. It measures the
/// process that asks, from the kernel's view (peer credentials, then `/proc/<pid>/exe`), never from
/// what the caller says. So a modified broker binary gets a different PCR0 and is denied; replayed
/// or stale evidence fails the nonce and timestamp checks; a process without the authority key
/// cannot produce a valid chain. What it does NOT protect against: root on the host, which can read
/// the authority key or the broker's memory. A real enclave moves both into hardware; with Nitro
/// the key service trusts AWS's root instead, and nothing else in the design changes.
public enum LocalAttestation {
    public static let moduleIDPrefix = "alfred-local:"

    /// The local PKI made by `alfred-key-service init`: a root (its private key is not kept) and an authority.
    public struct Authority: Sendable {
        public let rootDER: [UInt8]
        public let authorityDER: [UInt8]
        let authorityKey: P384.Signing.PrivateKey

        /// A new root and authority. The root's private key is used once, to issue the authority,
        /// and then dropped: nothing can issue another authority under this root.
        public static func create(now: Date = Date()) throws -> Authority {
            let rootKey = P384.Signing.PrivateKey()
            let rootName = try DistinguishedName {
                CountryName("US"); OrganizationName("Alfred"); OrganizationalUnitName("local attestation")
                CommonName("alfred-local-attestation-root")
            }
            let root = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(rootKey.publicKey),
                notValidBefore: now.addingTimeInterval(-60), notValidAfter: now.addingTimeInterval(10 * 365 * 86_400),
                issuer: rootName, subject: rootName, signatureAlgorithm: .ecdsaWithSHA384,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                    Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                },
                issuerPrivateKey: .init(rootKey))
            let authorityKey = P384.Signing.PrivateKey()
            let authorityName = try DistinguishedName {
                CountryName("US"); OrganizationName("Alfred"); OrganizationalUnitName("local attestation")
                CommonName("alfred-local-attestation-authority")
            }
            let authority = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(authorityKey.publicKey),
                notValidBefore: now.addingTimeInterval(-60), notValidAfter: now.addingTimeInterval(2 * 365 * 86_400),
                issuer: rootName, subject: authorityName, signatureAlgorithm: .ecdsaWithSHA384,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                    Critical(KeyUsage(keyCertSign: true))
                },
                issuerPrivateKey: .init(rootKey))
            return Authority(rootDER: try Self.der(root), authorityDER: try Self.der(authority), authorityKey: authorityKey)
        }

        public init(rootDER: [UInt8], authorityDER: [UInt8], authorityKeyPEM: String) throws {
            self.rootDER = rootDER
            self.authorityDER = authorityDER
            authorityKey = try P384.Signing.PrivateKey(pemRepresentation: authorityKeyPEM)
        }

        private init(rootDER: [UInt8], authorityDER: [UInt8], authorityKey: P384.Signing.PrivateKey) {
            self.rootDER = rootDER
            self.authorityDER = authorityDER
            self.authorityKey = authorityKey
        }

        /// Loads what the attestor needs from the files `alfred-key-service init` wrote: the root and authority
        /// certificates (PEM) and the authority's private key (PEM, readable by the broker's user only).
        public init(rootPEMFile: URL, authorityPEMFile: URL, authorityKeyFile: URL) throws {
            func der(_ url: URL) throws -> [UInt8] {
                try PEMDocument(pemString: String(contentsOf: url, encoding: .utf8)).derBytes
            }
            try self.init(rootDER: der(rootPEMFile), authorityDER: der(authorityPEMFile),
                          authorityKeyPEM: String(contentsOf: authorityKeyFile, encoding: .utf8))
        }

        public var authorityKeyPEM: String { authorityKey.pemRepresentation }
        public var rootPEM: String { PEMDocument(type: "CERTIFICATE", derBytes: rootDER).pemString }
        public var authorityPEM: String { PEMDocument(type: "CERTIFICATE", derBytes: authorityDER).pemString }

        /// Evidence for a process whose executable is `executable`, binding `publicKey` (the DER of the
        /// key the key service must encrypt to) and the key service's `nonce`.
        public func attest(executable: URL, publicKey: [UInt8]?, nonce: [UInt8]?, userData: [UInt8]? = nil,
                           now: Date = Date()) throws -> [UInt8] {
            try attest(measurement: try LocalAttestation.measure(executable), publicKey: publicKey, nonce: nonce,
                       userData: userData, now: now)
        }

        /// Evidence with a measurement taken earlier — as an enclave's PCR0 is measured once, at launch.
        /// `uid` (the attested process's OS user) goes into PCR3; `pid` into the module id.
        public func attest(measurement: [UInt8], publicKey: [UInt8]?, nonce: [UInt8]?, userData: [UInt8]? = nil,
                           uid: UInt32? = nil, pid: Int32 = getpid(), now: Date = Date()) throws -> [UInt8] {
            let leafKey = P384.Signing.PrivateKey()
            let authority = try Certificate(derEncoded: authorityDER)
            let moduleID = LocalAttestation.moduleIDPrefix + (ProcessInfo.processInfo.hostName) + ":\(pid)"
            let leaf = try Certificate(
                version: .v3, serialNumber: .init(), publicKey: .init(leafKey.publicKey),
                notValidBefore: now.addingTimeInterval(-5), notValidAfter: now.addingTimeInterval(3 * 3600),
                issuer: authority.subject,
                subject: try DistinguishedName { OrganizationName("Alfred"); CommonName(moduleID) },
                signatureAlgorithm: .ecdsaWithSHA384,
                extensions: try Certificate.Extensions {
                    Critical(BasicConstraints.notCertificateAuthority)
                    Critical(KeyUsage(digitalSignature: true))
                },
                issuerPrivateKey: .init(authorityKey))
            var pcrs: [CBORPair] = (0..<16).map { CBORPair(key: .unsigned(UInt64($0)), value: .bytes(Array(repeating: 0, count: 48))) }
            pcrs[0] = CBORPair(key: .unsigned(0), value: .bytes(measurement))
            if let uid { pcrs[3] = CBORPair(key: .unsigned(3), value: .bytes(LocalAttestation.userMeasurement(uid: uid))) }
            let optional = { (value: [UInt8]?) in value.map(CBOR.bytes) ?? .null }
            let payload = CBOR.map([
                CBORPair(key: .text("module_id"), value: .text(moduleID)),
                CBORPair(key: .text("digest"), value: .text("SHA384")),
                CBORPair(key: .text("timestamp"), value: .unsigned(UInt64((now.timeIntervalSince1970 * 1000).rounded(.down)))),
                CBORPair(key: .text("pcrs"), value: .map(pcrs)),
                CBORPair(key: .text("certificate"), value: .bytes(try Self.der(leaf))),
                CBORPair(key: .text("cabundle"), value: .array([.bytes(rootDER), .bytes(authorityDER)])),
                CBORPair(key: .text("public_key"), value: optional(publicKey)),
                CBORPair(key: .text("user_data"), value: optional(userData)),
                CBORPair(key: .text("nonce"), value: optional(nonce)),
            ]).encoded()
            let protected = CBOR.map([CBORPair(key: .unsigned(1), value: .negative(34))]).encoded()  // {1: -35} ES384
            let signed = CBOR.array([.text("Signature1"), .bytes(protected), .bytes([]), .bytes(payload)]).encoded()
            let signature = try leafKey.signature(for: signed).rawRepresentation
            return CBOR.array([.bytes(protected), .map([]), .bytes(payload), .bytes(Array(signature))]).encoded()
        }

        static func der(_ certificate: Certificate) throws -> [UInt8] {
            var serializer = DER.Serializer()
            try serializer.serialize(certificate)
            return serializer.serializedBytes
        }
    }

    /// PCR0 of the local provider: SHA-384 of the executable file's bytes.
    public static func measure(_ executable: URL) throws -> [UInt8] {
        guard let handle = try? FileHandle(forReadingFrom: executable) else {
            throw AttestationError(.malformed, "cannot read executable \(executable.path) to measure it")
        }
        defer { try? handle.close() }
        var hash = SHA384()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty { hash.update(data: chunk) }
        return Array(hash.finalize())
    }

    /// PCR3 of the local provider: SHA-384 of `alfred-os-user:<uid>`, the OS user the attested process
    /// runs as (where Nitro puts the hash of the instance's IAM role). A policy may pin it.
    public static func userMeasurement(uid: UInt32) -> [UInt8] {
        Array(SHA384.hash(data: Data("alfred-os-user:\(uid)".utf8)))
    }

    /// The running process's own executable.
    public static var currentExecutable: URL {
        URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    }
}
