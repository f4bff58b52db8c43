-- Sign in with Apple's server-to-server notifications (issue #30): a person who stops using their
-- Apple ID with Alfred ("consent-revoked") has every session ended at once (and the devices those
-- sessions registered retired); an Apple Account deleted ("account-delete") runs delete-all too.
ALTER TABLE sessions DROP CONSTRAINT sessions_revoked_reason_check;
ALTER TABLE sessions ADD CONSTRAINT sessions_revoked_reason_check
    CHECK (revoked_reason IN ('logout', 'refresh_token_reused', 'expired', 'apple_consent_revoked', 'apple_account_deleted'));
