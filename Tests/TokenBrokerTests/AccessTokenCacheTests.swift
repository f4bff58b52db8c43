import AlfredCore
import AlfredTestKit
import Foundation
import Synchronization
import Testing
@testable import BrokerClient
import Attestation
import KeyServiceClient
import LocalIPC
@testable import TokenBroker

/// The broker's access-token cache on its own: no Postgres, no broker, time from a manual clock.
@Suite(.timeLimit(.minutes(5))) struct AccessTokenCacheTests {
    func token(_ name: String, expiresIn seconds: TimeInterval, _ clock: ManualClock) -> AccessToken {
        AccessToken(token: Redacted(name), expiresAt: clock.date.addingTimeInterval(seconds))
    }

    @Test func atCapacityTheExpiredGoFirstThenTheOldest() async throws {
        let clock = ManualClock()
        let cache = AccessTokenCache(capacity: 3, now: clock.nowDate)
        let short = UUID(), old = UUID(), newer = UUID(), newest = UUID(), last = UUID()
        await cache.store(token("short", expiresIn: 200, clock), for: short)
        clock.advance(by: .seconds(1))
        await cache.store(token("old", expiresIn: 3600, clock), for: old)
        clock.advance(by: .seconds(1))
        await cache.store(token("newer", expiresIn: 3600, clock), for: newer)
        // "short" is inside the 120 s margin now: it goes, and nothing else.
        clock.advance(by: .seconds(100))
        await cache.store(token("newest", expiresIn: 3600, clock), for: newest)
        #expect(await cache.count == 3)
        let refreshed = Counter()
        func get(_ id: UUID) async throws -> String {
            try await cache.token(for: id) { refreshed.add(); return token("fresh", expiresIn: 3600, clock) }.token.unsafeValue
        }
        #expect(try await get(old) == "old")
        #expect(try await get(newer) == "newer")
        #expect(refreshed.value == 0)
        // Full of live tokens: the oldest stored goes.
        await cache.store(token("last", expiresIn: 3600, clock), for: last)
        #expect(await cache.count == 3)
        #expect(try await get(newer) == "newer")
        #expect(try await get(newest) == "newest")
        #expect(try await get(last) == "last")
        #expect(refreshed.value == 0)
        #expect(try await get(old) == "fresh", "evicted: refreshed again")
        #expect(refreshed.value == 1)
    }

    final class Counter: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }
}
