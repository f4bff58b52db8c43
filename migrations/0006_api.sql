-- The app's HTTP API (issue #15): users who sign in with Apple, sessions with single-use refresh
-- tokens, devices addressed by the app's own device id, and the API's database role.
--
-- Minimization: Apple's account id (`sub`) and the app's device id are stored only as keyed hashes
-- (HMAC with the host data key, as `devices.token_key` already is); refresh tokens only as SHA-256
-- hashes (they are random and long, so a plain hash cannot be reversed). Sessions go with their
-- user (ON DELETE CASCADE), so delete-all leaves none behind.

ALTER TABLE users ADD COLUMN apple_subject_hash text NULL;
CREATE UNIQUE INDEX users_apple_subject_idx ON users (apple_subject_hash) WHERE apple_subject_hash IS NOT NULL;

ALTER TABLE devices ADD COLUMN device_ref text NULL;
CREATE UNIQUE INDEX devices_user_ref_idx ON devices (user_id, device_ref) WHERE device_ref IS NOT NULL;

-- One row per sign-in. `refresh_hash` is the hash of the one refresh token that is valid now; each
-- refresh replaces it and keeps the used one in `session_used_tokens`, so presenting a used token
-- again (a stolen copy, or the thief's after the owner refreshed) is recognised and ends the session.
CREATE TABLE sessions (
    id              uuid PRIMARY KEY,
    user_id         uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    refresh_hash    bytea NOT NULL UNIQUE,
    generation      int NOT NULL DEFAULT 1,
    created_at      timestamptz NOT NULL DEFAULT now(),
    refreshed_at    timestamptz NOT NULL DEFAULT now(),
    -- A refresh token unused for this long stops working (sliding: each refresh moves it).
    expires_at      timestamptz NOT NULL,
    revoked_at      timestamptz NULL,
    revoked_reason  text NULL CHECK (revoked_reason IN ('logout', 'refresh_token_reused', 'expired'))
);
CREATE INDEX sessions_user_idx ON sessions (user_id);

CREATE TABLE session_used_tokens (
    refresh_hash  bytea PRIMARY KEY,
    session_id    uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    used_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX session_used_tokens_session_idx ON session_used_tokens (session_id);

-- The API's role: sign-in, sessions, devices, preferences, the user's own requests and jobs.
-- It never sees connector secrets (no connectors privilege at all) and cannot delete users: only a
-- delete-all job (a worker) does that.
DO $$
BEGIN
    BEGIN
        CREATE ROLE alfred_api LOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
        NULL;
    END;
END
$$;

GRANT USAGE ON SCHEMA public TO alfred_api;
GRANT SELECT ON schema_migrations TO alfred_api;
GRANT SELECT, INSERT ON users TO alfred_api;
GRANT SELECT, INSERT, UPDATE ON sessions TO alfred_api;
GRANT SELECT, INSERT ON session_used_tokens TO alfred_api;
GRANT SELECT, INSERT, UPDATE, DELETE ON devices TO alfred_api;
GRANT SELECT, INSERT, UPDATE ON preferences TO alfred_api;
-- Jobs: enqueue (feedback, delete-all) and move the user's queued reminders and brief.
GRANT SELECT, INSERT, UPDATE ON jobs TO alfred_api;
GRANT SELECT, INSERT ON privacy_requests TO alfred_api;
GRANT SELECT ON audit_events, audit_heads TO alfred_api;
GRANT EXECUTE ON FUNCTION alfred_audit_append(uuid, text, text, text, jsonb) TO alfred_api;
-- Export reads what the user has (secrets stay sealed and are left out by the query).
GRANT SELECT ON notifications, mail_alerts, sync_cursors, push_sends TO alfred_api;
GRANT SELECT (id, user_id, provider, scopes, status, created_at, revoked_at) ON connectors TO alfred_api;
