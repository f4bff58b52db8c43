import AlfredCore
@testable import API
import AlfredTestCluster
import Foundation
import PostgresNIO
import Store
import Testing

/// Keep only what is needed (issue #30, RFC §8.2): after a scenario of sign-ins, refreshes, a
/// logout, a reused refresh token and an expired session, the API's sweep (as role `alfred_api`)
/// leaves exactly the live session, its current token and its device. Before, every row stayed.
@Suite(.timeLimit(.minutes(5))) struct MinimalStateTests {
    static func count(_ w: APIWorld.Running, _ sql: String) async throws -> Int {
        try await w.owner.query(PostgresQuery(unsafeSQL: sql), logger: TestDatabase.quietLogger).collect().first?.decode(Int.self) ?? -1
    }

    static func refresh(_ w: APIWorld.Running, _ token: String) async throws -> APIWorld.Session {
        let reply = try await w.call(.POST, "/v1/auth/refresh", json: #"{"refresh_token": "\#(token)"}"#)
        return APIWorld.Session(access: reply.json["access_token"] as? String ?? "", refresh: reply.json["refresh_token"] as? String ?? "")
    }

    @Test func theSweepLeavesOnlyTheLiveSessionItsCurrentTokenAndItsDevice() async throws {
        try await APIWorld().run { w in
            let store = PostgresAPIStore(client: w.world.pool("alfred_api"), logger: w.world.logger("alfred.api"))
            func register(_ s: APIWorld.Session, _ device: String, _ byte: String) async throws {
                #expect(try await w.call(.POST, "/v1/devices/apns", token: s.access, json: """
                    {"device_id": "\(device)", "apns_token": "\(String(repeating: byte, count: 32))", "environment": "sandbox"}
                    """).status == 200)
            }
            // Kept: a session in use, refreshed twice, with a device.
            var kept = try await w.signIn()
            kept = try await Self.refresh(w, kept.refresh)
            kept = try await Self.refresh(w, kept.refresh)
            try await register(kept, "kept", "6a")
            // Gone: a logout, a session ended by a reused token, and one nobody refreshed in time.
            let loggedOut = try await w.signIn()
            try await register(loggedOut, "logged-out", "6b")
            _ = try await w.call(.POST, "/v1/auth/logout", token: loggedOut.access)
            let stolen = try await w.signIn()
            _ = try await Self.refresh(w, stolen.refresh)
            _ = try await Self.refresh(w, stolen.refresh)
            let idle = try await w.signIn()
            try await register(idle, "idle", "6c")
            let idleSession = try #require(try await w.owner.query(
                "SELECT session_id FROM devices WHERE retired_at IS NULL ORDER BY created_at DESC LIMIT 1",
                logger: TestDatabase.quietLogger).collect().first?.decode(UUID.self))
            _ = try await w.owner.query("UPDATE sessions SET expires_at = now() - interval '1 minute' WHERE id = \(idleSession)",
                                        logger: TestDatabase.quietLogger).collect()

            // Now: the idle session ends and its device stops receiving; nothing is deleted yet.
            let first = try await SessionSweeper.sweep(store: store)
            #expect(first == SessionSweep(expired: 1), "\(first)")
            #expect(try await Self.count(w, "SELECT count(*)::int8 FROM devices WHERE retired_at IS NULL") == 1)
            #expect(try await Self.count(w, "SELECT count(*)::int8 FROM devices WHERE retired_reason = 'session_expired'") == 1)

            // 31 days on (every stored time moved back): the sweep removes what is no longer needed.
            for table in ["sessions SET created_at = created_at - interval '31 days', refreshed_at = refreshed_at - interval '31 days', revoked_at = revoked_at - interval '31 days'",
                          "session_used_tokens SET used_at = used_at - interval '31 days'",
                          "devices SET retired_at = retired_at - interval '31 days'"] {
                _ = try await w.owner.query(PostgresQuery(unsafeSQL: "UPDATE \(table)"), logger: TestDatabase.quietLogger).collect()
            }
            let second = try await SessionSweeper.sweep(store: store)
            #expect(second == SessionSweep(deletedSessions: 3, deletedUsedTokens: 3, deletedDevices: 2), "\(second)")

            // Every table of sign-in state holds only the live session's rows.
            #expect(try await Self.count(w, "SELECT count(*)::int8 FROM sessions") == 1)
            #expect(try await Self.count(w, "SELECT count(*)::int8 FROM session_used_tokens") == 0)
            #expect(try await Self.count(w, "SELECT count(*)::int8 FROM devices") == 1)
            #expect(try await Self.count(w, "SELECT count(*)::int8 FROM devices d JOIN sessions s ON s.id = d.session_id WHERE s.revoked_at IS NULL") == 1)
            // And the live session works as before.
            #expect(try await w.call(.GET, "/v1/devices", token: kept.access).status == 200)
            #expect(try await Self.refresh(w, kept.refresh).access.isEmpty == false)
            // A second sweep finds nothing.
            #expect(try await SessionSweeper.sweep(store: store) == SessionSweep())
        }
    }
}
