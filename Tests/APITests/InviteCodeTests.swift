@testable import API
import Testing

@Suite(.timeLimit(.minutes(5))) struct InviteCodeTests {
    @Test func aCodeHashesTheSameHoweverItIsTypedAndNothingElseDoes() {
        var generator = SystemRandomNumberGenerator()
        let code = InviteCode.generate(using: &generator)
        #expect(code.count == 27 && code.hasPrefix("ALF-"))
        let stored = InviteCode.storedHash(code)
        #expect(stored != nil)
        for typed in [code.lowercased(), code.replacingOccurrences(of: "-", with: ""), code.replacingOccurrences(of: "-", with: " ")] {
            #expect(InviteCode.storedHash(typed) == stored && InviteCode.hash(typed) == stored, "\(typed)")
        }
        #expect(InviteCode.storedHash("ALF-00000") == nil && InviteCode.storedHash("ALF-IIIII-00000-00000-00000") == nil)
        #expect(InviteCode.hash("not a code") != stored)
        #expect(InviteCode.generate(using: &generator) != code)
    }
}
