import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import StandIns

/// `alfred sandbox …`: the local stand-ins for Google (and, later, APNs), as real servers.
struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Run local stand-ins that speak Google's (and later Apple's) real wire formats.",
        subcommands: [Google.self])

    struct Google: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Google's OAuth endpoints on loopback, seeded from a scenario file; /_fake/* controls faults.")

        @Option(help: "Port (0 picks a free one).") var port = 8085
        @Option(help: "Scenario JSON (clients, users, oauth settings); default: one demo client and user.") var scenario: String?
        @Option(help: "Log level.") var logLevel = "info"

        static let demoClientID = "alfred-local.apps.googleusercontent.com"
        static let demoClientSecret = "alfred-local-secret"

        func run() async throws {
            let logger = Logging.bootstrapOnce(level: logLevel)
            var configuration: GoogleStandIn.Configuration
            if let scenario {
                do { configuration = try GoogleStandIn.Configuration(scenarioFile: scenario) } catch {
                    throw ValidationError("scenario \(scenario): \(error)")
                }
            } else {
                configuration = GoogleStandIn.Configuration(
                    clients: [.init(id: Self.demoClientID, secret: Self.demoClientSecret,
                                    redirectURIs: ["http://127.0.0.1:9/oauth/google/callback"])],
                    users: [.init(subject: "100000000000000000001", email: "ada@example.com")])
            }
            configuration.port = port
            let google = GoogleStandIn(configuration: configuration, logger: logger)
            let group = ServiceGroup(configuration: .init(
                services: [.init(service: google), .init(service: Announce(google: google))],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            try await group.run()
        }
    }

    /// Prints the base URL once the stand-in listens, for people and for scripts that start it.
    struct Announce: Service {
        let google: GoogleStandIn
        func run() async throws {
            let endpoints = try await google.endpoints()
            print("google stand-in: \(try await google.baseURL())")
            print("  GOOGLE_AUTH_URL=\(endpoints.authorizationURL)")
            print("  GOOGLE_TOKEN_URL=\(endpoints.tokenURL)")
            print("  GOOGLE_REVOKE_URL=\(endpoints.revokeURL)")
            try? await gracefulShutdown()
        }
    }
}
