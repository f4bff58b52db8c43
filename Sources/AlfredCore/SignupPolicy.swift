import Foundation

/// Who may create an account (RFC §13's rollout; `alfred signups` sets it). Existing accounts always
/// sign in; only a first sign-in is decided here, in the transaction that would create the account.
public struct SignupPolicy: Sendable, Equatable {
    public enum Mode: String, Sendable, CaseIterable {
        /// Anyone, under the cap.
        case open
        /// With an invitation code (single use, expiring), under the cap.
        case invite
        /// Allow-listed identities only.
        case closed
    }

    public var mode: Mode
    /// At most this many accounts (allow-listed identities do not count against it); nil: no cap.
    public var userCap: Int?

    public init(mode: Mode, userCap: Int? = nil) { self.mode = mode; self.userCap = userCap }

    /// Whether a new account may be created now. `takeInvite` consumes the request's invitation and
    /// says whether it was valid; it is called only when an invitation is what decides.
    public func admit(accounts: Int, allowListed: Bool, takeInvite: () async throws -> Bool) async rethrows -> SignupRefusal? {
        if allowListed { return nil }
        if mode == .closed { return .closed }
        if let userCap, accounts >= userCap { return .full }
        if mode == .invite, try await !takeInvite() { return .notInvited }
        return nil
    }
}

/// Why a first sign-in created no account (the API answers 403 with this code).
public enum SignupRefusal: String, Sendable, Equatable {
    case closed = "signups_closed"
    case full = "signups_full"
    case notInvited = "not_invited"

    public var message: String {
        switch self {
        case .closed: "Alfred is not taking new accounts yet; nothing was stored"
        case .full: "Alfred has as many accounts as it takes for now; nothing was stored"
        case .notInvited: "a new account needs a valid invitation code (unused and not expired); nothing was stored"
        }
    }
}

/// What a first sign-in brings to the policy: keyed hashes of who the person is (their Apple account
/// id, and their verified email when the identity token carries one), and the invitation's SHA-256.
public struct SignupClaim: Sendable {
    public let identityHashes: [String]
    public let inviteHash: [UInt8]?
    public init(identityHashes: [String], inviteHash: [UInt8]?) { self.identityHashes = identityHashes; self.inviteHash = inviteHash }
}

public enum SignInOutcome: Sendable, Equatable {
    case signedIn(userID: UUID, created: Bool)
    case refused(SignupRefusal)
}
