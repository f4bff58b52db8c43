import Crypto
import Foundation
import Testing
@testable import Attestation
@testable import KeyService
@testable import KeyServiceClient

@Suite(.timeLimit(.minutes(5))) struct RecipientCipherTests {
    @Test func onlyTheHolderOfThePrivateKeyRecoversTheDataKey() throws {
        let broker = P384.KeyAgreement.PrivateKey()
        let dataKey = SymmetricKey(size: .bits256)
        let sealed = try RecipientCipher.seal(dataKey, toRecipientDER: Array(broker.publicKey.derRepresentation))
        #expect(try RecipientCipher.open(sealed, with: broker).withUnsafeBytes { Array($0) } == dataKey.withUnsafeBytes { Array($0) })
        #expect(throws: (any Error).self) { _ = try RecipientCipher.open(sealed, with: P384.KeyAgreement.PrivateKey()) }
        var tampered = sealed
        tampered[tampered.count - 1] ^= 1
        #expect(throws: (any Error).self) { _ = try RecipientCipher.open(tampered, with: broker) }
    }
}
