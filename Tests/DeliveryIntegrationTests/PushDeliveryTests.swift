import AlfredCore
import AlfredTestCluster
import APNs
import AsyncHTTPClient
import GoogleAPI
import Foundation
import NIOCore
import PostgresNIO
import StandIns
import Testing
@testable import Assistant
@testable import Delivery
@testable import Sealing

@Suite(.timeLimit(.minutes(5))) struct DeliveryTests {
    @Test func aReminderGoesToEveryActiveDeviceOnceWithApplesHeadersAndItsTextIsDeleted() async throws {
        try await DeliveryWorld().run { w in
            let phone = try await w.device(), tablet = try await w.device()
            let deadline = Date().addingTimeInterval(600)
            let key = try await w.notify(title: "Board sync in 10 min", body: "Room 4.12", deadline: deadline)
            #expect(try await w.waitForState(key) == "delivered")
            for device in [phone, tablet] {
                let pushes = w.deliveries(to: device.token)
                #expect(pushes.count == 1)
                let push = try #require(pushes.first)
                #expect(push.pushType == "alert" && push.priority == 10 && push.topic == DeliveryWorld.topic)
                #expect(push.collapseID == key)
                #expect(push.expiration == Int(deadline.timeIntervalSince1970))
                let json = try #require(try JSONSerialization.jsonObject(with: push.payload) as? [String: Any])
                let alert = (json["aps"] as? [String: Any])?["alert"] as? [String: String]
                #expect(alert == ["title": "Board sync in 10 min", "body": "Room 4.12"])
            }
            #expect(try await w.jobPayload(key).isEmpty, "the sealed text is deleted once sent")
            let sends = try await w.owner.query("SELECT state FROM push_sends WHERE idempotency_key = \(key)", logger: TestDatabase.quietLogger)
                .collect().map { try $0.decode(String.self) }
            #expect(sends == ["accepted", "accepted"])
            #expect(w.mints() == [.initial], "one provider token for every push")
        }
    }

    @Test func theSameKeyTwiceIsOneNotification() async throws {
        try await DeliveryWorld().run { w in
            let phone = try await w.device()
            let key = try await w.notify(key: "reminder:same")
            _ = try await w.notify(key: "reminder:same")
            #expect(try await w.waitForState(key) == "delivered")
            _ = try await w.notify(key: "reminder:same")
            // Nothing more can happen for the key: its one job is finished and no other was queued.
            #expect(try await eventually { try await w.pushJobStates(key) == ["completed"] })
            #expect(w.deliveries(to: phone.token).count == 1)
        }
    }

    @Test func unregisteredAndBadTokensRetireTheDeviceAndItGetsNothingMore() async throws {
        try await DeliveryWorld().run { w in
            let live = try await w.device()
            // A first push proves this worker's APNs configuration works for the environment.
            #expect(try await w.waitForState(try await w.notify()) == "delivered")
            let gone = try await w.device(), unknown = try await w.device(knownToApple: false)
            w.apns.unregister(deviceToken: gone.token, at: Date().addingTimeInterval(60))
            let first = try await w.notify()
            #expect(try await w.waitForState(first) == "delivered", "the live device got it")
            #expect(try await w.retired(gone.id) == "Unregistered")
            #expect(try await w.retired(unknown.id) == "BadDeviceToken")
            #expect(try await w.retired(live.id) == nil)
            let second = try await w.notify()
            #expect(try await w.waitForState(second) == "delivered")
            #expect(w.requests(to: gone.token).count == 1 && w.requests(to: unknown.token).count == 1, "retired devices get nothing more")
            #expect(w.deliveries(to: live.token).count == 3)
        }
    }

    /// A wrong APNs host or topic makes Apple answer BadDeviceToken for every device; with no push
    /// accepted lately from that environment nothing is retired (Apple: don't bulk-delete on a burst).
    @Test func badDeviceTokensFromAnUnprovenEnvironmentRetireNothing() async throws {
        try await DeliveryWorld().run { w in
            let a = try await w.device(knownToApple: false), b = try await w.device(knownToApple: false)
            let key = try await w.notify()
            #expect(try await w.waitForState(key) == "failed")
            #expect(try await w.retired(a.id) == nil)
            #expect(try await w.retired(b.id) == nil)
        }
    }

    @Test func aDeviceThatReRegisteredAfterApplesTimestampIsKept() async throws {
        try await DeliveryWorld().run { w in
            let phone = try await w.device()
            // APNs last saw the token invalid an hour ago; the app registered it again since.
            w.apns.unregister(deviceToken: phone.token, at: Date().addingTimeInterval(-3600))
            let key = try await w.notify()
            #expect(try await w.waitForState(key) == "failed")
            #expect(try await w.retired(phone.id) == nil)
        }
    }

    @Test func onlyRetiredDevicesMeansNoDeviceNotAFailure() async throws {
        try await DeliveryWorld().run { w in
            let phone = try await w.device()
            w.apns.unregister(deviceToken: phone.token, at: Date().addingTimeInterval(60))
            let key = try await w.notify()
            #expect(try await w.waitForState(key) == "no_device")
            let nobody = try await w.notify()
            #expect(try await w.waitForState(nobody) == "no_device")
        }
    }

    /// A push job the queue gave up on (here: discarded by hand, as the attempt limit would) still ends
    /// in the books: the planner's sweep finishes its notification and deletes its text.
    @Test func aPushTheQueueGaveUpOnIsFinishedAndCounted() async throws {
        var world = DeliveryWorld()
        world.inProcessWorker = false
        try await world.run { w in
            let key = try await w.notify(deadline: Date().addingTimeInterval(3600))
            _ = try await w.owner.query("""
                UPDATE jobs SET state = 'discarded', finished_at = now(), due_at = now() + interval '1 hour'
                WHERE unique_key = \(key) AND state = 'queued'
                """, logger: TestDatabase.quietLogger).collect()
            let finished = try await w.assistant.finishAbandonedNotifications()
            #expect(finished.map(\.state) == ["failed"])
            #expect(try await w.state(key) == "failed")
            #expect(try await w.jobPayload(key).isEmpty)
            #expect(try await w.assistant.finishAbandonedNotifications().isEmpty, "once")
        }
    }

    @Test func feedbackOnAnUrgentAlertCountsOncePerNotificationAndOnlyForItsUser() async throws {
        try await DeliveryWorld().run { w in
            let key = try await w.notify(kind: "mail.urgent")
            let reminder = try await w.notify(kind: "meeting.reminder")
            // A notification made without urgency rules (as here) records the verdict with no rules to count.
            #expect(try await w.assistant.recordFeedback(userID: w.userID, idempotencyKey: key, verdict: "false_positive") == [])
            #expect(try await w.assistant.recordFeedback(userID: w.userID, idempotencyKey: key, verdict: "confirmed") == nil, "once")
            #expect(try await w.assistant.recordFeedback(userID: UUID(), idempotencyKey: key, verdict: "false_positive") == nil)
            #expect(try await w.assistant.recordFeedback(userID: w.userID, idempotencyKey: reminder, verdict: "false_positive") == nil,
                    "only urgent-mail alerts take feedback")
        }
    }

    @Test(arguments: [("TooManyRequests", 429), ("InternalServerError", 500), ("ServiceUnavailable", 503), ("Shutdown", 503)])
    func transientAnswersAreRetriedUntilAccepted(reason: String, status: Int) async throws {
        try await DeliveryWorld().run { w in
            let phone = try await w.device()
            w.apns.inject(.reason(reason, status: status, count: 2))
            let key = try await w.notify()
            #expect(try await w.waitForState(key) == "delivered")
            #expect(w.requests(to: phone.token).map(\.status) == [status, status, 200])
            #expect(w.deliveries(to: phone.token).count == 1)
        }
    }

    /// Apple accepts the push and the connection drops before the answer: the sender cannot know,
    /// so it sends again at once under the same collapse id. APNs gets two copies; the device shows one.
    @Test func aConnectionDroppedAfterAppleAcceptedIsResentAndShownOnce() async throws {
        try await DeliveryWorld().run { w in
            let phone = try await w.device()
            w.apns.inject(.acceptThenReset(count: 1))
            let key = try await w.notify()
            #expect(try await w.waitForState(key) == "delivered")
            #expect(w.requests(to: phone.token).map(\.status) == [0, 200], "the lost answer, then the resend's")
            #expect(w.deliveries(to: phone.token).count == 2)
            #expect(Set(w.deliveries(to: phone.token).map(\.collapseID)).count == 1, "both copies carry one collapse id")
            #expect(w.apns.shown(to: phone.token).count == 1, "the device shows it once")
        }
    }

    /// The connection drops before Apple took the push: the resend is the only copy.
    @Test func aConnectionDroppedBeforeAppleTookThePushIsResentAndDelivered() async throws {
        try await DeliveryWorld().run { w in
            let phone = try await w.device()
            w.apns.inject(.reset(count: 1))
            let key = try await w.notify()
            #expect(try await w.waitForState(key) == "delivered")
            #expect(w.deliveries(to: phone.token).count == 1)
            #expect(w.apns.shown(to: phone.token).count == 1)
        }
    }

    /// Every immediate resend breaks off too (a flapping network): the queue tries again with its
    /// backoff, still under the same collapse id, and the device still shows one notification.
    @Test func aPushStillInDoubtAfterTheImmediateResendsIsRetriedByTheQueue() async throws {
        try await DeliveryWorld().run { w in
            let phone = try await w.device()
            w.apns.inject(.acceptThenReset(count: 1 + PushDeliveryHandler.inDoubtResends))
            let key = try await w.notify()
            #expect(try await w.waitForState(key) == "delivered")
            #expect(w.requests(to: phone.token).map(\.status) == Array(repeating: 0, count: 1 + PushDeliveryHandler.inDoubtResends) + [200])
            // The job completes just after the ledger records the acceptance (completions are batched).
            #expect(try await eventually { try await w.pushJobStates(key) == ["completed"] })
            #expect(w.apns.shown(to: phone.token).count == 1)
        }
    }

    @Test func retriesStopAtTheDeadlineAsExpired() async throws {
        try await DeliveryWorld().run { w in
            let phone = try await w.device()
            w.apns.inject(.reason("ServiceUnavailable", status: 503, count: 10_000))
            let key = try await w.notify(deadline: Date().addingTimeInterval(2))
            #expect(try await w.waitForState(key) == "expired")
            #expect(w.deliveries(to: phone.token).isEmpty)
            #expect(try await w.jobPayload(key).isEmpty)
        }
    }

    @Test func aNotificationPastItsDeadlineIsNotSent() async throws {
        try await DeliveryWorld().run { w in
            let phone = try await w.device()
            let key = try await w.notify(deadline: Date().addingTimeInterval(-1))
            #expect(try await w.waitForState(key) == "expired")
            #expect(w.requests(to: phone.token).isEmpty)
        }
    }

    @Test func malformedRequestsAreNotRetried() async throws {
        try await DeliveryWorld().run { w in
            let phone = try await w.device()
            w.apns.inject(.reason("BadCollapseId", status: 400, count: 1))
            let key = try await w.notify()
            #expect(try await w.waitForState(key) == "failed")
            #expect(w.requests(to: phone.token).count == 1)
        }
    }

    /// The provider's clock is 30 minutes behind Apple's, so Apple sees every token 30 minutes older
    /// than we do. 31 minutes later Apple refuses it as expired while we think it 31 minutes old: it is
    /// renewed (over 20 minutes old, so allowed) and the push is retried once.
    @Test func anExpiredProviderTokenIsRenewedAndThePushRetriedOnce() async throws {
        var world = DeliveryWorld()
        world.providerClockLag = 30 * 60
        try await world.run { w in
            let phone = try await w.device()
            #expect(try await w.waitForState(try await w.notify()) == "delivered")
            w.apns.clock.advance(bySeconds: 31 * 60)
            #expect(try await w.waitForState(try await w.notify()) == "delivered")
            #expect(w.requests(to: phone.token).map(\.reason) == [nil, "ExpiredProviderToken", nil])
            #expect(w.mints() == [.initial, .expiredProviderToken])
        }
    }

    @Test func aSilentRelayPushIsBackgroundPriorityFiveWithNoAlert() async throws {
        try await DeliveryWorld().run { w in
            let phone = try await w.device()
            let key = try await w.notify(kind: "mail.relay", title: "", body: "")
            #expect(try await w.waitForState(key) == "delivered")
            let push = try #require(w.deliveries(to: phone.token).first)
            #expect(push.pushType == "background" && push.priority == 5)
            let json = try #require(try JSONSerialization.jsonObject(with: push.payload) as? [String: Any])
            #expect((json["aps"] as? [String: Int]) == ["content-available": 1])
        }
    }

    /// Relay mode's wake-ups: the first Gmail change in a 20-minute window wakes the app at once;
    /// more in that window are one more wake-up at the next window's start; all carry the mailbox's
    /// collapse id, and nothing of any message.
    @Test func relayWakeUpsAreCoalescedPerWindowUnderOneCollapseID() async throws {
        try await DeliveryWorld().run { w in
            let phone = try await w.device()
            // The assistant's wall time stands still here: "at once" and "the next window" are exact.
            let at = Date()
            let environment = AssistantEnvironment(
                store: w.assistant, jobs: w.jobs, readers: GoogleAPIReaders(configuration: GoogleAPIConfiguration(root: "http://127.0.0.1:9"),
                                                                                http: HTTPClient.shared, tokens: NoGoogleHere(), logger: w.logger),
                sealer: w.sealer, now: { at })
            let first = try #require(try await environment.relayHint(userID: w.userID))
            #expect(first == at, "the first change wakes the app at once")
            let trailing = try #require(try await environment.relayHint(userID: w.userID))
            #expect(trailing == Date(timeIntervalSince1970: ((at.timeIntervalSince1970 / 1200).rounded(.down) + 1) * 1200),
                    "a second change in the window: one more wake-up at the next window's start")
            #expect(try await environment.relayHint(userID: w.userID) == nil, "a third is already covered")
            #expect(try await eventually { w.deliveries(to: phone.token).count == 1 })
            let push = try #require(w.deliveries(to: phone.token).first)
            #expect(push.pushType == "background" && push.priority == 5)
            let collapse = try #require(push.collapseID)
            #expect(collapse.hasPrefix("relay:") && !collapse.contains(w.userID.uuidString.lowercased()))
            #expect(try JSONSerialization.jsonObject(with: push.payload) as? [String: [String: Int]] == ["aps": ["content-available": 1]]
                    || String(decoding: push.payload, as: UTF8.self).contains("\"sync\""))
            let queued = try await w.owner.query("""
                SELECT count(*)::int8 FROM jobs WHERE kind = 'push.deliver' AND state = 'queued' AND due_at > now()
                """, logger: TestDatabase.quietLogger).collect().first?.decode(Int.self)
            #expect(queued == 1)
        }
    }

    @Test func aLongTitleIsShortenedNotRefused() async throws {
        try await DeliveryWorld().run { w in
            let phone = try await w.device()
            let key = try await w.notify(title: String(repeating: "Quarterly planning ", count: 400))
            #expect(try await w.waitForState(key) == "delivered")
            #expect(try #require(w.deliveries(to: phone.token).first).payload.count <= 4096)
        }
    }

    /// A run that died after marking a device `sending` (APNs may have the push): the next run sends it
    /// again under the same collapse id, so it is not lost, and shown once if the first copy arrived.
    @Test func aSendLeftInDoubtByADeadRunIsResentUnderTheSameCollapseID() async throws {
        try await DeliveryWorld().run { w in
            let phone = try await w.device()
            // What a worker killed mid-request leaves behind: the mark, committed, and no outcome.
            let key = "reminder:in-doubt"
            let content = PushContent(kind: "meeting.reminder", title: "t", body: "b", scheduledAt: Date(), collapseID: key)
            var notification = try Outbox(sealer: w.sealer).notification(content, userID: w.userID, idempotencyKey: key,
                                                                          deadline: Date().addingTimeInterval(600))
            notification = OutboundNotification(userID: w.userID, kind: notification.kind, idempotencyKey: key,
                                                job: { var j = notification.job; j.schedule = .after(.seconds(3600)); return j }(),
                                                deadline: notification.deadline)
            _ = try await w.assistant.notify(notification)
            _ = try await w.owner.query("""
                INSERT INTO push_sends (idempotency_key, device_id, user_id, state, apns_id)
                VALUES (\(key), \(phone.id), \(w.userID), 'sending', \(UUID()))
                """, logger: TestDatabase.quietLogger).collect()
            _ = try await w.owner.query("UPDATE jobs SET due_at = now() WHERE unique_key = \(key)", logger: TestDatabase.quietLogger).collect()
            _ = try await w.owner.query("SELECT pg_notify('alfred_jobs', 'delivery 0')", logger: TestDatabase.quietLogger).collect()
            #expect(try await w.waitForState(key) == "delivered")
            #expect(w.requests(to: phone.token).map(\.status) == [200])
            #expect(w.apns.shown(to: phone.token).map(\.collapseID) == [key])
        }
    }

    /// A push whose sealed text does not open (another host's key, corruption): nothing is sent,
    /// the notification ends `failed`, and the job is discarded with a reason free of content.
    @Test func aPushWhoseTextDoesNotOpenIsDiscardedWithItsReasonAndNothingSent() async throws {
        try await DeliveryWorld().run { w in
            let phone = try await w.device()
            let key = "reminder:garbled"
            let content = PushContent(kind: "meeting.reminder", title: "t", body: "b", scheduledAt: Date(), collapseID: key)
            let held = try Outbox(sealer: w.sealer).notification(content, userID: w.userID, idempotencyKey: key,
                                                                  deadline: Date().addingTimeInterval(600), at: Date().addingTimeInterval(3600))
            _ = try await w.assistant.notify(held)
            let garbage = Array(#"{"sealed":"QUxGSAEAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=="}"#.utf8)
            _ = try await w.owner.query("""
                UPDATE jobs SET payload = \(ByteBuffer(bytes: garbage)), due_at = now() WHERE unique_key = \(key)
                """, logger: TestDatabase.quietLogger).collect()
            _ = try await w.owner.query("SELECT pg_notify('alfred_jobs', 'delivery 0')", logger: TestDatabase.quietLogger).collect()
            #expect(try await w.waitForState(key) == "failed")
            // The notification ends `failed` before the worker records the job's outcome: wait for that too.
            @Sendable func job() async throws -> (String, String?)? {
                try await w.owner.query("SELECT state, last_error FROM jobs WHERE unique_key = \(key)",
                                        logger: TestDatabase.quietLogger).collect().first?.decode((String, String?).self)
            }
            #expect(try await eventually { try await job()?.0 == "discarded" })
            let job = try await job()
            #expect(job?.1 == "push text is missing or does not open with this host key")
            #expect(w.requests(to: phone.token).isEmpty)
        }
    }

    @Test func deviceTokensAndTextNeverReachTheDatabaseInPlaintextOrTheLogs() async throws {
        try await DeliveryWorld().run { w in
            let phone = try await w.device()
            let key = try await w.notify(title: "Secret merger talk in 10 min", body: "Boardroom Zeta")
            #expect(try await w.waitForState(key) == "delivered")
            for needle in [phone.token, "Secret merger", "Boardroom Zeta"] {
                #expect(try await plaintextHits(of: needle, in: w.owner).isEmpty, "\(needle)")
                #expect(!w.logs.all.contains { $0.contains(needle) }, "\(needle)")
            }
        }
    }
}

