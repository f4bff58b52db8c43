import AlfredCore
import AlfredTestCluster
import Foundation
import JobQueue
import PostgresNIO
import Testing
@testable import Assistant
@testable import Delivery

/// `relay.renew` (issue #30): a day before the app's Gmail watch lapses, the app gets a silent push
/// asking it to renew; a watch renewed meanwhile waits for its own time; a mailbox no longer relayed
/// needs nothing. Run through the handler on an injected clock.
@Suite(.timeLimit(.minutes(5))) struct RelayRenewTests {
    static let scenario = """
        { "users": [{ "subject": "\(AssistantWorld.subject)", "email": "\(AssistantWorld.email)", "timeZone": "UTC" }] }
        """

    static func renewals(_ w: AssistantWorld.Running) async throws -> Int {
        try await w.owner.query("SELECT count(*)::int8 FROM notifications WHERE kind = 'mail.relay.renew' AND user_id = \(w.userID)",
                                logger: TestDatabase.quietLogger).collect().first?.decode(Int.self) ?? -1
    }

    @Test func theAppIsAskedToRenewADayBeforeItsWatchLapsesAndOnlyThen() async throws {
        let clock = ManualClock(start: Date())
        var world = AssistantWorld()
        world.now = clock.nowDate
        try await world.run(scenario: Self.scenario) { w in
            let expires = clock.nowDate().addingTimeInterval(7 * 86_400)
            _ = try await w.owner.query("""
                INSERT INTO relay_mailboxes (user_id, address_hash, watch_expires_at) VALUES (\(w.userID), 'h', \(expires))
                """, logger: TestDatabase.quietLogger).collect()
            let handler = RelayRenewHandler(environment: w.environment)
            let context = JobContext.standalone(kind: AssistantKind.relayRenew, userID: w.userID, logger: w.world.logger("test"))

            // Six days early: nothing is sent; it runs again a day before the expiry.
            let early = try await handler.run(NoPayload(), context: context)
            guard case .runAgain(.at(let next)) = early else { Issue.record("expected to run again, got \(early)"); return }
            #expect(abs(next.timeIntervalSince(expires.addingTimeInterval(-86_400))) < 0.01, "\(next)")  // microseconds in the database
            #expect(try await Self.renewals(w) == 0)

            // A day before: one silent renewal request, and only one however often it runs.
            clock.advance(by: .seconds(6 * 86_400))
            #expect(try await handler.run(NoPayload(), context: context) == .done)
            #expect(try await handler.run(NoPayload(), context: context) == .done)
            #expect(try await Self.renewals(w) == 1)

            // No longer relayed: nothing more.
            _ = try await w.owner.query("DELETE FROM relay_mailboxes WHERE user_id = \(w.userID)", logger: TestDatabase.quietLogger).collect()
            #expect(try await handler.run(NoPayload(), context: context) == .done)
            #expect(try await Self.renewals(w) == 1)
        }
    }
}
