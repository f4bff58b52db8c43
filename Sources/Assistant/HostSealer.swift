import Crypto
import Foundation

/// Seals what the workers keep about a user — job payloads, notification text, sync cursors, sealed
/// preferences — with the host data key (AES-256-GCM), and derives keyed hashes for dedupe keys.
/// It is not the token KEK: workers never hold that, and this key never leaves the worker hosts.
///
/// Every box binds a purpose and the user id as associated data, so a sealed payload moved to
/// another user's row, or from a reminder into a cursor, fails to open instead of being misread.
///
/// Box format: `"ALFH" | version (1) | nonce (12) | ciphertext | tag (16)`.
public struct HostSealer: Sendable {
    public enum Purpose: String, Sendable {
        case jobPayload = "job-payload"
        case notification
        case cursor
        case preferences
        case mailID = "mail-id"
        /// An APNs device token (hex).
        case deviceToken = "device-token"
        /// The PKCE verifier of a Google connect in progress.
        case pkceVerifier = "pkce-verifier"
    }

    public struct OpenError: Error, CustomStringConvertible {
        public let description: String
    }

    static let magic: [UInt8] = Array("ALFH".utf8)
    static let version: UInt8 = 1

    private let key: SymmetricKey
    private let hashKey: SymmetricKey

    /// `keyBytes`: 32 random bytes (`alfred worker --data-key-file`).
    public init(keyBytes: [UInt8]) throws {
        guard keyBytes.count == 32 else {
            throw OpenError(description: "the host data key must be 32 bytes, found \(keyBytes.count)")
        }
        let master = SymmetricKey(data: keyBytes)
        key = HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Data("alfred host seal v1".utf8), outputByteCount: 32)
        hashKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Data("alfred host hash v1".utf8), outputByteCount: 32)
    }

    /// A fresh random key, for `alfred dev` and tests.
    public static func generateKeyBytes() -> [UInt8] {
        SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
    }

    /// Reads a key file: 32 raw bytes, or 64 hex characters (with an optional trailing newline).
    public init(keyFile path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw OpenError(description: "cannot read the host data key file \(path)")
        }
        if data.count == 32 {
            try self.init(keyBytes: Array(data))
            return
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.count == 64, let bytes = Self.hexBytes(text) else {
            throw OpenError(description: "the host data key file \(path) must hold 32 bytes or 64 hex characters")
        }
        try self.init(keyBytes: bytes)
    }

    public func seal(_ plaintext: [UInt8], purpose: Purpose, userID: UUID?) throws -> [UInt8] {
        let box = try AES.GCM.seal(plaintext, using: key, authenticating: Self.aad(purpose, userID))
        return Self.magic + [Self.version] + Array(box.nonce) + Array(box.ciphertext) + Array(box.tag)
    }

    public func open(_ sealed: [UInt8], purpose: Purpose, userID: UUID?) throws -> [UInt8] {
        let header = Self.magic.count + 1
        guard sealed.count >= header + 12 + 16, Array(sealed.prefix(4)) == Self.magic else {
            throw OpenError(description: "not a sealed \(purpose.rawValue) box")
        }
        guard sealed[4] == Self.version else {
            throw OpenError(description: "sealed \(purpose.rawValue) box has unknown version \(sealed[4])")
        }
        do {
            let nonce = try AES.GCM.Nonce(data: sealed[header..<(header + 12)])
            let box = try AES.GCM.SealedBox(nonce: nonce, ciphertext: sealed[(header + 12)..<(sealed.count - 16)],
                                            tag: sealed[(sealed.count - 16)...])
            return Array(try AES.GCM.open(box, using: key, authenticating: Self.aad(purpose, userID)))
        } catch {
            throw OpenError(description: "sealed \(purpose.rawValue) box does not open with this host key and binding")
        }
    }

    public func seal<T: Encodable>(json value: T, purpose: Purpose, userID: UUID?) throws -> [UInt8] {
        try seal(Array(JSONEncoder().encode(value)), purpose: purpose, userID: userID)
    }

    public func open<T: Decodable>(json type: T.Type, from sealed: [UInt8], purpose: Purpose, userID: UUID?) throws -> T {
        let bytes = try open(sealed, purpose: purpose, userID: userID)
        do { return try JSONDecoder().decode(T.self, from: Data(bytes)) } catch {
            throw OpenError(description: "sealed \(purpose.rawValue) box holds an unexpected shape")
        }
    }

    /// A keyed hash (HMAC-SHA256, hex, 32 characters): stable for equal inputs, meaningless without
    /// the host key. Used for unique keys and dedupe keys, which are stored in plaintext columns.
    public func keyedHash(_ parts: String...) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data(parts.joined(separator: "\u{1F}").utf8), using: hashKey)
        return mac.prefix(16).map { String(format: "%02x", $0) }.joined()
    }

    private static func aad(_ purpose: Purpose, _ userID: UUID?) -> Data {
        Data("alfred/\(purpose.rawValue)/\(userID?.uuidString.lowercased() ?? "-")".utf8)
    }

    private static func hexBytes(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var iterator = text.makeIterator()
        while let high = iterator.next(), let low = iterator.next() {
            guard let byte = UInt8(String([high, low]), radix: 16) else { return nil }
            bytes.append(byte)
        }
        return bytes
    }
}
