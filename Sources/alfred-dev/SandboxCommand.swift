import ArgumentParser
import CommandSupport
import Foundation
import Logging
import ServiceLifecycle
import StandIns

/// `alfred-dev sandbox …`: the local stand-ins for Google, APNs and Sign in with Apple, as real servers.
struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Run local stand-ins that speak Google's and Apple's real wire formats.",
        subcommands: [Google.self, ApplePush.self, AppleID.self])

    struct Google: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Google's OAuth, Calendar v3 and Gmail v1 on loopback, seeded from a scenario file; /_fake/* controls faults.")

        @Option(help: "Port (0 picks a free one).") var port = 8085
        @Option(help: "Scenario JSON (clients, users with events and messages, oauth/calendar/gmail settings); default: one demo client and user.")
        var scenario: String?
        @Option(help: "Log level.") var logLevel = "info"

        static let demoClientID = "alfred-local.apps.googleusercontent.com"
        static let demoClientSecret = "alfred-local-secret"

        /// Something to remind about right after start: a meeting soon, a daily stand-up, an all-day event.
        static let demoEvents: [GoogleStandIn.SeedEvent] = [
            .init(id: "evt-board", summary: "Board sync", location: "Room 4.12", startInMinutes: 20, durationMinutes: 30,
                  selfResponse: "accepted", attendees: [.init(email: "grace@example.com", responseStatus: "accepted")],
                  hangoutLink: "https://meet.google.com/abc-defg-hij"),
            .init(id: "evt-standup", summary: "Stand-up", startInMinutes: 90, durationMinutes: 15,
                  selfResponse: "needsAction", recurrence: "daily", recurrenceCount: 5),
            .init(id: "evt-offsite", summary: "Offsite", allDay: true),
        ]

        /// An urgent-looking mail now, a newsletter, and one that arrives a minute after start.
        static let demoMessages: [GoogleStandIn.SeedMessage] = [
            .init(id: "m-001", from: "Grace Hopper <grace@navy.example>", subject: "Production is down",
                  labelIds: ["INBOX", "UNREAD", "IMPORTANT"], snippet: "Can you look now?", arrivedMinutesAgo: 5),
            .init(id: "m-002", from: "News <news@shop.example>", subject: "Weekly deals",
                  labelIds: ["INBOX", "UNREAD", "CATEGORY_PROMOTIONS"], headers: ["List-Unsubscribe": "<mailto:u@shop.example>", "Precedence": "bulk"],
                  snippet: "This week only", arrivedMinutesAgo: 60),
            .init(id: "m-003", from: "Charles Babbage <charles@example.com>", subject: "Re: engine",
                  labelIds: ["INBOX", "UNREAD"], snippet: "Following up", arrivesInSeconds: 60),
        ]

        func run() async throws {
            let logger = AlfredLogging.bootstrapOnce(level: logLevel)
            var configuration: GoogleStandIn.Configuration
            if let scenario {
                do { configuration = try GoogleStandIn.Configuration(scenarioFile: scenario) } catch {
                    throw ValidationError("scenario \(scenario): \(error)")
                }
            } else {
                configuration = GoogleStandIn.Configuration(
                    clients: [.init(id: Self.demoClientID, secret: Self.demoClientSecret,
                                    redirectURIs: ["http://127.0.0.1:9/oauth/google/callback"])],
                    users: [.init(subject: "100000000000000000001", email: "ada@example.com", timeZone: "Europe/Zurich",
                                  events: Self.demoEvents, messages: Self.demoMessages)])
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
            print("  GOOGLE_CALENDAR_BASE_URL=\(try await google.calendarBaseURL())")
            print("  GMAIL_BASE_URL=\(try await google.gmailBaseURL())")
            try? await gracefulShutdown()
        }
    }

    /// `alfred-dev sandbox apns`: Apple's APNs provider API over HTTP/2 + TLS with a throwaway CA.
    struct ApplePush: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "apns",
            abstract: "Apple's APNs provider API (HTTP/2, TLS, token auth) on loopback; /_fake/* registers devices and injects faults.")

        @Option(help: "Address to bind.") var host = "127.0.0.1"
        @Option(help: "Port (0 picks a free one).") var port = 0
        @Option(name: .customLong("team-id"), help: "The 10-character team id provider tokens must name in `iss`.")
        var teamID: String
        @Option(name: .customLong("key"), help: "KID=PATH: a P-256 public key PEM or a .p8 private key (repeatable).")
        var keys: [String] = []
        @Option(help: "The app's bundle id (`apns-topic`).") var topic = "com.example.alfred"
        @Option(help: "sandbox or production: which Apple host this plays.") var environment = "sandbox"
        @Option(name: .customLong("ca-out"), help: "Write the CA certificate PEM here, for clients to trust.")
        var caOut: String?
        @Option(name: .customLong("device"), help: "A device token to pre-register (repeatable).")
        var devices: [String] = []
        @Option(name: .customLong("latency-ms"), help: "Delay before every /3/device answer.") var latencyMs = 0
        @Option(help: "Log level.") var logLevel = "info"

        func validate() throws {
            if keys.isEmpty { throw ValidationError("give at least one --key KID=PATH; without keys every token is refused") }
            if APNsStandIn.Environment(rawValue: environment) == nil {
                throw ValidationError("--environment must be sandbox or production, not '\(environment)'")
            }
            if latencyMs < 0 { throw ValidationError("--latency-ms must not be negative") }
        }

        func run() async throws {
            let logger = AlfredLogging.bootstrapOnce(level: logLevel)
            let hosts = Array(Set(["localhost", "127.0.0.1", host])).sorted()
            let ca = try TestCertificateAuthority.generate(hosts: hosts)
            var configuration = APNsStandIn.Configuration(teamID: teamID, providerKeys: [:], tls: ca)
            for key in keys {
                let parts = key.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, !parts[0].isEmpty else { throw ValidationError("--key wants KID=PATH, got '\(key)'") }
                let pem: String
                do { pem = try String(contentsOfFile: parts[1], encoding: .utf8) } catch {
                    throw ValidationError("--key \(parts[0]): cannot read \(parts[1]): \(error.localizedDescription)")
                }
                try configuration.addProviderKey(id: parts[0], pem: pem)
            }
            configuration.host = host
            configuration.port = port
            configuration.topic = topic
            configuration.environment = APNsStandIn.Environment(rawValue: environment) ?? .sandbox
            configuration.latency = .milliseconds(latencyMs)
            if let caOut {
                do { try ca.caCertificatePEM.write(toFile: caOut, atomically: true, encoding: .utf8) } catch {
                    throw ValidationError("--ca-out \(caOut): cannot write: \(error.localizedDescription)")
                }
            }
            let apns = APNsStandIn(configuration: configuration, logger: logger)
            for device in devices { apns.register(deviceToken: device) }
            let group = ServiceGroup(configuration: .init(
                services: [.init(service: apns), .init(service: AnnounceAPNs(apns: apns))],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            try await group.run()
        }
    }

    /// `alfred-dev sandbox apple`: Sign in with Apple's key set, and identity tokens minted on request.
    struct AppleID: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "apple",
            abstract: "Sign in with Apple's JWKS (/auth/keys) on loopback; POST /_fake/identity-token mints identity tokens, POST /_fake/rotate-keys rotates.")

        @Option(help: "Address to bind.") var host = "127.0.0.1"
        @Option(help: "Port (0 picks a free one).") var port = 8086
        @Option(help: "The app's bundle id: the default `aud` of minted tokens.") var audience = "com.example.alfred"
        @Option(help: "Log level.") var logLevel = "info"

        func run() async throws {
            let logger = AlfredLogging.bootstrapOnce(level: logLevel)
            let apple = AppleStandIn(configuration: .init(host: host, port: port, audience: audience), logger: logger)
            let group = ServiceGroup(configuration: .init(
                services: [.init(service: apple), .init(service: AnnounceApple(apple: apple))],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            try await group.run()
        }
    }

    /// Prints the base URL (first line, as `sandbox google` does) and the settings that point at it.
    struct AnnounceApple: Service {
        let apple: AppleStandIn
        func run() async throws {
            let base = try await apple.baseURL()
            print("apple stand-in: \(base)")
            print("  APPLE_KEYS_URL=\(try await apple.keysURL())")
            print("  mint a token: curl -s -X POST \(base)/_fake/identity-token -d '{\"nonce\": \"raw-nonce\"}'")
            try? await gracefulShutdown()
        }
    }

    /// Prints the one line scripts wait for once the APNs stand-in listens.
    struct AnnounceAPNs: Service {
        let apns: APNsStandIn
        func run() async throws {
            print("apns stand-in listening on \(try await apns.baseURL())")
            try? await gracefulShutdown()
        }
    }
}
