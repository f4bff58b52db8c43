import AlfredCore
import AlfredTestCluster
import Foundation
import PostgresNIO
import Testing

/// What the app relies on in a push (issue #30, docs/api.md "Notifications"): a category per kind
/// that picks its actions, a deep link that names the notification by id, "Join" on a reminder with a
/// video link, and "Not urgent" on an urgent-mail alert that, posted back through the API, is counted.
/// Before, pushes carried no category and no id the app could send back.
@Suite(.timeLimit(.minutes(5))) struct NotificationContractTests {
    @Test func eachKindCarriesItsCategoryAndLinkAndNotUrgentPostedBackIsCounted() async throws {
        var world = APIWorld()
        world.delivery = true
        try await world.run { w in
            let phone = String(repeating: "7e", count: 32)
            w.apns.register(deviceToken: phone, environment: .sandbox)
            let s = try await w.signIn()
            #expect(try await w.call(.POST, "/v1/devices/apns", token: s.access, json: """
                {"device_id": "phone", "apns_token": "\(phone)", "environment": "sandbox"}
                """).status == 200)
            let user = w.userID(s)
            let join = "https://meet.example.com/abc-defg-hij"
            let withLink = try await w.notify(user, title: "Board sync in 10 min", joinURL: join)
            let plain = try await w.notify(user, title: "Dentist in 15 min")
            let urgent = try await w.notify(user, kind: "mail.urgent", title: "Urgent: Grace Hopper",
                                            key: "mail:" + String(repeating: "5a", count: 16))
            let brief = try await w.notify(user, kind: "morning.brief", title: "Good morning")
            for key in [withLink, plain, urgent, brief] { #expect(try await w.finalState(key) == "delivered") }

            let shown = Dictionary(uniqueKeysWithValues: w.apns.shown(to: phone).map { ($0.alertText?.title ?? "", $0) })
            let reminder = try #require(shown["Board sync in 10 min"])
            #expect(reminder.category == "ALFRED_REMINDER_JOIN" && reminder.joinURL == join)
            #expect(reminder.link == "alfred://reminder/\(withLink.suffix(32))" && reminder.notificationID == String(withLink.suffix(32)))
            #expect(shown["Dentist in 15 min"]?.category == "ALFRED_REMINDER" && shown["Dentist in 15 min"]?.joinURL == nil)
            #expect(shown["Good morning"]?.category == "ALFRED_BRIEF")
            let alert = try #require(shown["Urgent: Grace Hopper"])
            #expect(alert.category == "ALFRED_URGENT_MAIL" && alert.link == "alfred://urgent/\(urgent.suffix(32))")
            // Nothing but our own ids: no Google event or message ids, no addresses.
            for delivery in shown.values {
                let payload = String(decoding: delivery.payload, as: UTF8.self)
                #expect(!payload.contains(user.uuidString.lowercased()) && !payload.contains("@"), "\(payload)")
            }

            // The "Not urgent" action: the app posts the id the push carried.
            let notificationID = try #require(alert.notificationID)
            let verdict = try await w.call(.POST, "/v1/feedback/urgent", token: s.access,
                                           json: #"{"notification_id": "\#(notificationID)", "verdict": "false_positive"}"#)
            #expect(verdict.status == 202, "\(verdict.body)")
            let recorded = try await eventually {
                try await w.owner.query("SELECT feedback FROM notifications WHERE idempotency_key = \(urgent)",
                                        logger: TestDatabase.quietLogger).collect().first?.decode(String?.self) == "false_positive"
            }
            #expect(recorded, "the verdict reached the alert's ledger row (the false-positive metric's source)")
        }
    }
}
