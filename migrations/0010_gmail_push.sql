-- Gmail push instead of polling (issue #16): each connected mailbox is watched (`users.watch`,
-- renewed daily by a `gmail.watch` job), and Google's Pub/Sub pushes name the mailbox by address.
--
-- The address is stored only as a keyed hash (HMAC with the host data key), which is all the push
-- endpoint needs to find the mailbox's owner. `expires_at` is Gmail's expiration of the watch; the
-- mail check polls slowly while it is in the future and no renewal has failed since, and at the
-- short interval otherwise. Rows go with their connector (and so with delete-all).
CREATE TABLE gmail_watches (
    connector_id  uuid PRIMARY KEY REFERENCES connectors (id) ON DELETE CASCADE,
    user_id       uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    address_hash  text NOT NULL,
    expires_at    timestamptz NOT NULL,
    renewed_at    timestamptz NOT NULL DEFAULT now(),
    failed_at     timestamptz NULL
);
CREATE INDEX gmail_watches_address_idx ON gmail_watches (address_hash);
CREATE INDEX gmail_watches_user_idx ON gmail_watches (user_id);

GRANT SELECT, INSERT, UPDATE ON gmail_watches TO alfred_worker;
GRANT SELECT (connector_id, user_id, address_hash, expires_at) ON gmail_watches TO alfred_api;
