-- The assistant's state: sync cursors, the notification ledger and mail dedupe.
-- Minimization (RFC §8.2, DESIGN "Data"): nothing here holds an event title, a subject, an address
-- or a location. Cursors and Gmail message ids are sealed with the host data key; dedupe keys are
-- keyed hashes (HMAC), so equality is checkable but nothing is readable.

-- Per-user urgency preferences (VIP senders, keywords): personal, so sealed.
ALTER TABLE preferences ADD COLUMN urgency_ciphertext bytea NULL;

-- Incremental sync state per connector: the Calendar sync token and window, the Gmail historyId
-- (sealed JSON; the shape belongs to the job that owns the cursor).
CREATE TABLE sync_cursors (
    connector_id      uuid NOT NULL REFERENCES connectors (id) ON DELETE CASCADE,
    user_id           uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind              text NOT NULL CHECK (kind IN ('calendar', 'gmail')),
    state_ciphertext  bytea NOT NULL,
    updated_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (connector_id, kind)
);
CREATE INDEX sync_cursors_user_idx ON sync_cursors (user_id);

-- One user-visible notification per idempotency key, ever: the key is inserted in the same
-- transaction that enqueues the push, so a second enqueue of the same key finds it and does nothing.
-- Rows are pruned a while after their deadline, when a duplicate could no longer be useful anyway.
CREATE TABLE notifications (
    idempotency_key  text PRIMARY KEY,
    user_id          uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind             text NOT NULL,
    job_id           uuid NULL,
    deadline_at      timestamptz NULL,
    created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX notifications_user_idx ON notifications (user_id);
CREATE INDEX notifications_created_idx ON notifications (created_at);

-- Mail already judged urgent: alerted now, or held during quiet hours for the morning brief.
-- `message_key` is an HMAC of the Gmail message id (dedupe); the id itself is sealed, because the
-- brief re-fetches the message's metadata to name it.
CREATE TABLE mail_alerts (
    user_id             uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    message_key         text NOT NULL,
    message_ciphertext  bytea NOT NULL,
    disposition         text NOT NULL CHECK (disposition IN ('alerted', 'held')),
    score               int NOT NULL,
    created_at          timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, message_key)
);
CREATE INDEX mail_alerts_created_idx ON mail_alerts (created_at);

GRANT SELECT, INSERT, UPDATE, DELETE ON sync_cursors, notifications, mail_alerts TO alfred_worker;
