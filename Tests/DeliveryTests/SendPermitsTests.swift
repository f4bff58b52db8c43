import AlfredTestKit
import Synchronization
import Testing
@testable import Delivery

/// The bound on a worker's APNs requests in flight, and the signal that a burst's requests are out.
@Suite(.timeLimit(.minutes(5))) struct SendPermitsTests {
    final class Events: Sendable {
        private let events = Mutex<[String]>([])
        func add(_ event: String) { events.withLock { $0.append(event) } }
        var all: [String] { events.withLock { $0 } }
    }

    @Test func requestsBeyondTheLimitWaitInOrderAndTheQuietSignalComesWhenNoneIsWaiting() async throws {
        let permits = SendPermits(limit: 1)
        let events = Events()
        let release = Gate()
        await permits.untilNoneWaiting()  // idle: at once
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await permits.withPermit { events.add("first sends"); await release.wait() } }
            try? await yieldUntil { events.all == ["first sends"] }
            group.addTask { await permits.withPermit { events.add("second sends") } }
            try? await yieldUntil { permits.waitingCount == 1 }
            group.addTask {
                await permits.untilNoneWaiting()
                events.add("quiet")
            }
            // The second request waits for the permit; the quiet signal waits for it to get one.
            try? await yieldUntil { permits.quietWaitingCount == 1 }
            #expect(events.all == ["first sends"])
            release.open()
        }
        #expect(events.all.first == "first sends")
        #expect(Set(events.all.dropFirst()) == ["second sends", "quiet"])
    }
}
