import Crypto
import Foundation
import KeyServiceClient

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
