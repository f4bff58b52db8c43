import JobQueue
import Testing
import WorkerProcess

/// How `alfred worker`'s options become each queue's worker settings.
@Suite(.timeLimit(.minutes(5))) struct WorkerConfigurationTests {
    @Test func theDeliveryQueueTakesTheDeliveryConcurrencyAndTheOthersTheirOwn() {
        var configuration = WorkerConfiguration()
        configuration.concurrency = 32
        configuration.deliveryConcurrency = 10_000
        let delivery: Worker<ContinuousClock>.Configuration = configuration.worker(queue: "delivery")
        let other: Worker<ContinuousClock>.Configuration = configuration.worker(queue: "default")
        #expect(delivery.concurrency == 10_000 && delivery.queue == "delivery")
        #expect(other.concurrency == 32 && other.queue == "default")
    }

    /// Pushes wait on APNs: their limit does not adapt. The other queues' may grow for cheap jobs,
    /// to 8 x the concurrency unless `--max-concurrency` says otherwise.
    @Test func onlyTheNonDeliveryQueuesAdaptTheirLimit() {
        var configuration = WorkerConfiguration()
        let delivery: Worker<ContinuousClock>.Configuration = configuration.worker(queue: "delivery")
        #expect(delivery.maxConcurrency == delivery.concurrency)
        #expect((configuration.worker(queue: "default") as Worker<ContinuousClock>.Configuration).maxConcurrency == nil)
        configuration.maxConcurrency = 64
        #expect((configuration.worker(queue: "default") as Worker<ContinuousClock>.Configuration).maxConcurrency == 64)
    }

    @Test func claimingAheadKeepsHalfTheLeaseForTheWorkAfterTheDueTime() {
        var configuration = WorkerConfiguration()
        configuration.lease = .seconds(30)
        configuration.claimAhead = .seconds(10)
        #expect((configuration.worker(queue: "delivery") as Worker<ContinuousClock>.Configuration).claimAhead == .seconds(10))
        configuration.claimAhead = .seconds(25)
        #expect((configuration.worker(queue: "delivery") as Worker<ContinuousClock>.Configuration).claimAhead == .seconds(15))
    }

    @Test func theHeartbeatIsAThirdOfTheLeaseUnlessGiven() {
        var configuration = WorkerConfiguration()
        configuration.lease = .seconds(30)
        #expect((configuration.worker(queue: "default") as Worker<ContinuousClock>.Configuration).heartbeatInterval == .seconds(10))
        configuration.heartbeat = .seconds(4)
        #expect((configuration.worker(queue: "default") as Worker<ContinuousClock>.Configuration).heartbeatInterval == .seconds(4))
    }
}
