-- Operators get a role of their own, and their reads of personal data leave a trace (issue #32,
-- RFC §10 break-glass). Until now an operator ran `alfred` with the worker's or the owner's
-- credentials, and export, audit listing and SQL reads wrote no record.
--
-- `alfred_operator` is the group role: give each person a login role of their own that is a member
-- (`CREATE ROLE op_alice IN ROLE alfred_operator`, with LOGIN and a password: ops/runbooks/roles.md), so the record names
-- the person. It steers the queue (job metadata, never payloads), pauses queues, files and follows
-- delete-all requests and sets signup gates. It reads nothing sealed, and it has no SELECT on the
-- tables that describe a user: those reads go through the two functions below, which first append
-- an OPERATOR_READ event, naming the operator's login role, to the operators' chain (user 0).
DO $$
BEGIN
    BEGIN
        CREATE ROLE alfred_operator NOLOGIN;  -- a group: each person logs in with a role of their own
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
        NULL;
    END;
END
$$;

-- True when the session is an operator's (and not the owner's, which is not subject to any of this).
CREATE FUNCTION alfred_is_operator() RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT pg_has_role(session_user, 'alfred_operator', 'MEMBER') AND NOT pg_has_role(session_user, current_user, 'MEMBER')
$$;

-- Appends the operator's read to the operators' chain; a no-op for every other role.
CREATE FUNCTION alfred_operator_read(p_command text, p_subject uuid) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF NOT alfred_is_operator() THEN
        RETURN;
    END IF;
    INSERT INTO users (id, status) VALUES ('00000000-0000-0000-0000-000000000000', 'SYSTEM') ON CONFLICT (id) DO NOTHING;
    PERFORM alfred_audit_write('00000000-0000-0000-0000-000000000000', 'OPERATOR_READ', NULL, 'SUCCESS',
                                jsonb_strip_nulls(jsonb_build_object('command', p_command, 'operator', session_user::text,
                                                                     'subject', p_subject)));
END
$$;

-- Everything stored about a user, as JSON (tokens and sealed columns never): the export of RFC §7.5.
CREATE FUNCTION alfred_export(p_user uuid) RETURNS text
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM alfred_operator_read('privacy.export', p_user);
    RETURN (SELECT jsonb_build_object(
        'user', (SELECT jsonb_build_object('id', u.id, 'created_at', u.created_at, 'status', u.status) FROM users u WHERE u.id = p_user),
        'preferences', (SELECT to_jsonb(p) - 'urgency_ciphertext' - 'user_id'
                               || jsonb_build_object('urgency_preferences_sealed', p.urgency_ciphertext IS NOT NULL)
                        FROM preferences p WHERE p.user_id = p_user),
        'devices', (SELECT coalesce(jsonb_agg(to_jsonb(d) - 'apns_token_ciphertext' - 'token_key' - 'device_ref' - 'user_id' ORDER BY d.created_at), '[]')
                    FROM devices d WHERE d.user_id = p_user),
        'connectors', (SELECT coalesce(jsonb_agg(jsonb_build_object('id', c.id, 'provider', c.provider, 'scopes', c.scopes,
                                      'status', c.status, 'created_at', c.created_at, 'revoked_at', c.revoked_at,
                                      'refresh_token', 'stored encrypted; never exported') ORDER BY c.created_at), '[]')
                       FROM connectors c WHERE c.user_id = p_user),
        'gmail_watches', (SELECT coalesce(jsonb_agg(jsonb_build_object('connector_id', w.connector_id, 'expires_at', w.expires_at,
                                         'address', 'kept only as a keyed hash') ORDER BY w.connector_id), '[]')
                          FROM gmail_watches w WHERE w.user_id = p_user),
        'relay_mailbox', (SELECT jsonb_build_object('created_at', r.created_at, 'address', 'kept only as a keyed hash')
                          FROM relay_mailboxes r WHERE r.user_id = p_user),
        'sync_cursors', (SELECT coalesce(jsonb_agg(jsonb_build_object('connector_id', s.connector_id, 'kind', s.kind,
                                        'updated_at', s.updated_at) ORDER BY s.kind), '[]')
                         FROM sync_cursors s WHERE s.user_id = p_user),
        'notifications', (SELECT coalesce(jsonb_agg(to_jsonb(n) - 'user_id' - 'idempotency_key' - 'job_id' ORDER BY n.created_at), '[]')
                          FROM notifications n WHERE n.user_id = p_user),
        'push_sends', (SELECT coalesce(jsonb_agg(jsonb_build_object('device_id', ps.device_id, 'state', ps.state,
                                      'reason', ps.reason, 'started_at', ps.started_at, 'finished_at', ps.finished_at)
                                      ORDER BY ps.started_at), '[]')
                       FROM push_sends ps WHERE ps.user_id = p_user),
        'mail_alerts', (SELECT coalesce(jsonb_agg(jsonb_build_object('disposition', m.disposition, 'score', m.score,
                                       'created_at', m.created_at) ORDER BY m.created_at), '[]')
                        FROM mail_alerts m WHERE m.user_id = p_user),
        'jobs', (SELECT coalesce(jsonb_agg(jsonb_build_object('id', j.id, 'kind', j.kind, 'state', j.state, 'due_at', j.due_at,
                                'attempts', j.attempts, 'created_at', j.created_at) ORDER BY j.due_at), '[]')
                 FROM jobs j WHERE j.user_id = p_user),
        'audit_events', (SELECT coalesce(jsonb_agg(jsonb_build_object('id', e.id, 'seq', e.seq, 'timestamp', e.created_at,
                                        'event_type', e.event_type, 'connector', e.connector, 'result', e.result,
                                        'metadata', e.redacted_metadata) ORDER BY e.seq), '[]')
                         FROM audit_events e WHERE e.user_id = p_user),
        'privacy_requests', (SELECT coalesce(jsonb_agg(jsonb_build_object('request_id', r.id, 'kind', r.kind, 'state', r.state,
                                            'requested_at', r.requested_at) ORDER BY r.requested_at), '[]')
                             FROM privacy_requests r WHERE r.user_id = p_user)
    )::text);
