import AlfredCore
import Attestation
import Crypto
import Foundation
import KeyServiceClient
import SwiftASN1
import X509

/// The key service's directory, made by `alfred-key-service init` (mode 0700, owned by the key
/// service's OS user):
///
///     attestation-root.pem         the pinned attestation root (public)
///     key-policy.json              attestation rules and key versions (see `KeyPolicy`)
///     keys/<id>.v<n>.key           key-encryption keys, 32 raw bytes each (0600)
///     audit.log                    one JSON line per decision (0600, append only)
public struct KeyDirectory: Sendable {
    public let url: URL

    public init(_ url: URL) { self.url = url }

    public var rootCertificate: URL { url.appendingPathComponent("attestation-root.pem") }
    public var policy: URL { url.appendingPathComponent("key-policy.json") }
    public var keys: URL { url.appendingPathComponent("keys") }
    public var auditLog: URL { url.appendingPathComponent("audit.log") }

    /// What `initialize` wrote, for the operator (paths and the measurement; no key material).
    public struct Initialized: Sendable {
        public let directory: KeyDirectory
        public let files: [URL]
        public let keyID: String
        /// PCR0 (lower-case hex) of the allowed broker executable.
        public let measurement: String
    }

    /// Creates a key directory: a new local attestation PKI, version 1 of `keyID`, and a policy that
    /// allows the `alfred-local` runtime with the measurement of `brokerExecutable`. The authority's
    /// key goes to `attestorDirectory` (the attestor's, mode 0700), never into the key directory; with
    /// no attestor directory it is not written at all (the caller keeps `authority`).
    /// Refuses a directory that exists and is not empty unless `force` (which destroys its keys:
    /// anything wrapped under them can no longer be decrypted).
    public static func initialize(at url: URL, brokerExecutable: URL, keyID: String = "kek-main",
                                  authority: LocalAttestation.Authority? = nil, attestorDirectory: URL? = nil,
                                  force: Bool = false) throws -> Initialized {
        guard KeyPolicy.isValidKeyID(keyID) else {
            throw KeyConfigurationError("key id must be 1-64 letters, digits, '-' or '_'")
        }
        let directory = KeyDirectory(url)
        let existing = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        if !existing.isEmpty {
            guard force else {
                throw KeyConfigurationError("\(url.path) exists and is not empty; pass --force to replace its keys "
                    + "(data wrapped under them can then no longer be decrypted)")
            }
            for item in [directory.rootCertificate, directory.policy, directory.keys] {
                try? FileManager.default.removeItem(at: item)
            }
        }
        let measurement = AttestationVerifier.hex(try LocalAttestation.measure(brokerExecutable))
        let authority = try authority ?? LocalAttestation.Authority.create()

        try PrivateFile.createDirectory(url)
        try PrivateFile.create(directory.rootCertificate, contents: Data(authority.rootPEM.utf8))
        try PrivateFile.createDirectory(directory.keys)
        try KeyRing.write(SymmetricKey(size: .bits256), id: keyID, version: 1, to: directory.keys)
        let policy = KeyPolicy(
            attestation: AttestationPolicy(runtime: "alfred-local", measurements: [["PCR0": measurement]],
                                           maxAgeSeconds: 300, maxFutureSeconds: 30, requirePublicKey: true),
            keys: [keyID: .init(active: 1, allowed: [1])])
        try PrivateFile.create(directory.policy, contents: try policy.encoded())
        var files = [directory.rootCertificate, directory.keys.appendingPathComponent("\(keyID).v1.key"), directory.policy]
        if let attestorDirectory {
            let attestor = AttestorDirectory(attestorDirectory)
            for item in [attestor.rootCertificate, attestor.authorityCertificate, attestor.authorityKey] {
                if force { try? FileManager.default.removeItem(at: item) }
            }
            try PrivateFile.createDirectory(attestorDirectory)
            try PrivateFile.create(attestor.rootCertificate, contents: Data(authority.rootPEM.utf8))
            try PrivateFile.create(attestor.authorityCertificate, contents: Data(authority.authorityPEM.utf8))
            try PrivateFile.create(attestor.authorityKey, contents: Data(authority.authorityKeyPEM.utf8))
            files += [attestor.rootCertificate, attestor.authorityCertificate, attestor.authorityKey]
        }
        return Initialized(directory: directory, files: files, keyID: keyID, measurement: measurement)
    }

    /// Writes the next version of `keyID` and makes it active in the policy (the old versions stay
    /// allowed, so existing wrapped data keys still decrypt until they are rewrapped). The key file
    /// is written before the policy names it, so a running key service never sees a policy whose
    /// active key is missing. Returns the new version.
    public func rotate(keyID: String) throws -> Int {
        var policy = try KeyPolicy.load(from: self.policy)
        guard let versions = policy.keys[keyID] else {
            throw KeyConfigurationError("key \(keyID) is not in \(self.policy.lastPathComponent)")
        }
        let ring = try KeyRing.load(directory: keys)
        let version = max(ring.active[keyID] ?? 0, versions.allowed.max() ?? 0) + 1
        let file = keys.appendingPathComponent("\(keyID).v\(version).key")
        guard !FileManager.default.fileExists(atPath: file.path) else {
            throw KeyConfigurationError("\(file.lastPathComponent) already exists")
        }
        try KeyRing.write(SymmetricKey(size: .bits256), id: keyID, version: version, to: keys)
        policy.activate(keyID: keyID, version: version)
        try PrivateFile.replace(self.policy, contents: try policy.encoded())
        return version
    }

