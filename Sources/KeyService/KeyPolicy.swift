import Attestation
import KeyServiceClient
import Foundation

/// The key service's rules, read from `key-policy.json`: the attestation rules (the same keys as
/// `AttestationPolicy`, at the top level) plus which key-encryption keys may be used:
///
///     {"runtime": "alfred-local", "measurements": [{"PCR0": "<96 hex>"}],
///      "max_age_seconds": 300, "max_future_seconds": 30, "require_public_key": true,
///      "keys": {"kek-main": {"active": 1, "allowed": [1]}}}
///
/// Decrypt and rewrap accept only allowed versions of listed key ids; generate and rewrap use the
/// active version. Anything else is denied with `key_policy_mismatch`.
public struct KeyPolicy: Sendable, Equatable, Codable {
    public var attestation: AttestationPolicy
    public var keys: [String: KeyVersions]

    public struct KeyVersions: Sendable, Equatable, Codable {
        /// The version new data keys are wrapped under.
        public var active: Int
        /// The versions a wrapped data key may be under (the active one included).
        public var allowed: [Int]

        public init(active: Int, allowed: [Int]) {
            self.active = active
            self.allowed = allowed
        }
    }

    public init(attestation: AttestationPolicy, keys: [String: KeyVersions]) {
        self.attestation = attestation
        self.keys = keys
    }

    enum CodingKeys: String, CodingKey { case keys }

    // The attestation rules sit at the top level of the file, next to "keys", so the same file also
    // works as `alfred attestation verify --policy`.
    public init(from decoder: any Decoder) throws {
        attestation = try AttestationPolicy(from: decoder)
        keys = try decoder.container(keyedBy: CodingKeys.self).decode([String: KeyVersions].self, forKey: .keys)
    }

    public func encode(to encoder: any Encoder) throws {
        try attestation.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(keys, forKey: .keys)
    }

    /// Reads and validates a policy file.
    public static func load(from url: URL) throws(KeyConfigurationError) -> KeyPolicy {
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw KeyConfigurationError("cannot read \(url.path)")
        }
        let policy: KeyPolicy
        do { policy = try JSONDecoder().decode(KeyPolicy.self, from: data) } catch {
            throw KeyConfigurationError("\(url.lastPathComponent) is not a valid key policy: \(Self.describe(error))")
        }
        try policy.validate()
        return policy
    }

    /// The file's bytes: pretty, with sorted keys, so operators can diff it.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// Rejects policies that would release keys more widely than the operator can have meant.
    public func validate() throws(KeyConfigurationError) {
        guard attestation.requirePublicKey else {
            throw KeyConfigurationError("require_public_key must be true: data keys are only released encrypted to the evidence's key")
        }
        guard let runtime = attestation.runtime, !runtime.isEmpty else {
            throw KeyConfigurationError("runtime must name the runtime the broker runs in (alfred-local or aws-nitro)")
        }
        guard let measurements = attestation.measurements else {
            throw KeyConfigurationError("measurements must list the allowed broker measurements (an empty list allows none)")
        }
        for entry in measurements {
            guard !entry.isEmpty else { throw KeyConfigurationError("a measurements entry is empty; it would name no PCR") }
            for (name, value) in entry {
                guard name.uppercased().hasPrefix("PCR"), let index = Int(name.dropFirst(3)), (0...31).contains(index) else {
                    throw KeyConfigurationError("measurement name \(name) must be PCR0 ... PCR31")
                }
                guard [64, 96, 128].contains(value.count), value.allSatisfy(\.isHexDigit) else {
                    throw KeyConfigurationError("measurement \(name) must be 64, 96 or 128 hex digits")
                }
            }
        }
        guard attestation.maxAgeSeconds > 0, attestation.maxFutureSeconds >= 0 else {
            throw KeyConfigurationError("max_age_seconds must be positive and max_future_seconds not negative")
        }
        for (id, versions) in keys {
            guard Self.isValidKeyID(id) else {
                throw KeyConfigurationError("key id \(id.prefix(64)) must be 1-64 letters, digits, '-' or '_'")
            }
            guard versions.allowed.allSatisfy({ $0 > 0 }), versions.allowed.contains(versions.active) else {
                throw KeyConfigurationError("key \(id): active version \(versions.active) must be one of the allowed versions, all positive")
            }
        }
    }

    /// The version `generate` and `rewrap` use for `keyID`.
    public func activeVersion(of keyID: String) throws(AttestationError) -> Int {
        guard let versions = keys[keyID] else {
            throw AttestationError(.keyPolicyMismatch, "key id is not in the key policy")
        }
        return versions.active
    }

    /// Whether a data key wrapped under `keyID` v`version` may be unwrapped.
    public func checkAllowed(keyID: String, version: Int) throws(AttestationError) {
        guard let versions = keys[keyID] else {
            throw AttestationError(.keyPolicyMismatch, "key id is not in the key policy")
        }
        guard versions.allowed.contains(version) else {
            throw AttestationError(.keyPolicyMismatch, "version \(version) of \(keyID) is not allowed by the key policy")
        }
    }

    /// Makes `version` the active version of `keyID` and allows it.
    public mutating func activate(keyID: String, version: Int) {
        var versions = keys[keyID] ?? KeyVersions(active: version, allowed: [])
        versions.active = version
        if !versions.allowed.contains(version) { versions.allowed.append(version) }
        keys[keyID] = versions
    }

    /// Removes `version` from `keyID`'s allowed versions (the caller has checked it is not active).
    public mutating func retire(keyID: String, version: Int) {
        keys[keyID]?.allowed.removeAll { $0 == version }
    }

    /// Key ids end up in file names, audit records and associated data, so they are kept plain.
    public static func isValidKeyID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }
    }

    static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "missing \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not JSON" : "bad value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: return "unreadable"
        }
    }
}

/// The key service's files or policy are unusable. The description names the file and the rule,
/// never key material.
public struct KeyConfigurationError: Error, CustomStringConvertible, Sendable, Equatable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
