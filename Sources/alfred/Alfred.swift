import ArgumentParser
@preconcurrency import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

@main
struct Alfred: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alfred",
        abstract: "Alfred's worker service: a durable Postgres job queue and the workers that run it.",
        subcommands: [DevCommand.self, MigrateCommand.self, APICommand.self, WorkerCommand.self, JobsCommand.self, AttestationCommand.self, KeysCommand.self, BrokerCommand.self, SandboxCommand.self, UrgencyCommand.self, PrivacyCommand.self, AuditCommand.self])

    static func main() async {
        // Output for people and scripts is line-buffered even into a pipe, so nothing is lost on Ctrl-C.
        setvbuf(stdout, nil, _IOLBF, 0)
        let command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exit(withError: error)  // a parse error: the message and the relevant usage
        }
        do {
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                var command = command
                try command.run()
            }
        } catch let code as ExitCode {
            exit(withError: code)
        } catch where String(reflecting: type(of: error)) == "ArgumentParser.CommandError" {
            exit(withError: error)  // `alfred <command> --help`: the parser prints the help text
        } catch {
            // A failure while running: the message says what to do; usage text would only hide it.
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            Foundation.exit(1)
        }
    }
}
