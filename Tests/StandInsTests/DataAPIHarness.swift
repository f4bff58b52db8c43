import Foundation
import NIOHTTP1
import StandIns

/// Calendar and Gmail helpers on top of `GoogleHarness`: a pinned clock, a seeded user, bearer
/// tokens without the OAuth dance and JSON accessors for Google's answers.
extension GoogleHarness {
    /// Friday 2026-11-20 08:00:00 UTC (09:00 in Zurich): every data test starts here.
    static let pinned = Date(timeIntervalSince1970: 1_795_161_600)
    static func pinnedClock() -> StandInClock { StandInClock(now: { pinned }) }

    static let calendarReadonly = "https://www.googleapis.com/auth/calendar.readonly"
    static let calendarEventsReadonly = "https://www.googleapis.com/auth/calendar.events.readonly"
    static let calendarSettingsReadonly = "https://www.googleapis.com/auth/calendar.settings.readonly"
    static let gmailMetadata = "https://www.googleapis.com/auth/gmail.metadata"
    static let gmailReadonly = "https://www.googleapis.com/auth/gmail.readonly"

    /// The default OAuth configuration with `events` and `messages` on Ada (Europe/Zurich).
    static func dataConfiguration(events: [GoogleStandIn.SeedEvent] = [], messages: [GoogleStandIn.SeedMessage] = [],
                                  calendar: GoogleStandIn.CalendarSettings = .init(),
                                  gmail: GoogleStandIn.GmailSettings = .init()) -> GoogleStandIn.Configuration {
        var configuration = configuration()
        configuration.users[0].timeZone = "Europe/Zurich"
        configuration.users[0].events = events
        configuration.users[0].messages = messages
        configuration.calendar = calendar
        configuration.gmail = gmail
        return configuration
    }

    /// A pinned-clock stand-in seeded with `configuration`.
    static func withData(_ configuration: GoogleStandIn.Configuration, latencyClock: any Clock<Duration> = ContinuousClock(),
                         _ body: @Sendable (GoogleHarness) async throws -> Void) async throws {
        try await with(configuration, clock: pinnedClock(), latencyClock: latencyClock, body)
    }

    func token(_ scopes: [String], user: String = GoogleHarness.email) throws -> String {
        try standIn.mintAccessToken(forUser: user, scopes: scopes)
    }

    func get(_ path: String, token: String?) async throws -> Reply {
        try await send(.GET, path, headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
    }

    func post(_ path: String, json: String, token: String) async throws -> Reply {
        try await send(.POST, path, body: json, contentType: "application/json", headers: ["Authorization": "Bearer \(token)"])
    }
}

extension GoogleHarness.Reply {
    /// `error.errors[0].reason` of a Google API error body.
    var reason: String? { ((json["error"] as? [String: Any])?["errors"] as? [[String: Any]])?.first?["reason"] as? String }
    var apiError: [String: Any] { json["error"] as? [String: Any] ?? [:] }
    var items: [[String: Any]] { json["items"] as? [[String: Any]] ?? [] }
    var ids: [String] { items.compactMap { $0["id"] as? String } }
}

/// `a=1&b=2` with every value percent-encoded (`+` in offsets must travel as `%2B`).
func query(_ fields: [(String, String)]) -> String {
    "?" + GoogleHarness.formEncode(fields)
}
