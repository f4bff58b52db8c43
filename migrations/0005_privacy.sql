-- Privacy: a hash-chained audit trail, delete-all requests, revocations that outlive a deletion,
-- and pausing a queue.

-- ---------------------------------------------------------------------------------------------
-- The audit trail. Each user's events form a chain: event n carries the hash of event n-1 and its
-- own hash over its fields, so changing, removing or reordering a row is detectable
-- (`alfred audit verify`). `audit_heads` holds each chain's last (seq, hash), so removing the
-- newest events is detectable too, and where pruning cut the chain (the anchor the oldest kept event
-- must link to). App roles only append, through functions; they cannot update or delete events.
--
-- hash(n) = sha256(prev_hash(n) || utf8(fields(n))), prev_hash(1) = 32 zero bytes, where fields are
-- 'alfred-audit-v1' then id, user_id, seq, event_type, connector, result, metadata (jsonb text) and
-- created_at (Unix microseconds), each as `<byte length>:<text>` or `-` for NULL. `AuditChain` in
-- Sources/Privacy recomputes exactly this.

ALTER TABLE audit_events
    ADD COLUMN seq        bigint NULL,
    ADD COLUMN prev_hash  bytea NULL,
    ADD COLUMN hash       bytea NULL;

CREATE TABLE audit_heads (
    user_id              uuid PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    seq                  bigint NOT NULL,
    hash                 bytea NOT NULL,
    -- Pruning: events up to this seq were removed; the oldest kept one links to this hash.
    pruned_through_seq   bigint NOT NULL DEFAULT 0,
    pruned_through_hash  bytea NOT NULL DEFAULT '\x0000000000000000000000000000000000000000000000000000000000000000'
);

