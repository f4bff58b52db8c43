-- Delivery: device tokens that can be retired, per-device send records, and each notification's
-- outcome. Minimization: device tokens stay sealed (host data key); `token_key` is a keyed hash for
-- re-registration; nothing here holds notification text (it lives sealed in the push job's payload
-- and is deleted once the notification is finished).

ALTER TABLE devices
    ADD COLUMN token_key       text NULL,
    ADD COLUMN retired_at      timestamptz NULL,
    ADD COLUMN retired_reason  text NULL
        CHECK (retired_reason IN ('Unregistered', 'ExpiredToken', 'BadDeviceToken', 'DeviceTokenNotForTopic'));
CREATE UNIQUE INDEX devices_user_token_idx ON devices (user_id, token_key) WHERE token_key IS NOT NULL;

-- pending until every active device has an outcome; then one of the final states.
ALTER TABLE notifications
    ADD COLUMN state              text NOT NULL DEFAULT 'pending'
        CHECK (state IN ('pending', 'delivered', 'expired', 'failed', 'unconfirmed', 'no_device')),
    -- When the user should have had it (a reminder's time): lateness = first_accepted_at - scheduled_at.
    -- No more than the push job's due_at already says.
    ADD COLUMN scheduled_at       timestamptz NULL,
    ADD COLUMN first_accepted_at  timestamptz NULL,
    ADD COLUMN finished_at        timestamptz NULL,
    -- The user's verdict on an urgent-mail alert (the `feedback.urgent` job), once per notification.
    ADD COLUMN feedback           text NULL CHECK (feedback IN ('false_positive', 'confirmed'));
CREATE INDEX notifications_job_idx ON notifications (job_id);

-- One row per notification and device. `sending` is written and committed before the request goes
-- out; a run that finds `sending` left behind (its worker died mid-request) cannot know whether APNs
-- accepted the push, so it records `unconfirmed` and never sends it again: one notification per key.
CREATE TABLE push_sends (
    idempotency_key  text NOT NULL REFERENCES notifications (idempotency_key) ON DELETE CASCADE,
    device_id        uuid NOT NULL REFERENCES devices (id) ON DELETE CASCADE,
    user_id          uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    state            text NOT NULL CHECK (state IN ('sending', 'accepted', 'rejected', 'unconfirmed')),
    apns_id          uuid NOT NULL,
    reason           text NULL,
    started_at       timestamptz NOT NULL DEFAULT now(),
    finished_at      timestamptz NULL,
    PRIMARY KEY (idempotency_key, device_id)
);
CREATE INDEX push_sends_user_idx ON push_sends (user_id);
CREATE INDEX push_sends_device_idx ON push_sends (device_id);

GRANT SELECT, INSERT, UPDATE, DELETE ON push_sends TO alfred_worker;
