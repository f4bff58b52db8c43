import ArgumentParser
import CommandSupport

/// `alfred-dev`: the development stack, kept out of the production executables. With no subcommand
/// it runs everything (`alfred-dev run`); `alfred-dev sandbox …` runs one stand-in on its own.
@main
struct AlfredDev: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alfred-dev",
        abstract: "Alfred on this machine: a private Postgres, the Google, APNs and Apple stand-ins, and every process.",
        subcommands: [DevCommand.self, SandboxCommand.self],
        defaultSubcommand: DevCommand.self)

    static func main() async { await CommandEntry.main(AlfredDev.self) }
}
