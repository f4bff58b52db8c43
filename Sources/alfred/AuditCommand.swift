import CommandSupport
import AlfredCore
import ArgumentParser
import Foundation
import Privacy
import Store

struct AuditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Read, verify and prune the hash-chained audit trail.",
        subcommands: [List.self, Verify.self, Prune.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "One page of a user's audit events, oldest first, as JSON (RFC §7.5): pass next_cursor to get the next.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The user's id (a UUID).") var user: String
        @Option(help: "next_cursor from the previous page.") var cursor: String?
        @Option(help: "Events per page (1–1000).") var limit = 50

        func validate() throws {
            guard (1...1000).contains(limit) else { throw ValidationError("--limit must be between 1 and 1000") }
        }

        func run() async throws {
            let logger = database.bootstrapLogging()
            let userID = try parseUser(user)
            do {
                let page = try await withPostgres(try database.database(), logger: logger) { [cursor, limit] client in
                    try await AuditPage.load(userID: userID, cursor: cursor, limit: limit, store: PostgresAuditStore(client: client, logger: logger))
                }
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(page), as: UTF8.self))
            } catch let invalid as AuditPage.Cursor.Invalid {
                throw ValidationError("\(invalid)")
            }
        }
    }

    struct Verify: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Recompute a user's hash chain; exit 1 and name the first broken event if anything was changed or removed.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "The user's id (a UUID).") var user: String

        func run() async throws {
            let logger = database.bootstrapLogging()
            let userID = try parseUser(user)
            let result = try await withPostgres(try database.database(), logger: logger) { client in
                try await AuditChain.verify(userID: userID, store: PostgresAuditStore(client: client, logger: logger))
            }
            print(result)
            if !result.intact { throw ExitCode(1) }
        }
    }

    struct Prune: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove audit events older than the retention now (workers also do this hourly); chains stay verifiable.")
        @OptionGroup var database: DatabaseOptions
        @Option(help: "Keep events younger than this many days.") var olderThanDays: Double

        func validate() throws {
            guard olderThanDays >= 30 else {
                throw ValidationError("--older-than-days must be at least 30: the database keeps the last 30 days of every chain")
            }
        }

        func run() async throws {
            let logger = database.bootstrapLogging()
            let before = Date().addingTimeInterval(-olderThanDays * 86_400)
            let removed = try await withPostgres(try database.database(), logger: logger) { client in
                let store = PostgresAuditStore(client: client, logger: logger)
                var total = 0
                while true {
                    let count = try await store.prune(before: before, limit: 5000)
                    total += count
                    if count < 5000 { return total }
                }
            }
            print("pruned \(removed) audit event(s) older than \(olderThanDays) day(s)")
        }
    }
}
