import ArgumentParser
import BrokerClient
import CommandSupport
import Foundation
import Store

/// `alfred keys rewrap`: after `alfred-key-service rotate`, the jobs that move every connector to the
/// new key version. (The key service itself is `alfred-key-service`.)
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Key rotation's database side: rewrap.",
        subcommands: [Rewrap.self])

    struct Rewrap: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "After a rotation: enqueue the jobs that move every connector to the new key version.",
            discussion: """
                Workers started with --broker-socket run them: a sweep lists connectors still on an older \
                version (ids only) and each connector.rewrap job asks the broker to rewrap it. Tokens are \
                never re-encrypted and users never reconnect. Safe to run twice.
                """)

        @OptionGroup var database: DatabaseOptions
        @Option(help: "Name of the key-encryption key.") var keyID = "kek-main"
        @Option(help: "The version `alfred-key-service rotate` made active.") var toVersion: Int

        func run() async throws {
            let logger = database.bootstrapLogging()
            let job = try RewrapJobs.sweepJob(keyID: keyID, toVersion: toVersion)
            let result = try await withPostgres(try database.database(), logger: logger) { client in
                try await PostgresJobStore(client: client, logger: logger).enqueue([job], onConflict: .keep)
            }
            switch result.first {
            case .inserted(let id)?: print("rewrap to \(keyID) v\(toVersion) enqueued (sweep job \(id))")
            default: print("a rewrap to \(keyID) v\(toVersion) is already queued or running")
            }
        }
    }

}
