-- Time-sensitive jobs are claimed before routine ones (issue #31).
--
-- A claim takes the due jobs of kinds with a priority above 0 (meeting reminders, morning briefs,
-- pushes, relay wake-ups, delete-all) first, by due time, and only then routine ones (calendar
-- syncs, mail checks, watches) by due time. Before, one order by due time served a backlog of syncs
-- before a reminder that fell due behind it: in the 10,000-user chaos run a worker's restart left
-- the default queue 35-53 s behind and reminders waited in it, up to 24 s past their time.
--
-- This index serves the first half of the claim: the queued time-sensitive jobs of a queue by due
-- time, without walking the routine ones. The second half keeps using jobs_ready_idx.
CREATE INDEX jobs_ready_time_sensitive_idx ON jobs (queue, due_at, priority DESC)
    WHERE state = 'queued' AND priority > 0;
