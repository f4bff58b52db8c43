-- Google connect through the API (issue #16): the app asks the API to start, Google redirects back
-- into the app, and the app hands the code and state to the API, which has the broker exchange it.
--
-- 1. A pending connect. `state` is a CSRF token bound to the caller's session: only that session
--    can finish the flow, once, within `expires_at`. The state itself is stored only as a keyed hash
--    (HMAC with the host data key), and the PKCE verifier only sealed with that key, so a copy of
--    the database can neither finish a flow nor forge one. Rows go with their user.
CREATE TABLE connect_states (
    state_hash       text PRIMARY KEY,
    user_id          uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    session_id       uuid NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    oauth_client     text NOT NULL CHECK (oauth_client IN ('web', 'ios')),
    redirect_uri     text NOT NULL,
    verifier_sealed  bytea NOT NULL,
    created_at       timestamptz NOT NULL DEFAULT now(),
    expires_at       timestamptz NOT NULL
);
CREATE INDEX connect_states_user_idx ON connect_states (user_id, created_at);
CREATE INDEX connect_states_expiry_idx ON connect_states (expires_at);

GRANT SELECT, INSERT, DELETE ON connect_states TO alfred_api;

-- 2. The OAuth client a connector's refresh token was issued to: Google refreshes a token only for
--    the client that obtained it, and an iOS client has no secret to send.
ALTER TABLE connectors ADD COLUMN oauth_client text NOT NULL DEFAULT 'web' CHECK (oauth_client IN ('web', 'ios'));
GRANT SELECT (oauth_client) ON connectors TO alfred_worker, alfred_api;
