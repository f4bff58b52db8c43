import AlfredTestCluster
import AsyncHTTPClient
import Foundation
import Logging
import StandIns

/// The Google stand-in on a real loopback socket, for a client that is not ours (Google's own Python
/// client); the stand-in's routes themselves are tested in-process (StandInsTests).
struct GoogleServer: Sendable {
    static let email = "ada@example.com"
    static let calendarReadonly = "https://www.googleapis.com/auth/calendar.readonly"
    static let gmailMetadata = "https://www.googleapis.com/auth/gmail.metadata"

    let standIn: GoogleStandIn
    let baseURL: String

    /// Ada in Europe/Zurich with these events and messages.
    static func dataConfiguration(events: [GoogleStandIn.SeedEvent] = [], messages: [GoogleStandIn.SeedMessage] = []) -> GoogleStandIn.Configuration {
        var configuration = GoogleStandIn.Configuration(
            clients: [.init(id: "alfred-test.apps.googleusercontent.com", secret: "GOCSPX-test", redirectURIs: ["http://127.0.0.1:9/cb"])],
            users: [.init(subject: "100000000000000000001", email: email)])
        configuration.users[0].timeZone = "Europe/Zurich"
        configuration.users[0].events = events
        configuration.users[0].messages = messages
        return configuration
    }

    static func with(_ configuration: GoogleStandIn.Configuration, clock: StandInClock,
                     _ body: (GoogleServer) async throws -> Void) async throws {
        let logger = TestDatabase.quietLogger
        let standIn = GoogleStandIn(configuration: configuration, clock: clock, logger: logger)
        try await withRunningServices([standIn], logger: logger) {
            try await body(GoogleServer(standIn: standIn, baseURL: try await standIn.baseURL()))
        }
    }

    func token(_ scopes: [String]) throws -> String { try standIn.mintAccessToken(forUser: Self.email, scopes: scopes) }

    /// A GET's body, over the socket.
    func get(_ path: String) async throws -> String {
        let client = TestHTTP.client()
        do {
            let response = try await client.execute(HTTPClientRequest(url: baseURL + path), timeout: .seconds(60))
            let body = String(buffer: try await response.body.collect(upTo: 1 << 24))
            try await client.shutdown()
            return body
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
}
