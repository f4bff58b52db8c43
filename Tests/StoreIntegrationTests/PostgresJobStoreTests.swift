import AlfredCore
import AlfredTestCluster
import Foundation
import Logging
import PostgresNIO
import Testing
@testable import Store

/// The store's contract, on a real PostgreSQL: every suite gets a fresh migrated database.
@Suite(.timeLimit(.minutes(5))) struct PostgresJobStoreTests {
    let logger = TestDatabase.quietLogger

    func withStore(_ body: @Sendable (PostgresJobStore, PostgresClient) async throws -> Void) async throws {
        let url = try await TestDatabase.fresh()
        try await TestDatabase.withClient(url) { client in
            try await body(PostgresJobStore(client: client, logger: TestDatabase.quietLogger), client)
        }
    }

    static let work = JobKind("test.work", maxAttempts: 3)

    @Test func claimsEarliestDueFirstAndNeverTwice() async throws {
        try await withStore { store, _ in
            let results = try await store.enqueue([
                NewJob(kind: Self.work, schedule: .at(Date().addingTimeInterval(-10))),
                NewJob(kind: Self.work, schedule: .at(Date().addingTimeInterval(-30))),
                NewJob(kind: Self.work, schedule: .after(.seconds(3600))),
            ], onConflict: .keep)
            let ids = results.compactMap(\.jobID)
            #expect(ids.count == 3)
            let first = try await store.claim(queue: "default", limit: 1, owner: "a", lease: .seconds(30))
            #expect(first.map(\.id) == [ids[1]])
            #expect(first[0].attempt == 1)
            #expect(first[0].lateness >= .seconds(29))
            let second = try await store.claim(queue: "default", limit: 10, owner: "b", lease: .seconds(30))
            #expect(second.map(\.id) == [ids[0]], "the future job is not due and the first is leased")
            #expect(try await store.claim(queue: "default", limit: 10, owner: "c", lease: .seconds(30)).isEmpty)
        }
    }

    @Test func priorityBreaksTiesAtTheSameDueTime() async throws {
        try await withStore { store, _ in
            let at = Date().addingTimeInterval(-1)
            let low = try await store.enqueue([NewJob(kind: JobKind("low", priority: 0), schedule: .at(at))], onConflict: .keep)
            let high = try await store.enqueue([NewJob(kind: JobKind("high", priority: 10), schedule: .at(at))], onConflict: .keep)
            let claimed = try await store.claim(queue: "default", limit: 2, owner: "a", lease: .seconds(30))
            #expect(Set(claimed.map(\.id)) == Set([low[0].jobID!, high[0].jobID!]))
            let one = try await store.enqueue([NewJob(kind: JobKind("low", priority: 0), schedule: .at(at)),
                                               NewJob(kind: JobKind("high", priority: 10), schedule: .at(at))], onConflict: .keep)
            let next = try await store.claim(queue: "default", limit: 1, owner: "a", lease: .seconds(30))
            #expect(next.first?.id == one[1].jobID)
        }
    }

    @Test func aTimeSensitiveJobIsClaimedBeforeABacklogOfRoutineOnesDueEarlier() async throws {
        try await withStore { store, _ in
            // A minute of routine work behind (syncs, mail checks), and a reminder that just fell due.
            let backlog = try await store.enqueue((0..<50).map { index in
                NewJob(kind: JobKind("routine", priority: 0), schedule: .at(Date().addingTimeInterval(-60 + Double(index))))
            }, onConflict: .keep)
            let reminder = try await store.enqueue([NewJob(kind: JobKind("reminder", priority: 10), schedule: .at(Date().addingTimeInterval(-1)))],
                                                   onConflict: .keep)
            let later = try await store.enqueue([NewJob(kind: JobKind("reminder", priority: 10), schedule: .after(.seconds(600)))],
                                                onConflict: .keep)
            let first = try await store.claim(queue: "default", limit: 1, owner: "a", lease: .seconds(30))
            #expect(first.map(\.id) == [reminder[0].jobID!], "the reminder goes first, though due last")
            // Routine jobs fill what is left of a claim, oldest first; the reminder due later stays queued.
            let two = try await store.claim(queue: "default", limit: 2, owner: "a", lease: .seconds(30))
            #expect(Set(two.map(\.id)) == Set(backlog.prefix(2).map { $0.jobID! }))
            let rest = try await store.claim(queue: "default", limit: 100, owner: "a", lease: .seconds(30))
            #expect(Set(rest.map(\.id)) == Set(backlog.dropFirst(2).map { $0.jobID! }))
            #expect(!rest.contains { $0.id == later[0].jobID! })
        }
    }

    @Test func uniqueKeyMakesEnqueueIdempotentAndReplaceMovesDueAt() async throws {
        try await withStore { store, client in
            let job = NewJob(kind: Self.work, schedule: .after(.seconds(600)), uniqueKey: "reminder:evt1:0900")
            let first = try await store.enqueue([job], onConflict: .keep)
            guard case .inserted(let id) = first[0] else { Issue.record("expected insert, got \(first)"); return }
            let again = try await store.enqueue([job], onConflict: .keep)
            #expect(again == [.duplicate(id)])
            let before = try #require(try await JobRows.row(id, client: client))
            #expect(before.scheduledDelay == 600)

            var moved = job
            moved.schedule = .after(.seconds(1200))
            let replaced = try await store.enqueue([moved], onConflict: .replaceSchedule)
            #expect(replaced == [.rescheduled(id)])
            let after = try #require(try await JobRows.row(id, client: client))
            #expect(after.scheduledDelay == 1200)

            // Within one batch, the key's first (keep) job wins and the rest report it.
            let batch = try await store.enqueue([NewJob(kind: Self.work, uniqueKey: "k2"), NewJob(kind: Self.work, uniqueKey: "k2")],
                                                onConflict: .keep)
            guard case .inserted(let k2) = batch[0] else { Issue.record("expected insert, got \(batch)"); return }
            #expect(batch[1] == .duplicate(k2))

            // Once finished, the key is free again.
            let claimed = try await store.claim(queue: "default", limit: 10, owner: "a", lease: .seconds(30))
            let lease = try #require(claimed.first { $0.id == k2 }).lease
            #expect(try await store.complete([Completion(lease: lease)]).isEmpty)
            let third = try await store.enqueue([NewJob(kind: Self.work, uniqueKey: "k2")], onConflict: .keep)
            guard case .inserted(let fresh) = third[0] else { Issue.record("expected insert, got \(third)"); return }
            #expect(fresh != k2)
        }
    }

    /// A heartbeat never waits on a row another statement has locked (that is how a heartbeat over
    /// thousands of leases deadlocked with a completion): it skips it, and does not call it lost.
    @Test func aHeartbeatSkipsARowLockedElsewhereWithoutWaitingOrCallingItLost() async throws {
        try await withStore { store, client in
            _ = try await store.enqueue([NewJob(kind: Self.work), NewJob(kind: Self.work)], onConflict: .keep)
            let claimed = try await store.claim(queue: "default", limit: 2, owner: "a", lease: .seconds(30))
            #expect(claimed.count == 2)
            let (held, free) = (claimed[0], claimed[1])
            func leasedUntil(_ id: JobID) async throws -> Double? {
                try await client.query("SELECT extract(epoch FROM leased_until)::float8 FROM jobs WHERE id = \(id.uuid)", logger: logger)
                    .collect().first?.decode(Double.self)
            }
            let (heldBefore, freeBefore) = (try await leasedUntil(held.id), try await leasedUntil(free.id))
            try await client.withConnection { connection in
                _ = try await connection.query("BEGIN", logger: logger)
                _ = try await connection.query("SELECT id FROM jobs WHERE id = \(held.id.uuid) FOR UPDATE", logger: logger)
                // Answers while the row stays locked (a wait would hold this test until its time limit).
                #expect(try await store.heartbeat([held.lease, free.lease], lease: .seconds(600)).isEmpty)
                _ = try await connection.query("ROLLBACK", logger: logger)
            }
            #expect(try await leasedUntil(held.id) == heldBefore, "skipped")
            #expect(try await leasedUntil(free.id) ?? 0 > (freeBefore ?? 0) + 500, "extended")
            #expect(try await store.heartbeat([held.lease], lease: .seconds(600)).isEmpty)
            #expect(try await leasedUntil(held.id) ?? 0 > (heldBefore ?? 0) + 500, "extended once free")
        }
    }

    /// A heartbeat's work grows with its leases, not with their square: it once locked its rows
    /// through a CTE the planner took for one row, and a nested loop over it compared every lease
    /// with every other (11 s of Postgres CPU for the burst's 10,000 leases, which held the
    /// completions' row locks that long). Counted from the plan as run, not timed.
    @Test func aHeartbeatComparesEachLeaseAFewTimesNotWithEveryOther() async throws {
        try await withStore { store, client in
            let count = 2_000
            _ = try await store.enqueue((0..<count).map { _ in NewJob(kind: Self.work) }, onConflict: .keep)
            // Statistics from before the claim, as in production before a burst: nothing running.
            _ = try await client.query("ANALYZE jobs", logger: logger).collect()
            var leases: [Lease] = []
            while leases.count < count {
                let claimed = try await store.claim(queue: "default", limit: count, owner: "a", lease: .seconds(30))
                #expect(!claimed.isEmpty)
                if claimed.isEmpty { return }
                leases += claimed.map(\.lease)
            }
            let heartbeat = JobSQL.heartbeat(ids: leases.map(\.id.uuid), tokens: leases.map(\.token), leaseSeconds: 60)
            let explain = PostgresQuery(unsafeSQL: "EXPLAIN (ANALYZE, FORMAT JSON) " + heartbeat.sql, binds: heartbeat.binds)
            let plan = try #require(try await client.query(explain, logger: logger).collect().first?.decode(String.self))
            func removed(_ node: Any) -> Int {
                if let list = node as? [Any] { return list.map(removed).reduce(0, +) }
                guard let node = node as? [String: Any] else { return 0 }
                return node.reduce(0) { sum, entry in
                    sum + (entry.key.hasPrefix("Rows Removed") ? (entry.value as? Int ?? 0) : removed(entry.value))
                }
            }
            let rowsRemoved = removed(try JSONSerialization.jsonObject(with: Data(plan.utf8)))
            #expect(rowsRemoved <= 2 * count, "rows compared and thrown away: \(rowsRemoved) for \(count) leases")
        }
    }

    @Test func stateChangesAreGuardedByTheLeaseToken() async throws {
        try await withStore { store, client in
            let id = try #require(try await store.enqueue([NewJob(kind: Self.work)], onConflict: .keep)[0].jobID)
            let claimed = try #require(try await store.claim(queue: "default", limit: 1, owner: "a", lease: .seconds(30)).first)
            let stale = Lease(id: id, token: UUID())
            #expect(try await store.complete([Completion(lease: stale)]) == [stale])
            #expect(try await store.fail(stale, error: "x", disposition: .discard) == nil)
            #expect(try await store.snooze(stale, for: .zero) == false)
            #expect(try await store.heartbeat([stale, claimed.lease], lease: .seconds(30)) == [stale])
            #expect(try await store.complete([Completion(lease: claimed.lease)]).isEmpty)
            #expect(try await JobRows.row(id, client: client)?.state == .completed)
            #expect(try await store.complete([Completion(lease: claimed.lease)]) == [claimed.lease], "completing twice is refused")
        }
    }

    @Test func operatorCancelOfARunningJobRefusesItsWorkersOutcome() async throws {
        try await withStore { store, client in
            let id = try #require(try await store.enqueue([NewJob(kind: Self.work)], onConflict: .keep)[0].jobID)
            let claimed = try #require(try await store.claim(queue: "default", limit: 1, owner: "a", lease: .seconds(30)).first)
            #expect(try await store.cancel(id))
            #expect(try await store.complete([Completion(lease: claimed.lease)]) == [claimed.lease])
            #expect(try await JobRows.row(id, client: client)?.state == .cancelled)
            #expect(try await store.cancel(id) == false)
            #expect(try await store.retry(id))
            let row = try #require(try await JobRows.row(id, client: client))
            #expect(row.state == .queued && row.attempts == 0)
        }
    }

    @Test func failureRetriesDiscardsAndExpires() async throws {
        try await withStore { store, client in
            let ids = try await store.enqueue([
                NewJob(kind: Self.work),
                NewJob(kind: Self.work),
                NewJob(kind: Self.work, deadline: Date().addingTimeInterval(5)),
            ], onConflict: .keep).compactMap(\.jobID)
            let claimed = try await store.claim(queue: "default", limit: 3, owner: "a", lease: .seconds(30))
            let lease = { (id: JobID) in claimed.first { $0.id == id }!.lease }
            #expect(try await store.fail(lease(ids[0]), error: "upstream 503", disposition: .retry(after: .seconds(60))) == .queued)
            #expect(try await store.fail(lease(ids[1]), error: "bad input", disposition: .discard) == .discarded)
            #expect(try await store.fail(lease(ids[2]), error: "upstream 503", disposition: .retry(after: .seconds(60))) == .expired,
                    "a retry that would land after the deadline expires the job")
            let retried = try #require(try await JobRows.row(ids[0], client: client))
            #expect(retried.scheduledDelay == 60)
            #expect(retried.lastError == "upstream 503")
            #expect(retried.leaseToken == nil)
            #expect(try await JobRows.row(ids[1], client: client)?.lastError == "bad input")
        }
    }

    @Test func snoozeDoesNotUseAnAttempt() async throws {
        try await withStore { store, client in
            let id = try #require(try await store.enqueue([NewJob(kind: Self.work)], onConflict: .keep)[0].jobID)
            let claimed = try #require(try await store.claim(queue: "default", limit: 1, owner: "a", lease: .seconds(30)).first)
            #expect(try await store.snooze(claimed.lease, for: .seconds(30)))
            let row = try #require(try await JobRows.row(id, client: client))
            #expect(row.state == .queued && row.attempts == 0 && row.scheduledDelay == 30)
        }
    }

    /// A recurring job asked to run now while it is running (a Gmail push during the check it
    /// brings forward) runs again as soon as it completes, not at its own later next time.
    @Test func aRerunAskedForWhileRunningComesBeforeTheJobsOwnNextTime() async throws {
        try await withStore { store, client in
            let job = NewJob(kind: Self.work, uniqueKey: "mail.check:user1")
            let id = try #require(try await store.enqueue([job], onConflict: .keep)[0].jobID)
            let claimed = try #require(try await store.claim(queue: "default", limit: 1, owner: "a", lease: .seconds(30)).first)
            #expect(try await store.enqueue([job], onConflict: .replaceSchedule) == [.rescheduled(id)], "the request is kept")
            #expect(try await store.enqueue([job], onConflict: .keep) == [.duplicate(id)])
            #expect(try await store.complete([Completion(lease: claimed.lease, next: .after(.seconds(3600)))]).isEmpty)
            let row = try #require(try await JobRows.row(id, client: client))
            #expect(row.state == .queued)
            #expect(row.scheduledDelay < 5, "due now, not in an hour: \(row.scheduledDelay)")

            // Without a request, the job's own next time holds (and the request does not linger).
            let again = try #require(try await store.claim(queue: "default", limit: 1, owner: "a", lease: .seconds(30)).first)
            #expect(try await store.complete([Completion(lease: again.lease, next: .after(.seconds(3600)))]).isEmpty)
            #expect(try #require(try await JobRows.row(id, client: client)).scheduledDelay > 3500)
        }
    }

    @Test func recurringCompletionRequeuesTheSameRowAtNextRunAt() async throws {
        try await withStore { store, client in
            let id = try #require(try await store.enqueue([NewJob(kind: Self.work, uniqueKey: "sync:user1")], onConflict: .keep)[0].jobID)
            let claimed = try #require(try await store.claim(queue: "default", limit: 1, owner: "a", lease: .seconds(30)).first)
            let next = Date().addingTimeInterval(900)
            #expect(try await store.complete([Completion(lease: claimed.lease, next: .at(next))]).isEmpty)
            let row = try #require(try await JobRows.row(id, client: client))
            #expect(row.state == .queued)
            #expect(row.attempts == 0)
            #expect(abs((row.nextRunAt ?? .distantPast).timeIntervalSince(next)) < 0.001, "microseconds: Postgres's resolution")
            #expect(try await store.enqueue([NewJob(kind: Self.work, uniqueKey: "sync:user1")], onConflict: .keep) == [.duplicate(id)],
                    "planning the same recurring job again is a no-op")
        }
    }

    @Test func rescuerReturnsExpiredLeasesAndDiscardsOutOfAttempts() async throws {
        try await withStore { store, client in
            let ids = try await store.enqueue([NewJob(kind: Self.work), NewJob(kind: JobKind("once", maxAttempts: 1))],
                                              onConflict: .keep).compactMap(\.jobID)
            let claimed = try await store.claim(queue: "default", limit: 2, owner: "dead-worker", lease: .seconds(60))
            #expect(claimed.count == 2)
            #expect(try await store.rescueExpired(limit: 10).isEmpty, "leases still valid")
            // The worker died and its leases ran out (moved into the past rather than waited for).
            _ = try await client.query("UPDATE jobs SET leased_until = now() - interval '1 second' WHERE state = 'running'",
                                       logger: TestDatabase.quietLogger)
            let rescued = try await store.rescueExpired(limit: 10)
            #expect(Set(rescued.map(\.state)) == [.queued, .discarded])
            let requeued = try #require(try await JobRows.row(ids[0], client: client))
            #expect(requeued.state == .queued && requeued.attempts == 1, "the crashed attempt counts")
            #expect(requeued.lastError?.contains("dead-worker") == true)
            #expect(try await JobRows.row(ids[1], client: client)?.state == .discarded)
            // The dead worker's late completion is refused.
            let late = claimed.first { $0.id == ids[0] }!.lease
            #expect(try await store.complete([Completion(lease: late)]) == [late])
        }
    }

    @Test func prunesOnlyOldFinishedRows() async throws {
        try await withStore { store, client in
            let ids = try await store.enqueue([NewJob(kind: Self.work), NewJob(kind: Self.work)], onConflict: .keep).compactMap(\.jobID)
            let claimed = try await store.claim(queue: "default", limit: 1, owner: "a", lease: .seconds(30))
            _ = try await store.complete(claimed.map { Completion(lease: $0.lease) })
            #expect(try await store.prune(olderThan: .seconds(3600), limit: 100) == 0)
            // Two hours pass for the finished row.
            _ = try await client.query("UPDATE jobs SET finished_at = finished_at - interval '2 hours' WHERE finished_at IS NOT NULL",
                                       logger: TestDatabase.quietLogger)
            #expect(try await store.prune(olderThan: .seconds(3600), limit: 100) == 1)
            #expect(try await JobRows.row(claimed[0].id, client: client) == nil)
            #expect(try await JobRows.row(ids.first { $0 != claimed[0].id }!, client: client)?.state == .queued)
        }
    }

    @Test func enqueueInsideTheCallersTransactionRollsBackWithIt() async throws {
        try await withStore { store, client in
            struct Abort: Error {}
            await #expect(throws: (any Error).self) {
                try await client.withTransaction(logger: logger) { connection in
                    _ = try await store.enqueue([NewJob(kind: Self.work)], onConflict: .keep, on: connection)
                    throw Abort()
                }
            }
            #expect(try await store.claim(queue: "default", limit: 10, owner: "a", lease: .seconds(30)).isEmpty)
            try await client.withTransaction(logger: logger) { connection in
                _ = try await store.enqueue([NewJob(kind: Self.work)], onConflict: .keep, on: connection)
            }
            #expect(try await store.claim(queue: "default", limit: 10, owner: "a", lease: .seconds(30)).count == 1)
        }
    }

    @Test func statsCountByQueueAndState() async throws {
        try await withStore { store, _ in
            var mail = NewJob(kind: Self.work, schedule: .at(Date().addingTimeInterval(-5)))
            mail.queue = "delivery"
            _ = try await store.enqueue([NewJob(kind: Self.work), NewJob(kind: Self.work), mail], onConflict: .keep)
            let stats = try await store.stats()
            #expect(stats.rows.contains(.init(queue: "default", state: .queued, count: 2)))
            #expect(stats.rows.contains(.init(queue: "delivery", state: .queued, count: 1)))
            let delivery = try #require(stats.ready.first { $0.queue == "delivery" })
            #expect(delivery.depth == 1 && delivery.oldestDueAgeSeconds >= 4)
        }
    }

    @Test func notifiesListenersOfJobsDueSoonOnly() async throws {
        let url = try await TestDatabase.fresh()
        let listener = PostgresWakeupListener(database: url, logger: logger)
        let received = AsyncStream<Wakeup>.makeStream()
        listener.subscribe { received.continuation.yield($0) }
        try await TestDatabase.withClient(url) { client in
            let store = PostgresJobStore(client: client, logger: TestDatabase.quietLogger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await listener.run() }
                var iterator = received.stream.makeAsyncIterator()
                #expect(await iterator.next() == .resync, "a (re)connect always asks for a look")
                _ = try await store.enqueue([NewJob(kind: Self.work, schedule: .after(.seconds(3600)))], onConflict: .keep)
                var soon = NewJob(kind: Self.work, schedule: .after(.seconds(2)))
                soon.queue = "delivery"
                _ = try await store.enqueue([soon], onConflict: .keep)
                let wakeup = await iterator.next()
                #expect(wakeup?.queue == "delivery", "the far-future job sent nothing; the soon one did")
                #expect((wakeup?.dueInSeconds ?? 0) > 1 && (wakeup?.dueInSeconds ?? 9) <= 2)
                group.cancelAll()
            }
        }
    }
}
