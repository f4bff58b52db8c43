-- Routine successes are audited as tallies, folded into the chain once a day (issue #34, scale).
--
-- Every Google fetch appended its own CONNECTOR_FETCH event, and every access-token refresh two more
-- (the broker's BROKER_DECISION to open the refresh token, and TOKEN_REFRESH): a calendar sync every
-- 10 minutes, a mail check every hour and a refresh every hour came to about 180 fetch events and 48
-- broker events a user-day, almost all of them "calendar sync, nothing changed" and "refreshed".
-- `alfred-bench scale` measured 427 bytes an event with its indexes: at a million users about 100 GB
-- a day, 40 TB over the default 400-day retention. No single Postgres primary holds that, and the
-- user reading their trail learns nothing from the 144th identical line of the day.
--
-- Now a routine success adds to the user's tally of identical events (same type, connector, result
-- and metadata: an upsert of one small row, a HOT update after the first), and the worker folds each
-- tally into one event of that type once its first is a day old (`--audit-tally-hours`),
-- its metadata extended with how many there were ("count"), the items the fetches returned
-- ("items", fetches only), and the first and last times. Failures, denials and everything else are
-- still appended one by one, at once. The key service's own log keeps every key release.
CREATE TABLE audit_tallies (
    user_id     uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    event_type  text NOT NULL,
    connector   text NOT NULL,  -- '' for none
    result      text NOT NULL,
    metadata    jsonb NOT NULL,
    count       bigint NOT NULL,
    items       bigint NULL,    -- summed items of fetches; NULL for events that return none
    first_at    timestamptz NOT NULL,
    last_at     timestamptz NOT NULL,
    PRIMARY KEY (user_id, event_type, connector, result, metadata)
) WITH (fillfactor = 70);  -- room on the page for the updates to stay HOT (no indexed column changes)
CREATE INDEX audit_tallies_first_idx ON audit_tallies (first_at);
REVOKE ALL ON audit_tallies FROM PUBLIC;

-- Which event types the calling role may tally: the ones it may append (audit_writers, 0021).
CREATE FUNCTION alfred_audit_may_write(p_type text) RETURNS boolean
LANGUAGE sql STABLE SECURITY DEFINER SET search_path = public, pg_temp AS $$
    SELECT pg_has_role(session_user, current_user, 'MEMBER')
        OR EXISTS (SELECT 1 FROM audit_writers w WHERE w.event_type = p_type AND pg_has_role(session_user, w.role_name, 'MEMBER'))
$$;
REVOKE ALL ON FUNCTION alfred_audit_may_write(text) FROM PUBLIC;

-- Adds events to their users' tallies: one element of each array per event (items -1: none, as for
-- events other than fetches). An event about a user
-- who no longer exists is dropped; the key-share lock on the user makes a concurrent delete-all wait
-- for this statement (whose rows it then deletes with the user). Rows are written in key order, so
-- two statements never deadlock.
CREATE FUNCTION alfred_audit_tally(p_users uuid[], p_types text[], p_connectors text[], p_results text[], p_metadata text[],
                                   p_items bigint[]) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_type text;
    v_n bigint;
BEGIN
    SELECT t INTO v_type FROM unnest(p_types) t WHERE NOT alfred_audit_may_write(t) LIMIT 1;
    IF FOUND THEN
        RAISE EXCEPTION 'role % may not tally % audit events', session_user, v_type USING ERRCODE = 'insufficient_privilege';
    END IF;
    PERFORM 1 FROM users u WHERE u.id = ANY (p_users) ORDER BY u.id FOR KEY SHARE;
    INSERT INTO audit_tallies AS f (user_id, event_type, connector, result, metadata, count, items, first_at, last_at)
    SELECT t.user_id, t.event_type, t.connector, t.result, t.metadata::jsonb, count(*), sum(NULLIF(t.items, -1)), now(), now()
    FROM unnest(p_users, p_types, p_connectors, p_results, p_metadata, p_items) AS t(user_id, event_type, connector, result, metadata, items)
    WHERE EXISTS (SELECT 1 FROM users u WHERE u.id = t.user_id)
    GROUP BY t.user_id, t.event_type, t.connector, t.result, t.metadata::jsonb
    ORDER BY t.user_id, t.event_type, t.connector, t.result, t.metadata::jsonb
    ON CONFLICT (user_id, event_type, connector, result, metadata) DO UPDATE
        SET count = f.count + excluded.count, items = f.items + excluded.items, last_at = excluded.last_at;
    GET DIAGNOSTICS v_n = ROW_COUNT;
    RETURN v_n;
END
$$;
REVOKE ALL ON FUNCTION alfred_audit_tally(uuid[], text[], text[], text[], text[], bigint[]) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION alfred_audit_tally(uuid[], text[], text[], text[], text[], bigint[]) TO alfred_worker, alfred_broker;

-- Folds tallies whose first event is older than p_before into the chain, at most p_limit: one event
-- each (appended now; its metadata says when its events were), and the tally row goes in the same
-- transaction, so an event is counted in exactly one. Returns how many tallies it folded. Users in
-- order (their heads' locks). The worker runs it; it folds every role's tallies. A user a delete-all
-- holds is passed by, tallies and all: the fold would wait for the user while holding the tallies
-- the deletion's cascade waits for (a deadlock); the deletion takes them with the user.
CREATE FUNCTION alfred_audit_fold(p_before timestamptz, p_limit int) RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
DECLARE
    v_n bigint;
BEGIN
    IF NOT pg_has_role(session_user, current_user, 'MEMBER') AND NOT pg_has_role(session_user, 'alfred_worker', 'MEMBER') THEN
        RAISE EXCEPTION 'role % may not fold audit tallies', session_user USING ERRCODE = 'insufficient_privilege';
    END IF;
    WITH due AS (
        SELECT t.user_id, t.event_type, t.connector, t.result, t.metadata
        FROM audit_tallies t JOIN users u ON u.id = t.user_id
        WHERE t.first_at < p_before
        ORDER BY t.user_id, t.event_type, t.connector, t.result, t.metadata
        LIMIT p_limit
        FOR UPDATE OF t SKIP LOCKED FOR KEY SHARE OF u SKIP LOCKED
    ), folded AS (
        DELETE FROM audit_tallies f USING due d
        WHERE (f.user_id, f.event_type, f.connector, f.result, f.metadata) = (d.user_id, d.event_type, d.connector, d.result, d.metadata)
        RETURNING f.*
    )
    SELECT count(alfred_audit_write(x.user_id, x.event_type, NULLIF(x.connector, ''), x.result,
               x.metadata || jsonb_build_object('count', x.count::text,
                                                'first', to_char(x.first_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
                                                'last', to_char(x.last_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'))
                          || CASE WHEN x.items IS NULL THEN '{}'::jsonb ELSE jsonb_build_object('items', x.items::text) END))
    INTO v_n
    FROM (SELECT * FROM folded ORDER BY user_id, event_type, connector, result, metadata) x;
    RETURN v_n;
END
$$;
REVOKE ALL ON FUNCTION alfred_audit_fold(timestamptz, int) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION alfred_audit_fold(timestamptz, int) TO alfred_worker;
