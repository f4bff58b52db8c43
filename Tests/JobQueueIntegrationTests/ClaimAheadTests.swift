import AlfredCore
import AlfredTestCluster
import Foundation
import JobQueue
import Logging
import PostgresNIO
import ServiceLifecycle
import Store
import Synchronization
import Testing

/// Kinds that prepare ahead (push delivery) start before they are due and wait for the instant on
/// the worker's clock; every other kind starts when due.
@Suite(.timeLimit(.minutes(5))) struct ClaimAheadTests {
    final class Steps: Sendable {
        private let steps = Mutex<[String]>([])
        func add(_ step: String) { steps.withLock { $0.append(step) } }
        var all: [String] { steps.withLock { $0 } }
    }

    /// `kind` prepares ahead: it notes "prepared", waits until due, notes "due".
    static func registry(_ kind: JobKind, _ steps: Steps) -> JobRegistry {
        var registry = JobRegistry()
        registry.register(ClosureHandler<Empty>(kind: kind, preparesAhead: true) { _, context in
            steps.add("prepared")
            try await context.waitUntilDue()
            steps.add("due")
            return .done
        })
        return registry
    }

    @Test func aKindThatPreparesAheadStartsEarlyAndGoesOnAtItsDueInstantOnTheWorkersClock() async throws {
        let url = try await TestDatabase.fresh()
        let early = JobKind("test.early"), plain = JobKind("test.plain")
        let steps = Steps()
        var registry = Self.registry(early, steps)
        registry.register(ClosureHandler<Empty>(kind: plain) { _, _ in
            steps.add("plain ran")
            return .done
        })
        let clock = ManualClock()
        let logger = TestDatabase.quietLogger
        let client = PostgresClient(configuration: url.clientConfiguration(maxConnections: 4), backgroundLogger: logger)
        let store = PostgresJobStore(client: client, logger: logger)
        let listener = PostgresWakeupListener(database: url, logger: logger)
        var configuration = Worker<ManualClock>.Configuration()
        configuration.claimAhead = .seconds(120)
        configuration.lease = .seconds(600)
        configuration.heartbeatInterval = .seconds(200)
        let worker = Worker(store: store, registry: registry, wakeups: listener, configuration: configuration,
                            runtime: .test(clock: clock, logger: logger))
        let group = ServiceGroup(services: [client, listener, worker], logger: logger)
        let running = Task { try await group.run() }
        do {
            // Both due in a minute, enqueued together: one claim sees both.
            let due = Date().addingTimeInterval(60)
            let ids = try await store.enqueue([NewJob(kind: early, schedule: .at(due)), NewJob(kind: plain, schedule: .at(due))],
                                              onConflict: .keep).compactMap(\.jobID)
            #expect(try await eventually { steps.all == ["prepared"] })
            #expect(try await JobRows.row(ids[0], client: client)?.state == .running, "claimed a minute early")
            #expect(try await JobRows.row(ids[1], client: client)?.state == .queued, "a kind that does not prepare waits in the queue")
            // The rest waits for the due instant on the worker's clock, which the test moves.
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(59))
            #expect(steps.all == ["prepared"])
            clock.advance(by: .seconds(2))
            #expect(try await eventually { steps.all == ["prepared", "due"] })
            #expect(try await eventually { try await JobRows.row(ids[0], client: client)?.state == .completed })
        } catch {
            await group.triggerGracefulShutdown()
            _ = try? await running.value
            throw error
        }
        await group.triggerGracefulShutdown()
        try await running.value
    }

    @Test func aJobClaimedAheadAndShutDownBeforeItsTimeGoesBackUnrunWithItsAttempt() async throws {
        let url = try await TestDatabase.fresh()
        let early = JobKind("test.early")
        let steps = Steps()
        let registry = Self.registry(early, steps)
        let harness = WorkerHarness(configure: {
            $0.claimAhead = .seconds(120)
            $0.lease = .seconds(600)
            $0.shutdownGrace = .milliseconds(100)
        })
        let id = try await harness.run(url, registry: registry) { store, client in
            let id = try #require(try await store.enqueue([NewJob(kind: early, schedule: .after(.seconds(60)))], onConflict: .keep)[0].jobID)
            #expect(try await eventually { steps.all == ["prepared"] })
            return id
        }
        try await TestDatabase.withClient(url) { client in
            let row = try #require(try await JobRows.row(id, client: client))
            #expect(row.state == .queued)
            #expect(row.attempts == 0, "released at shutdown: no attempt used")
        }
        #expect(steps.all == ["prepared"], "never ran past its due time")
    }
}
