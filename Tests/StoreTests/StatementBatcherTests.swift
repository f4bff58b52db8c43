import AlfredTestKit
import Synchronization
import Testing
@testable import Store

/// The batcher behind delivery's Begin and Record statements, on its own.
@Suite(.timeLimit(.minutes(5))) struct StatementBatcherTests {
    final class Statements: Sendable {
        private let batches = Mutex<[[String]]>([])
        func ran(_ batch: [String]) { batches.withLock { $0.append(batch) } }
        var all: [[String]] { batches.withLock { $0 } }
    }

    final class Outcomes: Sendable {
        private let results = Mutex<[String: Bool]>([:])
        func set(_ request: String, _ ok: Bool) { results.withLock { $0[request] = ok } }
        var all: [String: Bool] { results.withLock { $0 } }
    }

    /// `first` holds the first statement until the test opens it; `started` opens when it runs.
    private func batcher(first: Gate, started: Gate = Gate(), maxInFlight: Int = 1,
                         statements: Statements) -> StatementBatcher<String, String, String> {
        StatementBatcher(maxBatch: 500, maxInFlight: maxInFlight, key: { String($0.prefix { $0 != "#" }) }) { batch in
            let isFirst = statements.all.isEmpty
            statements.ran(batch)
            if isFirst {
                started.open()
                await first.wait()
            }
            if batch.contains("bad") { throw StoreError.unexpected("bad request") }
            return batch.map { "answer to \($0)" }
        }
    }

    @Test func whatArrivesWhileAStatementRunsSharesTheNextAndEveryoneGetsTheirOwnAnswer() async throws {
        let gate = Gate(), started = Gate(), statements = Statements()
        let batcher = batcher(first: gate, started: started, statements: statements)
        try await withThrowingTaskGroup(of: (String, String).self) { group in
            group.addTask { ("r0", try await batcher.submit("r0")) }
            await started.wait()
            for index in 1...99 { group.addTask { ("r\(index)", try await batcher.submit("r\(index)")) } }
            await batcher.waitUntilWaiting(atLeast: 99)
            gate.open()
            for try await (request, answer) in group { #expect(answer == "answer to \(request)") }
        }
        #expect(statements.all.map(\.count) == [1, 99], "two statements for a hundred requests")
    }

    @Test func requestsWithTheSameKeyNeverShareAStatement() async throws {
        let gate = Gate(), started = Gate(), statements = Statements()
        let batcher = batcher(first: gate, started: started, statements: statements)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { _ = try await batcher.submit("hold") }
            await started.wait()
            for request in ["push-a#1", "push-a#2", "push-b#1"] { group.addTask { _ = try await batcher.submit(request) } }
            await batcher.waitUntilWaiting(atLeast: 3)
            gate.open()
            try await group.waitForAll()
        }
        #expect(statements.all.count == 3)
        for batch in statements.all.dropFirst() {
            #expect(Set(batch.map { $0.prefix { $0 != "#" } }).count == batch.count)
        }
    }

    @Test func aBadRequestFailsOnlyItselfAndTheOthersAreAnswered() async throws {
        let gate = Gate(), started = Gate(), statements = Statements()
        let batcher = batcher(first: gate, started: started, statements: statements)
        let results = Outcomes()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { _ = try? await batcher.submit("hold") }
            await started.wait()
            for request in ["good-1", "bad", "good-2"] {
                group.addTask {
                    let ok = (try? await batcher.submit(request)) != nil
                    results.set(request, ok)
                }
            }
            await batcher.waitUntilWaiting(atLeast: 3)
            gate.open()
        }
        #expect(results.all == ["good-1": true, "bad": false, "good-2": true])
    }

    @Test func underLightLoadEachRequestRunsAtOnceOnItsOwn() async throws {
        let statements = Statements()
        let batcher = batcher(first: Gate(open: true), maxInFlight: 2, statements: statements)
        for index in 0..<5 { #expect(try await batcher.submit("r\(index)") == "answer to r\(index)") }
        #expect(statements.all == [["r0"], ["r1"], ["r2"], ["r3"], ["r4"]])
    }
}
