-- Least privilege, one step further (issue #32; security review N7).
--
-- The worker kept INSERT and UPDATE on `users`, so a compromised worker (which holds the host data
-- key and can compute keyed hashes) could rebind any account to its own Apple ID by rewriting
-- `apple_subject_hash`; and DELETE on devices and preferences, which no worker statement uses.
-- It keeps only what its statements do: reading users, and on preferences only resealing the
-- urgency column (`alfred keys data-key reseal`). Delete-all still deletes everything through
-- `alfred_delete_user` (SECURITY DEFINER).
REVOKE INSERT, UPDATE ON users FROM alfred_worker;
REVOKE DELETE ON devices FROM alfred_worker;
REVOKE INSERT, UPDATE, DELETE ON preferences FROM alfred_worker;
GRANT UPDATE (urgency_ciphertext) ON preferences TO alfred_worker;

-- No role creates objects in the schema (PostgreSQL 15 no longer grants this to PUBLIC on new
-- databases, but a database upgraded from an older cluster still does).
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
