import AlfredCore
import AlfredTestCluster
import Foundation
import JobQueue
import Logging
import PostgresNIO
import Store
import Synchronization
import Testing

@Suite(.timeLimit(.minutes(5))) struct WorkerTests {
    @Test func fourWorkersDrainTenThousandJobsExactlyOnce() async throws {
        let url = try await TestDatabase.fresh()
        let log = RunLog()
        let kind = JobKind("test.count")
        var registry = JobRegistry()
        registry.register(ClosureHandler<Empty>(kind: kind) { _, context in
            log.record(context.id)
            return .done
        })
        let harness = WorkerHarness(workers: 4, configure: { $0.concurrency = 16; $0.claimBatch = 50 })
        let ids = try await harness.run(url, registry: registry) { store, client in
            var ids: [JobID] = []
            for _ in 0..<10 {
                ids += try await store.enqueue(Array(repeating: NewJob(kind: kind), count: 1000), onConflict: .keep)
                    .compactMap(\.jobID)
            }
            let drained = try await eventually(timeout: .seconds(120)) {
                try await JobRows.count(state: .completed, client: client) == 10_000
            }
            #expect(drained)
            #expect(try await JobRows.count(state: .queued, client: client) == 0)
            #expect(try await JobRows.count(state: .running, client: client) == 0)
            return ids
        }
        #expect(Set(ids).count == 10_000)
        let counts = log.counts
        #expect(counts.count == 10_000)
        #expect(counts.values.allSatisfy { $0 == 1 }, "every job ran exactly once")
    }

    /// The limit adapts only for cheap jobs: a backlog of jobs that wait on something (here 30 ms
    /// each, as an I/O call would) never has more than `concurrency` of them running at once.
    @Test func jobsThatTakeTimeNeverRunMoreThanTheConfiguredConcurrencyAtOnce() async throws {
        let url = try await TestDatabase.fresh()
        let running = Mutex((now: 0, most: 0))
        let kind = JobKind("test.wait")
        var registry = JobRegistry()
        registry.register(ClosureHandler<Empty>(kind: kind) { _, _ in
            running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            defer { running.withLock { $0.now -= 1 } }
            try await Task.sleep(for: .milliseconds(30))
            return .done
        })
        let harness = WorkerHarness(configure: { $0.concurrency = 4; $0.claimBatch = 100 })
        try await harness.run(url, registry: registry) { store, client in
            _ = try await store.enqueue(Array(repeating: NewJob(kind: kind), count: 80), onConflict: .keep)
            #expect(try await eventually(timeout: .seconds(120)) { try await JobRows.count(state: .completed, client: client) == 80 })
        }
        #expect(running.withLock { $0.most } == 4, "the backlog filled the configured concurrency and never more")
    }

    @Test func failingJobRetriesWithBackoffThenIsDiscardedWithItsError() async throws {
        let url = try await TestDatabase.fresh()
        let log = RunLog()
        let kind = JobKind("test.flaky", maxAttempts: 3)
        var registry = JobRegistry()
        registry.register(ClosureHandler<Empty>(kind: kind) { _, context in
            log.record(context.id)
            throw JobError.retry("upstream answered 503 on attempt \(context.attempt)")
        })
        let harness = WorkerHarness(configure: { $0.retry = RetryPolicy(base: .milliseconds(20), cap: .milliseconds(100)) })
        let events = harness.events
        try await harness.run(url, registry: registry) { store, client in
            let id = try #require(try await store.enqueue([NewJob(kind: kind)], onConflict: .keep)[0].jobID)
            try await events.first { $0.job == id && $0.what == .failed(.discarded) }
            let row = try #require(try await JobRows.row(id, client: client))
            #expect(row.attempts == 3)
            #expect(row.lastError == "upstream answered 503 on attempt 3")
            #expect(log.count(id) == 3)
        }
    }

    @Test func jobPastItsDeadlineIsExpiredNotRetried() async throws {
        let url = try await TestDatabase.fresh()
        let kind = JobKind("test.deadline", maxAttempts: 10)
        var registry = JobRegistry()
        let log = RunLog()
        registry.register(ClosureHandler<Empty>(kind: kind) { _, context in
            log.record(context.id)
            throw JobError.retry("APNs 503", after: .seconds(600))
        })
        let harness = WorkerHarness()
        let events = harness.events
        try await harness.run(url, registry: registry) { store, client in
            // The retry would land ten minutes after the first attempt, well past the deadline.
            let id = try #require(try await store.enqueue(
                [NewJob(kind: kind, deadline: Date().addingTimeInterval(300))], onConflict: .keep)[0].jobID)
            try await events.first { $0.job == id && $0.what == .failed(.expired) }
            #expect(try await JobRows.row(id, client: client)?.attempts == 1)
            #expect(log.count(id) == 1, "the handler ran once: expired by its retry, not claimed too late")
        }
    }

    @Test func jobClaimedAfterItsDeadlineExpiresWithoutRunning() async throws {
        let url = try await TestDatabase.fresh()
        let log = RunLog()
        let kind = JobKind("test.stale")
        var registry = JobRegistry()
        registry.register(ClosureHandler<Empty>(kind: kind) { _, context in
            log.record(context.id)
            return .done
        })
        let harness = WorkerHarness()
        let events = harness.events
        try await harness.run(url, registry: registry) { store, client in
            // A reminder whose meeting already started (say, every worker was down meanwhile).
            let id = try #require(try await store.enqueue(
                [NewJob(kind: kind, schedule: .at(Date().addingTimeInterval(-120)), deadline: Date().addingTimeInterval(-60))],
                onConflict: .keep)[0].jobID)
            try await events.first { $0.job == id && $0.what == .failed(.expired) }
            #expect(log.count(id) == 0, "the handler never ran")
            #expect(try await JobRows.row(id, client: client)?.lastError == "deadline passed before the job could start")
        }
    }

    @Test func recurringJobReturnsToQueuedAtItsNextRunTime() async throws {
        let url = try await TestDatabase.fresh()
        let log = RunLog()
        let kind = JobKind("test.recurring")
        var registry = JobRegistry()
        registry.register(ClosureHandler<Empty>(kind: kind) { _, context in
            log.record(context.id)
            return log.count(context.id) < 3 ? .runAgain(.after(.seconds(3600))) : .done
        })
        let harness = WorkerHarness(configure: { $0.pollInterval = .milliseconds(200) })
        let events = harness.events
        try await harness.run(url, registry: registry) { store, client in
            let id = try #require(try await store.enqueue([NewJob(kind: kind, uniqueKey: "sync:u1")], onConflict: .keep)[0].jobID)
            for run in 1...2 {
                // Between runs the same row waits in `queued`, an hour out, with next_run_at set.
                // The completion is written asynchronously, so wait for it; in this order: once the
                // handler has run, the row reads `queued` again only after that run's completion.
                try await events.wait(for: run) { $0.job == id && $0.what == .completed }
                #expect(try await JobRows.row(id, client: client)?.state == .queued)
                let between = try #require(try await JobRows.row(id, client: client))
                #expect(between.scheduledDelay == 3600 && between.nextRunAt != nil)
                #expect(between.attempts == 0, "a run that asks to run again uses no attempt")
                // The hour passes (the row is moved, not waited for); the poll finds it due.
                _ = try await client.query("UPDATE jobs SET due_at = now() WHERE id = \(id.uuid)", logger: TestDatabase.quietLogger)
            }
            try await events.wait(for: 3) { $0.job == id && $0.what == .completed }
            #expect(try await JobRows.row(id, client: client)?.state == .completed)
            #expect(log.count(id) == 3, "the same row ran three times")
        }
    }

    @Test func malformedPayloadAndUnknownKindAreDiscardedAtOnceWithAReason() async throws {
        let url = try await TestDatabase.fresh()
        struct Typed: Codable, Sendable { var eventID: String }
        let kind = JobKind("test.typed", maxAttempts: 5)
        var registry = JobRegistry()
        registry.register(ClosureHandler<Typed>(kind: kind) { _, _ in .done })
        let harness = WorkerHarness()
        let events = harness.events
        try await harness.run(url, registry: registry) { store, client in
            let ids = try await store.enqueue([
                NewJob(kind: kind, payload: Array("{not json".utf8)),
                NewJob(kind: kind, payload: Array("{\"eventId\": 1}".utf8)),
                NewJob(kind: JobKind("nobody.handles", maxAttempts: 5)),
            ], onConflict: .keep).compactMap(\.jobID)
            for id in ids {
                try await events.first { $0.job == id && $0.what == .failed(.discarded) }
                #expect(try await JobRows.row(id, client: client)?.attempts == 1, "no retry loop")
            }
            #expect(try await JobRows.row(ids[0], client: client)?.lastError?.hasPrefix("malformed payload for kind test.typed") == true)
            #expect(try await JobRows.row(ids[1], client: client)?.lastError?.contains("missing key eventID") == true)
            #expect(try await JobRows.row(ids[2], client: client)?.lastError?.contains("no handler for kind 'nobody.handles'") == true)
        }
    }

    @Test func handlerLearnsItLostTheLeaseAndItsOutcomeIsRefused() async throws {
        let url = try await TestDatabase.fresh()
        let kind = JobKind("test.long")
        let sawLoss = RunLog()
        var registry = JobRegistry()
        registry.register(ClosureHandler<Empty>(kind: kind) { _, context in
            // Works until told its lease is gone (the suite's time limit ends a handler never told).
            while !context.isLeaseLost { try await Task.sleep(for: .milliseconds(25)) }
            sawLoss.record(context.id)
            return .done
        })
        let harness = WorkerHarness(configure: { $0.heartbeat = .milliseconds(100) })
        let events = harness.events
        try await harness.run(url, registry: registry) { store, client in
            let id = try #require(try await store.enqueue([NewJob(kind: kind)], onConflict: .keep)[0].jobID)
            try await events.first { $0.job == id && $0.what == .started }
            #expect(try await store.cancel(id))
            try await events.first { $0.job == id && $0.what == .leaseLost }
            // The worker offered the handler's `.done` and the store refused it.
            try await events.first { $0.job == id && $0.what == .outcomeRefused }
            #expect(sawLoss.count(id) == 1)
            #expect(try await JobRows.row(id, client: client)?.state == .cancelled, "the worker wrote nothing after losing the lease")
        }
    }

    @Test func shutdownReleasesJobsThatOutliveTheGracePeriod() async throws {
        let url = try await TestDatabase.fresh()
        let kind = JobKind("test.slow")
        var registry = JobRegistry()
        registry.register(ClosureHandler<Empty>(kind: kind) { _, _ in
            try await Task.sleep(for: .seconds(30))
            return .done
        })
        let harness = WorkerHarness(configure: { $0.shutdownGrace = .milliseconds(300) })
        let events = harness.events
        let id = try await harness.run(url, registry: registry) { store, client in
            let id = try #require(try await store.enqueue([NewJob(kind: kind)], onConflict: .keep)[0].jobID)
            try await events.first { $0.job == id && $0.what == .started }
            return id
        }
        try await TestDatabase.withClient(url) { client in
            let row = try #require(try await JobRows.row(id, client: client))
            #expect(row.state == .queued, "released, not left running until its lease expires")
            #expect(row.attempts == 0, "a release does not use an attempt")
        }
    }

    @Test func shutdownLetsRunningJobsFinishWithinGrace() async throws {
        let url = try await TestDatabase.fresh()
        let kind = JobKind("test.short")
        var registry = JobRegistry()
        registry.register(ClosureHandler<Empty>(kind: kind) { _, _ in
            try await Task.sleep(for: .milliseconds(500))
            return .done
        })
        let harness = WorkerHarness()
        let events = harness.events
        let id = try await harness.run(url, registry: registry) { store, client in
            let id = try #require(try await store.enqueue([NewJob(kind: kind)], onConflict: .keep)[0].jobID)
            try await events.first { $0.job == id && $0.what == .started }
            return id
        }
        try await TestDatabase.withClient(url) { client async throws in
            #expect(try await JobRows.row(id, client: client)?.state == .completed)
        }
    }

    @Test func futureJobStartsWithoutWaitingForThePoll() async throws {
        let url = try await TestDatabase.fresh()
        let kind = JobKind("test.timed")
        let ran = RunLog()
        var registry = JobRegistry()
        registry.register(ClosureHandler<Empty>(kind: kind) { _, context in
            ran.record(context.id)
            return .done
        })
        // A poll interval of a day: only NOTIFY and the due-time timer can start the job within the
        // test (how promptly is the benchmark's business).
        let harness = WorkerHarness(configure: { $0.pollInterval = .seconds(86_400) })
        let events = harness.events
        try await harness.run(url, registry: registry) { store, client in
            let id = try #require(try await store.enqueue([NewJob(kind: kind, schedule: .after(.seconds(1)))], onConflict: .keep)[0].jobID)
            try await events.first { $0.job == id && $0.what == .completed }
            #expect(try await JobRows.row(id, client: client)?.state == .completed)
            #expect(ran.count(id) == 1)
        }
    }
}

@Suite(.timeLimit(.minutes(5))) struct WorkerPrivacyTests {
    /// An unclassified error may describe itself with personal data; only its type is recorded.
    @Test func anUnclassifiedErrorIsRecordedByTypeOnly() async throws {
        struct LeakyError: Error, CustomStringConvertible {
            var description: String { "could not parse event 'Dinner with ada@example.com'" }
        }
        let url = try await TestDatabase.fresh()
        let kind = JobKind("test.leaky", maxAttempts: 1)
        var registry = JobRegistry()
        registry.register(ClosureHandler<Empty>(kind: kind) { _, _ in throw LeakyError() })
        let harness = WorkerHarness()
        let events = harness.events
        try await harness.run(url, registry: registry) { store, client in
            let id = try #require(try await store.enqueue([NewJob(kind: kind)], onConflict: .keep)[0].jobID)
            try await events.first { $0.job == id && $0.what == .failed(.discarded) }
            let error = try #require(try await JobRows.row(id, client: client)?.lastError)
            #expect(error.contains("LeakyError"))
            #expect(!error.contains("ada@example.com") && !error.contains("Dinner"))
        }
    }
}
