-- Least privilege for the worker, and no connector escapes a delete-all's revocation (issue #18).
--
-- 1. The worker never deletes users or connectors itself (delete-all runs alfred_delete_user, a
--    SECURITY DEFINER function) and never changes a connector's status (the broker does, when Google
--    refuses a refresh or confirms a revocation). A compromised worker could otherwise erase a refresh
--    token without revoking it at Google, or mark a connector revoked so that delete-all skips it.
REVOKE DELETE ON users FROM alfred_worker;
REVOKE DELETE ON connectors FROM alfred_worker;
REVOKE UPDATE (status, revoked_at) ON connectors FROM alfred_worker;

-- 2. Delete-all lists the user's connectors, revokes each through the broker, then deletes the user.
--    A connector created between the listing and the deletion (the user finishing a connect flow
--    meanwhile) used to be deleted with the user and never revoked: its grant stayed valid at Google.
--    Now every connector that goes while its user has an open delete-all request, and is not
--    revoked, is parked for revocation first, in the same transaction; `privacy.delete_all` then
--    queues a `privacy.revoke` job for everything parked. (Once alfred_delete_user holds the user's
--    row lock, no new connector can be inserted for that user: the foreign key waits for the lock.)
CREATE FUNCTION alfred_park_connector_on_delete() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    IF OLD.status <> 'REVOKED' THEN
        INSERT INTO connector_revocations (connector_id, request_id, user_id, provider, token_key_id, token_version,
                                           refresh_token_ciphertext)
        SELECT OLD.id, r.id, OLD.user_id, OLD.provider, OLD.token_key_id, OLD.token_version, OLD.refresh_token_ciphertext
        FROM privacy_requests r
        WHERE r.user_id = OLD.user_id AND r.state <> 'COMPLETED'
        ON CONFLICT (connector_id) DO NOTHING;
    END IF;
    RETURN OLD;
END
$$;
REVOKE ALL ON FUNCTION alfred_park_connector_on_delete() FROM PUBLIC;

CREATE TRIGGER connectors_park_before_delete BEFORE DELETE ON connectors
    FOR EACH ROW EXECUTE FUNCTION alfred_park_connector_on_delete();
