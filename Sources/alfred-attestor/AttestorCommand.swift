import Attestation
import Attestor
import ArgumentParser
import CommandSupport
import Foundation
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// `alfred-attestor`: the local attestor, run as its own OS user. It alone can read the attestation
/// authority's key; it gives the broker evidence about the broker's own executable, measured by the
/// attestor from the kernel's view. It needs to read `/proc/<pid>/exe` of the broker, which another
/// user may only do with CAP_SYS_PTRACE (see ops/systemd/alfred-attestor.service).
@main
struct AttestorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "alfred-attestor",
        abstract: "Sign attestation evidence for allowed local processes, measured from the kernel's view (stands in for the Nitro security module).")

    @Option(help: "The attestor's directory: attestation-root.pem, attestation-authority.pem, attestation-authority.key (from `alfred-key-service init --attestor-dir`).")
    var dir: String
    @Option(help: "Path of the Unix socket to serve on.") var socket: String
    @Option(name: .customLong("allow-uid"), help: "OS user id whose processes may get evidence: the broker's (repeat; required).")
    var allowedUIDs: [UInt32] = []
    @Option(help: "The broker's group id: the socket becomes 0660 and that group's (default: 0666, the uid check alone decides).")
    var socketGroup: UInt32?
    @Option(help: "Milliseconds a caller has to send its request after connecting.") var readTimeoutMs = 5000
    @Option(help: "Connections served at once; more are closed at accept (keep it well under the open-file limit).")
    var maxConnections = 64
    @Option(help: "Log level: trace, debug, info, notice, warning, error (env: ALFRED_LOG_LEVEL).") var logLevel: String?

    static func main() async { await CommandEntry.main(AttestorCommand.self) }

    func validate() throws {
        guard !allowedUIDs.isEmpty else {
            throw ValidationError("pass --allow-uid with the broker's OS user id (`id -u alfred-broker`)")
        }
    }

    func run() async throws {
        let logger = AlfredLogging.bootstrapOnce(level: logLevel ?? ProcessInfo.processInfo.environment["ALFRED_LOG_LEVEL"])
        let directory = AttestorDirectory(URL(fileURLWithPath: dir))
        var info = stat()
        guard stat(directory.authorityKey.path, &info) == 0 else {
            throw ValidationError("cannot read \(directory.authorityKey.path); create it with `alfred-key-service init --attestor-dir \(dir)`")
        }
        guard info.st_mode & 0o077 == 0 else {
            throw ValidationError("\(directory.authorityKey.path) is readable by others (mode \(String(info.st_mode & 0o777, radix: 8))); chmod 600 it: whoever reads it can sign evidence for any executable")
        }
        let authority: LocalAttestation.Authority
        do { authority = try directory.loadAuthority() } catch {
            throw ValidationError("cannot load the attestation authority from \(dir): \(error)")
        }
        var configuration = AttestorServer.Configuration(socketPath: socket, allowedUIDs: Set(allowedUIDs))
        configuration.socketGroup = socketGroup
        configuration.readTimeout = .milliseconds(readTimeoutMs)
        configuration.maxConnections = maxConnections
        let server = AttestorServer(configuration: configuration, authority: authority, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [.init(service: server)],
                                                      gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        try await group.run()
    }
}
