/// A CBOR data item (RFC 8949), as much as attestation documents need. The decoder is strict and
/// bounded: lengths never exceed the remaining input, nesting is capped, and every malformed input
/// is a thrown `CBORError`, never a crash.
public indirect enum CBOR: Equatable, Sendable {
    case unsigned(UInt64)
    /// The value -1 - n.
    case negative(UInt64)
    case bytes([UInt8])
    case text(String)
    case array([CBOR])
    case map([CBORPair])
    case tagged(UInt64, CBOR)
    case bool(Bool)
    case null
    case undefined
    case float(Double)
    case simple(UInt8)

    public subscript(key: String) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key == .text(key) }?.value
    }

    public subscript(key: Int) -> CBOR? {
        guard case .map(let pairs) = self else { return nil }
        let wanted: CBOR = key >= 0 ? .unsigned(UInt64(key)) : .negative(UInt64(-1 - key))
        return pairs.first { $0.key == wanted }?.value
    }
}

public struct CBORPair: Equatable, Sendable {
    public let key: CBOR
    public let value: CBOR
}

public struct CBORError: Error, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

extension CBOR {
    /// Decodes exactly one item that spans all of `bytes`.
    public static func decode(_ bytes: [UInt8], maxDepth: Int = 16) throws -> CBOR {
        var reader = Reader(bytes: bytes, maxDepth: maxDepth)
        let item = try reader.item(depth: 0)
        guard reader.offset == bytes.count else { throw CBORError("trailing bytes after the CBOR item") }
        return item
    }

    private struct Reader {
        let bytes: [UInt8]
        let maxDepth: Int
        var offset = 0

        mutating func byte() throws -> UInt8 {
            guard offset < bytes.count else { throw CBORError("unexpected end of input") }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func take(_ count: UInt64) throws -> ArraySlice<UInt8> {
            guard count <= UInt64(bytes.count - offset) else { throw CBORError("length runs past the end of input") }
            let end = offset + Int(count)
            defer { offset = end }
            return bytes[offset..<end]
        }

        mutating func argument(_ info: UInt8) throws -> UInt64 {
            switch info {
            case 0..<24: return UInt64(info)
            case 24: return UInt64(try byte())
            case 25, 26, 27:
                let width = 1 << (info - 24)
                return try take(UInt64(width)).reduce(0) { $0 << 8 | UInt64($1) }
            default: throw CBORError("reserved additional information \(info)")
            }
        }

        mutating func item(depth: Int) throws -> CBOR {
            guard depth <= maxDepth else { throw CBORError("nesting deeper than \(maxDepth)") }
            let initial = try byte()
            let major = initial >> 5
            let info = initial & 0x1f
            if info == 31 { return try indefinite(major: major, depth: depth) }
            switch major {
            case 0: return .unsigned(try argument(info))
            case 1: return .negative(try argument(info))
            case 2: return .bytes(Array(try take(try argument(info))))
            case 3:
                guard let text = String(validating: try take(try argument(info)), as: UTF8.self) else {
                    throw CBORError("text string is not UTF-8")
                }
                return .text(text)
            case 4:
                let count = try argument(info)
                guard count <= UInt64(bytes.count - offset) else { throw CBORError("array longer than the input") }
                var items: [CBOR] = []
                for _ in 0..<count { items.append(try item(depth: depth + 1)) }
                return .array(items)
            case 5:
                let count = try argument(info)
                guard count <= UInt64(bytes.count - offset) / 2 else { throw CBORError("map longer than the input") }
                var pairs: [CBORPair] = []
                for _ in 0..<count {
                    pairs.append(CBORPair(key: try item(depth: depth + 1), value: try item(depth: depth + 1)))
                }
                return .map(pairs)
            case 6: return .tagged(try argument(info), try item(depth: depth + 1))
            default: return try simpleOrFloat(info)
            }
        }

        mutating func simpleOrFloat(_ info: UInt8) throws -> CBOR {
            switch info {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            case 23: return .undefined
            case 24:
                let value = try byte()
                guard value >= 32 else { throw CBORError("invalid two-byte simple value") }
                return .simple(value)
            case 25:
                let bits = UInt16(try argument(25))
                return .float(Double(Float16(bitPattern: bits)))
            case 26: return .float(Double(Float(bitPattern: UInt32(try argument(26)))))
            case 27: return .float(Double(bitPattern: try argument(27)))
            case 28, 29, 30: throw CBORError("reserved simple value")
            default: return .simple(info)
            }
        }

        mutating func indefinite(major: UInt8, depth: Int) throws -> CBOR {
            switch major {
            case 2, 3:
                var chunks: [UInt8] = []
                while true {
                    let next = try byte()
                    if next == 0xff { break }
                    guard next >> 5 == major, next & 0x1f != 31 else { throw CBORError("bad chunk in indefinite string") }
                    chunks += try take(try argument(next & 0x1f))
                }
                if major == 2 { return .bytes(chunks) }
                guard let text = String(validating: chunks, as: UTF8.self) else { throw CBORError("text string is not UTF-8") }
                return .text(text)
            case 4:
                var items: [CBOR] = []
                while try peekBreak() == false { items.append(try item(depth: depth + 1)) }
                return .array(items)
            case 5:
                var pairs: [CBORPair] = []
                while try peekBreak() == false {
                    pairs.append(CBORPair(key: try item(depth: depth + 1), value: try item(depth: depth + 1)))
                }
                return .map(pairs)
            default: throw CBORError("indefinite length not allowed for major type \(major)")
            }
        }

        mutating func peekBreak() throws -> Bool {
            guard offset < bytes.count else { throw CBORError("unterminated indefinite-length item") }
            if bytes[offset] == 0xff { offset += 1; return true }
            return false
        }
    }

