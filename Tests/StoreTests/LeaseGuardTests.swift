import AlfredTesting
import Foundation
import PostgresNIO
import Testing
@testable import Store

/// A store call waits a bounded time for a pooled connection, then fails with a retryable error;
/// the statement it gave up on never runs later, and the pool serves the next call as usual.
@Suite(.timeLimit(.minutes(5))) struct LeaseGuardTests {
    @Test func aCallThatGetsNoConnectionFailsInTimeAndItsStatementNeverRuns() async throws {
        let url = try await TestDatabase.fresh()
        try await TestDatabase.withClient(url, maxConnections: 1) { client in
            _ = try await LeaseGuard.query(client, "CREATE TABLE marks (n int)", logger: TestDatabase.quietLogger).collect()
            let busy = Gate()
            // The pool's only connection is held until the gate opens.
            let holder = Task {
                try await client.withConnection { connection in
                    busy.opened()
                    try await Task.sleep(for: .seconds(3))
                    _ = try await connection.query("SELECT 1", logger: TestDatabase.quietLogger).collect()
                }
            }
            await busy.waitUntilOpened()

            let started = ContinuousClock.now
            let error = await #expect(throws: StoreError.self) {
                try await LeaseGuard.query(client, "INSERT INTO marks VALUES (1)", logger: TestDatabase.quietLogger,
                                           limit: .milliseconds(500))
            }
            #expect(error == StoreError.connectionWait(.milliseconds(500)))
            #expect(ContinuousClock.now - started < .seconds(2), "failed at its limit, not when the connection came back")

            try await holder.value
            let marks = try await LeaseGuard.query(client, "SELECT count(*)::int FROM marks", logger: TestDatabase.quietLogger)
                .collect().first?.decode(Int.self)
            #expect(marks == 0, "the abandoned INSERT never ran")
        }
    }

    @Test func aTransactionCommitsOrRollsBackWithTheCallersOwnError() async throws {
        let url = try await TestDatabase.fresh()
        try await TestDatabase.withClient(url, maxConnections: 2) { client in
            let logger = TestDatabase.quietLogger
            _ = try await LeaseGuard.query(client, "CREATE TABLE marks (n int)", logger: logger).collect()
            struct Refused: Error, Equatable {}
            await #expect(throws: Refused.self) {
                try await LeaseGuard.transaction(client, logger: logger) { connection in
                    _ = try await connection.query("INSERT INTO marks VALUES (1)", logger: logger).collect()
                    throw Refused()
                }
            }
            let committed = try await LeaseGuard.transaction(client, logger: logger) { connection in
                _ = try await connection.query("INSERT INTO marks VALUES (2)", logger: logger).collect()
                return 2
            }
            #expect(committed == 2)
            let marks = try await LeaseGuard.query(client, "SELECT coalesce(array_agg(n), '{}')::int[] FROM marks", logger: logger)
                .collect().first?.decode([Int].self)
            #expect(marks == [2])
        }
    }

    @Test func aTransactionThatGetsNoConnectionFailsInTimeAndTheConnectionIsNotLost() async throws {
        let url = try await TestDatabase.fresh()
        try await TestDatabase.withClient(url, maxConnections: 1) { client in
            let logger = TestDatabase.quietLogger
            let busy = Gate()
            let holder = Task {
                try await client.withConnection { _ in
                    busy.opened()
                    try await Task.sleep(for: .seconds(2))
                }
            }
            await busy.waitUntilOpened()
            await #expect(throws: StoreError.connectionWait(.milliseconds(300))) {
                try await LeaseGuard.transaction(client, logger: logger, limit: .milliseconds(300)) { _ in 1 }
            }
            try await holder.value
            // The lease that arrived after the caller gave up went straight back: the pool's one
            // connection serves the next transaction.
            let value = try await LeaseGuard.transaction(client, logger: logger, limit: .seconds(10)) { connection in
                try await connection.query("SELECT 7", logger: logger).collect().first?.decode(Int.self)
            }
            #expect(value == 7)
        }
    }

    /// A caller cancelled while it waits for a connection stops waiting at once, and the statement it
    /// was waiting to run never runs later.
    @Test func aCancelledCallStopsWaitingAndItsStatementNeverRuns() async throws {
        let url = try await TestDatabase.fresh()
        try await TestDatabase.withClient(url, maxConnections: 1) { client in
            let logger = TestDatabase.quietLogger
            _ = try await LeaseGuard.query(client, "CREATE TABLE marks (n int)", logger: logger).collect()
            let busy = Gate()
            let holder = Task {
                try await client.withConnection { _ in
                    busy.opened()
                    try await Task.sleep(for: .seconds(2))
                }
            }
            await busy.waitUntilOpened()
            let waiting = Task { try await LeaseGuard.query(client, "INSERT INTO marks VALUES (1)", logger: logger).collect() }
            try await Task.sleep(for: .milliseconds(200))
            let cancelled = ContinuousClock.now
            waiting.cancel()
            await #expect(throws: CancellationError.self) { _ = try await waiting.value }
            #expect(ContinuousClock.now - cancelled < .seconds(1), "stopped waiting when cancelled, not when the connection came back")

            try await holder.value
            let marks = try await LeaseGuard.query(client, "SELECT count(*)::int FROM marks", logger: logger)
                .collect().first?.decode(Int.self)
            #expect(marks == 0, "the cancelled INSERT never ran")
        }
    }
}

/// Opened once; waiters return when it is.
private final class Gate: Sendable {
    private let stream = AsyncStream<Void>.makeStream()
    func opened() { stream.continuation.yield(); stream.continuation.finish() }
    func waitUntilOpened() async { for await _ in stream.stream { return } }
}
