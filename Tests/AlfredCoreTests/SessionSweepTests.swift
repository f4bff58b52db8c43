import AlfredCore
import Testing

@Suite(.timeLimit(.minutes(5))) struct SessionSweepTests {
    /// A sweep goes round again only while some part filled its batch.
    @Test func aSweepIsFullWhenAnyPartReachedTheBatch() {
        #expect(!SessionSweep().full(10))
        #expect(!SessionSweep(expired: 9, deletedSessions: 9, deletedUsedTokens: 9, deletedDevices: 9).full(10))
        #expect(SessionSweep(deletedUsedTokens: 10).full(10))
        #expect(SessionSweep(deletedDevices: 11).full(10))
    }
}
