import AlfredCore
import Testing

@Suite(.timeLimit(.minutes(5))) struct HexTests {
    @Test func twoLowercaseDigitsPerByteAsPrintfWritesThem() {
        let bytes = (0...255).map(UInt8.init)
        #expect(Hex.encode(bytes) == bytes.map { byte in
            let digits = String(byte, radix: 16)
            return digits.count == 1 ? "0" + digits : digits
        }.joined())
        #expect(Hex.encode([]) == "")
        #expect(Hex.encode([0x0a, 0xff]) == "0aff")
    }

    @Test func readsBackWhatItWritesInEitherCaseAndNothingElse() {
        let bytes = (0...255).map(UInt8.init)
        #expect(Hex.decode(Hex.encode(bytes)) == bytes)
        #expect(Hex.decode("0AfF") == [0x0a, 0xff])
        #expect(Hex.decode("") == [])
        #expect(Hex.decode("abc") == nil, "odd length")
        #expect(Hex.decode("+f") == nil, "a sign is not a digit")
        #expect(Hex.decode("0g") == nil)
    }
}
