import Attestation
import ArgumentParser
import CommandSupport
import Foundation
import KeyService
import Logging
import ServiceLifecycle

/// `alfred-key-service …`: the key service (stands in for KMS) and its keys. Its own executable and
/// OS user; it links no database, broker or worker code.
@main
struct KeyServiceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alfred-key-service",
        abstract: "The key service (stands in for KMS): init, serve, rotate. (`alfred keys rewrap` moves connectors to a new version.)",
        subcommands: [Init.self, Serve.self, Rotate.self, Retire.self, RenewAuthority.self])

    static func main() async { await CommandEntry.main(KeyServiceCommand.self) }

    struct Init: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a key directory (key version 1, key policy, pinned root) and the attestor's directory (the authority that signs evidence).",
            discussion: """
                The key directory (mode 0700) belongs to the key service's OS user. The attestor directory \
                holds the attestation authority's key: chown it to the attestor's OS user, which alone may \
                read it. Whoever can read that key can sign evidence for any measurement; that is the limit \
                of local attestation (a Nitro enclave keeps that key in hardware).
                """)

        @Option(help: "The key directory to create.") var dir: String
        @Option(help: "The attestor's directory to create (the authority's key and certificates).") var attestorDir: String
        @Option(help: "The broker executable whose measurement (SHA-384) the policy allows (default: alfred-broker beside this executable).")
        var brokerExecutable: String?
        @Option(help: "Name of the key-encryption key.") var keyID = "kek-main"
        @Flag(help: "Replace the keys in an existing directory (data wrapped under them can no longer be decrypted).")
        var force = false

        func run() throws {
            let executable = brokerExecutable.map { URL(fileURLWithPath: $0) }
                ?? LocalAttestation.currentExecutable.deletingLastPathComponent().appendingPathComponent("alfred-broker")
            guard FileManager.default.isReadableFile(atPath: executable.path) else {
                throw ValidationError("cannot read the broker executable \(executable.path); pass --broker-executable")
            }
            let created = try KeyDirectory.initialize(at: URL(fileURLWithPath: dir), brokerExecutable: executable,
                                                      keyID: keyID, attestorDirectory: URL(fileURLWithPath: attestorDir), force: force)
            print("created \(created.directory.url.path) and \(attestorDir) (mode 0700)")
            for file in created.files { print("  wrote \(file.path)") }
            print("policy: runtime alfred-local, PCR0 \(created.measurement) (\(executable.path))")
            print("key \(created.keyID): active v1, allowed [1]")
            print("\(attestorDir) is the attestor's: chown it to the attestor's OS user in operation")
        }
    }

    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run the key service on a Unix socket (0600, or 0660 with --socket-group) until SIGTERM/SIGINT.",
            discussion: "Changes to key-policy.json (such as `alfred-key-service rotate`) take effect without a restart.")

        @Option(help: "The key directory (from `alfred-key-service init`).") var dir: String
        @Option(help: "Path of the Unix socket to serve on; put it in a directory only the service's user owns.")
        var socket: String
        @Option(help: "The broker's group id: the socket becomes 0660 and that group's (default: 0600, this user only).")
        var socketGroup: UInt32?
        @Option(help: "Log level: trace, debug, info, notice, warning, error (env: ALFRED_LOG_LEVEL).") var logLevel: String?
        @OptionGroup var metrics: MetricsOption

        func run() async throws {
            let logger = AlfredLogging.bootstrapOnce(level: logLevel ?? ProcessInfo.processInfo.environment["ALFRED_LOG_LEVEL"])
            let endpoint = metrics.endpoint(logger: logger)
            var configuration = KeyServer.Configuration(socketPath: socket, directory: KeyDirectory(URL(fileURLWithPath: dir)))
            configuration.socketGroup = socketGroup
            let server = try KeyServer(configuration: configuration, logger: logger)
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

    struct Retire: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Take an old key version out of service for good: out of the policy, its key file deleted.",
            discussion: """
                Only once no connector uses it: `alfred keys kek-usage` (on a host with the database) must show \
                none on that version, after `alfred keys rewrap`. A data key wrapped under a retired version \
                can never be opened again. The active version is refused.
                """)

        @Option(help: "The key directory.") var dir: String
        @Option(help: "Name of the key-encryption key.") var keyID = "kek-main"
        @Option(help: "The version to retire.") var version: Int

        func run() throws {
            try KeyDirectory(URL(fileURLWithPath: dir)).retire(keyID: keyID, version: version)
            print("\(keyID) v\(version) is retired: no longer allowed, its key file deleted")
        }
    }

    struct RenewAuthority: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "renew-authority",
            abstract: "Replace the attestation authority (before it expires) without touching the key-encryption keys.",
            discussion: """
                Writes a new authority to the attestor's directory and pins its root beside the current one \
                in the key directory (the running key service reloads). Restart the attestor afterwards; \
                evidence it signed before the restart still verifies until the next renewal.
                """)

        @Option(help: "The key directory.") var dir: String
        @Option(help: "The attestor's directory.") var attestorDir: String

        func run() throws {
            let expiry = try KeyDirectory(URL(fileURLWithPath: dir)).renewAuthority(attestorDirectory: URL(fileURLWithPath: attestorDir))
            print("renewed the attestation authority (valid until \(expiry.formatted(.iso8601))); key-encryption keys unchanged")
            print("next: restart the attestor (it loads \(attestorDir) at start); chown the directory to its user if you ran this as root")
        }
    }
}
