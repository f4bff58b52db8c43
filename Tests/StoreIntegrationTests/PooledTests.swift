import AlfredCore
import AlfredTestCluster
import Foundation
import Logging
import PostgresNIO
import Synchronization
import Testing
@testable import Store

/// Statements on pooled connections end, whatever happens to the connection: a statement written to
/// a connection that closed under it (postgres-nio drops it, and its caller would wait forever) ends
/// with a retryable `connectionLost`; the wait for a connection is bounded (on an injected clock);
/// an abandoned statement never runs later.
@Suite(.timeLimit(.minutes(5))) struct PooledTests {
    static let logger = TestDatabase.quietLogger

    @Test func aStatementOnAConnectionPostgresClosedEndsAsConnectionLostAndThePoolGoesOn() async throws {
        let url = try await TestDatabase.fresh()
        try await TestDatabase.withClient(url, maxConnections: 1) { client in
            try await TestDatabase.withClient(url, maxConnections: 1) { admin in
                let error = await #expect(throws: StoreError.self) {
                    try await Pooled.connection(client) { connection in
                        let pid = try await connection.query("SELECT pg_backend_pid()", logger: Self.logger).collect()[0].decode(Int32.self)
                        // Postgres ends the session (as a restart does); then a statement is written to the
                        // closed connection. postgres-nio drops it: without the guard this call never returns.
                        _ = try await admin.query("SELECT pg_terminate_backend(\(pid))", logger: Self.logger).collect()
                        try? await connection.closeFuture.get()
                        return try await connection.query("SELECT 1", logger: Self.logger).collect().count
                    }
                }
                #expect(error == StoreError.connectionLost)
            }
            // The pool replaced the closed connection.
            let answer = try await Pooled.rows(client, "SELECT 7", logger: Self.logger).decode(Int.self)
            #expect(answer == [7])
        }
    }

    @Test func aConnectionAlreadyClosedIsRefusedBeforeAnythingIsWrittenToIt() async throws {
        let url = try await TestDatabase.fresh()
        let connection = try await PostgresConnection.connect(configuration: url.connectionConfiguration(), id: 1, logger: Self.logger)
        try await connection.close()
        let ran = RunFlag()
        await #expect(throws: StoreError.connectionLost) {
            try await CloseWatch.race(connection, race: Race<Int>()) {
                ran.set()
                return 1
            }
        }
        #expect(!ran.isSet)
    }

    @Test func aCallThatGetsNoConnectionFailsAtItsLimitAndItsStatementNeverRuns() async throws {
        let url = try await TestDatabase.fresh()
        try await TestDatabase.withClient(url, maxConnections: 1) { client in
            _ = try await Pooled.rows(client, "CREATE TABLE marks (n int)", logger: Self.logger)
            try await Self.whileTheOnlyConnectionIsHeld(client) {
                let clock = ManualClock()
                let waiting = Task {
                    try await Pooled.connection(client, limit: .seconds(15), clock: clock) { connection in
                        try await connection.query("INSERT INTO marks VALUES (1)", logger: Self.logger).collect().count
                    }
                }
                await clock.waitForSleepers(1)
                clock.advance(by: .seconds(15))
                await #expect(throws: StoreError.connectionWait(.seconds(15))) { try await waiting.value }
            }
            // The connection that came free after the caller gave up went straight back unused.
            let marks = try await Pooled.rows(client, "SELECT count(*)::int FROM marks", logger: Self.logger).decode(Int.self)
            #expect(marks == [0], "the abandoned INSERT never ran")
        }
    }

    @Test func aCallCancelledWhileWaitingStopsAndItsStatementNeverRuns() async throws {
        let url = try await TestDatabase.fresh()
        try await TestDatabase.withClient(url, maxConnections: 1) { client in
            _ = try await Pooled.rows(client, "CREATE TABLE marks (n int)", logger: Self.logger)
            try await Self.whileTheOnlyConnectionIsHeld(client) {
                let clock = ManualClock()
                let waiting = Task {
                    try await Pooled.connection(client, clock: clock) { connection in
                        try await connection.query("INSERT INTO marks VALUES (1)", logger: Self.logger).collect().count
                    }
                }
                await clock.waitForSleepers(1)
                waiting.cancel()
                await #expect(throws: CancellationError.self) { try await waiting.value }
            }
            let marks = try await Pooled.rows(client, "SELECT count(*)::int FROM marks", logger: Self.logger).decode(Int.self)
            #expect(marks == [0], "the cancelled INSERT never ran")
        }
    }

    @Test func aTransactionCommitsOrRollsBackWithTheCallersOwnError() async throws {
        let url = try await TestDatabase.fresh()
        try await TestDatabase.withClient(url, maxConnections: 2) { client in
            _ = try await Pooled.rows(client, "CREATE TABLE marks (n int)", logger: Self.logger)
            struct Refused: Error, Equatable {}
            await #expect(throws: Refused.self) {
                try await Pooled.transaction(client, logger: Self.logger) { connection in
                    _ = try await connection.query("INSERT INTO marks VALUES (1)", logger: Self.logger).collect()
                    throw Refused()
                }
            }
            let committed = try await Pooled.transaction(client, logger: Self.logger) { connection in
                _ = try await connection.query("INSERT INTO marks VALUES (2)", logger: Self.logger).collect()
                return 2
            }
            #expect(committed == 2)
            let marks = try await Pooled.rows(client, "SELECT coalesce(array_agg(n), '{}')::int[] FROM marks", logger: Self.logger)
                .decode([Int].self)
            #expect(marks == [[2]])
        }
    }

    /// Holds the pool's only connection while `body` runs.
    static func whileTheOnlyConnectionIsHeld(_ client: PostgresClient, _ body: @Sendable () async throws -> Void) async throws {
        let (held, heldNow) = AsyncStream<Void>.makeStream()
        let (release, releaseNow) = AsyncStream<Void>.makeStream()
        let holder = Task {
            try await client.withConnection { _ in
                heldNow.yield()
                for await _ in release { return }
            }
        }
        for await _ in held { break }
        do {
            try await body()
        } catch {
            releaseNow.finish()
            _ = await holder.result
            throw error
        }
        releaseNow.finish()
        try await holder.value
    }
}

private final class RunFlag: Sendable {
    private let flag = Mutex(false)
    func set() { flag.withLock { $0 = true } }
    var isSet: Bool { flag.withLock { $0 } }
}
