import ArgumentParser
import CommandSupport

/// `alfred`: the worker, the app's API, and the operator's commands. The broker, the key service and
/// the attestor are executables of their own (`alfred-broker`, `alfred-key-service`,
/// `alfred-attestor`), and the development stack is `alfred-dev`.
@main
struct Alfred: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alfred",
        abstract: "Alfred's worker service: a durable Postgres job queue and the workers that run it.",
        subcommands: [MigrateCommand.self, APICommand.self, WorkerCommand.self, JobsCommand.self, AttestationCommand.self,
                      KeysCommand.self, UrgencyCommand.self, PrivacyCommand.self, AuditCommand.self, SignupsCommand.self])

    static func main() async { await CommandEntry.main(Alfred.self) }
}
