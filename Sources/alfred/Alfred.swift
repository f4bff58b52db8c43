import ArgumentParser
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

@main
struct Alfred: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alfred",
        abstract: "Alfred's worker service: a durable Postgres job queue and the workers that run it.",
        subcommands: [DevCommand.self, MigrateCommand.self, WorkerCommand.self, JobsCommand.self, AttestationCommand.self, KeysCommand.self, BrokerCommand.self])

    static func main() async {
        // Output for people and scripts is line-buffered even into a pipe, so nothing is lost on Ctrl-C.
        setvbuf(stdout, nil, _IOLBF, 0)
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
