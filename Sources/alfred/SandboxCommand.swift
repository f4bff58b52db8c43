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
}
