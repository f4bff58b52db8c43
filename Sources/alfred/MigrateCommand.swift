import CommandSupport
import ArgumentParser
import Foundation
import Store

struct MigrateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply pending migrations in order (safe to run twice, or from two hosts at once).")

    @OptionGroup var database: DatabaseOptions
    @OptionGroup var migrations: MigrationsOption
    @Option(help: "Then set the service roles' passwords from this directory's files alfred_worker_password, alfred_broker_password and alfred_api_password (docker-compose secrets, systemd credentials); only their SCRAM verifiers reach the server.")
    var rolePasswords: String?

    func run() async throws {
        let logger = database.bootstrapLogging()
        let url = try database.database()
        let migrator = try Migrator(directory: migrations.directory, logger: logger)
        let passwords = rolePasswords.map { URL(fileURLWithPath: $0) }
        let (outcome, roles) = try await withPostgres(url, logger: logger) { client in
            let outcome = try await migrator.migrate(client: client)
            guard let passwords else { return (outcome, [String]()) }
            return (outcome, try await RolePasswords.set(from: passwords, client: client, logger: logger))
        }
        if outcome.applied.isEmpty {
            print("database is up to date (\(outcome.alreadyApplied) migrations applied)")
        } else {
            for name in outcome.applied { print("applied \(name)") }
        }
        if !roles.isEmpty { print("set the passwords of \(roles.joined(separator: ", "))") }
    }
}
