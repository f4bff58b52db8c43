import Crypto
import Foundation

/// What the token broker asks of the key service (the pattern of AWS KMS with a `Recipient`): every
/// call carries fresh attestation evidence, and data keys come back only encrypted to the public key
/// inside that evidence. `KeyServiceClient` is the real one (HTTP over a Unix socket).
public protocol DataKeyProvider: Sendable {
    /// A one-time challenge to put into the next evidence (valid about 60 s).
    func nonce() async throws -> [UInt8]

    /// A new data key for `context` (whose `keyVersion` is ignored: the active version is used and
    /// returned), wrapped for storage and encrypted to the evidence's public key.
    func generateDataKey(keyID: String, connectorID: UUID, userID: UUID, attestation: [UInt8]) async throws -> GeneratedDataKey

    /// The data key inside `wrapped`, encrypted to the evidence's public key.
    func decrypt(wrapped: [UInt8], context: TokenContext, attestation: [UInt8]) async throws -> [UInt8]

    /// `wrapped` moved to the active key version, without the data key leaving the key service.
    func rewrap(wrapped: [UInt8], context: TokenContext, attestation: [UInt8]) async throws -> (wrapped: [UInt8], keyVersion: Int)
}

public struct GeneratedDataKey: Sendable {
    public let keyVersion: Int
    public let wrapped: [UInt8]
    /// HPKE: encapsulated key || ciphertext (see `RecipientCipher`).
    public let ciphertextForRecipient: [UInt8]
    public init(keyVersion: Int, wrapped: [UInt8], ciphertextForRecipient: [UInt8]) {
        self.keyVersion = keyVersion
        self.wrapped = wrapped
        self.ciphertextForRecipient = ciphertextForRecipient
    }
}

/// A refusal by the key service. `reason` is one of `AttestationError.Reason`'s codes (or
/// `key_policy_mismatch`), so the broker can count and audit it.
public struct KeyServiceDenied: Error, CustomStringConvertible, Sendable, Equatable {
    public let reason: String
    public let message: String
    public init(reason: String, message: String) { self.reason = reason; self.message = message }
    public var description: String { "key service denied the request (\(reason)): \(message)" }
}

/// Encrypts a data key to the public key in attestation evidence (like KMS `CiphertextForRecipient`,
/// with HPKE P-384/HKDF-SHA384/AES-256-GCM instead of RSA-OAEP). Output: encapsulated key || ciphertext.
public enum RecipientCipher {
    static let suite = HPKE.Ciphersuite.P384_SHA384_AES_GCM_256
    static let info = Data("alfred/data-key-for-recipient/v1".utf8)
    static let encapsulatedKeySize = 97  // uncompressed P-384 point

    public static func seal(_ dataKey: SymmetricKey, toRecipientDER publicKeyDER: [UInt8]) throws -> [UInt8] {
        let recipient = try P384.KeyAgreement.PublicKey(derRepresentation: publicKeyDER)
        var sender = try HPKE.Sender(recipientKey: recipient, ciphersuite: suite, info: info)
        let ciphertext = try sender.seal(dataKey.withUnsafeBytes { Data($0) })
        return Array(sender.encapsulatedKey) + Array(ciphertext)
    }

    public static func open(_ sealed: [UInt8], with privateKey: P384.KeyAgreement.PrivateKey) throws -> SymmetricKey {
        guard sealed.count > encapsulatedKeySize else { throw EnvelopeError("ciphertext for recipient is too short") }
        var recipient = try HPKE.Recipient(privateKey: privateKey, ciphersuite: suite, info: info,
                                           encapsulatedKey: Data(sealed[..<encapsulatedKeySize]))
        return SymmetricKey(data: try recipient.open(Data(sealed[encapsulatedKeySize...])))
    }
}
