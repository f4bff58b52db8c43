import Foundation
import Testing
import AlfredCore

/// Base64url as access tokens, Apple's and Google's tokens and our random tokens use it: unpadded,
/// `-` and `_`, and strict about what it accepts.
@Suite(.timeLimit(.minutes(5))) struct Base64URLTests {
    /// Foundation's base64, translated to the url alphabet by hand: the reference the byte-level
    /// codec is checked against, for every length up to 100 and random bytes.
    static func reference(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 }.filter { $0 != "=" }.map(String.init).joined()
    }

    @Test func encodesAsFoundationDoesInTheURLAlphabetAndDecodesBack() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...100 {
            let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let encoded = Base64URL.encode(bytes)
            #expect(encoded == Self.reference(bytes), "length \(length)")
            #expect(Base64URL.decode(encoded).map(Array.init) == bytes, "length \(length)")
        }
        #expect(Base64URL.encode([0xFB, 0xFF]) == "-_8")
    }

    @Test func refusesWhatNoUnpaddedEncoderWrites() {
        #expect(Base64URL.decode("-_8") == Data([0xFB, 0xFF]))
        #expect(Base64URL.decode("+/8") == nil, "the standard alphabet")
        #expect(Base64URL.decode("-_8=") == nil, "padding")
        #expect(Base64URL.decode("QUJDR") == nil, "a length no encoding has")
        #expect(Base64URL.decode("QR") == nil, "bits left over that are not zero (QQ is the encoding of 'A')")
        #expect(Base64URL.decode("QQ") == Data("A".utf8))
        #expect(Base64URL.decode("QU JD") == nil)
        #expect(Base64URL.decode("QUé") == nil)
        #expect(Base64URL.decode("") == Data())
    }
}
