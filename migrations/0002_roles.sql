-- Boundary A: separate database roles for workers and the token broker.
-- Roles are cluster-wide, so they are created only if missing; privileges are per database.
-- The roles can log in, but have no password here: operators set one (ops/runbooks/roles.md);
-- the migrating (owner) role keeps every privilege.
-- Roles are cluster-wide while migration locks are per database: two databases of one cluster
-- migrating at once may race here, so a role created meanwhile by the other is fine.
DO $$
BEGIN
    BEGIN
        CREATE ROLE alfred_worker LOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
        NULL;
    END;
    BEGIN
        CREATE ROLE alfred_broker LOGIN;
    EXCEPTION WHEN duplicate_object OR unique_violation THEN
        NULL;
    END;
END
$$;

GRANT USAGE ON SCHEMA public TO alfred_worker, alfred_broker;
GRANT SELECT ON schema_migrations TO alfred_worker, alfred_broker;

-- Workers run the queue and read what scheduling and delivery need.
GRANT SELECT, INSERT, UPDATE, DELETE ON jobs TO alfred_worker;
GRANT SELECT, INSERT, UPDATE, DELETE ON users, devices, preferences TO alfred_worker;
GRANT SELECT, INSERT ON audit_events TO alfred_worker;
-- Connectors: every column but the refresh token ciphertext. A worker can see that a connector
-- exists and its status; it can never read (or replace) the encrypted token.
GRANT SELECT (id, user_id, provider, scopes, token_key_id, token_version, token_rotated_at, status, created_at, revoked_at)
    ON connectors TO alfred_worker;
GRANT UPDATE (status, revoked_at) ON connectors TO alfred_worker;
GRANT DELETE ON connectors TO alfred_worker;

-- The broker reads and writes connectors (it alone stores and decrypts refresh tokens) and writes
-- audit records; it sees nothing of jobs, devices or preferences.
GRANT SELECT, INSERT, UPDATE ON connectors TO alfred_broker;
GRANT SELECT ON users TO alfred_broker;
GRANT INSERT ON audit_events TO alfred_broker;
