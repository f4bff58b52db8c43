import Attestation
import KeyServiceClient
import AlfredCore
import Crypto
import Foundation
import Logging
import Metrics
import Synchronization

/// A request the key service refused or could not carry out, with the code it answers with.
struct KeyGateRefusal: Error, Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        /// A release rule failed (HTTP 403): an `AttestationError.Reason` code or `key_policy_mismatch`.
        case denied
        /// The request is malformed (HTTP 400 `bad_request`).
        case badRequest
        /// The wrapped key does not unwrap under the given key and context (HTTP 400 `invalid_ciphertext`).
        case invalidCiphertext
        /// The key service cannot decide or cannot record its decision (HTTP 503).
        case unavailable
    }

    let kind: Kind
    let code: String
    /// Safe to return and log: names rules, fields and versions, never key material.
    let message: String

    static func badRequest(_ message: String) -> KeyGateRefusal { .init(kind: .badRequest, code: "bad_request", message: message) }
    static func denied(_ error: AttestationError) -> KeyGateRefusal { .init(kind: .denied, code: error.reason.rawValue, message: error.detail) }
    static let invalidCiphertext = KeyGateRefusal(
        kind: .invalidCiphertext, code: "invalid_ciphertext",
        message: "the wrapped key does not unwrap under this key id, version, connector and user")
}

/// The key service's decisions: checks evidence and the key policy, performs the operation, and
/// audits and counts every outcome. Knows nothing of HTTP (`KeyServer` maps refusals to statuses).
///
/// Order of checks for a release: the request is well-formed; the evidence verifies against the
/// pinned root and the attestation rules, consuming the nonce; the key id and version match the key
/// policy; then the operation. Key-policy checks come after attestation so an unattested caller
/// learns nothing about which keys exist.
final class KeyGate: Sendable {
    enum Operation: String, Sendable, CaseIterable {
        case generateDataKey = "generate_data_key", decrypt, rewrap
    }

    static let decisionsMetric = MetricName.keyServiceDecisions
    static let auditFailuresMetric = MetricName.keyServiceAuditFailures

    let directory: KeyDirectory
    let nonces: NonceStore
    let audit: AuditLog
    let now: @Sendable () -> Date
    let logger: Logger
    private let current: Mutex<(stamp: PolicyStamp?, state: KeyServiceState)>

    init(directory: KeyDirectory, nonces: NonceStore, audit: AuditLog, now: @escaping @Sendable () -> Date, logger: Logger) throws {
        self.directory = directory
        self.nonces = nonces
        self.audit = audit
        self.now = now
        self.logger = logger
        let stamp = directory.policyStamp()
        current = Mutex((stamp, try directory.loadState()))
    }

    // MARK: Operations

    func issueNonce() -> NonceResponse {
        NonceResponse(nonce: Base64.encode(nonces.issue(now: now())), expiresInSeconds: Int(nonces.lifetime.rounded()))
    }

    func generateDataKey(_ request: GenerateDataKeyRequest) throws(KeyGateRefusal) -> GenerateDataKeyResponse {
        try release(.generateDataKey, keyID: request.keyID, keyVersion: nil, connectorID: request.connectorID,
                    attestation: request.attestation) { (state, recipient) throws(KeyGateRefusal) in
            let version: Int
            do throws(AttestationError) { version = try state.policy.activeVersion(of: request.keyID) } catch { throw .denied(error) }
            let context = TokenContext(connectorID: request.connectorID, userID: request.userID, keyID: request.keyID, keyVersion: version)
            let generated: (dataKey: SymmetricKey, wrapped: [UInt8])
            do { generated = try state.ring.generateDataKey(for: context) } catch { throw Self.missingKey(request.keyID, version) }
            let sealed = try Self.seal(generated.dataKey, to: recipient)
            let response = GenerateDataKeyResponse(keyVersion: version, wrappedKey: Base64.encode(generated.wrapped),
                                                   ciphertextForRecipient: Base64.encode(sealed))
            return (response, version, nil)
        }
    }

