import AlfredCore
import Crypto
import Foundation

/// Seals what the workers keep about a user — job payloads, notification text, sync cursors, sealed
/// preferences — with the host data key (AES-256-GCM), and derives keyed hashes for dedupe keys.
/// It is not the token KEK: workers never hold that, and this key never leaves the worker hosts.
///
/// Every box binds a purpose and the user id as associated data, so a sealed payload moved to
/// another user's row, or from a reminder into a cursor, fails to open instead of being misread.
///
/// The host data key is a keyring (`DataKeyring`): new boxes are sealed with its active key and name
/// it, and every key still in the ring opens what it sealed, so a key can be rotated while rows
/// sealed under the old one stay readable until the `data-key.reseal` job has moved them.
///
/// Box format: `"ALFH" | 2 | key id (4) | nonce (12) | ciphertext | tag (16)`; boxes of version 1
/// (`"ALFH" | 1 | nonce | ciphertext | tag`, before key ids) open with the ring's first key.
public struct HostSealer: Sendable {
    public enum Purpose: String, Sendable, CaseIterable {
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
    static let legacyVersion: UInt8 = 1
    static let version: UInt8 = 2

    private let active: DataKeyring.SealKey
    private let byID: [[UInt8]: SymmetricKey]
    private let legacy: SymmetricKey
    private let hashKey: SymmetricKey
    /// The keys this sealer can open with, by id (hex); the first is the ring's first.
    public let keyIDs: [String]

    /// The id (8 hex characters) of the key new boxes are sealed with.
    public var activeKeyID: String { DataKeyring.hex(active.id) }
    /// The first bytes of every box sealed with the active key: version and key id.
    public var activeHeader: [UInt8] { Self.magic + [Self.version] + active.id }

    /// `keyBytes`: 32 random bytes, a ring of one (`alfred worker --data-key-file`).
    public init(keyBytes: [UInt8]) throws {
        guard keyBytes.count == 32 else {
            throw OpenError(description: "the host data key must be 32 bytes, found \(keyBytes.count)")
        }
        try self.init(ring: DataKeyring(keys: [keyBytes], active: 0))
    }

    public init(ring: DataKeyring) throws {
        let keys = ring.sealKeys
        guard let first = keys.first else { throw OpenError(description: "the host data keyring holds no key") }
        active = keys[ring.active]
        byID = Dictionary(keys.map { ($0.id, $0.key) }, uniquingKeysWith: { first, _ in first })
        legacy = first.key
        // The keyed-hash key stays the first key's: hashes are lookup keys (unique and dedupe keys,
        // mailbox and account hashes), so rotating it would orphan every stored one.
        hashKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: ring.keys[0]),
                                         info: Data("alfred host hash v1".utf8), outputByteCount: 32)
        keyIDs = keys.map { DataKeyring.hex($0.id) }
    }

    /// A fresh random key, for `alfred-dev` and tests.
    public static func generateKeyBytes() -> [UInt8] {
        SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
    }

    /// Reads a key file (see `DataKeyring`): 32 raw bytes, 64 hex characters, or a keyring.
    public init(keyFile path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw OpenError(description: "cannot read the host data key file \(path)")
        }
        do { try self.init(ring: try DataKeyring(contents: data)) } catch let error as DataKeyring.FormatError {
            throw OpenError(description: "the host data key file \(path): \(error.description)")
        }
    }

    public func seal(_ plaintext: [UInt8], purpose: Purpose, userID: UUID?) throws -> [UInt8] {
        let box = try AES.GCM.seal(plaintext, using: active.key, authenticating: Self.aad(purpose, userID))
        return activeHeader + Array(box.nonce) + Array(box.ciphertext) + Array(box.tag)
    }

    public func open(_ sealed: [UInt8], purpose: Purpose, userID: UUID?) throws -> [UInt8] {
        guard sealed.count >= Self.magic.count + 1 + 12 + 16, Array(sealed.prefix(4)) == Self.magic else {
            throw OpenError(description: "not a sealed \(purpose.rawValue) box")
        }
        let key: SymmetricKey, header: Int
        switch sealed[4] {
        case Self.legacyVersion:
            (key, header) = (legacy, 5)
        case Self.version:
            guard sealed.count >= 9 + 12 + 16 else { throw OpenError(description: "not a sealed \(purpose.rawValue) box") }
            let id = Array(sealed[5..<9])
            guard let found = byID[id] else {
                throw OpenError(description: "sealed \(purpose.rawValue) box names data key \(DataKeyring.hex(id)), which is not in this host's keyring")
            }
            (key, header) = (found, 9)
        default:
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

    /// Whether `sealed` is already sealed with the active key (nothing to re-seal).
    public func isCurrent(_ sealed: [UInt8]) -> Bool { sealed.starts(with: activeHeader) }

    /// The id of the key a box names (nil for version 1 boxes, which predate key ids).
    public static func keyID(of sealed: [UInt8]) -> String? {
        guard sealed.count >= 9, Array(sealed.prefix(4)) == magic, sealed[4] == version else { return nil }
        return DataKeyring.hex(Array(sealed[5..<9]))
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
        return Hex.encode(mac.prefix(16))
    }

    private static func aad(_ purpose: Purpose, _ userID: UUID?) -> Data {
        Data("alfred/\(purpose.rawValue)/\(userID?.uuidString.lowercased() ?? "-")".utf8)
    }
}
