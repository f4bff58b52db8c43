import AlfredCore
import AlfredTestCluster
import Foundation
import StandIns
import Testing
@testable import BrokerClient
import Attestation
import KeyServiceClient
import LocalIPC
@testable import TokenBroker

/// The broker's time comes from its injected clocks: wall time (`now`) decides token expiry and the
/// forced-refresh floor, the clock times the refresh deadline. Tests move them; nothing waits.
@Suite(.timeLimit(.minutes(5))) struct BrokerClockTests {
    @Test func tokenExpiryAndTheForcedRefreshFloorFollowTheBrokersWallClock() async throws {
        let world = try await BrokerWorld.make()
        defer { world.remove() }
        try await world.run { running in
            let id = try await running.connect()
            let clock = world.clock
            let handler = running.makeHandler()  // an empty cache: its first call refreshes
            let context = BrokerRequestContext(requestID: "t", operation: .accessToken, peer: .current, logger: running.logger)
            func token(force: Bool = false) async throws -> BrokerAccessToken {
                try await handler.accessToken(connectorID: id.uuidString, forceRefresh: force, context: context)
            }

            let first = try await token()
            #expect(running.refreshRequests() == 1)
            #expect(first.expiresAt == clock.date.addingTimeInterval(3_599), "Google's expires_in from the broker's now")

            // A forced refresh right after a mint reuses it (a burst of 401s costs Google one refresh)...
            #expect(try await token(force: true) == first)
            #expect(running.refreshRequests() == 1)
            // ...and refreshes once the floor (5 s) has passed on the broker's clock.
            clock.advance(by: .seconds(5))
            let second = try await token(force: true)
            #expect(second != first && running.refreshRequests() == 2)

            // Handed out while it has more than the 120 s margin to live; refreshed at the margin.
            clock.advance(by: .seconds(3_599 - 121))
            #expect(try await token() == second)
            clock.advance(by: .seconds(1))
            #expect(try await token() != second)
            #expect(running.refreshRequests() == 3)
        }
    }

    @Test func aStalledRefreshFailsWhenTheDeadlineComesOnTheBrokersClock() async throws {
        // Google's answer is held on a clock only the test moves; only the deadline can end the refresh.
        let googleTime = ManualClock()
        var world = try await BrokerWorld.make()
        world.googleLatencyClock = googleTime
        defer { world.remove() }
        try await world.run { running in
            let id = try await running.connect()
            _ = try running.google.injectFault(FaultRule(
                match: .init(method: "POST", path: OAuthEndpoints.tokenPath), response: nil, delayMilliseconds: 600_000, times: 1))
            let clock = ManualClock()
            let deadline = GoogleTokenBroker.Configuration().refreshDeadline
            let handler = running.makeHandler(clock: clock)
            let context = BrokerRequestContext(requestID: "t", operation: .accessToken, peer: .current, logger: running.logger)
            let refreshing = Task { try await handler.accessToken(connectorID: id.uuidString, context: context) }

            await clock.waitForSleepers(1)  // the refresh is under way, its deadline set
            clock.advance(by: deadline - .milliseconds(1))
            #expect(clock.suspendedSleepers == 1, "not yet")
            clock.advance(by: .milliseconds(1))
            let error = await #expect(throws: BrokerError.self) { try await refreshing.value }
            #expect(error?.code == .upstreamUnavailable && error?.retryable == true, "\(String(describing: error))")
            #expect(error?.message.contains("took longer than") == true, "\(String(describing: error))")
            #expect(try await running.status(id) == "ACTIVE")
            // Let whatever Google still holds go, and hold nothing more, so the stand-in can stop.
            running.google.removeAllFaults()
            googleTime.advance(by: .seconds(600))
        }
    }
}