    func decrypt(_ request: WrappedKeyRequest) throws(KeyGateRefusal) -> DecryptResponse {
        try release(.decrypt, keyID: request.keyID, keyVersion: request.keyVersion, connectorID: request.connectorID,
                    attestation: request.attestation, wrappedKey: request.wrappedKey) { (state, recipient) throws(KeyGateRefusal) in
            do throws(AttestationError) { try state.policy.checkAllowed(keyID: request.keyID, version: request.keyVersion) } catch { throw .denied(error) }
            let dataKey = try Self.unwrap(request, with: state.ring)
            let sealed = try Self.seal(dataKey, to: recipient)
            return (DecryptResponse(ciphertextForRecipient: Base64.encode(sealed)), request.keyVersion, nil)
        }
    }

    func rewrap(_ request: WrappedKeyRequest) throws(KeyGateRefusal) -> RewrapResponse {
        try release(.rewrap, keyID: request.keyID, keyVersion: request.keyVersion, connectorID: request.connectorID,
                    attestation: request.attestation, wrappedKey: request.wrappedKey) { (state, _) throws(KeyGateRefusal) in
            let active: Int
            do throws(AttestationError) {
                try state.policy.checkAllowed(keyID: request.keyID, version: request.keyVersion)
                active = try state.policy.activeVersion(of: request.keyID)
            } catch { throw .denied(error) }
            let dataKey = try Self.unwrap(request, with: state.ring)
            let wrapped: [UInt8]
            do { wrapped = try state.ring.wrap(dataKey, for: request.context.with(keyVersion: active)) } catch {
                throw Self.missingKey(request.keyID, active)
            }
            return (RewrapResponse(keyVersion: active, wrappedKey: Base64.encode(wrapped)), request.keyVersion, active)
        }
    }

    /// Audits and counts a request that could not even be read, and returns its refusal.
    func refuseMalformed(_ operation: Operation, _ message: String) -> KeyGateRefusal {
        let refusal = KeyGateRefusal.badRequest(message)
        recordRefusal(operation, AuditRecord(time: now(), operation: operation.rawValue, decision: "deny", reason: refusal.code), refusal)
        return refusal
    }

    // MARK: The release path

    private func release<Result>(
        _ operation: Operation, keyID: String, keyVersion: Int?, connectorID: UUID, attestation: String, wrappedKey: String? = nil,
        _ perform: (KeyServiceState, _ recipient: [UInt8]) throws(KeyGateRefusal) -> (Result, version: Int, newVersion: Int?)
    ) throws(KeyGateRefusal) -> Result {
        let time = now()
        var record = AuditRecord(time: time, operation: operation.rawValue, decision: "deny", reason: "",
                                 keyID: keyID, keyVersion: keyVersion, connectorID: connectorID)
        do throws(KeyGateRefusal) {
            guard KeyPolicy.isValidKeyID(keyID) else {
                record.keyID = nil  // not a plain id: keep it out of the audit log
                throw .badRequest("key_id must be 1-64 letters, digits, '-' or '_'")
            }
            if let keyVersion, keyVersion < 1 { throw .badRequest("key_version must be positive") }
            guard let evidence = Base64.decode(attestation) else { throw .badRequest("attestation is not base64") }
            // Checked before verification so a malformed request does not use up its nonce.
            if let wrappedKey, Base64.decode(wrappedKey) == nil { throw .badRequest("wrapped_key is not base64") }
            let state = currentState()
            // Before verification, for the audit record only: which build and runtime asked.
            if let document = try? AttestationDocument(bytes: evidence) { Self.describe(document, runtime: state.verifier.runtime(of: document), into: &record) }

            let verified: VerifiedAttestation
            do {
                verified = try state.verifier.verify(evidence, policy: state.policy.attestation, at: time,
                                                     nonce: { self.nonces.consume($0, now: time) })
            } catch { throw .denied(error) }
            Self.describe(verified.document, runtime: verified.runtime, into: &record)
            Gauge(label: MetricName.attestationChainExpiry).record(verified.chainExpiresAt.timeIntervalSince1970)
            guard let recipient = verified.document.publicKey else {
                // The policy requires a public key (checked at load), so the verifier already refused this.
                throw .denied(AttestationError(.publicKeyMissing, "evidence carries no public key to encrypt the data key to"))
            }

            let (result, version, newVersion) = try perform(state, recipient)
            record.decision = "permit"
            record.reason = "ok"
            record.keyVersion = version
            record.newKeyVersion = newVersion
            do { try audit.append(record) } catch {
                logger.error("audit log write failed; refusing the release", metadata: ["alfred.error": "\(error)"])
                Counter(label: Self.auditFailuresMetric).increment()
                throw Self.auditUnavailable
            }
            count(operation, decision: "permit", reason: "ok")
            logger.debug("key release permitted", metadata: ["alfred.key.operation": "\(operation.rawValue)"])
            return result
        } catch {
            record.decision = "deny"
            record.reason = error.code
            if error == Self.auditUnavailable {
                count(operation, decision: "deny", reason: error.code)  // the log just failed; do not try it again
            } else {
                recordRefusal(operation, record, error)
            }
            throw error
        }
    }

