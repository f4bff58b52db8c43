-- The false-positive loop (issue #17 part 4): an urgent-mail notification keeps the urgency rules
-- that made it fire, so the user's verdict on it ("this was not urgent") is counted by rule.
-- Minimization: rule ids (`deadline_soon`, `urgency_word:de`, `vip_sender`) and the rule-set version
-- only, never a subject, an address or a matched word. Only the rules with a positive weight are kept
-- (the ones that pushed the alert over the bar), sorted and without duplicates; for an alert that
-- coalesced several messages, the union of theirs. NULL on every other kind and on older rows.
--
-- Grants: alfred_worker (0003) and alfred_api (0006) hold table-wide privileges on notifications,
-- which cover new columns; no role has column-level grants here. Delete-all (alfred_delete_user,
-- 0005) and the export (to_jsonb of the row) take the new columns along.
ALTER TABLE notifications
    ADD COLUMN urgency_rules     text[] NULL,
    ADD COLUMN urgency_rule_set  text NULL;
