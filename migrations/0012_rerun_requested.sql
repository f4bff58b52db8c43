-- A running recurring job asked to run again (an enqueue with `replaceSchedule` on its unique key
-- while it runs: a Gmail push arriving during the mail check it is meant to bring forward). Before,
-- the request was dropped and the job came back at its own next time, which for a watched mailbox is
-- an hour later: mail that landed after the check read its history waited that long. Now the request
-- is kept here, and the completing statement makes the job due at the earlier of the two.
ALTER TABLE jobs ADD COLUMN rerun_at timestamptz NULL;
