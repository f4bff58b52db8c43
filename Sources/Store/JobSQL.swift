import Foundation
import NIOCore
import PostgresNIO

/// Every query on `jobs`, in one place. Values are always binds; `unescaped:` is used only for
/// compile-time fragments. Each state change names the state and lease token it expects, so a
/// worker that lost its lease learns so instead of overwriting someone else's outcome.
///
/// Time: `now()` (the database clock) decides what is due. The app passes absolute instants only
/// when it has them from outside (a meeting start); relative delays are added to `now()` here.
enum JobSQL {
    /// NOTIFY channel for wake-ups. Payload: `<queue> <seconds until due>`.
    static let channel = "alfred_jobs"

    /// Sentinels for "no value" inside array binds (postgres-nio arrays have no optional elements).
    static let noInstant = Date(timeIntervalSince1970: -62_135_596_800)  // 0001-01-01, far before any real job
    static let noUser = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))

    /// A CTE named `notified` that wakes workers for the rows of `source` (which must have `queue`,
    /// `due_at` and `state` columns) that are queued and due within `horizon` seconds. `horizon` is
    /// configuration, never user input.
    /// One notification per queue per statement; Postgres folds duplicates within a transaction.
    private static func notifyCTE(source: String, horizon: Double) -> String {
        notifyCTE(source: source, horizonSQL: "\(horizon)")
    }

    /// `horizonSQL`: a literal, or a bind (`$15::float8`) in a prepared statement.
    private static func notifyCTE(source: String, horizonSQL: String) -> String {
        """
        notified AS (
            SELECT pg_notify('\(channel)', queue || ' ' || extract(epoch FROM min(due_at) - now())::text)
            FROM \(source)
            WHERE state = 'queued' AND due_at <= now() + make_interval(secs => \(horizonSQL))
            GROUP BY queue
        )
        """
    }

    struct EnqueueColumns {
        var ids: [UUID] = [], kinds: [String] = [], queues: [String] = [], priorities: [Int16] = []
        var payloads: [ByteBuffer] = [], dueAbsolute: [Date] = [], dueDelay: [Double] = []
        var deadlines: [Date] = [], maxAttempts: [Int32] = [], uniqueKeys: [String] = [], users: [UUID] = []
    }

    /// Insert many jobs in one statement. Returns rows `(id, unique_key, outcome)` where outcome is
    /// `inserted`, `rescheduled` (an existing queued job moved), `existing` (the live job that made a
    /// keyed enqueue a no-op), or `notify` (bookkeeping rows, ignored). Prepared: every reminder and
    /// brief of a burst enqueues its push, and planning this statement cost more than running it.
    struct Enqueue: PostgresPreparedStatement {
        static let sql = """
            WITH input AS (
                SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::int2[], $5::bytea[], $6::timestamptz[], $7::float8[],
                                     $8::timestamptz[], $9::int4[], $10::text[], $11::uuid[])
                    AS t(id, kind, queue, priority, payload, due_abs, due_delay, deadline, max_attempts, unique_key, user_id)
            ),
            ins AS (
                INSERT INTO jobs (id, user_id, kind, queue, priority, payload, due_at, scheduled_at, deadline_at, max_attempts,
                                  unique_key)
                SELECT id, NULLIF(user_id, $13::uuid), kind, queue, priority, payload, due, due,
                       NULLIF(deadline, $12::timestamptz), max_attempts, NULLIF(unique_key, '')
                FROM (SELECT *, coalesce(NULLIF(due_abs, $12::timestamptz), now()) + make_interval(secs => due_delay) AS due FROM input) i
                ON CONFLICT (unique_key) WHERE unique_key IS NOT NULL AND state IN ('queued', 'running')
                -- A queued job moves; a running one keeps the request for when it completes (rerun_at).
                DO UPDATE SET due_at = CASE WHEN jobs.state = 'queued' THEN EXCLUDED.due_at ELSE jobs.due_at END,
                              scheduled_at = CASE WHEN jobs.state = 'queued' THEN EXCLUDED.scheduled_at ELSE jobs.scheduled_at END,
                              deadline_at = CASE WHEN jobs.state = 'queued' THEN EXCLUDED.deadline_at ELSE jobs.deadline_at END,
                              rerun_at = CASE WHEN jobs.state = 'running'
                                              THEN least(coalesce(jobs.rerun_at, EXCLUDED.due_at), EXCLUDED.due_at) END,
                              updated_at = now()
                    WHERE $14::bool
                RETURNING id, unique_key, queue, due_at, state
            ),
            \(notifyCTE(source: "ins", horizonSQL: "$15::float8"))
            -- A row that kept its input id is new; a moved one has the existing job's id. (Not
            -- `xmax = 0`: a system column needs a table-wide SELECT, which the operator role lacks.)
            SELECT ins.id, ins.unique_key, CASE WHEN input.id IS NULL THEN 'rescheduled' ELSE 'inserted' END
            FROM ins LEFT JOIN input ON input.id = ins.id
            UNION ALL
            SELECT id, unique_key, 'existing' FROM jobs
                WHERE unique_key = ANY(array_remove($10::text[], '')) AND state IN ('queued', 'running')
            UNION ALL
            SELECT NULL, NULL, 'notify' FROM notified
            """
        typealias Row = (UUID?, String?, String)
        var columns: EnqueueColumns
        var replace: Bool
        var horizon: Double

        func makeBindings() throws -> PostgresBindings {
            var b = PostgresBindings()
            b.append(columns.ids); b.append(columns.kinds); b.append(columns.queues); b.append(columns.priorities)
            b.append(columns.payloads); b.append(columns.dueAbsolute); b.append(columns.dueDelay); b.append(columns.deadlines)
            b.append(columns.maxAttempts); b.append(columns.uniqueKeys); b.append(columns.users)
            b.append(noInstant); b.append(noUser); b.append(replace); b.append(horizon)
            return b
        }

        func decodeRow(_ row: PostgresRow) throws -> Row { try row.decode(Row.self) }
    }

    /// Lease up to `limit` due jobs, earliest `due_at` first, in one statement; with a window, jobs of
    /// `aheadKinds` due within it too (their lease runs from now, and heartbeats extend it as usual).
    /// Answers, per job, how late against `due_at` (this attempt's time) and against `scheduled_at`
    /// (the time it was meant for, which retries do not move).
    ///
    /// `session` is the claiming process's presence key (0: none, the lease alone bounds the claim).
    /// It is recorded in `lease_session`, and nothing is claimed unless its lock is held right now:
    /// a claim racing its own session's end would otherwise hand out jobs the rescuer frees at once.
    static func claim(queue: String, limit: Int, owner: String, leaseSeconds: Double, aheadSeconds: Double,
                      aheadKinds: [String], session: Int32) -> PostgresQuery {
        """
        WITH claimant AS (SELECT \(session)::int4 AS session),
        -- Time-sensitive kinds (priority above 0: reminders, briefs, pushes, delete-all) first, by
        -- due time; routine ones (syncs, mail checks) fill what is left of the claim, by due time. A
        -- reminder never waits behind a backlog of syncs (migration 0024 indexes the first half).
        urgent AS (
            SELECT id FROM jobs
            WHERE state = 'queued' AND queue = \(queue) AND priority > 0
              AND due_at <= now() + make_interval(secs => \(aheadSeconds)) AND (due_at <= now() OR kind = ANY(\(aheadKinds)::text[]))
              AND NOT EXISTS (SELECT 1 FROM queue_pauses WHERE queue_pauses.queue = \(queue))
              AND ((SELECT session FROM claimant) = 0 OR (SELECT session FROM claimant)::int8 = ANY (\(unescaped: heldPresenceKeys)))
            ORDER BY due_at, priority DESC
            LIMIT \(limit)
            FOR UPDATE SKIP LOCKED
        ),
        routine AS (
            SELECT id FROM jobs
            WHERE state = 'queued' AND queue = \(queue) AND priority <= 0
              AND due_at <= now() + make_interval(secs => \(aheadSeconds)) AND (due_at <= now() OR kind = ANY(\(aheadKinds)::text[]))
              AND NOT EXISTS (SELECT 1 FROM queue_pauses WHERE queue_pauses.queue = \(queue))
              AND ((SELECT session FROM claimant) = 0 OR (SELECT session FROM claimant)::int8 = ANY (\(unescaped: heldPresenceKeys)))
            ORDER BY due_at, priority DESC
            LIMIT (SELECT \(limit) - count(*) FROM urgent)
            FOR UPDATE SKIP LOCKED
        )
        UPDATE jobs j SET state = 'running', attempts = j.attempts + 1, lease_owner = \(owner),
               lease_session = NULLIF((SELECT session FROM claimant), 0),
               lease_token = gen_random_uuid(), leased_until = now() + make_interval(secs => \(leaseSeconds)),
               last_run_at = now(), updated_at = now()
        -- An array, not a join: the planner cannot know the second LIMIT, guesses a tenth of the
        -- queued rows, and hashed the whole table for the join (131 ms per claim of 100 with
        -- 300,000 queued, against 3 ms by the primary key).
        WHERE j.id = ANY (ARRAY(SELECT id FROM urgent UNION ALL SELECT id FROM routine))
        RETURNING j.id, j.kind, j.queue, j.payload, j.attempts, j.max_attempts, j.lease_token, j.deadline_at,
                  j.user_id, extract(epoch FROM now() - j.due_at)::float8,
                  coalesce(j.deadline_at <= now(), false), extract(epoch FROM now() - coalesce(j.scheduled_at, j.due_at))::float8
        """
    }

    /// Finish leased jobs; recurring ones go back to `queued` at their next run time in the same
    /// statement. Returns `(id, lease_token)` of the rows it changed.
    static func complete(ids: [UUID], tokens: [UUID], recur: [Bool], nextAbsolute: [Date], nextDelay: [Double],
                         horizon: Double) -> PostgresQuery {
        """
        WITH done AS (
            UPDATE jobs j SET
                state = CASE WHEN c.recur THEN 'queued' ELSE 'completed' END,
                -- A rerun asked for while it ran comes first (see migration 0012).
                due_at = CASE WHEN c.recur THEN least(c.next_due, coalesce(j.rerun_at, c.next_due)) ELSE j.due_at END,
                scheduled_at = CASE WHEN c.recur THEN least(c.next_due, coalesce(j.rerun_at, c.next_due)) ELSE j.scheduled_at END,
                next_run_at = CASE WHEN c.recur THEN least(c.next_due, coalesce(j.rerun_at, c.next_due)) END,
                rerun_at = NULL,
                attempts = CASE WHEN c.recur THEN 0 ELSE j.attempts END,
                deadline_at = CASE WHEN c.recur THEN NULL ELSE j.deadline_at END,
                finished_at = CASE WHEN c.recur THEN NULL ELSE now() END,
                lease_owner = NULL, lease_token = NULL, leased_until = NULL, lease_session = NULL, last_error = NULL,
                updated_at = now()
            FROM (
                SELECT id, token, recur,
                       coalesce(NULLIF(next_abs, \(noInstant)), now()) + make_interval(secs => next_delay) AS next_due
                FROM unnest(\(ids)::uuid[], \(tokens)::uuid[], \(recur)::bool[], \(nextAbsolute)::timestamptz[],
                            \(nextDelay)::float8[]) AS u(id, token, recur, next_abs, next_delay)
            ) c
            WHERE j.id = c.id AND j.lease_token = c.token AND j.state = 'running'
            RETURNING j.id, c.token, j.queue, j.due_at, j.state
        ),
        \(unescaped: notifyCTE(source: "done", horizon: horizon))
        SELECT id, token FROM done
        UNION ALL
        SELECT NULL, NULL FROM notified
        """
    }

    /// Record a failed attempt: back to `queued` after `delaySeconds` (or `expired` if that is at or
    /// past the deadline), or `discarded` when `retry` is false. Returns the new state.
    static func fail(id: UUID, token: UUID, error: String, retry: Bool, delaySeconds: Double, horizon: Double)
        -> PostgresQuery
    {
        """
        WITH failed AS (
            UPDATE jobs j SET
                state = CASE WHEN NOT \(retry) THEN 'discarded'
                             WHEN j.deadline_at IS NOT NULL AND j.deadline_at <= t.retry_at THEN 'expired'
                             ELSE 'queued' END,
                due_at = CASE WHEN \(retry) THEN t.retry_at ELSE j.due_at END,
                finished_at = CASE WHEN \(retry) AND (j.deadline_at IS NULL OR j.deadline_at > t.retry_at)
                                   THEN NULL ELSE now() END,
                last_error = \(error), rerun_at = NULL,
                lease_owner = NULL, lease_token = NULL, leased_until = NULL, lease_session = NULL, updated_at = now()
            FROM (SELECT now() + make_interval(secs => \(delaySeconds)) AS retry_at) t
            WHERE j.id = \(id) AND j.lease_token = \(token) AND j.state = 'running'
            RETURNING j.state, j.queue, j.due_at
        ),
        \(unescaped: notifyCTE(source: "failed", horizon: horizon))
        SELECT state FROM failed
        UNION ALL
        SELECT NULL FROM notified
        """
    }

    /// Put a running job back without using its attempt (snooze, or release at shutdown).
    static func snooze(id: UUID, token: UUID, delaySeconds: Double, horizon: Double) -> PostgresQuery {
        """
        WITH snoozed AS (
            UPDATE jobs SET state = 'queued', attempts = greatest(attempts - 1, 0),
                   due_at = now() + make_interval(secs => \(delaySeconds)), rerun_at = NULL,
                   lease_owner = NULL, lease_token = NULL, leased_until = NULL, lease_session = NULL, updated_at = now()
            WHERE id = \(id) AND lease_token = \(token) AND state = 'running'
            RETURNING state, queue, due_at
        ),
        \(unescaped: notifyCTE(source: "snoozed", horizon: horizon))
        SELECT 1 FROM snoozed
        UNION ALL
        SELECT NULL FROM notified
        """
    }

    /// Put the jobs of one claim (by its owner tag) back to `queued`, giving back their attempt.
    static func releaseClaim(owner: String, horizon: Double) -> PostgresQuery {
        """
        WITH released AS (
            UPDATE jobs SET state = 'queued', attempts = greatest(attempts - 1, 0),
                   lease_owner = NULL, lease_token = NULL, leased_until = NULL, lease_session = NULL, updated_at = now()
            WHERE state = 'running' AND lease_owner = \(owner)
            RETURNING state, queue, due_at
        ),
        \(unescaped: notifyCTE(source: "released", horizon: horizon))
        SELECT 1 FROM released
        UNION ALL
        SELECT NULL FROM notified
        """
    }

    /// Extend the leases a worker still holds; returns the `(id, token)` pairs it still holds.
    ///
    /// Rows another transaction has locked are skipped, not waited for: with thousands of leases (pushes
    /// claimed ahead of a burst) a heartbeat that waited took locks in whatever order its join gave and
    /// deadlocked with completions; and the row it would wait for is being completed or taken over
    /// right now anyway. What it answers is the leases still held by the statement's snapshot, extended
    /// or skipped; a lease taken over meanwhile shows up as lost at the next beat.
    static func heartbeat(ids: [UUID], tokens: [UUID], leaseSeconds: Double) -> PostgresQuery {
        """
        WITH held AS (
            SELECT j.id, h.token FROM jobs j JOIN unnest(\(ids)::uuid[], \(tokens)::uuid[]) AS h(id, token)
                ON j.id = h.id AND j.lease_token = h.token AND j.state = 'running'
        ), free AS MATERIALIZED (
            -- The conditions again on the row as locked: it may have changed since the snapshot. The
            -- arrays again, not `held`: the planner takes a CTE for one row, and a nested loop over
            -- a CTE scan is quadratic (11 s for 10,000 leases in the burst bench).
            SELECT j.id FROM jobs j JOIN unnest(\(ids)::uuid[], \(tokens)::uuid[]) AS h(id, token)
                ON j.id = h.id AND j.lease_token = h.token AND j.state = 'running'
            FOR UPDATE OF j SKIP LOCKED
        ), extended AS (
            UPDATE jobs j SET leased_until = now() + make_interval(secs => \(leaseSeconds)), updated_at = now()
            WHERE j.id IN (SELECT id FROM free)
            RETURNING 1
        )
        SELECT id, token FROM held
        """
    }

    /// The advisory lock space of worker presence (migration 0023): a process holds
    /// `pg_advisory_lock(presenceLockSpace, key)` on its own connection while it lives.
    static let presenceLockSpace: Int32 = 1_634_493_047

    /// The keys of the presence locks some session holds now, as an `int8[]` expression. Uncorrelated,
    /// so Postgres reads `pg_locks` once per statement (as a correlated `EXISTS` it was read per
    /// running row: 265 ms against 1.2 ms over 10,000 running jobs).
    private static let heldPresenceKeys = """
        ARRAY(SELECT objid::int8 FROM pg_locks WHERE locktype = 'advisory' AND classid = \(presenceLockSpace)::oid
              AND objsubid = 2 AND granted)
        """

    /// Takes the presence lock `key` for this session, if no other session holds it.
    static func takePresence(key: Int32) -> PostgresQuery {
        "SELECT pg_try_advisory_lock(\(presenceLockSpace), \(key))"
    }

    /// How many worker processes hold their presence now (one lock each).
    static let presenceHeld: PostgresQuery = "SELECT cardinality(\(unescaped: heldPresenceKeys))::int"

    /// Asks the presence connection whether it still answers.
    static let presencePing: PostgresQuery = "SELECT 1"

    /// Which running jobs the rescuer frees: the lease ran out (the worker stopped heartbeating), or
    /// the claim's presence lock is gone (its process, or its session, ended).
    private static let abandoned = """
        state = 'running' AND (leased_until < now()
            OR (lease_session IS NOT NULL AND lease_session::int8 <> ALL (\(heldPresenceKeys))))
        """

    /// Return abandoned jobs to `queued` (the attempt stays counted: a job that keeps killing its
    /// worker runs out of attempts), keeping `due_at` so a rescued reminder is claimed first.
    static func rescue(limit: Int, horizon: Double) -> PostgresQuery {
        """
        WITH expired AS (
            SELECT id FROM jobs WHERE \(unescaped: abandoned)
            ORDER BY leased_until LIMIT \(limit) FOR UPDATE SKIP LOCKED
        ),
        rescued AS (
            UPDATE jobs j SET
                state = CASE WHEN j.attempts >= j.max_attempts THEN 'discarded'
                             WHEN j.deadline_at IS NOT NULL AND j.deadline_at <= now() THEN 'expired'
                             ELSE 'queued' END,
                finished_at = CASE WHEN j.attempts >= j.max_attempts
                                     OR (j.deadline_at IS NOT NULL AND j.deadline_at <= now()) THEN now() END,
                last_error = CASE WHEN j.leased_until < now()
                                  THEN 'lease expired: worker ' || coalesce(j.lease_owner, '?') || ' stopped heartbeating'
                                  ELSE 'worker ' || coalesce(j.lease_owner, '?') || ' is gone: its database session ended' END,
                rerun_at = NULL, lease_owner = NULL, lease_token = NULL, leased_until = NULL, lease_session = NULL,
                updated_at = now()
            FROM expired WHERE j.id = expired.id AND \(unescaped: abandoned)
            RETURNING j.kind, j.state, j.queue, j.due_at
        ),
        \(unescaped: notifyCTE(source: "rescued", horizon: horizon))
        SELECT kind, state FROM rescued
        UNION ALL
        SELECT NULL, NULL FROM notified
        """
    }

    static func prune(retentionSeconds: Double, limit: Int) -> PostgresQuery {
        """
        WITH pruned AS (
            DELETE FROM jobs WHERE id IN (
                SELECT id FROM jobs
                WHERE state IN ('completed', 'discarded', 'cancelled', 'expired')
                  AND finished_at < now() - make_interval(secs => \(retentionSeconds))
                LIMIT \(limit)
            )
            RETURNING 1
        )
        SELECT count(*)::int8 FROM pruned
        """
    }

    static func secondsUntilNextDue(queue: String, aheadSeconds: Double, aheadKinds: [String]) -> PostgresQuery {
        """
        SELECT extract(epoch FROM min(due_at - CASE WHEN kind = ANY(\(aheadKinds)::text[])
                                                    THEN make_interval(secs => \(aheadSeconds)) ELSE interval '0' END) - now())::float8
        FROM jobs WHERE state = 'queued' AND queue = \(queue)
            AND NOT EXISTS (SELECT 1 FROM queue_pauses WHERE queue_pauses.queue = \(queue))
        """
    }

    static let countsByQueueAndState: PostgresQuery =
        "SELECT queue, state, count(*)::int8 FROM jobs GROUP BY queue, state ORDER BY queue, state"

    /// Per queue with ready jobs or a pause: depth, oldest due age, paused.
    static let ready: PostgresQuery = """
        WITH r AS (
            SELECT queue, count(*)::int8 AS depth, extract(epoch FROM now() - min(due_at))::float8 AS age
            FROM jobs WHERE state = 'queued' AND due_at <= now() GROUP BY queue
        )
        SELECT coalesce(r.queue, p.queue), coalesce(r.depth, 0), coalesce(r.age, 0), p.queue IS NOT NULL
        FROM r FULL JOIN queue_pauses p ON p.queue = r.queue
        ORDER BY 1
        """

    static func list(state: String?, limit: Int) -> PostgresQuery {
        """
        SELECT id, kind, queue, state, attempts, max_attempts, due_at, last_error FROM jobs
        WHERE \(state)::text IS NULL OR state = \(state)
        ORDER BY due_at, id LIMIT \(limit)
        """
    }

    /// Operator cancel: a running job's worker then finds its lease gone and writes nothing.
    static func cancel(id: UUID) -> PostgresQuery {
        """
        UPDATE jobs SET state = 'cancelled', finished_at = now(), lease_owner = NULL, lease_token = NULL,
               leased_until = NULL, last_error = coalesce(last_error, 'cancelled by operator'), updated_at = now()
        WHERE id = \(id) AND state IN ('queued', 'running')
        RETURNING id
        """
    }

    /// Cancel queued jobs by unique key (a cancelled meeting's reminder). Running ones are left to
    /// finish: their handler re-checks the source before it notifies anyone.
    static func cancelQueued(uniqueKeys: [String], reason: String) -> PostgresQuery {
        """
        UPDATE jobs SET state = 'cancelled', finished_at = now(), last_error = \(reason), updated_at = now()
        WHERE unique_key = ANY(\(uniqueKeys)::text[]) AND state = 'queued'
        RETURNING id
        """
    }

    /// Operator retry: run now with fresh attempts.
    static func retry(id: UUID) -> PostgresQuery {
        """
        WITH retried AS (
            UPDATE jobs SET state = 'queued', due_at = now(), attempts = 0, finished_at = NULL, updated_at = now()
            WHERE id = \(id) AND state IN ('queued', 'discarded', 'expired', 'cancelled')
            RETURNING id, queue, due_at, state
        ),
        \(unescaped: notifyCTE(source: "retried", horizon: 60))
        SELECT id FROM retried
        UNION ALL
        SELECT NULL FROM notified
        """
    }

    /// Operator pause: workers claim nothing more from the queue; running jobs finish.
    static func pause(queue: String, reason: String?) -> PostgresQuery {
        """
        INSERT INTO queue_pauses (queue, reason) VALUES (\(queue), \(reason))
        ON CONFLICT (queue) DO UPDATE SET reason = excluded.reason, paused_at = now()
        """
    }

    /// Resuming wakes the queue's workers at once. Returns a row when the queue was paused.
    static func resume(queue: String) -> PostgresQuery {
        """
        WITH resumed AS (DELETE FROM queue_pauses WHERE queue = \(queue) RETURNING queue)
        SELECT pg_notify('\(unescaped: channel)', queue || ' 0') FROM resumed
        """
    }

    static let pauses: PostgresQuery = "SELECT queue, reason, paused_at FROM queue_pauses ORDER BY queue"

    /// Moves a user's queued jobs of one kind earlier by `seconds` (later when negative), never into
    /// the past, and wakes workers for those now due soon (a longer reminder lead time).
    static func shiftQueued(userID: UUID, kind: String, earlierBySeconds seconds: Double, horizon: Double) -> PostgresQuery {
        """
        WITH moved AS (
            UPDATE jobs SET due_at = greatest(now(), due_at - make_interval(secs => \(seconds))),
                            scheduled_at = greatest(now(), coalesce(scheduled_at, due_at) - make_interval(secs => \(seconds))),
                            updated_at = now()
            WHERE user_id = \(userID) AND kind = \(kind) AND state = 'queued'
            RETURNING id, queue, due_at, state
        ),
        \(unescaped: notifyCTE(source: "moved", horizon: horizon))
        SELECT (SELECT count(*) FROM moved)::int8, (SELECT count(*) FROM notified)::int8  -- notified must be read to run
        """
    }

    /// Moves the queued job with this unique key (and its `next_run_at`, when it is a recurring
    /// run) to `due`, and wakes workers when that is soon (a moved brief time).
    static func reschedule(uniqueKey: String, to due: Date, horizon: Double) -> PostgresQuery {
        """
        WITH moved AS (
            UPDATE jobs SET due_at = \(due), scheduled_at = \(due),
                            next_run_at = CASE WHEN next_run_at IS NULL THEN NULL ELSE \(due)::timestamptz END, updated_at = now()
            WHERE unique_key = \(uniqueKey) AND state = 'queued'
            RETURNING id, queue, due_at, state
        ),
        \(unescaped: notifyCTE(source: "moved", horizon: horizon))
        SELECT (SELECT count(*) FROM moved)::int8, (SELECT count(*) FROM notified)::int8  -- notified must be read to run
        """
    }
}
