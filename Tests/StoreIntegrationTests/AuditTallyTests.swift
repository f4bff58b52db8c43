import AlfredCore
import AlfredTestCluster
import Foundation
import Logging
import PostgresNIO
import Privacy
import Testing
@testable import Store

/// Migration 0026: routine successes (Google fetches, token refreshes) add up in a tally per user and
/// identical event, and each tally folds into exactly one chained event with the count.
@Suite(.timeLimit(.minutes(5))) struct AuditTallyTests {
    static let logger = TestDatabase.quietLogger

    func connect(_ url: DatabaseURL, as role: String) -> DatabaseURL {
        var url = url
        url.username = role
        return url
    }

    static func fetch(_ user: UUID, _ source: String, _ operation: String) -> AuditEvent {
        AuditEvent(userID: user, type: "CONNECTOR_FETCH", connector: "google", result: "SUCCESS", metadata: ["source": source, "operation": operation])
    }

    @Test func fetchesAddUpAndEachTallyFoldsIntoOneChainedEvent() async throws {
        let url = try await TestDatabase.fresh()
        let user = UUID(), gone = UUID()
        try await TestDatabase.withClient(url) { owner in
            _ = try await owner.query("INSERT INTO users (id) VALUES (\(user))", logger: Self.logger).collect()
        }
        let syncs = [0, 0, 2, 0, 1], histories = [1, 0]
        try await TestDatabase.withClient(connect(url, as: "alfred_worker")) { client in
            let store = PostgresAuditStore(client: client, logger: Self.logger)
            // At once, as a worker's jobs fetch: they share statements, and a fetch about a user who
            // no longer exists is dropped without failing the others.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for items in syncs {
                    group.addTask { try await store.tally(Self.fetch(user, "calendar", "sync"), items: items) }
                }
                for items in histories {
                    group.addTask { try await store.tally(Self.fetch(user, "gmail", "history"), items: items) }
                }
                group.addTask { try await store.tally(Self.fetch(gone, "calendar", "sync"), items: 4) }
                try await group.waitForAll()
            }
            // Young tallies stay tallies.
            #expect(try await store.fold(before: Date().addingTimeInterval(-3600), limit: 100) == 0)
            #expect(try await store.fold(before: Date().addingTimeInterval(3600), limit: 100) == 2)
            #expect(try await store.fold(before: Date().addingTimeInterval(3600), limit: 100) == 0, "a fetch is counted in one event only")
        }
        try await TestDatabase.withClient(url) { owner in
            let store = PostgresAuditStore(client: owner, logger: Self.logger)
            let entries = try await store.entries(userID: user, afterSeq: 0, limit: 10)
            let metadata = try entries.map { entry -> [String: String] in
                #expect(entry.eventType == "CONNECTOR_FETCH" && entry.connector == "google" && entry.result == "SUCCESS")
                return try #require(try JSONSerialization.jsonObject(with: Data(entry.metadataJSON.utf8)) as? [String: String])
            }
            #expect(metadata.map { [$0["source"], $0["operation"], $0["count"], $0["items"]] }
                    == [["calendar", "sync", "5", "3"], ["gmail", "history", "2", "1"]], "\(metadata)")
            for fields in metadata {
                #expect(Set(fields.keys) == ["source", "operation", "count", "items", "first", "last"], "nothing else: \(fields)")
                #expect(try #require(fields["first"]) <= (try #require(fields["last"])))
            }
            let verified = try await AuditChain.verify(userID: user, store: store)
            #expect(verified.intact && verified.events == 2, "\(verified)")
            let left = try await owner.query("SELECT count(*)::int8 FROM audit_tallies", logger: Self.logger).collect()
            #expect(try left.first?.decode(Int.self) == 0, "folded tallies are gone, and none was kept for the missing user")
        }
    }

    /// A delete-all locks the user first, then deletes their rows (the tallies by cascade). A fold
    /// that took the tallies and then waited for the user would deadlock with it; it passes them by.
    @Test(.timeLimit(.minutes(2))) func aFoldPassesByAUserADeleteAllHolds() async throws {
        let url = try await TestDatabase.fresh()
        let user = UUID()
        try await TestDatabase.withClient(url) { owner in
            _ = try await owner.query("INSERT INTO users (id) VALUES (\(user))", logger: Self.logger).collect()
            try await TestDatabase.withClient(connect(url, as: "alfred_worker")) { worker in
                let store = PostgresAuditStore(client: worker, logger: Self.logger)
                try await store.tally(Self.fetch(user, "calendar", "sync"), items: 1)
                try await owner.withTransaction(logger: Self.logger) { deletion in
                    _ = try await deletion.query("SELECT 1 FROM users WHERE id = \(user) FOR UPDATE", logger: Self.logger).collect()
                    let folded = try await store.fold(before: .distantFuture, limit: 10)
                    #expect(folded == 0, "the held user's tally is left to the deletion")
                    _ = try await deletion.query("DELETE FROM users WHERE id = \(user)", logger: Self.logger).collect()
                }
            }
            let left = try await owner.query("""
                SELECT (SELECT count(*) FROM audit_tallies) + (SELECT count(*) FROM audit_events WHERE user_id = \(user))
                """, logger: Self.logger).collect()
            #expect(try left.first?.decode(Int.self) == 0, "the tally went with the user, and nothing was written about them")
        }
    }

    static func tally(_ event: AuditEvent, on client: PostgresClient) async throws {
        for try await _ in try await client.execute(try AuditSQL.Tally([(event, nil)]), logger: logger) {}
    }

    /// Each role tallies only the event types it may append; only the worker folds.
    @Test func rolesTallyOnlyTheirOwnEventTypesAndOnlyTheWorkerFolds() async throws {
        let url = try await TestDatabase.fresh()
        let user = UUID()
        try await TestDatabase.withClient(url) { owner in
            _ = try await owner.query("INSERT INTO users (id) VALUES (\(user))", logger: Self.logger).collect()
        }
        let refresh = AuditEvent(userID: user, type: "TOKEN_REFRESH", result: "SUCCESS")
        try await TestDatabase.withClient(connect(url, as: "alfred_broker")) { broker in
            try await Self.tally(refresh, on: broker)
            let forged = await #expect(throws: PSQLError.self, "the broker tallied a fetch") { try await Self.tally(Self.fetch(user, "calendar", "sync"), on: broker) }
            #expect(forged?.serverInfo?[.sqlState] == "42501")
            let fold = await #expect(throws: PSQLError.self, "the broker folded") {
                _ = try await broker.query(AuditSQL.fold(before: .distantFuture, limit: 10), logger: Self.logger).collect()
            }
            #expect(fold?.serverInfo?[.sqlState] == "42501")
        }
        try await TestDatabase.withClient(connect(url, as: "alfred_api")) { api in
            for event in [refresh, Self.fetch(user, "calendar", "sync")] {
                let refused = await #expect(throws: PSQLError.self, "the API tallied \(event.type)") { try await Self.tally(event, on: api) }
                #expect(refused?.serverInfo?[.sqlState] == "42501")
            }
        }
        try await TestDatabase.withClient(connect(url, as: "alfred_worker")) { worker in
            let store = PostgresAuditStore(client: worker, logger: Self.logger)
            let forged = await #expect(throws: PSQLError.self, "the worker tallied a refresh") { try await Self.tally(refresh, on: worker) }
            #expect(forged?.serverInfo?[.sqlState] == "42501")
            let folded = try await store.fold(before: .distantFuture, limit: 10)
            #expect(folded == 1, "the broker's tally, folded by the worker")
        }
        try await TestDatabase.withClient(url) { owner in
            let entries = try await PostgresAuditStore(client: owner, logger: Self.logger).entries(userID: user, afterSeq: 0, limit: 10)
            #expect(entries.map(\.eventType) == ["TOKEN_REFRESH"] && entries.first?.connector == "google", "\(entries)")
            #expect(entries.first.map { !$0.metadataJSON.contains("items") && $0.metadataJSON.contains(#""count": "1""#) } == true,
                    "\(entries.first?.metadataJSON ?? "")")
        }
    }
}