    /// Replaces the attestation authority without touching any key-encryption key: a new root and
    /// authority, the authority (certificate and key) into `attestorDirectory`, and the new root
    /// pinned here beside the one it replaces, so evidence from an attestor not restarted yet still
    /// verifies; roots older than that are dropped. The policy file is rewritten as it is, which makes
    /// a running key service reload. Returns the new authority's expiry.
    @discardableResult
    public func renewAuthority(attestorDirectory: URL, now: Date = Date()) throws -> Date {
        let authority = try LocalAttestation.Authority.create(now: now)
        let pinned: [PEMDocument]
        do {
            pinned = try PEMDocument.parseMultiple(pemString: String(contentsOf: rootCertificate, encoding: .utf8))
        } catch {
            throw KeyConfigurationError("cannot read the pinned roots in \(rootCertificate.path)")
        }
        let roots = (pinned.suffix(1).map(\.pemString) + [authority.rootPEM]).joined(separator: "\n")
        let attestor = AttestorDirectory(attestorDirectory)
        try PrivateFile.createDirectory(attestorDirectory)
        // The attestor's files first: until the key service pins the new root nothing signed with it
        // verifies, and the previous root stays pinned for evidence signed before the attestor restarts.
        try PrivateFile.replace(attestor.authorityKey, contents: Data(authority.authorityKeyPEM.utf8))
        try PrivateFile.replace(attestor.authorityCertificate, contents: Data(authority.authorityPEM.utf8))
        try PrivateFile.replace(attestor.rootCertificate, contents: Data(authority.rootPEM.utf8))
        try PrivateFile.replace(rootCertificate, contents: Data(roots.utf8))
        try PrivateFile.replace(policy, contents: try Data(contentsOf: policy))
        return try Certificate(derEncoded: authority.authorityDER).notValidAfter
    }

    /// Takes a version of a key-encryption key out of service for good: out of `allowed` in the
    /// policy, and its key file deleted. Refuses the active version. Run it only once no connector
    /// uses the version (`alfred keys kek-usage`): a data key wrapped under it can never be opened again.
    public func retire(keyID: String, version: Int) throws {
        var policy = try KeyPolicy.load(from: self.policy)
        guard let versions = policy.keys[keyID] else {
            throw KeyConfigurationError("key \(keyID) is not in \(self.policy.lastPathComponent)")
        }
        guard version != versions.active else {
            throw KeyConfigurationError("\(keyID) v\(version) is the active version: rotate first, rewrap, then retire it")
        }
        guard versions.allowed.contains(version) else {
            throw KeyConfigurationError("\(keyID) v\(version) is not allowed (already retired?); allowed: \(versions.allowed.sorted())")
        }
        policy.retire(keyID: keyID, version: version)
        // The policy first: the running key service stops using the version before its file goes.
        try PrivateFile.replace(self.policy, contents: try policy.encoded())
        try? FileManager.default.removeItem(at: keys.appendingPathComponent("\(keyID).v\(version).key"))
    }

    /// Everything a decision needs, read and cross-checked.
    func loadState() throws -> KeyServiceState {
        let policy = try KeyPolicy.load(from: self.policy)
        let ring: KeyRing
        do { ring = try KeyRing.load(directory: keys) } catch {
            throw KeyConfigurationError("cannot load keys from \(keys.path): \(error)")
        }
        for (id, versions) in policy.keys {
            for version in versions.allowed where !ring.hasKey(id, version: version) {
                throw KeyConfigurationError("\(self.policy.lastPathComponent) allows \(id) v\(version) but keys/\(id).v\(version).key is missing")
            }
        }
        let rootPEM: String
        do { rootPEM = try String(contentsOf: rootCertificate, encoding: .utf8) } catch {
            throw KeyConfigurationError("cannot read \(rootCertificate.path)")
        }
        let verifier: AttestationVerifier
        do { verifier = try AttestationVerifier(rootPEM: rootPEM) } catch {
            throw KeyConfigurationError("\(rootCertificate.lastPathComponent) holds no usable certificate")
        }
        return KeyServiceState(policy: policy, ring: ring, verifier: verifier)
    }

    /// Identifies one version of the policy file: a rename (how `rotate` replaces it) changes the
    /// inode, an edit in place the modification time or size.
    func policyStamp() -> PolicyStamp? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: policy.path) else { return nil }
        return PolicyStamp(inode: (attributes[.systemFileNumber] as? NSNumber)?.uint64Value ?? 0,
                           modified: attributes[.modificationDate] as? Date ?? .distantPast,
                           size: (attributes[.size] as? NSNumber)?.uint64Value ?? 0)
    }
}

struct PolicyStamp: Sendable, Equatable {
    let inode: UInt64
    let modified: Date
    let size: UInt64
}

/// The policy, keys and pinned root, as loaded together.
struct KeyServiceState: Sendable {
    let policy: KeyPolicy
    let ring: KeyRing
    let verifier: AttestationVerifier
}
