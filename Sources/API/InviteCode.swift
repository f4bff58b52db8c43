import Crypto
import Foundation

/// Invitation codes for the signup policy's `invite` mode: `ALF-` and 20 characters of Crockford's
/// base32 (100 random bits), shown once to the operator and stored only as their SHA-256 (they are
/// random and long, like refresh tokens). Case, dashes and spaces do not matter when typed.
public enum InviteCode {
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")

    /// A new code, e.g. `ALF-7K3QX-M9D2P-TR4WB-HZ6NC`.
    public static func generate<G: RandomNumberGenerator>(using generator: inout G) -> String {
        let body = (0..<20).map { _ in String(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]) }.joined()
        return "ALF-" + stride(from: 0, to: 20, by: 5).map { start in
            String(body.dropFirst(start).prefix(5))
        }.joined(separator: "-")
    }

    public static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return generate(using: &generator)
    }

    /// The stored form of a code as typed. Something that cannot be a code hashes to what no
    /// invitation has: it counts only where an invitation is needed, and there it is `not_invited`.
    static func hash(_ typed: String) -> [UInt8] {
        Array(SHA256.hash(data: Data((normalize(typed) ?? "not a code: " + typed).utf8)))
    }

    /// The same for the operator's command (nil: not a code).
    public static func storedHash(_ typed: String) -> [UInt8]? {
        normalize(typed).map { Array(SHA256.hash(data: Data($0.utf8))) }
    }

    static func normalize(_ typed: String) -> String? {
        let kept = typed.uppercased().filter { $0 != "-" && $0 != " " }
        guard kept.count == 23, kept.hasPrefix("ALF"), kept.dropFirst(3).allSatisfy(alphabet.contains) else { return nil }
        return String(kept)
    }
}