CREATE FUNCTION alfred_audit_field(value text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN value IS NULL THEN '-' ELSE octet_length(value)::text || ':' || value END
$$;

CREATE FUNCTION alfred_audit_hash(prev bytea, id uuid, user_id uuid, seq bigint, event_type text, connector text,
                                  result text, metadata jsonb, created_at timestamptz) RETURNS bytea
LANGUAGE sql IMMUTABLE AS $$
    SELECT sha256(prev || convert_to(
        'alfred-audit-v1'
        || alfred_audit_field(id::text) || alfred_audit_field(user_id::text) || alfred_audit_field(seq::text)
        || alfred_audit_field(event_type) || alfred_audit_field(connector) || alfred_audit_field(result)
        || alfred_audit_field(metadata::text)
        || alfred_audit_field(floor(extract(epoch FROM created_at) * 1000000)::bigint::text), 'UTF8'))
$$;

-- Chain the events written before this migration, per user, oldest first.
CREATE UNIQUE INDEX audit_events_chain_idx ON audit_events (user_id, seq);
DO $$
DECLARE
    r record;
    v_user uuid := NULL;
    v_seq bigint := 0;
    v_prev bytea;
BEGIN
    FOR r IN SELECT * FROM audit_events ORDER BY user_id, created_at, id LOOP
        IF v_user IS DISTINCT FROM r.user_id THEN
            IF v_user IS NOT NULL AND EXISTS (SELECT 1 FROM users WHERE id = v_user) THEN
                INSERT INTO audit_heads (user_id, seq, hash) VALUES (v_user, v_seq, v_prev);
            END IF;
            v_user := r.user_id;
            v_seq := 0;
            v_prev := '\x0000000000000000000000000000000000000000000000000000000000000000';
        END IF;
        v_seq := v_seq + 1;
        UPDATE audit_events SET seq = v_seq, prev_hash = v_prev,
               hash = alfred_audit_hash(v_prev, r.id, r.user_id, v_seq, r.event_type, r.connector, r.result,
                                        r.redacted_metadata, r.created_at)
        WHERE id = r.id
        RETURNING hash INTO v_prev;
    END LOOP;
    IF v_user IS NOT NULL AND EXISTS (SELECT 1 FROM users WHERE id = v_user) THEN
        INSERT INTO audit_heads (user_id, seq, hash) VALUES (v_user, v_seq, v_prev);
    END IF;
END
$$;
ALTER TABLE audit_events
    ALTER COLUMN seq SET NOT NULL,
    ALTER COLUMN prev_hash SET NOT NULL,
    ALTER COLUMN hash SET NOT NULL;
CREATE INDEX audit_events_created_idx ON audit_events (created_at);

-- Appends one event to the user's chain and returns its id; NULL (and nothing written) when the user
-- does not exist: a job still running for a deleted user cannot write about them again. The key-share
-- lock on the user row makes a concurrent delete-all wait for this event, then erase it.
CREATE FUNCTION alfred_audit_append(p_user uuid, p_type text, p_connector text, p_result text, p_metadata jsonb)
RETURNS uuid
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_id uuid := gen_random_uuid();
    v_at timestamptz;
    v_seq bigint;
    v_prev bytea;
    v_hash bytea;
BEGIN
    PERFORM 1 FROM users WHERE id = p_user FOR KEY SHARE;
    IF NOT FOUND THEN
        RETURN NULL;
    END IF;
    -- The no-op update locks the head, so one user's appends are serialized.
    INSERT INTO audit_heads AS h (user_id, seq, hash)
    VALUES (p_user, 0, '\x0000000000000000000000000000000000000000000000000000000000000000')
    ON CONFLICT (user_id) DO UPDATE SET seq = h.seq
    RETURNING seq + 1, hash INTO v_seq, v_prev;
    v_at := clock_timestamp();  -- after the lock, so times follow the chain's order
    v_hash := alfred_audit_hash(v_prev, v_id, p_user, v_seq, p_type, p_connector, p_result, p_metadata, v_at);
    INSERT INTO audit_events (id, user_id, event_type, connector, result, redacted_metadata, created_at, seq, prev_hash, hash)
    VALUES (v_id, p_user, p_type, p_connector, p_result, p_metadata, v_at, v_seq, v_prev, v_hash);
    UPDATE audit_heads SET seq = v_seq, hash = v_hash WHERE user_id = p_user;
    RETURN v_id;
END
$$;

-- Retention: removes events created before p_before, oldest first, at most p_limit, and moves each
-- affected chain's anchor forward so what remains still verifies. Returns how many were removed.
-- Never younger than 30 days: a compromised worker (which may call this) cannot wipe recent history.
CREATE FUNCTION alfred_audit_prune(p_before timestamptz, p_limit int) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_count bigint;
BEGIN
    p_before := least(p_before, now() - interval '30 days');
    WITH doomed AS (
        SELECT e.id, e.user_id, e.seq, e.hash FROM audit_events e
        WHERE e.created_at < p_before
          -- A deleted user's final record has no head; it is kept (it is the proof of deletion).
          AND EXISTS (SELECT 1 FROM audit_heads h WHERE h.user_id = e.user_id)
        ORDER BY e.created_at
        LIMIT p_limit
        FOR UPDATE OF e
    ),
    -- Only a prefix of each chain may go: never past an event that is kept.
    cut AS (
        SELECT d.user_id, max(d.seq) AS seq FROM doomed d GROUP BY d.user_id
    ),
    anchors AS (
        UPDATE audit_heads h SET pruned_through_seq = c.seq,
               pruned_through_hash = (SELECT e.hash FROM audit_events e WHERE e.user_id = c.user_id AND e.seq = c.seq)
        FROM cut c WHERE h.user_id = c.user_id AND c.seq > h.pruned_through_seq
        RETURNING h.user_id, h.pruned_through_seq
    ),
    removed AS (
        DELETE FROM audit_events e USING anchors a
        WHERE e.user_id = a.user_id AND e.seq <= a.pruned_through_seq
        RETURNING 1
    )
    SELECT count(*) INTO v_count FROM removed;
    RETURN v_count;
END
$$;

-- ---------------------------------------------------------------------------------------------
-- Delete-all. A request names the user only until it completes; then only its counts remain, and the
-- one final audit record (event DELETE_ALL) is the only row anywhere that holds the user's id.
CREATE TABLE privacy_requests (
    id                    uuid PRIMARY KEY,
    kind                  text NOT NULL CHECK (kind IN ('delete_all')),
    user_id               uuid NULL,
    state                 text NOT NULL DEFAULT 'QUEUED' CHECK (state IN ('QUEUED', 'RUNNING', 'COMPLETED')),
    requested_at          timestamptz NOT NULL DEFAULT now(),
    started_at            timestamptz NULL,
    completed_at          timestamptz NULL,
    connectors_revoked    int NOT NULL DEFAULT 0,
    revocations_pending   int NOT NULL DEFAULT 0,
    rows_deleted          jsonb NULL,
    outcome               text NULL CHECK (outcome IN ('DELETED', 'NOTHING_TO_DELETE')),
    CHECK ((state = 'COMPLETED') = (completed_at IS NOT NULL)),
    CHECK (state <> 'COMPLETED' OR user_id IS NULL)
);
-- One open request per user: a second delete-all while one is open returns the open one.
CREATE UNIQUE INDEX privacy_requests_open_idx ON privacy_requests (user_id) WHERE state <> 'COMPLETED';

-- A connector whose Google grant could not be revoked before its user was deleted. Only what a
-- revocation needs is kept (the sealed refresh token is bound to the user id, so that stays too),
-- and only until Google confirms; `privacy.revoke` jobs retry it with backoff.
CREATE TABLE connector_revocations (
    connector_id              uuid PRIMARY KEY,
    request_id                uuid NOT NULL REFERENCES privacy_requests (id),
    user_id                   uuid NOT NULL,
    provider                  text NOT NULL,
    token_key_id              text NOT NULL,
    token_version             int NOT NULL,
    refresh_token_ciphertext  bytea NOT NULL,
    parked_at                 timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX connector_revocations_request_idx ON connector_revocations (request_id);

-- Moves a connector's sealed token aside for a later revocation; the caller (a worker) never reads
-- it. Idempotent.
CREATE FUNCTION alfred_park_revocation(p_connector uuid, p_request uuid) RETURNS boolean
LANGUAGE sql SECURITY DEFINER SET search_path = public, pg_temp AS $$
    WITH parked AS (
        INSERT INTO connector_revocations (connector_id, request_id, user_id, provider, token_key_id, token_version,
                                           refresh_token_ciphertext)
        SELECT id, p_request, user_id, provider, token_key_id, token_version, refresh_token_ciphertext
        FROM connectors WHERE id = p_connector AND status <> 'REVOKED'
        ON CONFLICT (connector_id) DO NOTHING
        RETURNING 1
    )
    SELECT count(*) > 0 FROM parked
$$;

-- The deletion itself, in one transaction: lock the user, erase the audit chain and write the final
-- record that continues it, delete every job and row of the user, complete the request. Running jobs'
-- rows go too, so their workers' completions find nothing; their later inserts fail the user foreign
-- keys, and their audit appends find no user. Idempotent: a completed request returns its outcome;
-- a second request for a deleted user finds nothing and writes nothing.
CREATE FUNCTION alfred_delete_user(p_request uuid) RETURNS TABLE (outcome text, rows_deleted jsonb, completed_at timestamptz)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
#variable_conflict use_column
DECLARE
    v_req privacy_requests%ROWTYPE;
    v_user uuid;
    v_counts jsonb := '{}';
    v_n bigint;
    v_total bigint := 0;
    v_user_existed boolean;
    v_seq bigint;
    v_prev bytea;
    v_id uuid := gen_random_uuid();
    v_at timestamptz := clock_timestamp();
    v_pending int;
    v_revoked int;
    v_meta jsonb;
    v_table text;
BEGIN
    SELECT * INTO v_req FROM privacy_requests WHERE id = p_request FOR UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'no privacy request %', p_request USING ERRCODE = 'no_data_found';
    END IF;
    IF v_req.state = 'COMPLETED' THEN
        RETURN QUERY SELECT v_req.outcome, v_req.rows_deleted, v_req.completed_at;
        RETURN;
    END IF;
    v_user := v_req.user_id;

    -- Appends and job inserts for this user take a key-share lock on this row: they finish first.
    PERFORM 1 FROM users WHERE id = v_user FOR UPDATE;
    v_user_existed := FOUND;

    -- The chain's last link, before its events go.
    SELECT h.seq, h.hash INTO v_seq, v_prev FROM audit_heads h WHERE h.user_id = v_user;
    IF NOT FOUND THEN
        SELECT e.seq, e.hash INTO v_seq, v_prev FROM audit_events e WHERE e.user_id = v_user ORDER BY e.seq DESC LIMIT 1;
        IF NOT FOUND THEN
            v_seq := 0;
            v_prev := '\x0000000000000000000000000000000000000000000000000000000000000000';
        END IF;
    END IF;

    -- Every per-user table (children before parents); the counts go into the request, never the rows.
    FOREACH v_table IN ARRAY ARRAY['jobs', 'push_sends', 'notifications', 'mail_alerts', 'sync_cursors', 'devices',
                                   'connectors', 'preferences', 'audit_heads'] LOOP
        EXECUTE format('DELETE FROM %I WHERE user_id = $1', v_table) USING v_user;
        GET DIAGNOSTICS v_n = ROW_COUNT;
        IF v_table <> 'audit_heads' THEN
            v_counts := v_counts || jsonb_build_object(v_table, v_n); v_total := v_total + v_n;
        END IF;
    END LOOP;
    -- An earlier request's final record stays: it is the proof of that deletion.
    DELETE FROM audit_events WHERE user_id = v_user AND event_type <> 'DELETE_ALL';
    GET DIAGNOSTICS v_n = ROW_COUNT; v_counts := v_counts || jsonb_build_object('audit_events', v_n); v_total := v_total + v_n;
    DELETE FROM users WHERE id = v_user;
    GET DIAGNOSTICS v_n = ROW_COUNT; v_counts := v_counts || jsonb_build_object('users', v_n); v_total := v_total + v_n;

    SELECT count(*) INTO v_pending FROM connector_revocations WHERE request_id = p_request;
    v_revoked := v_req.connectors_revoked;
    IF v_user_existed OR v_total > 0 THEN
        v_meta := jsonb_build_object('request_id', p_request::text, 'connectors_revoked', v_revoked,
                                     'revocations_pending', v_pending, 'rows_deleted', v_total);
        INSERT INTO audit_events (id, user_id, event_type, connector, result, redacted_metadata, created_at, seq, prev_hash, hash)
        VALUES (v_id, v_user, 'DELETE_ALL', NULL, CASE WHEN v_pending = 0 THEN 'SUCCESS' ELSE 'REVOCATION_PENDING' END,
                v_meta, v_at, v_seq + 1, v_prev,
                alfred_audit_hash(v_prev, v_id, v_user, v_seq + 1, 'DELETE_ALL', NULL,
                                  CASE WHEN v_pending = 0 THEN 'SUCCESS' ELSE 'REVOCATION_PENDING' END, v_meta, v_at));
    END IF;

    UPDATE privacy_requests SET state = 'COMPLETED', user_id = NULL, completed_at = v_at,
           started_at = coalesce(started_at, v_at), revocations_pending = v_pending, rows_deleted = v_counts,
           outcome = CASE WHEN v_user_existed OR v_total > 0 THEN 'DELETED' ELSE 'NOTHING_TO_DELETE' END
    WHERE id = p_request;
    RETURN QUERY SELECT pr.outcome, pr.rows_deleted, pr.completed_at FROM privacy_requests pr WHERE pr.id = p_request;
END
$$;

-- A user's new jobs need the user: a job enqueued for a deleted user fails, and deleting a user takes
-- their jobs with them. NOT VALID: rows from before this migration are not checked.
ALTER TABLE jobs ADD CONSTRAINT jobs_user_fk FOREIGN KEY (user_id) REFERENCES users (id) ON DELETE CASCADE NOT VALID;

-- ---------------------------------------------------------------------------------------------
-- Pausing a queue: workers claim nothing from a paused queue; running jobs finish.
CREATE TABLE queue_pauses (
    queue      text PRIMARY KEY,
    reason     text NULL,
    paused_at  timestamptz NOT NULL DEFAULT now()
);

-- ---------------------------------------------------------------------------------------------
-- Privileges. Appends go through the function only: nobody but the owner updates or deletes events.
REVOKE INSERT ON audit_events FROM alfred_worker, alfred_broker;
REVOKE ALL ON FUNCTION alfred_audit_append(uuid, text, text, text, jsonb) FROM PUBLIC;
REVOKE ALL ON FUNCTION alfred_audit_prune(timestamptz, int) FROM PUBLIC;
REVOKE ALL ON FUNCTION alfred_park_revocation(uuid, uuid) FROM PUBLIC;
REVOKE ALL ON FUNCTION alfred_delete_user(uuid) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION alfred_audit_append(uuid, text, text, text, jsonb) TO alfred_worker, alfred_broker;
GRANT EXECUTE ON FUNCTION alfred_audit_prune(timestamptz, int) TO alfred_worker;
GRANT EXECUTE ON FUNCTION alfred_park_revocation(uuid, uuid) TO alfred_worker;
GRANT EXECUTE ON FUNCTION alfred_delete_user(uuid) TO alfred_worker;
GRANT SELECT ON audit_heads TO alfred_worker;
GRANT SELECT, INSERT, UPDATE ON privacy_requests TO alfred_worker;
GRANT SELECT (connector_id, request_id, parked_at) ON connector_revocations TO alfred_worker;
GRANT SELECT, DELETE ON connector_revocations TO alfred_broker;
GRANT SELECT ON queue_pauses TO alfred_worker;
