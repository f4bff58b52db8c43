-- A device belongs to one account and one session (issue #30).
--
-- Before: one APNs token could be live under any number of users (the unique index was per user),
-- and nothing retired a device when the session that registered it ended. A family iPad handed from
-- A to B kept showing A's meeting titles and mail subjects; a thief who registered a device with a
-- stolen token kept the victim's alerts after the victim logged out or reuse detection ended the
-- session.
--
-- Now: an APNs token is live (retired_at IS NULL) for one row only, so for one account (the latest
-- registration wins and the earlier row is retired as 'registered_elsewhere'); each device names the
-- session that registered it, and ending that session retires it in the same statement ('logout',
-- 'session_revoked'), as does pruning an expired one ('session_expired'). Delivery already sends
-- only to live rows, so nothing queued for the old account reaches the device once its row is
-- retired. Rows registered before this migration have no session and stay live until unregistered.

ALTER TABLE devices ADD COLUMN session_id uuid NULL REFERENCES sessions (id) ON DELETE SET NULL;
CREATE INDEX devices_session_idx ON devices (session_id) WHERE session_id IS NOT NULL;

ALTER TABLE devices DROP CONSTRAINT devices_retired_reason_check;
ALTER TABLE devices ADD CONSTRAINT devices_retired_reason_check CHECK (retired_reason IN (
    -- APNs said so (delivery)
    'Unregistered', 'ExpiredToken', 'BadDeviceToken', 'DeviceTokenNotForTopic',
    -- the same token was registered by another account
    'registered_elsewhere',
    -- the session that registered it ended
    'logout', 'session_revoked', 'session_expired'));

-- Tokens live under more than one user today: the most recently registered row keeps it.
UPDATE devices d SET retired_at = now(), retired_reason = 'registered_elsewhere', updated_at = now()
WHERE d.retired_at IS NULL AND d.token_key IS NOT NULL AND EXISTS (
    SELECT 1 FROM devices n
    WHERE n.token_key = d.token_key AND n.retired_at IS NULL AND (n.updated_at, n.id) > (d.updated_at, d.id));
CREATE UNIQUE INDEX devices_live_token_idx ON devices (token_key) WHERE retired_at IS NULL AND token_key IS NOT NULL;
