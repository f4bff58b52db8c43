import AlfredCore
import Crypto
import Foundation
import Logging
import PostgresNIO

/// Applies `migrations/NNNN_name.sql` in order, each in its own transaction, recording each in
/// `schema_migrations` with its SHA-256. Refuses to run when an applied file changed or vanished.
/// A session advisory lock makes concurrent runs safe: the second waits, then finds nothing to do.
public struct Migrator: Sendable {
    public struct Migration: Sendable, Equatable {
        public let version: Int
        public let name: String
        public let sql: String
        public var checksum: String { Hex.encode(SHA256.hash(data: Data(sql.utf8))) }
    }

    public struct Outcome: Sendable, Equatable {
        public let applied: [String]
        public let alreadyApplied: Int
    }

    /// Arbitrary constant: the advisory lock key for "a migration is running".
    static let lockKey: Int64 = 0x616c_6672_6564  // "alfred"

    public let migrations: [Migration]
    let logger: Logger

    public init(directory: URL, logger: Logger) throws {
        self.logger = logger
        let files: [String]
        do {
            files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw StoreError.migration(
                "cannot read migrations directory \(directory.path): pass --migrations or set ALFRED_MIGRATIONS")
        }
        var migrations: [Migration] = []
        for file in files.sorted() where file.hasSuffix(".sql") {
            let stem = file.dropLast(4)
            guard let underscore = stem.firstIndex(of: "_"), let version = Int(stem[..<underscore]) else {
                throw StoreError.migration("migration file \(file) must be named NNNN_name.sql")
            }
            let sql = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            migrations.append(Migration(version: version, name: String(stem), sql: sql))
        }
        if let duplicate = Dictionary(grouping: migrations, by: \.version).first(where: { $0.value.count > 1 }) {
            throw StoreError.migration("two migrations share version \(duplicate.key)")
        }
        self.migrations = migrations
    }

    public func migrate(client: PostgresClient) async throws -> Outcome {
        try await client.withConnection { connection in
            _ = try await connection.query("SELECT pg_advisory_lock(\(Self.lockKey))", logger: logger).collect()
            do {
                let outcome = try await migrateLocked(connection)
                _ = try await connection.query("SELECT pg_advisory_unlock(\(Self.lockKey))", logger: logger).collect()
                return outcome
            } catch {
                _ = try? await connection.query("SELECT pg_advisory_unlock(\(Self.lockKey))", logger: logger).collect()
                throw error
            }
        }
    }

    private func migrateLocked(_ connection: PostgresConnection) async throws -> Outcome {
        _ = try await connection.query("""
            CREATE TABLE IF NOT EXISTS schema_migrations (
                version int PRIMARY KEY, name text NOT NULL, checksum text NOT NULL,
                applied_at timestamptz NOT NULL DEFAULT now())
            """, logger: logger).collect()
        var applied: [Int: (name: String, checksum: String)] = [:]
        for try await (version, name, checksum) in try await connection.query(
            "SELECT version, name, checksum FROM schema_migrations", logger: logger
        ).decode((Int32, String, String).self) {
            applied[Int(version)] = (name, checksum)
        }
        let byVersion = Dictionary(uniqueKeysWithValues: migrations.map { ($0.version, $0) })
        for (version, record) in applied.sorted(by: { $0.key < $1.key }) {
            guard let file = byVersion[version] else {
                throw StoreError.migration(
                    "migration \(record.name) is applied in the database but missing from the migrations directory; "
                        + "is this an older build?")
            }
            guard file.checksum == record.checksum else {
                throw StoreError.migration(
                    "migration \(file.name) was edited after it was applied (checksum differs); "
                        + "never edit an applied migration: add a new one instead")
            }
        }
        var done: [String] = []
        for migration in migrations where applied[migration.version] == nil {
            logger.info("applying migration", metadata: ["alfred.migration": "\(migration.name)"])
            _ = try await connection.query("BEGIN", logger: logger).collect()
            do {
                for statement in SQLScript.statements(migration.sql) {
                    _ = try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger).collect()
                }
                _ = try await connection.query("""
                    INSERT INTO schema_migrations (version, name, checksum)
                    VALUES (\(Int32(migration.version)), \(migration.name), \(migration.checksum))
                    """, logger: logger).collect()
                _ = try await connection.query("COMMIT", logger: logger).collect()
            } catch {
                _ = try? await connection.query("ROLLBACK", logger: logger).collect()
                throw StoreError.migration("migration \(migration.name) failed and was rolled back: \(String(reflecting: error))")
            }
            done.append(migration.name)
        }
        return Outcome(applied: done, alreadyApplied: applied.count)
    }
}
