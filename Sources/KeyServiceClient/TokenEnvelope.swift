import Crypto
import Foundation

/// What a stored refresh token is bound to. The token layer (token under the data key) binds
/// connector, user and key id; the wrap layer (data key under the KEK) binds those and the key
/// version. So a ciphertext copied to another connector, user, key or version no longer decrypts,
/// while rotation only rewraps the data key and never touches the token ciphertext.
public struct TokenContext: Sendable, Equatable, Codable {
    public let connectorID: UUID
    public let userID: UUID
    /// `connectors.token_key_id`: the name of the key-encryption key.
    public let keyID: String
    /// `connectors.token_version`: the version of that key the data key is wrapped under.
    public let keyVersion: Int

    public init(connectorID: UUID, userID: UUID, keyID: String, keyVersion: Int) {
        self.connectorID = connectorID
        self.userID = userID
        self.keyID = keyID
        self.keyVersion = keyVersion
    }

    /// Associated data of the token layer. Canonical and unambiguous: fields cannot contain NUL
    /// (UUIDs, a key id checked at load).
    public var tokenAssociatedData: [UInt8] {
        Array("alfred/google-refresh-token/v1\u{0}connector=\(connectorID.uuidString.lowercased())\u{0}user=\(userID.uuidString.lowercased())\u{0}key=\(keyID)".utf8)
    }

    /// Associated data of the wrap layer: the token layer's plus the key version.
    public var wrapAssociatedData: [UInt8] {
        Array("alfred/data-key/v1\u{0}".utf8) + tokenAssociatedData + Array("\u{0}version=\(keyVersion)".utf8)
    }

    public func with(keyVersion: Int) -> TokenContext {
        TokenContext(connectorID: connectorID, userID: userID, keyID: keyID, keyVersion: keyVersion)
    }
}

/// The bytes stored in `connectors.refresh_token_ciphertext`:
///
///     "ALFT" | 0x01 (format) | u16 BE length of the wrapped data key | wrapped data key | AES-GCM combined (nonce | ciphertext | tag)
///
/// The wrapped data key is AES-256-GCM(KEK[keyID, keyVersion], data key, AAD = context) in combined form.
public enum TokenEnvelope {
    static let magic: [UInt8] = Array("ALFT".utf8)
    static let format: UInt8 = 1

    /// Encrypts a token under a fresh data key (which the caller got from the key service, already wrapped).
    public static func seal(_ plaintext: [UInt8], context: TokenContext, dataKey: SymmetricKey, wrappedDataKey: [UInt8]) throws -> [UInt8] {
        guard wrappedDataKey.count <= UInt16.max else { throw EnvelopeError("wrapped data key too large") }
        let box = try AES.GCM.seal(plaintext, using: dataKey, authenticating: context.tokenAssociatedData)
        guard let combined = box.combined else { throw EnvelopeError("AES-GCM produced no combined form") }
        return magic + [format, UInt8(wrappedDataKey.count >> 8), UInt8(wrappedDataKey.count & 0xff)] + wrappedDataKey + Array(combined)
    }

    /// The wrapped data key inside an envelope (to send to the key service for unwrapping).
    public static func wrappedDataKey(in envelope: [UInt8]) throws -> [UInt8] {
        try split(envelope).wrapped
    }

    /// Decrypts with the (unwrapped) data key. Any changed byte or bound value fails.
    public static func open(_ envelope: [UInt8], context: TokenContext, dataKey: SymmetricKey) throws -> [UInt8] {
        let (_, sealed) = try split(envelope)
        do {
            return Array(try AES.GCM.open(try AES.GCM.SealedBox(combined: sealed), using: dataKey, authenticating: context.tokenAssociatedData))
        } catch {
            throw EnvelopeError("refresh token does not decrypt: ciphertext or a bound column was changed")
        }
    }

    /// Replaces the wrapped data key (after a rewrap to a new key version); the token ciphertext is unchanged.
    public static func replacingWrappedDataKey(in envelope: [UInt8], with wrapped: [UInt8]) throws -> [UInt8] {
        let (_, sealed) = try split(envelope)
        return magic + [format, UInt8(wrapped.count >> 8), UInt8(wrapped.count & 0xff)] + wrapped + sealed
    }

    static func split(_ envelope: [UInt8]) throws -> (wrapped: [UInt8], sealed: [UInt8]) {
        guard envelope.count >= 7, Array(envelope[0..<4]) == magic else { throw EnvelopeError("not a token envelope") }
        guard envelope[4] == format else { throw EnvelopeError("unknown envelope format \(envelope[4])") }
        let length = Int(envelope[5]) << 8 | Int(envelope[6])
        guard envelope.count >= 7 + length + 12 + 16 else { throw EnvelopeError("truncated token envelope") }
        return (Array(envelope[7..<(7 + length)]), Array(envelope[(7 + length)...]))
    }
}

public struct EnvelopeError: Error, Equatable, CustomStringConvertible {
    public let description: String
    package init(_ description: String) { self.description = description }
}

