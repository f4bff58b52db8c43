import AlfredCore
import Testing

/// The signup decision, table by table (the API's integration tests run it against Postgres).
@Suite(.timeLimit(.minutes(5))) struct SignupPolicyTests {
    static func admit(_ policy: SignupPolicy, accounts: Int, allowListed: Bool = false, invite: Bool? = nil) async -> (SignupRefusal?, asked: Bool) {
        var asked = false
        let refusal = await policy.admit(accounts: accounts, allowListed: allowListed) {
            asked = true
            return invite ?? false
        }
        return (refusal, asked)
    }

    @Test func theTeamIsAlwaysAdmittedAndNoInvitationIsSpentOnThem() async {
        for policy in [SignupPolicy(mode: .closed), SignupPolicy(mode: .invite, userCap: 0), SignupPolicy(mode: .open, userCap: 1)] {
            let (refusal, asked) = await Self.admit(policy, accounts: 5, allowListed: true, invite: true)
            #expect(refusal == nil && !asked, "\(policy)")
        }
    }

    @Test func closedFullAndUninvitedAreRefusedInThatOrder() async {
        #expect(await Self.admit(SignupPolicy(mode: .closed), accounts: 0).0 == .closed)
        #expect(await Self.admit(SignupPolicy(mode: .open, userCap: 2), accounts: 2).0 == .full)
        #expect(await Self.admit(SignupPolicy(mode: .open, userCap: 2), accounts: 1).0 == nil)
        #expect(await Self.admit(SignupPolicy(mode: .open), accounts: 1_000_000).0 == nil)
        // Full is decided before the invitation is looked at, so a refused invitee keeps theirs.
        let full = await Self.admit(SignupPolicy(mode: .invite, userCap: 1), accounts: 1, invite: true)
        #expect(full.0 == .full && !full.asked)
        #expect(await Self.admit(SignupPolicy(mode: .invite), accounts: 0, invite: false).0 == .notInvited)
        #expect(await Self.admit(SignupPolicy(mode: .invite), accounts: 0, invite: true).0 == nil)
        let open = await Self.admit(SignupPolicy(mode: .open), accounts: 0, invite: true)
        #expect(open.0 == nil && !open.asked, "an open policy spends no invitation")
    }
}

/// What a refused person reads: why, in words, and that nothing was kept; never who they are.
@Suite(.timeLimit(.minutes(5))) struct SignupRefusalTests {
    @Test func everyRefusalSaysNothingWasStored() {
        for refusal in [SignupRefusal.closed, .full, .notInvited] {
            #expect(refusal.message.hasSuffix("nothing was stored"), "\(refusal)")
            #expect(!refusal.message.contains("@"))
        }
        #expect(Set([SignupRefusal.closed, .full, .notInvited].map(\.rawValue)) == ["signups_closed", "signups_full", "not_invited"])
    }
}
