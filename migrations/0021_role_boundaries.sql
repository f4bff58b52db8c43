-- Least privilege for row-shaped actions (issue #32, security review: "every role may append audit
-- events of any type; the API may update every user's jobs").
--
-- 1. Audit appends by role. `alfred_audit_append` (SECURITY DEFINER) wrote any event type for any
--    caller, so a compromised API could forge TOKEN_REFRESH or DELIVERY history and a compromised
--    worker SIGN_IN. Each login role may now append only the types its own code writes; the check
--    uses `session_user` (the authenticated role, which SET ROLE does not change). The owner (the
--    migrating role) may append any type. DELETE_ALL is written inside `alfred_delete_user` only.
CREATE TABLE audit_writers (
    role_name  name NOT NULL,
    event_type text NOT NULL,
    PRIMARY KEY (role_name, event_type)
);
REVOKE ALL ON audit_writers FROM PUBLIC;
INSERT INTO audit_writers (role_name, event_type) VALUES
    ('alfred_worker', 'CONNECTOR_FETCH'),
    ('alfred_worker', 'DELIVERY'),
    ('alfred_broker', 'CONNECT'),
    ('alfred_broker', 'TOKEN_REFRESH'),
    ('alfred_broker', 'REVOKE'),
    ('alfred_broker', 'BROKER_DECISION'),
    ('alfred_api', 'SIGN_IN'),
    ('alfred_api', 'APPLE_ACCOUNT'),
    ('alfred_api', 'RELAY_MAILBOX');

-- The append itself, unchecked: called only by the functions of this schema (no role may execute it).
CREATE FUNCTION alfred_audit_write(p_user uuid, p_type text, p_connector text, p_result text, p_metadata jsonb)
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
REVOKE ALL ON FUNCTION alfred_audit_write(uuid, text, text, text, jsonb) FROM PUBLIC;

-- What the roles call: the same append, for the event types the caller's role writes.
CREATE OR REPLACE FUNCTION alfred_audit_append(p_user uuid, p_type text, p_connector text, p_result text, p_metadata jsonb)
RETURNS uuid
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    -- Inside a SECURITY DEFINER function current_user is the owner; session_user is the caller.
    IF NOT pg_has_role(session_user, current_user, 'MEMBER')
       AND NOT EXISTS (SELECT 1 FROM audit_writers w
                       WHERE w.event_type = p_type AND pg_has_role(session_user, w.role_name, 'MEMBER')) THEN
        RAISE EXCEPTION 'role % may not append % audit events', session_user, p_type
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    RETURN alfred_audit_write(p_user, p_type, p_connector, p_result, p_metadata);
END
$$;

-- 2. The API's jobs. It enqueues a handful of kinds for the signed-in user (delete-all, feedback,
--    the first sync/mail/watch jobs on connect, relay wake-ups and renewals) and moves four (a Gmail
--    hint brings the mail check forward; a newer relay watch moves its renewal; a preference change
--    moves the user's brief and reminders). It could update any column of any job: cancel a
--    delete-all, rewrite a payload, hold back revocations. Now, by row-level security and column
--    grants: it inserts only those kinds, as new queued jobs; it updates only the schedule columns,
--    and only of the four kinds it moves. The worker keeps
--    every row (a policy that is always true); the owner is not subject to row-level security.
ALTER TABLE jobs ENABLE ROW LEVEL SECURITY;
CREATE POLICY jobs_worker ON jobs TO alfred_worker USING (true) WITH CHECK (true);
CREATE POLICY jobs_api_read ON jobs FOR SELECT TO alfred_api USING (true);
CREATE POLICY jobs_api_enqueue ON jobs FOR INSERT TO alfred_api
    WITH CHECK (kind IN ('privacy.delete_all', 'feedback.urgent', 'calendar.sync', 'mail.check', 'gmail.watch',
                         'relay.wake', 'relay.renew')
                AND state = 'queued' AND attempts = 0 AND lease_owner IS NULL);
CREATE POLICY jobs_api_reschedule ON jobs FOR UPDATE TO alfred_api
    USING (kind IN ('mail.check', 'relay.renew', 'meeting.reminder', 'morning.brief'))
    WITH CHECK (kind IN ('mail.check', 'relay.renew', 'meeting.reminder', 'morning.brief'));
REVOKE UPDATE ON jobs FROM alfred_api;
GRANT UPDATE (due_at, scheduled_at, deadline_at, rerun_at, next_run_at, updated_at) ON jobs TO alfred_api;
