import AlfredCore
@testable import API
import AlfredTestCluster
import Foundation
import PostgresNIO
import StandIns
import Store
import Testing

/// Who may create an account (issue #30, RFC §13's rollout), through the API as a stranger, an
/// invitee and a team member meet it, with the policy set as `alfred signups` sets it. Before, every
/// Apple ID got an account.
@Suite(.timeLimit(.minutes(5))) struct SignupGateTests {
    static func signIn(_ w: APIWorld.Running, _ subject: String, email: String? = nil, invite: String? = nil) async throws -> APIWorld.Reply {
        var request = AppleStandIn.IdentityTokenRequest(subject: subject, audience: APIWorld.bundleID)
        if let email { request.email = email }
        let token = try w.apple.identityToken(request)
        var body: [String: String] = ["apple_identity_token": token, "device_id": "phone"]
        if let invite { body["invite_code"] = invite }
        return try await w.call(.POST, "/v1/auth/ios/session",
                                json: String(decoding: try JSONSerialization.data(withJSONObject: body), as: UTF8.self))
    }

    static func accounts(_ w: APIWorld.Running) async throws -> Int {
        try await w.owner.query("SELECT count(*)::int8 FROM users WHERE apple_subject_hash IS NOT NULL", logger: TestDatabase.quietLogger)
            .collect().first?.decode(Int.self) ?? -1
    }

    @Test func closedAdmitsTheTeamOnlyAndAStrangerLeavesNoTrace() async throws {
        try await APIWorld().run { w in
            let operators = PostgresSignupStore(client: w.owner, logger: TestDatabase.quietLogger)
            try await operators.setPolicy(SignupPolicy(mode: .closed))
            try await operators.setAllowed(w.sealer.keyedHash("signup-identity", "ada@team.example.com"), true)
            try await operators.setAllowed(w.sealer.keyedHash("signup-identity", "001842.grace"), true)

            let stranger = try await Self.signIn(w, "001842.mallory", email: "mallory@example.com")
            #expect(stranger.status == 403 && stranger.code == "signups_closed", "\(stranger.body)")
            #expect(try await Self.accounts(w) == 0)
            #expect(try await plaintextHits(of: "mallory", in: w.owner) == [])
            #expect(try await w.owner.query("SELECT count(*)::int8 FROM sessions", logger: TestDatabase.quietLogger)
                .collect().first?.decode(Int.self) == 0, "nothing is stored about a refused sign-in")

            #expect(try await Self.signIn(w, "001842.ada", email: "Ada@Team.example.com").status == 200, "by verified email")
            #expect(try await Self.signIn(w, "001842.grace", email: "grace@elsewhere.example").status == 200, "by Apple account id")
            #expect(try await Self.accounts(w) == 2)
            // Once an account exists it always signs in, whatever the policy says later.
            try await operators.setAllowed(w.sealer.keyedHash("signup-identity", "ada@team.example.com"), false)
            #expect(try await Self.signIn(w, "001842.ada", email: "ada@team.example.com").status == 200)
            // An unverified email does not count.
            var unverified = AppleStandIn.IdentityTokenRequest(subject: "001842.eve", audience: APIWorld.bundleID)
            unverified.email = "eve@team.example.com"
            unverified.emailVerified = false
            try await operators.setAllowed(w.sealer.keyedHash("signup-identity", "eve@team.example.com"), true)
            let eve = try await w.call(.POST, "/v1/auth/ios/session", json: APIWorld.Running.sessionBody(try w.apple.identityToken(unverified)))
            #expect(eve.status == 403, "\(eve.body)")
        }
    }

    @Test func anInvitationWorksOnceBeforeItExpiresAndTheCapHolds() async throws {
        try await APIWorld().run { w in
            let operators = PostgresSignupStore(client: w.owner, logger: TestDatabase.quietLogger)
            try await operators.setPolicy(SignupPolicy(mode: .invite, userCap: 2))
            let codes = (0..<3).map { _ in InviteCode.generate() }
            try await operators.addInvites(codes.compactMap(InviteCode.storedHash), expiresAt: Date().addingTimeInterval(86_400))
            let expired = InviteCode.generate()
            try await operators.addInvites([InviteCode.storedHash(expired)!], expiresAt: Date().addingTimeInterval(-60))

            let none = try await Self.signIn(w, "001842.a")
            #expect(none.status == 403 && none.code == "not_invited", "\(none.body)")
            for bad in [expired, "ALF-00000-00000-00000-00000", "not a code"] {
                let reply = try await Self.signIn(w, "001842.a", invite: bad)
                #expect(reply.status == 403 && reply.code == "not_invited", "\(bad): \(reply.body)")
            }
            // Typed by hand: lower case, no dashes.
            #expect(try await Self.signIn(w, "001842.a", invite: codes[0].lowercased().replacingOccurrences(of: "-", with: "")).status == 200)
            let reused = try await Self.signIn(w, "001842.b", invite: codes[0])
            #expect(reused.status == 403 && reused.code == "not_invited", "single use: \(reused.body)")
            #expect(try await Self.signIn(w, "001842.b", invite: codes[1]).status == 200)
            let full = try await Self.signIn(w, "001842.c", invite: codes[2])
            #expect(full.status == 403 && full.code == "signups_full", "\(full.body)")
            #expect(try await Self.accounts(w) == 2)
            // The refused one did not use up its invitation: raising the cap lets it in.
            try await operators.setPolicy(SignupPolicy(mode: .invite, userCap: 3))
            #expect(try await Self.signIn(w, "001842.c", invite: codes[2]).status == 200)
            let summary = try await operators.summary()
            #expect(summary.accounts == 3 && summary.openInvites == 0)
        }
    }

    /// Many strangers at once against a cap of 3: exactly 3 accounts.
    @Test func concurrentFirstSignInsNeverPassTheCap() async throws {
        try await APIWorld().run { w in
            try await PostgresSignupStore(client: w.owner, logger: TestDatabase.quietLogger).setPolicy(SignupPolicy(mode: .open, userCap: 3))
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<12 { group.addTask { try await Self.signIn(w, "001842.user\(index)").status } }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 3 && statuses.filter { $0 == 403 }.count == 9, "\(statuses)")
            #expect(try await Self.accounts(w) == 3)
        }
    }

    /// Each operator change is appended to the operators' audit chain, naming no identity.
    @Test func policyChangesAreAuditedWithoutIdentities() async throws {
        try await APIWorld().run { w in
            let operators = PostgresSignupStore(client: w.owner, logger: TestDatabase.quietLogger)
            try await operators.setPolicy(SignupPolicy(mode: .invite, userCap: 50))
            try await operators.setAllowed(w.sealer.keyedHash("signup-identity", "ada@team.example.com"), true)
            try await operators.addInvites([InviteCode.storedHash(InviteCode.generate())!], expiresAt: Date().addingTimeInterval(3600))
            let rows = try await w.owner.query("""
                SELECT event_type, redacted_metadata::text FROM audit_events WHERE user_id = \(PostgresSignupStore.operatorChain) ORDER BY seq
                """, logger: TestDatabase.quietLogger).collect().map { try $0.decode((String, String).self) }
            #expect(rows.map(\.0) == ["SIGNUP_POLICY", "SIGNUP_ALLOW_LIST", "SIGNUP_INVITES"])
            #expect(rows[0].1.contains("\"user_cap\": \"50\"") && rows[0].1.contains("invite"), "\(rows)")
            #expect(!rows.map(\.1).joined().contains("ada"))
        }
    }
}
