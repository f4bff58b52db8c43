@testable import Attestor
import Testing

/// The cap on served connections: a place is given back exactly once, whichever of the deadline,
/// the answer or the task's end releases it first, so the count can neither leak nor go negative.
@Suite(.timeLimit(.minutes(5))) struct ConnectionCapTests {
    @Test func aPlaceIsGivenBackOnceHoweverManyPathsReleaseIt() throws {
        let count = ConnectionCount()
        let first = try #require(count.enter(limit: 2))
        let second = try #require(count.enter(limit: 2))
        #expect(count.enter(limit: 2) == nil, "the cap holds")
        first.release(); first.release(); first.release()
        #expect(count.current == 1)
        let third = try #require(count.enter(limit: 2), "the released place is free again")
        second.release(); third.release()
        #expect(count.current == 0)
    }
}
