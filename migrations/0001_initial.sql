-- Alfred schema v1: the RFC §8.1 tables, preferences, and the durable job queue.
-- Applied once by `alfred migrate`; never edit after merge (the migrator refuses changed checksums).

CREATE TABLE users (
    id          uuid PRIMARY KEY,
    created_at  timestamptz NOT NULL DEFAULT now(),
    status      text NOT NULL DEFAULT 'ACTIVE'
);

CREATE TABLE devices (
    id                     uuid PRIMARY KEY,
    user_id                uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    apns_token_ciphertext  bytea NOT NULL,
    environment            text NOT NULL CHECK (environment IN ('sandbox', 'production')),
    created_at             timestamptz NOT NULL DEFAULT now(),
    updated_at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX devices_user_idx ON devices (user_id);

CREATE TABLE connectors (
    id                        uuid PRIMARY KEY,
    user_id                   uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    provider                  text NOT NULL,
    scopes                    text[] NOT NULL,
    refresh_token_ciphertext  bytea NOT NULL,
    token_key_id              text NOT NULL,
    token_version             int NOT NULL DEFAULT 1,
    token_rotated_at          timestamptz NOT NULL DEFAULT now(),
    status                    text NOT NULL,
    created_at                timestamptz NOT NULL DEFAULT now(),
    revoked_at                timestamptz NULL
);
CREATE INDEX connectors_user_idx ON connectors (user_id);

CREATE TABLE preferences (
    user_id                     uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    time_zone                   text NOT NULL DEFAULT 'UTC',
    meeting_reminder_minutes    int NOT NULL DEFAULT 15 CHECK (meeting_reminder_minutes BETWEEN 0 AND 1440),
    morning_brief_local_time    time NOT NULL DEFAULT '08:00',
    quiet_hours_start           time NULL DEFAULT '22:00',
    quiet_hours_end             time NULL DEFAULT '07:00',
    high_risk_requires_confirm  boolean NOT NULL DEFAULT true,
    updated_at                  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE audit_events (
    id                 uuid PRIMARY KEY,
    user_id            uuid NOT NULL,
    event_type         text NOT NULL,
    connector          text NULL,
    result             text NOT NULL,
    redacted_metadata  jsonb NOT NULL DEFAULT '{}',
    created_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_events_user_idx ON audit_events (user_id, created_at, id);

-- The durable job queue. `kind` is the RFC's `type`; `payload` is opaque bytes to the queue.
-- `user_id` is NULL for system jobs (noop, key rotation sweeps); per-user jobs set it so
-- delete-all can find them.
CREATE TABLE jobs (
    id            uuid PRIMARY KEY,
    user_id       uuid NULL,
    kind          text NOT NULL,
    queue         text NOT NULL DEFAULT 'default',
    priority      smallint NOT NULL DEFAULT 0,
    state         text NOT NULL DEFAULT 'queued'
                  CHECK (state IN ('queued', 'running', 'completed', 'discarded', 'cancelled', 'expired')),
    payload       bytea NOT NULL DEFAULT '',
    due_at        timestamptz NOT NULL,
    deadline_at   timestamptz NULL,
    next_run_at   timestamptz NULL,
    last_run_at   timestamptz NULL,
    attempts      int NOT NULL DEFAULT 0,
    max_attempts  int NOT NULL CHECK (max_attempts >= 1),
    lease_owner   text NULL,
    lease_token   uuid NULL,
    leased_until  timestamptz NULL,
    unique_key    text NULL,
    last_error    text NULL,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now(),
    finished_at   timestamptz NULL,
    CHECK ((state = 'running') = (lease_token IS NOT NULL AND leased_until IS NOT NULL))
);

-- Claiming: due queued jobs of one queue, earliest deadline first, priority breaking ties.
CREATE INDEX jobs_ready_idx ON jobs (queue, due_at, priority DESC) WHERE state = 'queued';
-- Rescue: running jobs by lease expiry.
CREATE INDEX jobs_leased_idx ON jobs (leased_until) WHERE state = 'running';
-- Pruning: finished jobs by age.
CREATE INDEX jobs_finished_idx ON jobs (finished_at)
    WHERE state IN ('completed', 'discarded', 'cancelled', 'expired');
-- Idempotent enqueue: one live job per unique key.
CREATE UNIQUE INDEX jobs_unique_live_idx ON jobs (unique_key)
    WHERE unique_key IS NOT NULL AND state IN ('queued', 'running');
CREATE INDEX jobs_user_idx ON jobs (user_id) WHERE user_id IS NOT NULL;
