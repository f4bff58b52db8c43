import AlfredCore
import Synchronization
import Testing

@Suite struct BatcherTests {
    final class Flushes: Sendable {
        let sizes = Mutex<[Int]>([])
    }

    @Test func concurrentCallsShareFlushesAndEachGetsItsOwnAnswer() async throws {
        let flushes = Flushes()
        let batcher = Batcher<Int, Int>(maxBatch: 16) { inputs in
            flushes.sizes.withLock { $0.append(inputs.count) }
            try await Task.sleep(for: .milliseconds(5))
            return inputs.map { $0 * 10 }
        }
        let results = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for i in 0..<200 { group.addTask { (i, try await batcher.submit(i)) } }
            var all: [Int: Int] = [:]
            for try await (i, output) in group { all[i] = output }
            return all
        }
        #expect(results.count == 200 && results.allSatisfy { $0.value == $0.key * 10 })
        let sizes = flushes.sizes.withLock { $0 }
        #expect(sizes.reduce(0, +) == 200)
        #expect(sizes.allSatisfy { $0 <= 16 })
        #expect(sizes.count < 200, "calls that arrive while one batch is written share the next: \(sizes)")
    }

    @Test func aLoneCallIsWrittenAtOnceAndAFailureReachesEveryCallerOfItsBatch() async throws {
        struct Boom: Error {}
        let batcher = Batcher<Int, Int>(maxBatch: 8) { inputs in
            if inputs.contains(13) { throw Boom() }
            return inputs
        }
        #expect(try await batcher.submit(1) == 1)
        await #expect(throws: Boom.self) { try await batcher.submit(13) }
        #expect(try await batcher.submit(2) == 2, "the writer's role is given back after a failure")
    }
}
