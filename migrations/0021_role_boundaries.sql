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

-- The append itself (0005) keeps its body and becomes the unchecked `alfred_audit_write`, which only
-- the functions of this schema call: no role may execute it.
ALTER FUNCTION alfred_audit_append(uuid, text, text, text, jsonb) RENAME TO alfred_audit_write;
REVOKE ALL ON FUNCTION alfred_audit_write(uuid, text, text, text, jsonb) FROM PUBLIC, alfred_worker, alfred_broker, alfred_api;

-- What the roles call: the same append, for the event types the caller's role writes.
CREATE FUNCTION alfred_audit_append(p_user uuid, p_type text, p_connector text, p_result text, p_metadata jsonb)
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
REVOKE ALL ON FUNCTION alfred_audit_append(uuid, text, text, text, jsonb) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION alfred_audit_append(uuid, text, text, text, jsonb) TO alfred_worker, alfred_broker, alfred_api;

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
