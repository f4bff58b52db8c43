import AlfredCore
import Crypto
import Foundation

/// The host data key file, shared by every worker and API host. Two forms:
///
/// - the original one: 32 raw bytes or 64 hex characters, a ring of one key;
/// - a keyring: one key per line as 64 hex characters, oldest first, the one that seals new boxes
///   followed by ` active`; `#` starts a comment.
///
///       # alfred host data keyring (oldest first)
///       3f9a…
///       a1c2… active
///
/// Every key in the ring opens the boxes it sealed. The first key also keys the hashes (lookup
/// keys cannot change without orphaning stored ones), so it is never removed; the others can be,
/// once no row names them (`alfred keys data-key usage`). Rotating is three steps, each rolled out
/// to every host before the next: add a key (every host can open it), activate it (new boxes use
/// it), re-seal the rows (`data-key.reseal`) and remove the old key.
public struct DataKeyring: Sendable, Equatable {
    public struct FormatError: Error, CustomStringConvertible, Equatable, Sendable {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    struct SealKey: Sendable {
        let id: [UInt8]
        let key: SymmetricKey
    }

    /// Raw key material, oldest first.
    public private(set) var keys: [[UInt8]]
    /// Index of the key new boxes are sealed with.
    public private(set) var active: Int

    public init(keys: [[UInt8]], active: Int) throws(FormatError) {
        guard !keys.isEmpty else { throw FormatError("the keyring holds no key") }
        guard keys.allSatisfy({ $0.count == 32 }) else { throw FormatError("every key must be 32 bytes") }
        guard keys.indices.contains(active) else { throw FormatError("the active key is not in the ring") }
        guard Set(keys.map(Self.hex)).count == keys.count else { throw FormatError("a key appears twice") }
        self.keys = keys
        self.active = active
    }

    /// Parses a key file in either form.
    public init(contents data: Data) throws(FormatError) {
        if data.count == 32 {
            try self.init(keys: [Array(data)], active: 0)
            return
        }
        let text = String(decoding: data, as: UTF8.self)
        var keys: [[UInt8]] = [], active: Int?
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let words = line.split(whereSeparator: \.isWhitespace)
            if words.isEmpty { continue }
            guard words.count <= 2, let key = Self.bytes(hex: String(words[0])), key.count == 32 else {
                throw FormatError("line \(number + 1) must be a key of 64 hex characters, optionally followed by `active`")
            }
            if words.count == 2 {
                guard words[1] == "active" else { throw FormatError("line \(number + 1): unknown word `\(words[1])` (only `active`)") }
                guard active == nil else { throw FormatError("line \(number + 1): only one key may be active") }
                active = keys.count
            }
            keys.append(key)
        }
        // A single bare key (the original form) is active; a longer ring must say which one is.
        guard let active = active ?? (keys.count == 1 ? 0 : nil) else {
            throw FormatError(keys.isEmpty ? "no key found" : "mark the key that seals new boxes with ` active`")
        }
        try self.init(keys: keys, active: active)
    }

    /// The file's text: what `add`, `activate` and `remove` write back.
    public func rendered() -> String {
        var lines = ["# alfred host data keyring: oldest first; the first key also keys the hashes and is never removed"]
        for (index, key) in keys.enumerated() {
            lines.append(Self.hex(key) + (index == active ? " active" : ""))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    var sealKeys: [SealKey] {
        keys.map { material in
            let key = HKDF<SHA256>.deriveKey(inputKeyMaterial: SymmetricKey(data: material),
                                             info: Data("alfred host seal v1".utf8), outputByteCount: 32)
            return SealKey(id: Self.id(of: key), key: key)
        }
    }

    /// Key ids (8 hex characters each), in the ring's order. An id names a key without revealing it.
    public var ids: [String] { sealKeys.map { Self.hex($0.id) } }
    public var activeID: String { ids[active] }

    /// Adds a new random key (not active yet) and returns its id.
    public mutating func add() -> String {
        keys.append(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
        return ids[keys.count - 1]
    }

    public mutating func activate(id: String) throws(FormatError) {
        guard let index = ids.firstIndex(of: id.lowercased()) else { throw FormatError("no key \(id) in the ring (ids: \(ids.joined(separator: ", ")))") }
        active = index
    }

    /// Removes a key that is neither active nor the first (which keys the hashes).
    public mutating func remove(id: String) throws(FormatError) {
        guard let index = ids.firstIndex(of: id.lowercased()) else { throw FormatError("no key \(id) in the ring (ids: \(ids.joined(separator: ", ")))") }
        guard index != active else { throw FormatError("key \(id) is active: activate another one first") }
        guard index != 0 else { throw FormatError("key \(id) is the ring's first: it keys the hashes and stays") }
        keys.remove(at: index)
        if active > index { active -= 1 }
    }

    static func id(of key: SymmetricKey) -> [UInt8] {
        var hash = SHA256()
        hash.update(data: Data("alfred host data key id".utf8))
        key.withUnsafeBytes { hash.update(bufferPointer: $0) }
        return Array(hash.finalize().prefix(4))
    }

    static func hex(_ bytes: [UInt8]) -> String { Hex.encode(bytes) }

    static func bytes(hex text: String) -> [UInt8]? { Hex.decode(text) }
}
