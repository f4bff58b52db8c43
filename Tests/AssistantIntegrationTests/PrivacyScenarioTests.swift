import AlfredCore
import AlfredTestCluster
import Foundation
import PostgresNIO
import Privacy
import StandIns
import Store
import Testing
@testable import Assistant
@testable import Delivery
@testable import Sealing

/// Delete-all against the assistant's own jobs, on the in-process worker of `AssistantWorld`.
@Suite(.timeLimit(.minutes(5))) struct PrivacyScenarioTests {
    /// A calendar sync is waiting on Google when the user is deleted. When Google answers, the job
    /// carries on as it would: it saves its cursor, plans reminders, records notifications, audits
    /// the fetch, completes. None of it may bring back a row about the user.
    @Test func aJobRunningDuringDeletionCannotRecreateAnythingAfterwards() async throws {
        // Google's answer to the first sync is held on a clock the test moves: the sync is in flight
        // for the whole deletion however long that takes on a busy machine.
        let googleTime = ManualClock()
        var assistant = AssistantWorld()
        assistant.googleLatencyClock = googleTime
        try await assistant.run(scenario: AssistantScenarioTests.scenario(boardStartsIn: 20)) { world in
            let held = try world.google.injectFault(FaultRule(match: .init(method: "GET", pathRegex: "/calendar/v3/calendars/.*/events"),
                                                              response: nil, delayMilliseconds: 15_000, times: 1))
            #expect(try await world.plan() == 3)
            try #require(try await eventually { !world.google.activeFaultIDs().contains(held) }, "the sync reached Google")
            await googleTime.waitForSleepers(1)
            // The user had revoked Google in the app earlier; there is nothing to revoke now.
            _ = try await world.owner.query("UPDATE connectors SET status = 'REVOKED' WHERE id = \(world.connectorID)",
                                            logger: TestDatabase.quietLogger).collect()

            let privacy = PostgresPrivacyStore(client: world.client, logger: TestDatabase.quietLogger)
            let request = try await privacy.openDeleteAll(userID: world.userID).request
            _ = try await world.environment.jobs.enqueue([try PrivacyKind.deleteAllJob(request: request)], onConflict: .keep)
            #expect(try await eventually { try await privacy.request(request)?.state == .completed })
            let answered = { world.google.recordedRequests().filter { $0.path.hasSuffix("/events") && $0.status == 200 }.count }
            #expect(answered() == 0, "the sync was still waiting on Google when the deletion completed")
            let done = try #require(try await privacy.request(request))
            #expect(done.outcome == .deleted && done.revocationsPending == 0)
            #expect((done.rowsDeleted?["jobs"] ?? 0) >= 3, "the running sync, mail check and brief: \(String(describing: done.rowsDeleted))")
            #expect(try await userReferences(to: world.userID, in: world.owner) == ["audit_events.user_id": 1])

            // Google answers the sync that was in flight; it carries on with what it fetched and ends its
            // attempt (its job row is gone, so the worker's record of the outcome finds nothing: logged).
            googleTime.advance(by: .seconds(15))
            #expect(try await eventually { answered() >= 1 }, "Google answered the held sync")
            // Its job row went with the user: whatever the sync offers, the worker's record finds no lease.
            let ended = try await world.events.first { $0.kind == "calendar.sync" && $0.isFinal }
            #expect(ended.what == .outcomeRefused || ended.what == .failed(nil), "the sync's attempt ended after the deletion: \(ended)")
            #expect(try await userReferences(to: world.userID, in: world.owner) == ["audit_events.user_id": 1],
                    "the job's writes after the deletion all failed or found nothing")
            #expect(try await world.jobs(kind: "meeting.reminder").isEmpty, "no reminder was planned for a deleted user")
            let logs = world.logs.all.joined(separator: "\n")
            #expect(!logs.contains("Board sync Project Falcon"))
        }
    }

    /// Delete-all jobs that name no request, or whose payload does not decode, are discarded with
    /// their reason; nothing is deleted.
    @Test func aDeleteAllJobForNoRequestOrWithAMalformedPayloadIsDiscardedWithItsReason() async throws {
        try await AssistantWorld().run(scenario: AssistantScenarioTests.scenario(boardStartsIn: 20)) { world in
            let unknown = UUID(), malformed = UUID()
            for (id, payload) in [(unknown, "{\"request_id\": \"\(UUID().uuidString)\"}"), (malformed, "{\"request\": 5}")] {
                _ = try await world.owner.query("""
                    INSERT INTO jobs (id, kind, payload, due_at, max_attempts) VALUES (\(id), 'privacy.delete_all', convert_to(\(payload), 'UTF8'), now(), 5)
                    """, logger: TestDatabase.quietLogger).collect()
            }
            try await world.runNow(kind: "privacy.delete_all")
            func outcome(_ id: UUID) async throws -> (String, String?)? {
                try await world.owner.query("SELECT state, last_error FROM jobs WHERE id = \(id)", logger: TestDatabase.quietLogger)
                    .collect().first?.decode((String, String?).self)
            }
            #expect(try await eventually {
                let (a, b) = (try await outcome(unknown), try await outcome(malformed))
                return a?.0 == "discarded" && b?.0 == "discarded"
            })
            let unknownError = try await outcome(unknown)?.1, malformedError = try await outcome(malformed)?.1
            #expect(unknownError?.hasPrefix("no privacy request") == true, "\(String(describing: unknownError))")
            #expect(malformedError?.contains("malformed payload for kind privacy.delete_all: missing key request_id") == true,
                    "\(String(describing: malformedError))")
            #expect(try await userReferences(to: world.userID, in: world.owner)["users.id"] == 1, "nothing was deleted")
        }
    }
}
