import Foundation
import PostgresNIO

/// The operators' signup policy (`alfred signups`): every statement, in one place. The API's side
/// (deciding a first sign-in) is in `APISQL`.
enum SignupSQL {
    /// The operators' audit chain: a reserved user row (id 0, status `SYSTEM`) that owns it.
    static let operatorUser = UUID(uuidString: "00000000-0000-0000-0000-000000000000")!

    static let ensureOperatorChain: PostgresQuery =
        "INSERT INTO users (id, status) VALUES ('00000000-0000-0000-0000-000000000000', 'SYSTEM') ON CONFLICT (id) DO NOTHING"

    /// `(mode, cap, accounts, allow-listed identities, open invitations)`.
    static let show: PostgresQuery = """
        SELECT p.mode, p.user_cap, (SELECT count(*) FROM users WHERE apple_subject_hash IS NOT NULL),
               (SELECT count(*) FROM signup_allowed),
               (SELECT count(*) FROM signup_invites WHERE used_at IS NULL AND expires_at > now())
        FROM signup_policy p
        """

    static func setPolicy(mode: String, cap: Int32?) -> PostgresQuery {
        "UPDATE signup_policy SET mode = \(mode), user_cap = \(cap), updated_at = now()"
    }

    static func allow(_ identityHash: String) -> PostgresQuery {
        "INSERT INTO signup_allowed (identity_hash) VALUES (\(identityHash)) ON CONFLICT DO NOTHING RETURNING 1::int4"
    }

    static func disallow(_ identityHash: String) -> PostgresQuery {
        "DELETE FROM signup_allowed WHERE identity_hash = \(identityHash) RETURNING 1::int4"
    }

    static func addInvites(_ hashes: [ByteBuffer], expiresAt: Date) -> PostgresQuery {
        "INSERT INTO signup_invites (code_hash, expires_at) SELECT unnest(\(hashes)::bytea[]), \(expiresAt)"
    }

    /// Used and expired invitations are of no further use.
    static let pruneInvites: PostgresQuery = "DELETE FROM signup_invites WHERE used_at IS NOT NULL OR expires_at <= now()"
}
