import Foundation

/// A Nitro-format attestation document: COSE_Sign1 (ES384) over a CBOR payload naming the module,
/// its measurements (PCRs), the signing certificate and its chain (root first), and optional
/// public key, user data and nonce. The same format is produced by a real Nitro Secure Module and
/// by Alfred's local attestation provider.
public struct AttestationDocument: Sendable, Equatable {
    /// The COSE protected header bytes, exactly as signed.
    public let protectedHeader: [UInt8]
    /// The payload bytes, exactly as signed.
    public let payload: [UInt8]
    /// Raw `r || s` (96 bytes for ES384).
    public let signature: [UInt8]
    public let algorithm: Int

    public let moduleID: String
    public let digest: String
    /// Milliseconds since the UNIX epoch.
    public let timestampMilliseconds: UInt64
    public let pcrs: [Int: [UInt8]]
    public let certificate: [UInt8]
    /// DER certificates, root first.
    public let cabundle: [[UInt8]]
    public let publicKey: [UInt8]?
    public let userData: [UInt8]?
    public let nonce: [UInt8]?

    /// COSE algorithm identifier for ECDSA P-384 with SHA-384.
    public static let es384 = -35
    /// Documents are at most 16 KiB of payload; refuse anything much larger before decoding.
    public static let maxSize = 32 * 1024

    public var timestamp: Date { Date(timeIntervalSince1970: Double(timestampMilliseconds) / 1000) }

    /// Parses (without verifying) a document. Throws `AttestationError.malformed` with a reason.
    public init(bytes: [UInt8]) throws {
        guard bytes.count <= Self.maxSize else { throw AttestationError(.malformed, "document larger than \(Self.maxSize) bytes") }
        var item: CBOR
        do { item = try CBOR.decode(bytes) } catch { throw AttestationError(.malformed, "not CBOR: \(error)") }
        if case .tagged(18, let inner) = item { item = inner }  // COSE_Sign1 tag is optional
        guard case .array(let parts) = item, parts.count == 4,
              case .bytes(let protected) = parts[0], case .map = parts[1],
              case .bytes(let payload) = parts[2], case .bytes(let signature) = parts[3]
        else { throw AttestationError(.malformed, "not a COSE_Sign1 structure") }
        let header: CBOR
        do { header = try CBOR.decode(protected) } catch { throw AttestationError(.malformed, "protected header is not CBOR") }
        guard case .negative(let n)? = header[1], n < 1 << 31 else {
            throw AttestationError(.unsupportedAlgorithm, "protected header names no algorithm")
        }
        algorithm = -1 - Int(n)
        protectedHeader = protected
        self.payload = payload
        self.signature = signature

        let body: CBOR
        do { body = try CBOR.decode(payload) } catch { throw AttestationError(.malformed, "payload is not CBOR: \(error)") }
        guard case .text(let moduleID)? = body["module_id"], !moduleID.isEmpty else { throw Self.missing("module_id") }
        guard case .text(let digest)? = body["digest"] else { throw Self.missing("digest") }
        guard case .unsigned(let timestamp)? = body["timestamp"], timestamp > 0 else { throw Self.missing("timestamp") }
        guard case .map(let pcrPairs)? = body["pcrs"], (1...32).contains(pcrPairs.count) else { throw Self.missing("pcrs") }
        var pcrs: [Int: [UInt8]] = [:]
        for pair in pcrPairs {
            guard case .unsigned(let index) = pair.key, index < 32, case .bytes(let value) = pair.value,
                  [32, 48, 64].contains(value.count)
            else { throw AttestationError(.malformed, "pcrs must map 0...31 to 32, 48 or 64 bytes") }
            pcrs[Int(index)] = value
        }
        guard case .bytes(let certificate)? = body["certificate"], !certificate.isEmpty else { throw Self.missing("certificate") }
        guard case .array(let bundle)? = body["cabundle"], !bundle.isEmpty else { throw Self.missing("cabundle") }
        var cabundle: [[UInt8]] = []
        for entry in bundle {
            guard case .bytes(let der) = entry, !der.isEmpty else { throw AttestationError(.malformed, "cabundle entries must be bytes") }
            cabundle.append(der)
        }
        self.moduleID = moduleID
        self.digest = digest
        self.timestampMilliseconds = timestamp
        self.pcrs = pcrs
        self.certificate = certificate
        self.cabundle = cabundle
        publicKey = try Self.optionalBytes(body["public_key"], "public_key", max: 1024)
        userData = try Self.optionalBytes(body["user_data"], "user_data", max: 512)
        nonce = try Self.optionalBytes(body["nonce"], "nonce", max: 512)
    }

    /// The bytes the signature covers: `["Signature1", protected, h'', payload]`.
    public var signedBytes: [UInt8] {
        CBOR.array([.text("Signature1"), .bytes(protectedHeader), .bytes([]), .bytes(payload)]).encoded()
    }

    private static func missing(_ field: String) -> AttestationError {
        AttestationError(.malformed, "required field \(field) is missing or has the wrong type")
    }

    private static func optionalBytes(_ value: CBOR?, _ field: String, max: Int) throws -> [UInt8]? {
        switch value {
        case nil, .null?: return nil
        case .bytes(let bytes)? where bytes.count <= max: return bytes
        default: throw AttestationError(.malformed, "\(field) must be bytes of at most \(max), or null")
        }
    }
}

/// Why evidence was refused. Codes are stable strings: they label metrics and audit records.
public struct AttestationError: Error, Equatable, CustomStringConvertible, Sendable {
    public enum Reason: String, Sendable, CaseIterable {
        case malformed = "malformed_document"
        case unsupportedAlgorithm = "unsupported_algorithm"
        case untrustedRoot = "untrusted_root"
        case invalidChain = "invalid_chain"
        case certificateNotValidAtTime = "certificate_not_valid_at_time"
        case invalidSignature = "invalid_signature"
        case wrongRuntime = "wrong_runtime"
        case measurementNotAllowed = "measurement_not_allowed"
        case staleTimestamp = "stale_timestamp"
        case futureTimestamp = "future_timestamp"
        case nonceMissing = "nonce_missing"
        case nonceUnknownOrReplayed = "nonce_unknown_or_replayed"
        case publicKeyMissing = "public_key_missing"
        case keyPolicyMismatch = "key_policy_mismatch"
    }

    public let reason: Reason
    /// Safe to log and print: names fields, certificates by position and times; never key material.
    public let detail: String

    public init(_ reason: Reason, _ detail: String) {
        self.reason = reason
        self.detail = detail
    }

    public var description: String { "\(reason.rawValue): \(detail)" }
}
