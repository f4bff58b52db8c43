import AlfredCore
import AlfredTestCluster
import Foundation
import JobQueue
import PostgresNIO
import StandIns
import Testing
@testable import Assistant
@testable import Delivery
@testable import Sealing

/// `gmail.watch`: the mailbox is watched on the configured topic and found again by the keyed hash
/// of its address; the watch is renewed well before Gmail's 7 days run out; and mail is polled
/// slowly only while a watch lives.
@Suite(.timeLimit(.minutes(5))) struct GmailWatchTests {
    static let topic = "projects/alfred-test/topics/gmail-events"
    static let scenario = """
        { "users": [{ "subject": "\(AssistantWorld.subject)", "email": "\(AssistantWorld.email)", "timeZone": "UTC" }] }
        """

    /// Eight simulated days on an injected clock: each run renews the watch, and the next run is due
    /// before the watch it just made expires. The stored mailbox is the address's keyed hash.
    @Test func theWatchIsRenewedBeforeItExpiresAcrossASimulatedWeek() async throws {
        let clock = ManualClock(start: Date())
        var world = AssistantWorld()
        world.now = clock.nowDate
        world.gmailTopic = Self.topic
        try await world.run(scenario: Self.scenario) { w in
            let handler = GmailWatchHandler(environment: w.environment)
            var renewals = 0
            var elapsed: TimeInterval = 0
            while elapsed < 8 * 24 * 3600 {
                let outcome = try await handler.run(NoPayload(), context: .standalone(kind: AssistantKind.gmailWatch, userID: w.userID,
                                                                                        logger: w.environment.logger))
                guard case .runAgain(.after(let wait)) = outcome else { Issue.record("\(outcome)"); return }
                let watch = try #require(try w.google.gmailWatch(forUser: AssistantWorld.email))
                #expect(watch.topicName == Self.topic)
                #expect(watch.expiration > clock.date.addingTimeInterval(wait.seconds + 5 * 24 * 3600),
                        "the next renewal comes days before this watch would expire")
                let stored = try await Self.watchRow(w)
                #expect(stored?.hash == GmailWatchHandler.mailboxHash(AssistantWorld.email.uppercased(), w.sealer))
                #expect(stored?.failed == false)
                #expect(abs((stored?.expires.timeIntervalSince1970 ?? 0) - watch.expiration.timeIntervalSince1970) < 0.01)
                clock.advance(by: wait)
                elapsed += wait.seconds
                renewals += 1
            }
            #expect(renewals == 8, "one renewal a day")
            #expect(try await w.owner.query("SELECT count(*)::int8 FROM gmail_watches", logger: TestDatabase.quietLogger)
                .collect().first?.decode(Int.self) == 1)
        }
    }

    /// With a live watch the mail check is a slow safety net; a failed renewal returns it to the
    /// short interval at once, and the next good renewal restores the slow one.
    @Test func aFailedRenewalBringsBackShortPolling() async throws {
        var world = AssistantWorld()
        world.gmailTopic = Self.topic
        world.intervals.mailCheck = .seconds(300)
        try await world.run(scenario: Self.scenario) { w in
            let handler = GmailWatchHandler(environment: w.environment)
            let context = JobContext.standalone(kind: AssistantKind.gmailWatch, userID: w.userID, logger: w.environment.logger)
            func pollInterval() async throws -> Duration {
                let user = try #require(try await w.environment.settings(w.userID))
                return MailCheckHandler.nextCheck(user, env: w.environment, now: w.environment.now())
            }
            #expect(try await pollInterval() == .seconds(300), "not watched yet")
            _ = try await handler.run(NoPayload(), context: context)
            #expect(try await pollInterval() == .seconds(3600))

            _ = try w.google.injectFault(FaultRule(match: .init(method: "POST", pathRegex: "/gmail/v1/users/.*/watch$"),
                                                   response: CannedResponse(status: 400, body: #"{"error": {"code": 400, "message": "Invalid topicName", "status": "INVALID_ARGUMENT"}}"#),
                                                   times: 1))
            await #expect(throws: (any Error).self) { _ = try await handler.run(NoPayload(), context: context) }
            #expect(try await Self.watchRow(w)?.failed == true)
            #expect(try await pollInterval() == .seconds(300), "a failed renewal polls at the short interval again")

            _ = try await handler.run(NoPayload(), context: context)
            #expect(try await Self.watchRow(w)?.failed == false)
            #expect(try await pollInterval() == .seconds(3600))
        }
    }

    /// Without a topic nothing is watched, and the planner does not ask for it.
    @Test func withoutATopicNothingIsWatched() async throws {
        try await AssistantWorld().run(scenario: Self.scenario) { w in
            let outcome = try await GmailWatchHandler(environment: w.environment).run(
                NoPayload(), context: .standalone(kind: AssistantKind.gmailWatch, userID: w.userID, logger: w.environment.logger))
            #expect(outcome == .done)
            #expect(try w.google.gmailWatch(forUser: AssistantWorld.email) == nil)
            _ = try await w.plan()
            #expect(try await w.jobs(kind: "gmail.watch").isEmpty)
        }
    }

    static func watchRow(_ w: AssistantWorld.Running) async throws -> (hash: String, expires: Date, failed: Bool)? {
        try await w.owner.query("SELECT address_hash, expires_at, failed_at IS NOT NULL FROM gmail_watches",
                                logger: TestDatabase.quietLogger).collect().first
            .map { try $0.decode((String, Date, Bool).self) }.map { (hash: $0.0, expires: $0.1, failed: $0.2) }
    }
}
