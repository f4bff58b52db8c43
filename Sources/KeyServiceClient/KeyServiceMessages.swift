import Foundation

// The key service's HTTP bodies (JSON; byte strings as standard base64). Shared by `KeyServer` and
// `KeyServiceClient` so the two cannot drift apart.

package struct NonceResponse: Codable, Sendable {
    package init(nonce: String, expiresInSeconds: Int) { self.nonce = nonce; self.expiresInSeconds = expiresInSeconds }
    package var nonce: String
    package var expiresInSeconds: Int
    enum CodingKeys: String, CodingKey { case nonce, expiresInSeconds = "expires_in_seconds" }
}

package struct GenerateDataKeyRequest: Codable, Sendable {
    package init(attestation: String, keyID: String, connectorID: UUID, userID: UUID) {
    self.attestation = attestation; self.keyID = keyID; self.connectorID = connectorID; self.userID = userID
    }
    package var attestation: String
    package var keyID: String
    package var connectorID: UUID
    package var userID: UUID
    enum CodingKeys: String, CodingKey {
        case attestation, keyID = "key_id", connectorID = "connector_id", userID = "user_id"
    }
}

package struct GenerateDataKeyResponse: Codable, Sendable {
    package init(keyVersion: Int, wrappedKey: String, ciphertextForRecipient: String) {
    self.keyVersion = keyVersion; self.wrappedKey = wrappedKey; self.ciphertextForRecipient = ciphertextForRecipient
    }
    package var keyVersion: Int
    package var wrappedKey: String
    package var ciphertextForRecipient: String
    enum CodingKeys: String, CodingKey {
        case keyVersion = "key_version", wrappedKey = "wrapped_key", ciphertextForRecipient = "ciphertext_for_recipient"
    }
}

/// The body of both `decrypt` and `rewrap`: a wrapped data key and the context it is bound to.
package struct WrappedKeyRequest: Codable, Sendable {
    package init(attestation: String, keyID: String, keyVersion: Int, connectorID: UUID, userID: UUID, wrappedKey: String) {
    self.attestation = attestation; self.keyID = keyID; self.keyVersion = keyVersion
    self.connectorID = connectorID; self.userID = userID; self.wrappedKey = wrappedKey
    }
    package var attestation: String
    package var keyID: String
    package var keyVersion: Int
    package var connectorID: UUID
    package var userID: UUID
    package var wrappedKey: String
    enum CodingKeys: String, CodingKey {
        case attestation, keyID = "key_id", keyVersion = "key_version", connectorID = "connector_id"
        case userID = "user_id", wrappedKey = "wrapped_key"
    }

    package var context: TokenContext { TokenContext(connectorID: connectorID, userID: userID, keyID: keyID, keyVersion: keyVersion) }
}

package struct DecryptResponse: Codable, Sendable {
    package init(ciphertextForRecipient: String) { self.ciphertextForRecipient = ciphertextForRecipient }
    package var ciphertextForRecipient: String
    enum CodingKeys: String, CodingKey { case ciphertextForRecipient = "ciphertext_for_recipient" }
}

package struct RewrapResponse: Codable, Sendable {
    package init(keyVersion: Int, wrappedKey: String) { self.keyVersion = keyVersion; self.wrappedKey = wrappedKey }
    package var keyVersion: Int
    package var wrappedKey: String
    enum CodingKeys: String, CodingKey { case keyVersion = "key_version", wrappedKey = "wrapped_key" }
}

/// `{"error": {"code": "...", "message": "..."}}`
package struct ErrorResponse: Codable, Sendable {
    package init(error: Body) { self.error = error }
    package struct Body: Codable, Sendable {
        package init(code: String, message: String) { self.code = code; self.message = message }
        package var code: String
        package var message: String
    }
    package var error: Body
}

package enum Base64 {
    /// Strict standard base64 (no whitespace, correct padding), or nil.
    package static func decode(_ string: String) -> [UInt8]? {
        Data(base64Encoded: string).map(Array.init)
    }

    package static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString()
    }
}
