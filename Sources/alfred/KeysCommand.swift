import ArgumentParser
import Foundation
import KeyService
import Logging
import ServiceLifecycle
import TokenBroker
import Store

/// `alfred keys …`: the key service and its keys.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "The key service (stands in for KMS): init, serve, rotate, rewrap.",
        subcommands: [Init.self, Serve.self, Rotate.self, Rewrap.self])

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
        @Option(help: "The version `alfred keys rotate` made active.") var toVersion: Int

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

    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a key directory: local attestation root and authority, key version 1, key policy.",
            discussion: """
                The directory (mode 0700) belongs to the key service's OS user. attestation-authority.key \
                is the broker's: in operation, move or chown it to the broker's OS user so only the broker \
                can sign evidence. Whoever can read it can sign evidence for any measurement; that is the \
                limit of local attestation (a Nitro enclave keeps that key in hardware).
                """)

        @Option(help: "The key directory to create.") var dir: String
        @Option(help: "The broker executable whose measurement (SHA-384) the policy allows (default: this alfred binary).")
        var brokerExecutable: String?
        @Option(help: "Name of the key-encryption key.") var keyID = "kek-main"
        @Flag(help: "Replace the keys in an existing directory (data wrapped under them can no longer be decrypted).")
        var force = false

        func run() throws {
            let executable = brokerExecutable.map { URL(fileURLWithPath: $0) } ?? LocalAttestation.currentExecutable
            let created = try KeyDirectory.initialize(at: URL(fileURLWithPath: dir), brokerExecutable: executable,
                                                      keyID: keyID, force: force)
            print("created \(created.directory.url.path) (mode 0700)")
            for file in created.files { print("  wrote \(file.path)") }
            print("policy: runtime alfred-local, PCR0 \(created.measurement) (\(executable.path))")
            print("key \(created.keyID): active v1, allowed [1]")
            print("attestation-authority.key is for the broker: chown it to the broker's OS user in operation")
        }
    }

    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the key service on a Unix socket (mode 0600) until SIGTERM/SIGINT.",
            discussion: "Changes to key-policy.json (such as `alfred keys rotate`) take effect without a restart.")

        @Option(help: "The key directory (from `alfred keys init`).") var dir: String
        @Option(help: "Path of the Unix socket to serve on; put it in a directory only the service's user can enter.")
        var socket: String
        @Option(help: "Log level: trace, debug, info, notice, warning, error (env: ALFRED_LOG_LEVEL).") var logLevel: String?
        @OptionGroup var metrics: MetricsOption

        func run() async throws {
            let logger = Logging.bootstrapOnce(level: logLevel ?? ProcessInfo.processInfo.environment["ALFRED_LOG_LEVEL"])
            let endpoint = metrics.endpoint(logger: logger)
            let server = try KeyServer(configuration: .init(socketPath: socket, directory: KeyDirectory(URL(fileURLWithPath: dir))),
                                       logger: logger)
            let group = ServiceGroup(configuration: .init(
                services: [.init(service: server)] + (endpoint.map { [.init(service: $0)] } ?? []),
                gracefulShutdownSignals: [.sigterm, .sigint],
                logger: logger))
            try await group.run()
            logger.info("key service stopped")
        }
    }

    struct Rotate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write the next version of a key and make it active; older versions stay allowed.",
            discussion: "Connectors are moved to the new version by rewrap jobs, not by this command.")

        @Option(help: "The key directory.") var dir: String
        @Option(help: "Name of the key-encryption key.") var keyID = "kek-main"

        func run() throws {
            let version = try KeyDirectory(URL(fileURLWithPath: dir)).rotate(keyID: keyID)
            print("\(keyID): version \(version) is active")
        }
    }
}
