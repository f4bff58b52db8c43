import AlfredCore
import AlfredTestCluster
@testable import API
import Assistant
@testable import Delivery
@testable import Sealing
import Foundation
import PostgresNIO
import Store
import Testing

/// Devices, preferences, the audit trail and feedback, over HTTP; and the one error shape.
@Suite(.timeLimit(.minutes(5))) struct ResourceTests {
    static let token = String(repeating: "a1b2c3d4", count: 8)

    @Test func aDeviceIsRegisteredUpdatedByItsDeviceIDAndUnregistered() async throws {
        try await APIWorld().run { w in
            let s = try await w.signIn()
            let user = w.userID(s)
            func register(_ device: String, _ token: String, _ environment: String = "sandbox") async throws -> Int {
                try await w.call(.POST, "/v1/devices/apns", token: s.access, json: """
                    {"device_id": "\(device)", "apns_token": "\(token)", "environment": "\(environment)"}
                    """).status
            }
            #expect(try await register("iphone-1", Self.token) == 200)
            #expect(try await register("iphone-1", Self.token.uppercased(), "production") == 200, "the same device again: an update")
            #expect(try await register("ipad-1", String(repeating: "ff", count: 32)) == 200)
            let rows = try await w.owner.query("""
                SELECT environment, apns_token_ciphertext FROM devices WHERE user_id = \(user) ORDER BY environment
                """, logger: TestDatabase.quietLogger).collect().map { try $0.decode((String, ByteBuffer).self) }
            #expect(rows.map(\.0) == ["production", "sandbox"])
            // Sealed with the host key for this user; neither the token nor the device id is stored in plaintext.
            let opened = try w.sealer.open(Array(buffer: rows[0].1), purpose: .deviceToken, userID: user)
            #expect(String(decoding: opened, as: UTF8.self) == Self.token, "normalised to lower case")
            #expect(try await plaintextHits(of: Self.token, in: w.owner) == [])
            #expect(try await plaintextHits(of: "iphone-1", in: w.owner) == [])

            // A new device id with an already registered token replaces the old registration.
            #expect(try await register("iphone-1-reinstalled", Self.token) == 200)
            #expect(try await w.call(.DELETE, "/v1/devices/apns/iphone-1", token: s.access).status == 404)
            #expect(try await w.call(.DELETE, "/v1/devices/apns/iphone-1-reinstalled", token: s.access).status == 200)
            #expect(try await w.call(.DELETE, "/v1/devices/apns/iphone-1-reinstalled", token: s.access).status == 404)
            let left = try await w.owner.query("SELECT count(*)::int8 FROM devices WHERE user_id = \(user)",
                                               logger: TestDatabase.quietLogger).collect().first?.decode(Int.self)
            #expect(left == 1)
        }
    }

    @Test func preferencesStartAtTheDefaultsAndARoundTripKeepsThem() async throws {
        try await APIWorld().run { w in
            let s = try await w.signIn()
            let defaults = try await w.call(.GET, "/v1/preferences", token: s.access)
            #expect(defaults.json["meeting_reminder_minutes"] as? Int == 15 && defaults.json["morning_brief_local_time"] as? String == "08:00")
            #expect(defaults.json["quiet_hours_start"] as? String == "22:00" && defaults.json["time_zone"] as? String == "UTC")
            let put = try await w.call(.PUT, "/v1/preferences", token: s.access, json: """
                {"meeting_reminder_minutes": 10, "morning_brief_local_time": "07:30", "high_risk_requires_confirm": false,
                 "time_zone": "Europe/Berlin"}
                """)
            #expect(put.status == 200 && put.json["ok"] as? Bool == true, "\(put.body)")
            let read = try await w.call(.GET, "/v1/preferences", token: s.access)
            #expect(read.json["meeting_reminder_minutes"] as? Int == 10 && read.json["morning_brief_local_time"] as? String == "07:30")
            #expect(read.json["quiet_hours_start"] == nil && read.json["quiet_hours_end"] == nil, "no quiet hours: \(read.body)")
            #expect(read.json["time_zone"] as? String == "Europe/Berlin" && read.json["high_risk_requires_confirm"] as? Bool == false)
            // Left out, the time zone is kept.
            _ = try await w.call(.PUT, "/v1/preferences", token: s.access, json: """
                {"meeting_reminder_minutes": 5, "morning_brief_local_time": "06:00", "high_risk_requires_confirm": true}
                """)
            #expect(try await w.call(.GET, "/v1/preferences", token: s.access).json["time_zone"] as? String == "Europe/Berlin")
        }
    }

    /// A bad value gets a 400 that names its field; nothing is saved.
    @Test(arguments: [
        (#""meeting_reminder_minutes": 1441"#, "meeting_reminder_minutes"),
        (#""meeting_reminder_minutes": -1"#, "meeting_reminder_minutes"),
        (#""morning_brief_local_time": "25:00""#, "morning_brief_local_time"),
        (#""morning_brief_local_time": "7:30""#, "morning_brief_local_time"),
        (#""quiet_hours_start": "22:00""#, "quiet_hours_end"),
        (#""quiet_hours_start": "22:00", "quiet_hours_end": "7am""#, "quiet_hours_end"),
        (#""time_zone": "Mars/Olympus""#, "time_zone"),
        (#""meeting_reminder_minutes": "ten""#, "meeting_reminder_minutes"),
    ])
    func anOutOfRangePreferenceNamesItsField(change: String, field: String) async throws {
        try await APIWorld().run { w in
            let s = try await w.signIn()
            var fields = [#""meeting_reminder_minutes": 10"#, #""morning_brief_local_time": "07:30""#, #""high_risk_requires_confirm": true"#]
            let key = change.split(separator: ":")[0]
            fields.removeAll { $0.hasPrefix(key) }
            let reply = try await w.call(.PUT, "/v1/preferences", token: s.access, json: "{" + (fields + [change]).joined(separator: ", ") + "}")
            #expect(reply.status == 400 && reply.message?.hasPrefix(field) == true, "\(change): \(reply.body)")
            #expect(try await w.call(.GET, "/v1/preferences", token: s.access).json["meeting_reminder_minutes"] as? Int == 15, "nothing saved")
        }
    }

    @Test func malformedJSONUnknownFieldsAndOversizedBodiesAreRefusedInTheOneErrorShape() async throws {
        try await APIWorld().run { w in
            let s = try await w.signIn()
            let malformed = try await w.call(.POST, "/v1/devices/apns", token: s.access, json: #"{"device_id": "x""#)
            #expect(malformed.status == 400 && malformed.code == "invalid_json", "\(malformed.body)")
            let unknown = try await w.call(.POST, "/v1/feedback/urgent", token: s.access,
                                           json: #"{"notification_id": "n1", "verdict": "confirmed", "admin": true}"#)
            #expect(unknown.status == 400 && unknown.code == "unknown_field" && unknown.message?.contains("admin") == true, "\(unknown.body)")
            let missing = try await w.call(.POST, "/v1/feedback/urgent", token: s.access, json: #"{"verdict": "confirmed"}"#)
            #expect(missing.status == 400 && missing.code == "missing_field" && missing.message?.contains("notification_id") == true,
                    "\(missing.body)")
            let huge = try await w.call(.POST, "/v1/feedback/urgent", token: s.access,
                                        json: #"{"notification_id": ""# + String(repeating: "x", count: 20_000) + #"", "verdict": "confirmed"}"#)
            #expect(huge.status == 413 && huge.code == "payload_too_large", "\(huge.body)")
            let nowhere = try await w.call(.GET, "/v1/nowhere", token: s.access)
            #expect(nowhere.status == 404 && nowhere.code == "not_found", "\(nowhere.body)")
            for reply in [malformed, unknown, missing, huge, nowhere] {
                #expect(Set(reply.json.keys) == ["code", "message"], "\(reply.body)")
                #expect(reply.headers.first(name: "Content-Type")?.hasPrefix("application/json") == true)
            }
        }
    }

    /// A preference change takes effect at once: the queued brief moves to the new time and the
    /// queued reminders move by the change in lead time.
    @Test func aPreferenceChangeMovesTheQueuedBriefAndRemindersAtOnce() async throws {
        try await APIWorld().run { w in
            let s = try await w.signIn()
            let user = w.userID(s)
            let meeting = Date().addingTimeInterval(3 * 86_400).rounded(toSeconds: 60)
            let store = PostgresJobStore(client: w.owner, logger: TestDatabase.quietLogger)
            var reminder = NewJob(kind: AssistantKind.meetingReminder, schedule: .at(meeting.addingTimeInterval(-15 * 60 - 30)),
                                  uniqueKey: "reminder:test", userID: user)
            reminder.deadline = meeting
            let brief = NewJob(kind: AssistantKind.morningBrief, schedule: .at(Date().addingTimeInterval(86_400)),
                               uniqueKey: AssistantKind.briefKey(user: user), userID: user)
            let ids = try await store.enqueue([reminder, brief], onConflict: .keep).compactMap(\.jobID)

            let put = try await w.call(.PUT, "/v1/preferences", token: s.access, json: """
                {"meeting_reminder_minutes": 45, "morning_brief_local_time": "06:15", "high_risk_requires_confirm": true,
                 "time_zone": "America/Los_Angeles"}
                """)
            #expect(put.status == 200, "\(put.body)")
            let due = try await w.owner.query("SELECT id, due_at FROM jobs WHERE id = ANY(\(ids.map(\.uuid)))",
                                              logger: TestDatabase.quietLogger).collect().map { try $0.decode((UUID, Date).self) }
            let byID = Dictionary(uniqueKeysWithValues: due)
            #expect(byID[ids[0].uuid] == meeting.addingTimeInterval(-45 * 60 - 30), "the reminder moved 30 minutes earlier")
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "America/Los_Angeles")!
            // The brief's job runs `composeAhead` before the brief time.
            let briefDue = try #require(byID[ids[1].uuid]).addingTimeInterval(BriefSchedule.composeAhead)
            let parts = calendar.dateComponents([.hour, .minute, .second], from: briefDue)
            #expect(parts.hour == 6 && parts.minute == 15 && parts.second == 0 && briefDue > Date() && briefDue < Date().addingTimeInterval(86_400 + 60),
                    "the next 06:15 in Los Angeles: \(briefDue)")
        }
    }

    @Test func theAuditTrailPagesByCursorAndFeedbackBecomesAJob() async throws {
        try await APIWorld().run { w in
            let s = try await w.signIn()
            for _ in 0..<4 { _ = try await w.signIn() }  // the same user: five SIGN_IN events in all
            let first = try await w.call(.GET, "/v1/audit-events?limit=3", token: s.access)
            let items = try #require(first.json["items"] as? [[String: Any]])
            #expect(items.count == 3 && items.allSatisfy { $0["event_type"] as? String == "SIGN_IN" }, "\(first.body)")
            #expect(items.allSatisfy { $0["connector"] == nil }, "a sign-in names no connector: \(first.body)")
            let cursor = try #require(first.json["next_cursor"] as? String)
            let second = try await w.call(.GET, "/v1/audit-events?limit=3&cursor=\(cursor)", token: s.access)
            #expect((second.json["items"] as? [[String: Any]])?.count == 2 && second.json["next_cursor"] == nil, "\(second.body)")
            let bad = try await w.call(.GET, "/v1/audit-events?cursor=not-ours", token: s.access)
            #expect(try await w.call(.GET, "/v1/audit-events?cursor=999999", token: s.access).json["items"] as? [Any] != nil,
                    "a cursor past the end is an empty page")
            #expect(bad.status == 400 && bad.message?.hasPrefix("cursor") == true, "\(bad.body)")

            let feedback = try await w.call(.POST, "/v1/feedback/urgent", token: s.access,
                                            json: #"{"notification_id": "urgent-abc", "verdict": "false_positive"}"#)
            #expect(feedback.status == 202, "\(feedback.body)")
            _ = try await w.call(.POST, "/v1/feedback/urgent", token: s.access,
                                 json: #"{"notification_id": "urgent-abc", "verdict": "false_positive"}"#)
            let jobs = try await w.owner.query("SELECT count(*)::int8 FROM jobs WHERE kind = 'feedback.urgent' AND user_id = \(w.userID(s))",
                                               logger: TestDatabase.quietLogger).collect().first?.decode(Int.self)
            #expect(jobs == 1, "one job per alert")
        }
    }
}

extension Date {
    func rounded(toSeconds step: Double) -> Date { Date(timeIntervalSince1970: (timeIntervalSince1970 / step).rounded(.down) * step) }
}
