/// Lowercase hexadecimal, two digits a byte. Keyed hashes (device refs, unique keys) are taken on
/// every device registration and many jobs; `String(format: "%02x")` went through Foundation's
/// formatter once per byte, 3.5 % of the API's CPU per registration.
public enum Hex {
    private static let digits = Array("0123456789abcdef".utf8)

    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        var output = [UInt8]()
        output.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            output.append(digits[Int(byte >> 4)])
            output.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: output, as: UTF8.self)
    }
}
