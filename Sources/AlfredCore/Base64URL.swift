import Foundation

/// Base64url without padding (RFC 4648 §5), byte by byte: every authenticated request decodes its
/// access token's three parts, and doing it through Foundation's string replacing and
/// `Data(base64Encoded:)` cost a tenth of the API's CPU per request.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    /// Each byte's six bits, or 0xFF for a byte outside the alphabet (padding included).
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(value) }
        return table
    }()

    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        let input = Array(bytes)
        var output = [UInt8]()
        output.reserveCapacity((input.count * 4 + 2) / 3)
        var index = 0
        while index < input.count {
            let count = min(3, input.count - index)
            var group = UInt32(input[index]) << 16
            if count > 1 { group |= UInt32(input[index + 1]) << 8 }
            if count > 2 { group |= UInt32(input[index + 2]) }
            for shift in [18, 12, 6, 0].prefix(count + 1) { output.append(alphabet[Int(group >> UInt32(shift) & 63)]) }
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of unpadded base64url text; nil for anything else (padding, other characters, a
    /// length no encoding has, or bits left over that an encoder would have written as zero).
    public static func decode(_ text: some StringProtocol) -> Data? {
        var output = [UInt8]()
        output.reserveCapacity(text.utf8.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        var count = 0
        for byte in text.utf8 {
            let value = values[Int(byte)]
            guard value != 0xFF else { return nil }
            accumulator = (accumulator << 6 | UInt32(value)) & 0xFFFF
            bits += 6
            count += 1
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        guard count % 4 != 1, accumulator & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return Data(output)
    }
}
