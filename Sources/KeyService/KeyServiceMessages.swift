import Foundation

// The key service's HTTP bodies (JSON; byte strings as standard base64). Shared by `KeyServer` and
// `KeyServiceClient` so the two cannot drift apart.

struct NonceResponse: Codable, Sendable {
    var nonce: String
    var expiresInSeconds: Int
    enum CodingKeys: String, CodingKey { case nonce, expiresInSeconds = "expires_in_seconds" }
}

struct GenerateDataKeyRequest: Codable, Sendable {
    var attestation: String
    var keyID: String
    var connectorID: UUID
    var userID: UUID
    enum CodingKeys: String, CodingKey {
        case attestation, keyID = "key_id", connectorID = "connector_id", userID = "user_id"
    }
}

struct GenerateDataKeyResponse: Codable, Sendable {
    var keyVersion: Int
    var wrappedKey: String
    var ciphertextForRecipient: String
    enum CodingKeys: String, CodingKey {
        case keyVersion = "key_version", wrappedKey = "wrapped_key", ciphertextForRecipient = "ciphertext_for_recipient"
    }
}

/// The body of both `decrypt` and `rewrap`: a wrapped data key and the context it is bound to.
struct WrappedKeyRequest: Codable, Sendable {
    var attestation: String
    var keyID: String
    var keyVersion: Int
    var connectorID: UUID
    var userID: UUID
    var wrappedKey: String
    enum CodingKeys: String, CodingKey {
        case attestation, keyID = "key_id", keyVersion = "key_version", connectorID = "connector_id"
        case userID = "user_id", wrappedKey = "wrapped_key"
    }

    var context: TokenContext { TokenContext(connectorID: connectorID, userID: userID, keyID: keyID, keyVersion: keyVersion) }
}

struct DecryptResponse: Codable, Sendable {
    var ciphertextForRecipient: String
    enum CodingKeys: String, CodingKey { case ciphertextForRecipient = "ciphertext_for_recipient" }
}

struct RewrapResponse: Codable, Sendable {
    var keyVersion: Int
    var wrappedKey: String
    enum CodingKeys: String, CodingKey { case keyVersion = "key_version", wrappedKey = "wrapped_key" }
}

/// `{"error": {"code": "...", "message": "..."}}`
struct ErrorResponse: Codable, Sendable {
    struct Body: Codable, Sendable {
        var code: String
        var message: String
    }
    var error: Body
}

enum Base64 {
    /// Strict standard base64 (no whitespace, correct padding), or nil.
    static func decode(_ string: String) -> [UInt8]? {
        Data(base64Encoded: string).map(Array.init)
    }

    static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
    }
}
