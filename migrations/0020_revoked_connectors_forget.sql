-- Keep only what is needed (issue #30, RFC §8.2): a revoked connector kept its refresh-token
-- ciphertext, sync cursors and Gmail watch until delete-all, though none can be used again (Google
-- revoked the grant; connecting again makes a new connector). Now the statement that marks a
-- connector REVOKED, whoever runs it (the broker after Google confirmed, delete-all), also empties
-- its ciphertext and deletes its cursors and watch: the row stays as history (id, scopes, dates).
CREATE FUNCTION alfred_forget_revoked_connector() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = public, pg_temp AS $$
BEGIN
    NEW.refresh_token_ciphertext := '\x';
    DELETE FROM sync_cursors WHERE connector_id = NEW.id;
    DELETE FROM gmail_watches WHERE connector_id = NEW.id;
    RETURN NEW;
END
$$;
REVOKE ALL ON FUNCTION alfred_forget_revoked_connector() FROM PUBLIC;
CREATE TRIGGER connectors_forget_when_revoked
    BEFORE UPDATE OF status ON connectors
    FOR EACH ROW WHEN (NEW.status = 'REVOKED' AND OLD.status IS DISTINCT FROM 'REVOKED')
    EXECUTE FUNCTION alfred_forget_revoked_connector();

-- What is already revoked goes now.
UPDATE connectors SET refresh_token_ciphertext = '\x' WHERE status = 'REVOKED';
DELETE FROM sync_cursors s USING connectors c WHERE c.id = s.connector_id AND c.status = 'REVOKED';
DELETE FROM gmail_watches w USING connectors c WHERE c.id = w.connector_id AND c.status = 'REVOKED';
