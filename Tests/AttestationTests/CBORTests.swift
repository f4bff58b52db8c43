import Testing
@testable import Attestation

@Suite(.timeLimit(.minutes(5))) struct CBORTests {
    @Test(arguments: [
        ([0x00], CBOR.unsigned(0)), ([0x18, 0x64], .unsigned(100)), ([0x38, 0x22], .negative(34)),
        ([0x43, 1, 2, 3], .bytes([1, 2, 3])), ([0x62, 0x68, 0x69], .text("hi")), ([0xf6], .null), ([0xf5], .bool(true)),
        ([0x82, 0x01, 0x20], .array([.unsigned(1), .negative(0)])),
        ([0xa1, 0x01, 0x38, 0x22], .map([CBORPair(key: .unsigned(1), value: .negative(34))])),
        ([0xd2, 0x80], .tagged(18, .array([]))),
        ([0x5f, 0x41, 0x01, 0x42, 0x02, 0x03, 0xff], .bytes([1, 2, 3])),
        ([0xbf, 0x61, 0x61, 0x01, 0xff], .map([CBORPair(key: .text("a"), value: .unsigned(1))])),
    ])
    func decodesEachMajorType(bytes: [UInt8], expected: CBOR) throws {
        #expect(try CBOR.decode(bytes) == expected)
    }

    @Test func encodingRoundTrips() throws {
        let value = CBOR.array([.text("Signature1"), .bytes([0xa1, 0x01, 0x38, 0x22]), .bytes([]), .bytes(Array(repeating: 7, count: 300)),
                                .unsigned(1_722_457_107_047), .negative(34), .map([CBORPair(key: .text("k"), value: .null)])])
        #expect(try CBOR.decode(value.encoded()) == value)
    }

    @Test(arguments: [
        [UInt8](), [0x43, 1, 2], [0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff], [0x62, 0xff, 0xfe],
        [0x01, 0x02], [0x5f, 0x01, 0xff], [0x9f, 0x01], [0xfc], Array(repeating: 0x81, count: 64) + [0x00],
    ])
    func rejectsMalformedInputWithoutCrashing(bytes: [UInt8]) {
        #expect(throws: CBORError.self) { try CBOR.decode(bytes) }
    }
}