END
$$;

-- One page of a user's audit events in chain order (the API's GET /v1/audit, `alfred audit list`
-- and `verify`).
CREATE FUNCTION alfred_audit_entries(p_user uuid, p_after bigint, p_limit int)
RETURNS TABLE (id uuid, seq bigint, event_type text, connector text, result text, metadata text, created_micros bigint,
               prev_hash bytea, hash bytea)
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    PERFORM alfred_operator_read('audit.read', p_user);
    RETURN QUERY
        SELECT e.id, e.seq, e.event_type, e.connector, e.result, e.redacted_metadata::text,
               floor(extract(epoch FROM e.created_at) * 1000000)::int8, e.prev_hash, e.hash
        FROM audit_events e WHERE e.user_id = p_user AND e.seq > p_after
        ORDER BY e.seq LIMIT p_limit;
END
$$;

REVOKE ALL ON FUNCTION alfred_is_operator() FROM PUBLIC;
REVOKE ALL ON FUNCTION alfred_operator_read(text, uuid) FROM PUBLIC;
REVOKE ALL ON FUNCTION alfred_export(uuid) FROM PUBLIC;
REVOKE ALL ON FUNCTION alfred_audit_entries(uuid, bigint, int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION alfred_export(uuid) TO alfred_api, alfred_worker, alfred_operator;
GRANT EXECUTE ON FUNCTION alfred_audit_entries(uuid, bigint, int) TO alfred_api, alfred_worker, alfred_operator;
GRANT EXECUTE ON FUNCTION alfred_operator_read(text, uuid) TO alfred_operator, alfred_worker, alfred_api;  -- a no-op for the last two

-- What the operator commands run.
GRANT USAGE ON SCHEMA public TO alfred_operator;
GRANT SELECT ON schema_migrations, audit_heads, queue_pauses TO alfred_operator;
GRANT SELECT (id, user_id, kind, queue, priority, state, due_at, scheduled_at, deadline_at, next_run_at, last_run_at, rerun_at,
              attempts, max_attempts, lease_owner, leased_until, unique_key, last_error, created_at, updated_at, finished_at)
    ON jobs TO alfred_operator;
GRANT INSERT ON jobs TO alfred_operator;
-- (Enqueueing names the schedule columns of its ON CONFLICT clause too.)
GRANT UPDATE (state, due_at, scheduled_at, deadline_at, rerun_at, attempts, finished_at, last_error, lease_owner, lease_token,
              leased_until, updated_at) ON jobs TO alfred_operator;
CREATE POLICY jobs_operator ON jobs TO alfred_operator USING (true) WITH CHECK (true);
GRANT INSERT, UPDATE (reason, paused_at), DELETE ON queue_pauses TO alfred_operator;
GRANT SELECT, INSERT ON privacy_requests TO alfred_operator;
GRANT SELECT (connector_id, request_id, parked_at) ON connector_revocations TO alfred_operator;
-- Users: which exist and how many signed up (the signup cap), never who.
GRANT SELECT (id, status, apple_subject_hash) ON users TO alfred_operator;
GRANT INSERT (id, status) ON users TO alfred_operator;
GRANT SELECT, INSERT, UPDATE ON signup_policy TO alfred_operator;
GRANT SELECT, INSERT, DELETE ON signup_allowed TO alfred_operator;
GRANT SELECT, INSERT ON signup_invites TO alfred_operator;
GRANT EXECUTE ON FUNCTION alfred_audit_append(uuid, text, text, text, jsonb) TO alfred_operator;
INSERT INTO audit_writers (role_name, event_type) VALUES
    ('alfred_operator', 'SIGNUP_POLICY'),
    ('alfred_operator', 'SIGNUP_ALLOW_LIST'),
    ('alfred_operator', 'SIGNUP_INVITES');