    /// Canonical encoding of the subset we produce (integers, strings, arrays, maps, null, bool).
    public func encoded() -> [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }

    private static func head(_ major: UInt8, _ value: UInt64, into out: inout [UInt8]) {
        let m = major << 5
        switch value {
        case 0..<24: out.append(m | UInt8(value))
        case 24...0xff: out += [m | 24, UInt8(value)]
        case 0x100...0xffff: out += [m | 25, UInt8(value >> 8), UInt8(value & 0xff)]
        case 0x10000...0xffff_ffff: out.append(m | 26); out += (0..<4).reversed().map { UInt8((value >> (8 * UInt64($0))) & 0xff) }
        default: out.append(m | 27); out += (0..<8).reversed().map { UInt8((value >> (8 * UInt64($0))) & 0xff) }
        }
    }

    private func encode(into out: inout [UInt8]) {
        switch self {
        case .unsigned(let v): Self.head(0, v, into: &out)
        case .negative(let v): Self.head(1, v, into: &out)
        case .bytes(let b): Self.head(2, UInt64(b.count), into: &out); out += b
        case .text(let t): Self.head(3, UInt64(t.utf8.count), into: &out); out += t.utf8
        case .array(let items): Self.head(4, UInt64(items.count), into: &out); items.forEach { $0.encode(into: &out) }
        case .map(let pairs):
            Self.head(5, UInt64(pairs.count), into: &out)
            for pair in pairs { pair.key.encode(into: &out); pair.value.encode(into: &out) }
        case .tagged(let tag, let item): Self.head(6, tag, into: &out); item.encode(into: &out)
        case .bool(let b): out.append(b ? 0xf5 : 0xf4)
        case .null: out.append(0xf6)
        case .undefined: out.append(0xf7)
        case .simple(let v): if v < 24 { out.append(0xe0 | v) } else { out += [0xf8, v] }
        case .float(let d): out.append(0xfb); out += (0..<8).reversed().map { UInt8((d.bitPattern >> (8 * UInt64($0))) & 0xff) }
        }
    }
}
