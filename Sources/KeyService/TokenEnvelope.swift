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
    init(_ description: String) { self.description = description }
}

/// Key-encryption keys by id and version. Lives only in the key service.
public struct KeyRing: Sendable {
    private var keys: [String: [Int: SymmetricKey]]
    /// The version new data keys are wrapped under, per key id.
    public private(set) var active: [String: Int]

    public init(keys: [String: [Int: SymmetricKey]] = [:], active: [String: Int] = [:]) {
        self.keys = keys
        self.active = active
    }

    public func hasKey(_ id: String, version: Int) -> Bool { keys[id]?[version] != nil }

    /// A new random data key, and the same key wrapped under the active version of `context.keyID`
    /// (the caller must put that version into the context it stores).
    public func generateDataKey(for context: TokenContext) throws -> (dataKey: SymmetricKey, wrapped: [UInt8]) {
        let dataKey = SymmetricKey(size: .bits256)
        return (dataKey, try wrap(dataKey, for: context))
    }

    public func wrap(_ dataKey: SymmetricKey, for context: TokenContext) throws -> [UInt8] {
        guard let kek = keys[context.keyID]?[context.keyVersion] else {
            throw EnvelopeError("no key-encryption key \(context.keyID) v\(context.keyVersion)")
        }
        let raw = dataKey.withUnsafeBytes { Array($0) }
        guard let combined = try AES.GCM.seal(raw, using: kek, authenticating: context.wrapAssociatedData).combined else {
            throw EnvelopeError("AES-GCM produced no combined form")
        }
        return Array(combined)
    }

    public func unwrap(_ wrapped: [UInt8], for context: TokenContext) throws -> SymmetricKey {
        guard let kek = keys[context.keyID]?[context.keyVersion] else {
            throw EnvelopeError("no key-encryption key \(context.keyID) v\(context.keyVersion)")
        }
        do {
            let raw = try AES.GCM.open(try AES.GCM.SealedBox(combined: wrapped), using: kek, authenticating: context.wrapAssociatedData)
            return SymmetricKey(data: raw)
        } catch {
            throw EnvelopeError("data key does not unwrap: wrong key, version or bound context")
        }
    }

    /// Moves a wrapped data key from `context`'s version to the active one without exposing it outside.
    public func rewrap(_ wrapped: [UInt8], for context: TokenContext) throws -> (wrapped: [UInt8], version: Int) {
        guard let version = active[context.keyID] else { throw EnvelopeError("no active version of key \(context.keyID)") }
        let dataKey = try unwrap(wrapped, for: context)
        return (try wrap(dataKey, for: context.with(keyVersion: version)), version)
    }

    /// Adds a new random version of `id` and makes it active. Returns the version.
    public mutating func rotate(_ id: String) -> (version: Int, key: SymmetricKey) {
        let version = (keys[id]?.keys.max() ?? 0) + 1
        let key = SymmetricKey(size: .bits256)
        keys[id, default: [:]][version] = key
        active[id] = version
        return (version, key)
    }

    /// Loads `<id>.v<version>.key` files (32 raw bytes each) from a directory the key service alone
    /// can read. The highest version of each id is active.
    public static func load(directory: URL) throws -> KeyRing {
        var ring = KeyRing()
        let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        for file in files where file.hasSuffix(".key") {
            let parts = file.dropLast(4).split(separator: ".")
            guard parts.count == 2, parts[1].hasPrefix("v"), let version = Int(parts[1].dropFirst()), version > 0,
                  parts[0].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
            else { throw EnvelopeError("key file \(file) must be named <id>.v<version>.key") }
            let data = try Data(contentsOf: directory.appendingPathComponent(file))
            guard data.count == 32 else { throw EnvelopeError("key file \(file) must hold 32 bytes") }
            let id = String(parts[0])
            ring.keys[id, default: [:]][version] = SymmetricKey(data: data)
            ring.active[id] = max(ring.active[id] ?? 0, version)
        }
        return ring
    }

    /// Writes one key version as `<id>.v<version>.key`, readable by the owner only.
    public static func write(_ key: SymmetricKey, id: String, version: Int, to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let url = directory.appendingPathComponent("\(id).v\(version).key")
        guard FileManager.default.createFile(atPath: url.path, contents: key.withUnsafeBytes { Data($0) },
                                             attributes: [.posixPermissions: 0o600])
        else { throw EnvelopeError("cannot write \(url.lastPathComponent)") }
    }
}
