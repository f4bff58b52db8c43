import AlfredCore
import AlfredTestCluster
import Foundation
import PostgresNIO
import Testing

/// A device belongs to one account and one session (issue #30): a phone handed to someone else, a
/// logout and a stolen refresh token each stop the old account's pushes reaching it, followed from
/// the API's device rows to what the APNs stand-in shows on the phone.
@Suite(.timeLimit(.minutes(5))) struct DeviceOwnershipTests {
    static func register(_ w: APIWorld.Running, _ session: APIWorld.Session, device: String, token: String) async throws {
        let reply = try await w.call(.POST, "/v1/devices/apns", token: session.access, json: """
            {"device_id": "\(device)", "apns_token": "\(token)", "environment": "sandbox"}
            """)
        #expect(reply.status == 200, "\(reply.body)")
    }

    static func devices(_ w: APIWorld.Running, _ session: APIWorld.Session) async throws -> [[String: Any]] {
        let reply = try await w.call(.GET, "/v1/devices", token: session.access)
        #expect(reply.status == 200, "\(reply.body)")
        return reply.json["items"] as? [[String: Any]] ?? []
    }

    static func retiredReasons(_ w: APIWorld.Running, of user: UUID) async throws -> [String?] {
        try await w.owner.query("SELECT retired_reason FROM devices WHERE user_id = \(user) ORDER BY created_at",
                                logger: TestDatabase.quietLogger).collect().map { try $0.decode(String?.self) }
    }

    static func token(_ byte: String) -> String { String(repeating: byte, count: 32) }

    /// Today's code kept both rows live: Alice's reminder reached the iPad Bob now holds.
    @Test func aPhoneHandedToAnotherAccountStopsShowingTheFirstAccountsPushesEvenOnesAlreadyQueued() async throws {
        var world = APIWorld()
        world.delivery = true
        try await world.run { w in
            let ipad = Self.token("1c")
            w.apns.register(deviceToken: ipad, environment: .sandbox)
            let alice = try await w.signIn(subject: "001842.alice")
            try await Self.register(w, alice, device: "family-ipad", token: ipad)
            // Alice's reminder is queued for later; then Bob signs in on the same app install.
            let hers = try await w.notify(w.userID(alice), title: "Alice: oncology results call", at: Date().addingTimeInterval(3600))
            let bob = try await w.signIn(subject: "001842.bob")
            try await Self.register(w, bob, device: "family-ipad", token: ipad)

            try await w.makeDue(hers)
            #expect(try await w.finalState(hers) == "no_device", "Alice has no live device now")
            let his = try await w.notify(w.userID(bob), title: "Bob: dentist")
            #expect(try await w.finalState(his) == "delivered")
            let shown = w.apns.shown(to: ipad)
            #expect(shown.count == 1 && shown.allSatisfy { $0.collapseID == his }, "the iPad shows Bob's push only: \(shown)")

            #expect(try await Self.retiredReasons(w, of: w.userID(alice)) == ["registered_elsewhere"])
            #expect(try await Self.devices(w, alice).isEmpty)
            let bobs = try await Self.devices(w, bob)
            #expect(bobs.count == 1 && bobs.first?["this_session"] as? Bool == true, "\(bobs)")
            // Alice signs in on it again: the latest registration wins, Bob's row is retired.
            let aliceAgain = try await w.signIn(subject: "001842.alice")
            try await Self.register(w, aliceAgain, device: "family-ipad", token: ipad)
            #expect(try await Self.devices(w, bob).isEmpty)
            #expect(try await Self.retiredReasons(w, of: w.userID(bob)) == ["registered_elsewhere"])
            #expect(try await Self.devices(w, aliceAgain).count == 1)
        }
    }

    /// Today's code left the device live after logout (and had no `GET /v1/devices`).
    @Test func logoutRetiresTheDevicesThatSessionRegisteredAndNoOthers() async throws {
        try await APIWorld().run { w in
            let phone = try await w.signIn(), tablet = try await w.signIn()
            try await Self.register(w, phone, device: "phone", token: Self.token("2a"))
            try await Self.register(w, tablet, device: "tablet", token: Self.token("2b"))
            #expect(try await Self.devices(w, tablet).count == 2)
            #expect(try await w.call(.POST, "/v1/auth/logout", token: phone.access).status == 200)
            let left = try await Self.devices(w, tablet)
            #expect(left.count == 1 && left.first?["this_session"] as? Bool == true, "\(left)")
            #expect(try await Self.retiredReasons(w, of: w.userID(tablet)) == ["logout", nil])
        }
    }

    /// A thief with a stolen refresh token registers their own phone; when the victim's next
    /// refresh reveals the reuse, the session ends and the thief's phone stops receiving. Today's code
    /// kept pushing the victim's reminders to it.
    @Test func aDeviceRegisteredWithAStolenRefreshTokenIsRetiredWhenReuseEndsTheSession() async throws {
        var world = APIWorld()
        world.delivery = true
        try await world.run { w in
            let thiefPhone = Self.token("3c"), victimPhone = Self.token("3d")
            for phone in [thiefPhone, victimPhone] { w.apns.register(deviceToken: phone, environment: .sandbox) }
            let victim = try await w.signIn(subject: "001842.victim")
            try await Self.register(w, victim, device: "victim-phone", token: victimPhone)
            let stolen = try await w.call(.POST, "/v1/auth/refresh", json: #"{"refresh_token": "\#(victim.refresh)"}"#)
            let thiefAccess = try #require(stolen.json["access_token"] as? String)
            try await Self.register(w, .init(access: thiefAccess, refresh: ""), device: "thief-phone", token: thiefPhone)
            // The victim's app refreshes with the token the thief already used: reuse, the session ends.
            let reuse = try await w.call(.POST, "/v1/auth/refresh", json: #"{"refresh_token": "\#(victim.refresh)"}"#)
            #expect(reuse.status == 401)

            let key = try await w.notify(w.userID(victim), title: "Victim: court hearing moved")
            #expect(try await w.finalState(key) == "no_device", "both phones were registered by the ended session")
            #expect(w.apns.shown(to: thiefPhone).isEmpty)
            #expect(try await Self.retiredReasons(w, of: w.userID(victim)) == ["session_revoked", "session_revoked"])
            // Signing in again and registering brings the victim's own phone back, not the thief's.
            let again = try await w.signIn(subject: "001842.victim")
            try await Self.register(w, again, device: "victim-phone", token: victimPhone)
            let next = try await w.notify(w.userID(victim), title: "Victim: hearing at 10")
            #expect(try await w.finalState(next) == "delivered")
            #expect(w.apns.shown(to: thiefPhone).isEmpty && w.apns.shown(to: victimPhone).count == 1)
        }
    }

    /// The caller sees every live device of theirs by the server's id and removes one this install
    /// did not register (today there was no way to); the id of another user's device is a 404.
    @Test func aUserListsTheirDevicesAndRemovesOneRegisteredElsewhere() async throws {
        try await APIWorld().run { w in
            let here = try await w.signIn(), there = try await w.signIn()
            try await Self.register(w, there, device: "old-phone", token: Self.token("4a"))
            let listed = try await Self.devices(w, here)
            #expect(listed.count == 1 && listed.first?["this_session"] as? Bool == false, "\(listed)")
            let body = try await w.call(.GET, "/v1/devices", token: here.access).body
            #expect(!body.contains(Self.token("4a")) && !body.contains("old-phone"), "no token or app device id: \(body)")
            let id = try #require(listed.first?["id"] as? String)
            let bob = try await w.signIn(subject: "001842.bob")
            #expect(try await w.call(.DELETE, "/v1/devices/\(id)", token: bob.access).status == 404)
            #expect(try await w.call(.DELETE, "/v1/devices/\(id)", token: here.access).status == 200)
            #expect(try await w.call(.DELETE, "/v1/devices/\(id)", token: here.access).status == 404)
            let malformed = try await w.call(.DELETE, "/v1/devices/not-a-uuid", token: here.access)
            #expect(malformed.status == 400, "\(malformed.body)")
            #expect(try await Self.devices(w, there).isEmpty)
        }
    }

    /// Two accounts registering one phone at the same moment, many times: one row is live at the end.
    @Test func racingRegistrationsOfOneTokenLeaveOneLiveRow() async throws {
        try await APIWorld().run { w in
            let token = Self.token("5e")
            let sessions = [try await w.signIn(subject: "001842.alice"), try await w.signIn(subject: "001842.bob")]
            try await withThrowingTaskGroup(of: Void.self) { group in
                for round in 0..<20 {
                    let session = sessions[round % 2]
                    group.addTask { try await Self.register(w, session, device: "shared", token: token) }
                }
                try await group.waitForAll()
            }
            let live = try await w.owner.query("SELECT count(*)::int8 FROM devices WHERE retired_at IS NULL",
                                               logger: TestDatabase.quietLogger).collect().first?.decode(Int.self)
            #expect(live == 1)
        }
    }
}
