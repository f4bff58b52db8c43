import CommandSupport
import ArgumentParser
import Store

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply pending migrations in order (safe to run twice, or from two hosts at once).")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var migrations: MigrationsOption

    func run() async throws {
        let logger = database.bootstrapLogging()
        let url = try database.database()
        let migrator = try Migrator(directory: migrations.directory, logger: logger)
        let outcome = try await withPostgres(url, logger: logger) { client in
            try await migrator.migrate(client: client)
        }
        if outcome.applied.isEmpty {
            print("database is up to date (\(outcome.alreadyApplied) migrations applied)")
        } else {
            for name in outcome.applied { print("applied \(name)") }
        }
    }
}
