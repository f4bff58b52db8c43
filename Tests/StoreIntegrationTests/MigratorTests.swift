import AlfredTestCluster
import Foundation
import Logging
import PostgresNIO
import Testing
@testable import Store

@Suite(.timeLimit(.minutes(5))) struct MigratorTests {
    let logger = TestDatabase.quietLogger

    func freshDatabase() async throws -> DatabaseURL {
        try await TestDatabase.cluster().createDatabase("m_" + UUID().uuidString.prefix(8).lowercased(), logger: logger)
    }

    func copyOfMigrations() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("migrations-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: TestDatabase.migrationsDirectory, to: directory)
        return directory
    }

    @Test func appliesOnceAndIsANoOpTheSecondTime() async throws {
        let url = try await freshDatabase()
        try await TestDatabase.withClient(url) { client in
            let migrator = try Migrator(directory: TestDatabase.migrationsDirectory, logger: logger)
            let first = try await migrator.migrate(client: client)
            #expect(first.applied == migrator.migrations.map(\.name))
            let second = try await migrator.migrate(client: client)
            #expect(second.applied.isEmpty)
            #expect(second.alreadyApplied == migrator.migrations.count)
        }
    }

    @Test func concurrentRunsApplyEachMigrationOnce() async throws {
        let url = try await freshDatabase()
        try await TestDatabase.withClient(url) { client in
            let migrator = try Migrator(directory: TestDatabase.migrationsDirectory, logger: logger)
            let outcomes = try await withThrowingTaskGroup(of: Migrator.Outcome.self) { group in
                for _ in 0..<4 { group.addTask { try await migrator.migrate(client: client) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.flatMap(\.applied).sorted() == migrator.migrations.map(\.name).sorted())
        }
    }

    @Test func refusesAnEditedAppliedMigration() async throws {
        let url = try await freshDatabase()
        let directory = try copyOfMigrations()
        defer { try? FileManager.default.removeItem(at: directory) }
        try await TestDatabase.withClient(url) { client in
            _ = try await Migrator(directory: directory, logger: logger).migrate(client: client)
            let file = directory.appendingPathComponent("0001_initial.sql")
            try (try String(contentsOf: file, encoding: .utf8) + "\n-- edited\n").write(to: file, atomically: true, encoding: .utf8)
            let error = await #expect(throws: StoreError.self) {
                try await Migrator(directory: directory, logger: logger).migrate(client: client)
            }
            #expect(error?.description.contains("edited after it was applied") == true)
        }
    }

    @Test func aFailingMigrationRollsBackEntirely() async throws {
        let url = try await freshDatabase()
        let directory = try copyOfMigrations()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "CREATE TABLE half_done (id int);\nSELECT no_such_function();\n"
            .write(to: directory.appendingPathComponent("9999_broken.sql"), atomically: true, encoding: .utf8)
        try await TestDatabase.withClient(url) { client in
            await #expect(throws: StoreError.self) {
                try await Migrator(directory: directory, logger: logger).migrate(client: client)
            }
            let rows = try await client.query("SELECT to_regclass('half_done')::text", logger: logger)
            for try await name in rows.decode(String?.self) { #expect(name == nil) }
        }
    }

    @Test(arguments: [
        ("SELECT 1; SELECT 2;", 2),
        ("CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql;", 1),
        ("SELECT 'a;b'; -- trailing; comment\nSELECT \"x;y\" FROM t;", 2),
        ("/* a; b */ SELECT $tag$ ; $tag$;", 1),
        ("-- only a comment;\n", 0),
    ])
    func splitsScriptsAtTopLevelSemicolons(script: String, count: Int) {
        #expect(SQLScript.statements(script).count == count)
    }
}
