import AlfredCore
import AlfredTestCluster
@testable import API
import Foundation
import StandIns
import Testing

/// Sign in with Apple, sessions, refresh and logout, over HTTP against the Apple stand-in.
@Suite(.timeLimit(.minutes(5))) struct SessionTests {
    @Test func firstSignInCreatesTheUserAndLaterOnesFindItWithoutStoringTheAppleAccountID() async throws {
        try await APIWorld().run { w in
            let first = try await w.signIn(subject: "001842.alice")
            let again = try await w.signIn(subject: "001842.alice")
            let other = try await w.signIn(subject: "001842.bob")
            #expect(w.userID(first) == w.userID(again))
            #expect(w.userID(first) != w.userID(other))
            // The access token works; the Apple account id is stored only as a keyed hash.
            #expect(try await w.call(.GET, "/v1/preferences", token: first.access).status == 200)
            #expect(try await plaintextHits(of: "001842.alice", in: w.owner) == [])
            let users = try await w.owner.query("SELECT count(*)::int8 FROM users WHERE apple_subject_hash IS NOT NULL",
                                                logger: TestDatabase.quietLogger).collect().first?.decode(Int.self)
            #expect(users == 2)
        }
    }

    /// Each check of the identity token refuses on its own, with a 401 that names the check.
    @Test(arguments: [
        (AppleStandIn.Override.wrongIssuer, "not issued by Apple"),
        (.wrongAudience, "for another app"),
        (.expired, "expired"),
        (.unknownKeyID, "key Apple does not publish"),
        (.badSignature, "signature does not verify"),
        (.hs256, "not signed with RS256"),
        (.algorithmNone, "not signed with RS256"),
    ])
    func eachIdentityTokenCheckRefusesOnItsOwn(override: AppleStandIn.Override, message: String) async throws {
        try await APIWorld().run { w in
            let token = try w.apple.identityToken(.init(subject: "001842.alice", audience: APIWorld.bundleID, overrides: [override]))
            let reply = try await w.call(.POST, "/v1/auth/ios/session", json: APIWorld.Running.sessionBody(token))
            #expect(reply.status == 401 && reply.code == "invalid_token", "\(reply.body)")
            #expect(reply.message?.contains(message) == true, "\(reply.body)")
            #expect(!reply.body.contains(token) && !reply.body.contains("001842"))
        }
    }

    @Test func theNonceMustBeTheOneTheAppSent() async throws {
        try await APIWorld().run { w in
            let token = try w.apple.identityToken(.init(subject: "001842.alice", audience: APIWorld.bundleID, nonce: "raw-nonce-1"))
            let wrong = try await w.call(.POST, "/v1/auth/ios/session", json: APIWorld.Running.sessionBody(token, nonce: "raw-nonce-2"))
            #expect(wrong.status == 401 && wrong.message?.contains("nonce") == true, "\(wrong.body)")
            let missing = try await w.call(.POST, "/v1/auth/ios/session", json: APIWorld.Running.sessionBody(token))
            #expect(missing.status == 401 && missing.message?.contains("nonce") == true, "\(missing.body)")
            let right = try await w.call(.POST, "/v1/auth/ios/session", json: APIWorld.Running.sessionBody(token, nonce: "raw-nonce-1"))
            #expect(right.status == 200, "\(right.body)")
        }
    }

    /// Apple rotates its keys: a token signed with the new key makes the API fetch the key set again;
    /// made-up key ids do not make it fetch more than once per interval.
    @Test func aKeyRotatedAtAppleIsFetchedAndUnknownKeyIDsRefetchAtMostOncePerInterval() async throws {
        try await APIWorld().run { w in
            _ = try await w.signIn()
            #expect(w.apple.keySetFetches == 1)
            w.apple.rotateKeys()
            _ = try await w.signIn()
            #expect(w.apple.keySetFetches == 2, "the new kid made the API fetch Apple's keys again")
            for _ in 0..<5 {
                let token = try w.apple.identityToken(.init(subject: "001842.alice", audience: APIWorld.bundleID, overrides: [.unknownKeyID]))
                #expect(try await w.call(.POST, "/v1/auth/ios/session", json: APIWorld.Running.sessionBody(token)).status == 401)
            }
            #expect(w.apple.keySetFetches == 2, "no refetch within the interval after the last one")
        }
    }

    @Test func refreshRotatesAndAReusedRefreshTokenEndsTheWholeSession() async throws {
        try await APIWorld().run { w in
            let session = try await w.signIn()
            let rotated = try await w.call(.POST, "/v1/auth/refresh", json: #"{"refresh_token": "\#(session.refresh)"}"#)
            #expect(rotated.status == 200, "\(rotated.body)")
            let newRefresh = try #require(rotated.json["refresh_token"] as? String)
            let newAccess = try #require(rotated.json["access_token"] as? String)
            #expect(newRefresh != session.refresh)
            #expect(try await w.call(.GET, "/v1/preferences", token: newAccess).status == 200)

            // The old refresh token again (a stolen copy): refused, and the session it belonged to ends.
            let replay = try await w.call(.POST, "/v1/auth/refresh", json: #"{"refresh_token": "\#(session.refresh)"}"#)
            #expect(replay.status == 401 && replay.message?.contains("already used") == true, "\(replay.body)")
            #expect(try await w.call(.POST, "/v1/auth/refresh", json: #"{"refresh_token": "\#(newRefresh)"}"#).status == 401,
                    "the newest refresh token of that session is dead too")
            #expect(try await w.call(.GET, "/v1/preferences", token: newAccess).status == 401, "and so are its access tokens")
            #expect(try await w.call(.GET, "/v1/preferences", token: session.access).status == 401)
            // Refresh tokens are stored only as hashes.
            #expect(try await plaintextHits(of: newRefresh, in: w.owner) == [])
        }
    }

    @Test func logoutEndsTheSessionAndOnlyThatOne() async throws {
        try await APIWorld().run { w in
            let phone = try await w.signIn(), tablet = try await w.signIn()
            #expect(try await w.call(.POST, "/v1/auth/logout", token: phone.access).status == 200)
            #expect(try await w.call(.GET, "/v1/preferences", token: phone.access).status == 401)
            #expect(try await w.call(.POST, "/v1/auth/refresh", json: #"{"refresh_token": "\#(phone.refresh)"}"#).status == 401)
            #expect(try await w.call(.GET, "/v1/preferences", token: tablet.access).status == 200, "another session goes on")
        }
    }

    @Test func everyOperationButSignInRefreshAndHealthNeedsABearerToken() async throws {
        try await APIWorld().run { w in
            let session = try await w.signIn()
            for route in Routes.authenticated {
                let none = try await w.call(route.method, route.path(UUID().uuidString), json: route.body)
                #expect(none.status == 401 && none.headers.first(name: "WWW-Authenticate") == "Bearer", "\(route): \(none.body)")
                let forged = try await w.call(route.method, route.path(UUID().uuidString), token: session.access + "x", json: route.body)
                #expect(forged.status == 401 && forged.code == "invalid_token", "\(route): \(forged.body)")
            }
            #expect(try await w.call(.GET, "/healthz").status == 200)
        }
    }
}
