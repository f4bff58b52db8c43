-- Who may create an account (issue #30; RFC §13's rollout: team dogfood, a 50-user private beta, a
-- 200-user pilot). Before, anyone with an Apple ID got one. Now a first sign-in creates an account
-- only if the policy lets it, decided in the transaction that would create it:
--   * an allow-listed identity (the Apple account id, or the verified email the identity token
--     carries, kept only as a keyed hash) always may: the team;
--   * otherwise `closed` refuses; `invite` needs an invitation code (single use, expiring; stored
--     as its SHA-256) and `open` needs nothing, both under `user_cap` when one is set.
-- A refused sign-in stores nothing at all. Operators change this with `alfred signups`, and each
-- change is appended to the operators' audit chain (the reserved user id 0, created with the first).
-- Existing deployments stay `open` with no cap until an operator decides otherwise.
CREATE TABLE signup_policy (
    singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    mode        text NOT NULL DEFAULT 'open' CHECK (mode IN ('open', 'invite', 'closed')),
    user_cap    integer NULL CHECK (user_cap >= 0),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
INSERT INTO signup_policy DEFAULT VALUES;

CREATE TABLE signup_allowed (
    identity_hash  text PRIMARY KEY,
    added_at       timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE signup_invites (
    code_hash   bytea PRIMARY KEY,
    expires_at  timestamptz NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    used_at     timestamptz NULL
);
CREATE INDEX signup_invites_open_idx ON signup_invites (expires_at) WHERE used_at IS NULL;

GRANT SELECT ON signup_policy, signup_allowed TO alfred_api;
GRANT SELECT, UPDATE (used_at) ON signup_invites TO alfred_api;
