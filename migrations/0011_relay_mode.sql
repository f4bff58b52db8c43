-- Relay mode (issue #16; the pro tier of docs/gmail-relay-architecture.md): the app talks to Gmail
-- itself and calls `watch` with Alfred's topic; Alfred only turns Gmail's Pub/Sub push for that
-- mailbox into a silent APNs push that wakes the app. What is kept: the user, their device tokens
-- (already in `devices`), and the mailbox as a keyed hash of its address. Nothing else, and nothing
-- about any message. Rows go with their user (delete-all).
CREATE TABLE relay_mailboxes (
    user_id       uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    address_hash  text NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX relay_mailboxes_address_idx ON relay_mailboxes (address_hash);

GRANT SELECT, INSERT, UPDATE, DELETE ON relay_mailboxes TO alfred_api;
-- Export (`alfred privacy export` runs as the worker's role) lists that a relayed mailbox exists.
GRANT SELECT (user_id, created_at) ON relay_mailboxes TO alfred_worker;
