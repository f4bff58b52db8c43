import ArgumentParser

/// `alfred keys …`: the key service and its keys.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "The key service (stands in for KMS): init, serve, rotate.",
        subcommands: [])
}