    /// Audits (best effort) and counts a refusal.
    private func recordRefusal(_ operation: Operation, _ record: AuditRecord, _ refusal: KeyGateRefusal) {
        do { try audit.append(record) } catch {
            logger.error("audit log write failed", metadata: ["alfred.error": "\(error)"])
            Counter(label: Self.auditFailuresMetric).increment()
        }
        count(operation, decision: "deny", reason: refusal.code)
        logger.notice("key request refused", metadata: [
            "alfred.key.operation": "\(operation.rawValue)", "alfred.key.reason": "\(refusal.code)",
            "alfred.key.detail": "\(refusal.message)",
        ])
    }

    /// Label values come from fixed sets: three operations, two decisions, and the reason codes above.
    private func count(_ operation: Operation, decision: String, reason: String) {
        Counter(label: Self.decisionsMetric,
                dimensions: [("operation", operation.rawValue), ("decision", decision), ("reason", reason)]).increment()
    }

    /// The loaded policy, keys and root; reloaded when `key-policy.json` changes (as `alfred keys
    /// rotate` does), so a rotation takes effect without a restart. A change that does not load is
    /// logged once and the previous state is kept.
    private func currentState() -> KeyServiceState {
        let stamp = directory.policyStamp()
        return current.withLock { current in
            guard stamp != current.stamp else { return current.state }
            current.stamp = stamp
            do {
                current.state = try directory.loadState()
                logger.notice("key policy reloaded", metadata: ["alfred.key.policy": "\(directory.policy.path)"])
            } catch {
                logger.error("key policy change not applied; keeping the previous policy", metadata: ["alfred.error": "\(error)"])
            }
            return current.state
        }
    }

    // MARK: Pieces

    private static func describe(_ document: AttestationDocument, runtime: String?, into record: inout AuditRecord) {
        record.runtime = runtime ?? "unknown"
        record.pcr0Prefix = document.pcrs[0].map { String(AttestationVerifier.hex($0).prefix(16)) }
    }

    private static func unwrap(_ request: WrappedKeyRequest, with ring: KeyRing) throws(KeyGateRefusal) -> SymmetricKey {
        guard let wrapped = Base64.decode(request.wrappedKey) else { throw .badRequest("wrapped_key is not base64") }
        do { return try ring.unwrap(wrapped, for: request.context) } catch { throw .invalidCiphertext }
    }

    private static func seal(_ dataKey: SymmetricKey, to recipient: [UInt8]) throws(KeyGateRefusal) -> [UInt8] {
        do { return try RecipientCipher.seal(dataKey, toRecipientDER: recipient) } catch {
            throw .badRequest("the evidence's public_key is not a P-384 public key (DER SubjectPublicKeyInfo)")
        }
    }

    private static let auditUnavailable = KeyGateRefusal(
        kind: .unavailable, code: "audit_unavailable",
        message: "the decision could not be written to the audit log; nothing was released")

    private static func missingKey(_ keyID: String, _ version: Int) -> KeyGateRefusal {
        KeyGateRefusal(kind: .unavailable, code: "key_unavailable", message: "key \(keyID) v\(version) is not loaded")
    }
}