extension DeliveryWorld.Running {
    /// The states of every push job for `key` (a finished job sends nothing more).
    func pushJobStates(_ key: String) async throws -> [String] {
        try await owner.query("SELECT state FROM jobs WHERE kind = 'push.deliver' AND unique_key = \(key)",
                              logger: TestDatabase.quietLogger).collect().map { try $0.decode(String.self) }
    }
}

/// Relay wake-ups read nothing from Google: the environment's readers are never asked for a token.
struct NoGoogleHere: TokenSource {
    struct Unused: Error {}
    func accessToken(for connector: UUID, forceRefresh: Bool) async throws -> AccessToken { throw Unused() }
}

/// Delivery prepared ahead of the due time (issue #19): the ledger marks, the text and the device
/// tokens are ready before the instant, and nothing reaches Apple before it.
@Suite(.timeLimit(.minutes(5))) struct DeliveryAheadTests {
    @Test func pushesDueAtTheSameInstantArePreparedAheadAndNoneIsAcceptedBeforeIt() async throws {
        var world = DeliveryWorld()
        world.claimAhead = .seconds(60)
        try await world.run { w in
            let phone = try await w.device()
            let due = Date().addingTimeInterval(3)
            var keys: [String] = []
            for index in 0..<40 {
                keys.append(try await w.notify(title: "Standup \(index) in 10 min", scheduledAt: due, at: due))
            }
            for key in keys { #expect(try await w.waitForState(key) == "delivered") }
            let early = try await w.owner.query("""
                SELECT count(*)::int8 FROM notifications WHERE idempotency_key = ANY(\(keys)) AND first_accepted_at < scheduled_at
                """, logger: TestDatabase.quietLogger).collect().first?.decode(Int64.self)
            #expect(early == 0, "accepted before its time")
            #expect(w.apns.deliveries().filter { $0.deviceToken == phone.token }.map(\.receivedAt).allSatisfy { $0 >= due })
            #expect(w.deliveries(to: phone.token).count == 40)
            #expect(Set(w.deliveries(to: phone.token).compactMap(\.collapseID)) == Set(keys))
        }
    }

    /// Relay wake-ups leave no audit event (issue #30): one per wake-up, kept 400 days, would be a
    /// timeline of when the mailbox changed. They are counted by kind instead. Before, each left one.
    @Test func relayWakeUpsAreCountedNotAudited() async throws {
        var world = DeliveryWorld()
        world.auditing = true
        try await world.run { w in
            try await w.device()
            for _ in 0..<3 {
                let wake = try await w.notify(kind: "mail.relay", title: "", body: "")
                #expect(try await w.waitForState(wake) == "delivered")
            }
            let reminder = try await w.notify()
            #expect(try await w.waitForState(reminder) == "delivered")
            let kinds = try await w.owner.query("""
                SELECT redacted_metadata->>'kind' FROM audit_events WHERE user_id = \(w.userID) AND event_type = 'DELIVERY'
                """, logger: TestDatabase.quietLogger).collect().map { try $0.decode(String.self) }
            #expect(kinds == ["meeting.reminder"])
            #expect(w.metrics.count(MetricName.pushDeliveries, [("kind", "mail.relay"), ("result", "delivered")]) == 3)
        }
    }

    @Test func aFinishedNotificationLeavesItsDeliveryAuditEventInTheSameStatement() async throws {
        var world = DeliveryWorld()
        world.auditing = true
        try await world.run { w in
            try await w.device()
            try await w.device()
            let key = try await w.notify()
            #expect(try await w.waitForState(key) == "delivered")
            let urgent = try await w.notify(kind: "mail.urgent")
            #expect(try await w.waitForState(urgent) == "delivered")
            _ = try await w.owner.query("UPDATE devices SET retired_at = now(), retired_reason = 'Unregistered'", logger: TestDatabase.quietLogger).collect()
            let none = try await w.notify(kind: "morning.brief")
            #expect(try await w.waitForState(none) == "no_device")
            let events = try await w.owner.query("""
                SELECT connector, result, redacted_metadata::text FROM audit_events
                WHERE user_id = \(w.userID) AND event_type = 'DELIVERY' ORDER BY seq
                """, logger: TestDatabase.quietLogger).collect().map { try $0.decode((String?, String, String).self) }
            #expect(events.map(\.0) == ["apns", "apns", "apns"])
            #expect(events.map(\.1).sorted() == ["DELIVERED", "DELIVERED", "NO_DEVICE"])
            #expect(events.map(\.2).contains(#"{"kind": "meeting.reminder", "devices": "2"}"#))
            #expect(events.map(\.2).contains(#"{"kind": "morning.brief", "devices": "0"}"#))
            // The chain links: every event's prev_hash is the one before it's hash.
            let broken = try await w.owner.query("""
                SELECT count(*)::int8 FROM audit_events a JOIN audit_events b ON b.user_id = a.user_id AND b.seq = a.seq + 1
                WHERE a.user_id = \(w.userID) AND b.prev_hash <> a.hash
                """, logger: TestDatabase.quietLogger).collect().first?.decode(Int64.self)
            #expect(broken == 0)
        }
    }
}
