-- Keep only what is needed of sign-ins (issue #30, RFC §8.2). Before, ended sessions and used
-- refresh tokens stayed forever. Now `alfred api` sweeps them (`PostgresAPIStore.sweepSessions`):
-- sessions past their expiry end (their devices are retired, 'session_expired'); ended sessions
-- are deleted a day later (their used tokens and pending Google connects go with them); a used
-- refresh token is dropped once it could no longer have been accepted anyway (its session's refresh
-- lifetime after its use), which is as long as presenting it again can reveal a theft; retired
-- devices (their sealed APNs tokens) go a day after they were retired.
CREATE INDEX sessions_live_expiry_idx ON sessions (expires_at) WHERE revoked_at IS NULL;
CREATE INDEX sessions_ended_idx ON sessions (revoked_at) WHERE revoked_at IS NOT NULL;
CREATE INDEX session_used_tokens_used_idx ON session_used_tokens (used_at);
CREATE INDEX devices_retired_idx ON devices (retired_at) WHERE retired_at IS NOT NULL;

GRANT DELETE ON sessions, session_used_tokens TO alfred_api;
