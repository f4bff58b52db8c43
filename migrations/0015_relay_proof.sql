-- Relay mode with proof (issue #30). A relayed mailbox is registered only with a Google ID token for
-- its address (checked by the API, not stored), and its Gmail watch's expiry is kept so the app is
-- asked to renew the watch a day before it lapses (`relay.renew`, a silent push). Rows registered
-- before this migration were never proven: they are dropped, and those apps register again.
DELETE FROM relay_mailboxes;
ALTER TABLE relay_mailboxes ADD COLUMN watch_expires_at timestamptz NOT NULL DEFAULT now() + interval '7 days';
GRANT SELECT (watch_expires_at) ON relay_mailboxes TO alfred_worker;
