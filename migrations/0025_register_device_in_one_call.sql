-- Device registration in one round trip (issue #34).
--
-- Registering an APNs token was four statements in a transaction (the token's lock, retiring it under
-- another account, dropping this account's other rows holding it, the upsert), each its own round
-- trip, seven with BEGIN and COMMIT. The round trips cost more of the API's and Postgres's CPU than
-- the work (alfred-bench api: 1,014 µs of API CPU and 782 µs of Postgres per registration, against
-- 523 + 299 for one bare upsert), and held a pooled connection for all seven. The same statements,
-- in the same order and the same transaction, now run in one function the API calls once.
CREATE FUNCTION alfred_register_device(p_id uuid, p_user uuid, p_session uuid, p_device_ref text, p_token_key text,
                                       p_sealed bytea, p_environment text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
    -- Registrations of one APNs token take turns (whoever holds the token's lock decides which row
    -- is live), so two accounts registering the same phone at once cannot both end up live.
    PERFORM pg_advisory_xact_lock(hashtextextended(p_token_key, 30));
    -- The token's live row under another account is retired: the phone is someone else's now.
    UPDATE devices SET retired_at = now(), retired_reason = 'registered_elsewhere', updated_at = now()
    WHERE token_key = p_token_key AND user_id <> p_user AND retired_at IS NULL;
    -- A device that had this APNs token under another device id is replaced by this registration.
    DELETE FROM devices WHERE user_id = p_user AND token_key = p_token_key AND device_ref IS DISTINCT FROM p_device_ref;
    INSERT INTO devices (id, user_id, session_id, device_ref, apns_token_ciphertext, environment, token_key)
    VALUES (p_id, p_user, p_session, p_device_ref, p_sealed, p_environment, p_token_key)
    ON CONFLICT (user_id, device_ref) WHERE device_ref IS NOT NULL DO UPDATE
        SET apns_token_ciphertext = EXCLUDED.apns_token_ciphertext, environment = EXCLUDED.environment,
            token_key = EXCLUDED.token_key, session_id = EXCLUDED.session_id, retired_at = NULL, retired_reason = NULL,
            updated_at = now();
END
$$;
REVOKE ALL ON FUNCTION alfred_register_device(uuid, uuid, uuid, text, text, bytea, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION alfred_register_device(uuid, uuid, uuid, text, text, bytea, text) TO alfred_api;
