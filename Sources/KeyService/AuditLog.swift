import Attestation
import KeyServiceClient
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One key-service decision, as written to the audit log. It identifies what was asked and why it
/// was decided so; it never holds key material, wrapped keys, ciphertexts or the evidence itself.
struct AuditRecord: Sendable, Encodable, Equatable {
    var time: Date
    var operation: String
    /// `permit` or `deny`.
    var decision: String
    /// `ok`, an `AttestationError.Reason` code, `key_policy_mismatch`, `invalid_ciphertext` or `bad_request`.
    var reason: String
    var keyID: String?
    var keyVersion: Int?
    /// For rewrap: the version the data key was moved to.
    var newKeyVersion: Int?
    var connectorID: UUID?
    var runtime: String?
    /// The first 16 hex digits of PCR0: enough to tell builds apart in an investigation.
    var pcr0Prefix: String?

    enum CodingKeys: String, CodingKey {
        case time, operation, decision, reason, runtime
        case keyID = "key_id", keyVersion = "key_version", newKeyVersion = "new_key_version"
        case connectorID = "connector_id", pcr0Prefix = "pcr0_prefix"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(time), forKey: .time)
        try container.encode(operation, forKey: .operation)
        try container.encode(decision, forKey: .decision)
        try container.encode(reason, forKey: .reason)
        try container.encodeIfPresent(keyID, forKey: .keyID)
        try container.encodeIfPresent(keyVersion, forKey: .keyVersion)
        try container.encodeIfPresent(newKeyVersion, forKey: .newKeyVersion)
        try container.encodeIfPresent(connectorID?.uuidString.lowercased(), forKey: .connectorID)
        try container.encodeIfPresent(runtime, forKey: .runtime)
        try container.encodeIfPresent(pcr0Prefix, forKey: .pcr0Prefix)
    }
}

/// An append-only JSON-lines file (mode 0600). Each record is one `write(2)` on a descriptor opened
/// with O_APPEND, so concurrent records never interleave and a crash loses at most the record being
/// written.
final class AuditLog: Sendable {
    let path: String
    // Immutable after init; write(2) on one descriptor is safe from many threads.
    private let descriptor: Int32

    init(path: String) throws(KeyConfigurationError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw KeyConfigurationError("cannot open audit log \(path): \(String(cString: strerror(errno)))")
        }
        // An existing file keeps its mode on open; the log names connectors, so tighten it.
        guard fchmod(descriptor, 0o600) == 0 else {
            let code = errno
            close(descriptor)
            throw KeyConfigurationError("cannot make audit log \(path) private: \(String(cString: strerror(code)))")
        }
    }

    deinit { close(descriptor) }

    /// Appends one line. Throws when the record did not reach the file, so a permit can be refused.
    func append(_ record: AuditRecord) throws(KeyConfigurationError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard var line = try? encoder.encode(record) else { throw KeyConfigurationError("audit record does not encode") }
        line.append(0x0a)
        let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
        guard written == line.count else {
            throw KeyConfigurationError("audit log \(path) write failed: \(written < 0 ? String(cString: strerror(errno)) : "short write")")
        }
    }
}
