-- When a job was meant to run, kept apart from when it will next be tried (issue #31). `due_at`
-- moves on every retry, snooze and release, so lateness measured from it reset with each retry: a
-- reminder held up 40 s by Google errors reported about 0 s, in the SLI and in the benchmarks.
-- `scheduled_at` is set at enqueue (and by what changes the intended time: a keyed re-enqueue of a
-- queued job, a recurring job's next run, a moved reminder or brief) and never by a retry, a snooze,
-- a release, a rescue or an operator's retry. NULL on rows from before: read as `due_at`.
ALTER TABLE jobs ADD COLUMN scheduled_at timestamptz NULL;
