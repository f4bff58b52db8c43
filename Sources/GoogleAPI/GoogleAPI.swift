// The Google Calendar v3 and Gmail v1 clients Alfred's workers use.
//
//     let http = GoogleHTTP(configuration: config, http: httpClient, tokens: brokerTokens,
//                           connectorID: connector, logger: logger)
//     let calendar = CalendarClient(http: http)     // sync, events.get, time zone
//     let gmail = GmailClient(http: http)           // history, messages.get (metadata), watch
//
// Both clients share one transport (`GoogleHTTP`): bearer tokens from a `TokenSource` (never a refresh
// token), one forced refresh on 401, a small in-process retry budget, and errors that say what to do
// next (`GoogleAPIError`). Scopes assumed: `calendar.readonly` and `gmail.metadata`, so Gmail is never
// sent `q` and messages are read with `format=metadata` only.

import Foundation

/// Which Google data API a request goes to. Also the `api` label of the request metric.
public enum GoogleService: String, Sendable, CaseIterable {
    case calendar
    case gmail
}

/// Where the Calendar and Gmail APIs live and how patient the clients are. The base URLs are the only
/// difference between the real Google and the local stand-in.
public struct GoogleAPIConfiguration: Sendable {
    public static let googleCalendarBaseURL = "https://www.googleapis.com/calendar/v3"
    public static let googleGmailBaseURL = "https://gmail.googleapis.com/gmail/v1"

    /// `GOOGLE_CALENDAR_BASE_URL`; Google: `https://www.googleapis.com/calendar/v3`.
    public var calendarBaseURL: String
    /// `GMAIL_BASE_URL`; Google: `https://gmail.googleapis.com/gmail/v1`.
    public var gmailBaseURL: String
    /// How long one call may keep retrying in process before it hands the wait to the job queue.
    public var retry = RetryBudget()
    /// Limit for one HTTP exchange, from sending to the last body byte.
    public var requestTimeout: Duration = .seconds(15)
    /// Larger bodies are refused (`invalidResponse`); a 250-event page with our `fields` is a few hundred KB at most.
    public var maxResponseBytes = 8 << 20
    /// `maxResults` of `events.list` (Google: default 250, max 2500).
    public var calendarPageSize = 250
    /// `maxResults` of `history.list` and `messages.list` pages (Gmail: max 500).
    public var gmailPageSize = 500
    /// `messages.get` calls in flight at once for one user. Gmail answers 429 to too many concurrent
    /// requests per user (external-apis §3.6).
    public var maxMessagesInFlight = 4
    /// A sync that pages more often than this stops with `invalidResponse` instead of looping forever.
    public var maxPages = 200
    /// A cached access token this close to expiry is not reused; the token source is asked again.
    public var tokenReuseMargin: Duration = .seconds(60)

    public init(calendarBaseURL: String = googleCalendarBaseURL, gmailBaseURL: String = googleGmailBaseURL) {
        self.calendarBaseURL = Self.trimmingSlash(calendarBaseURL)
        self.gmailBaseURL = Self.trimmingSlash(gmailBaseURL)
    }

    /// Both APIs under one root with Google's own path prefixes (`<root>/calendar/v3`, `<root>/gmail/v1`),
    /// which is how the local stand-in serves them.
    public init(root: String) {
        let root = Self.trimmingSlash(root)
        self.init(calendarBaseURL: root + "/calendar/v3", gmailBaseURL: root + "/gmail/v1")
    }

    /// Keys: `GOOGLE_CALENDAR_BASE_URL`, `GMAIL_BASE_URL` (external-apis §0.1); Google's URLs when unset.
    public init(environment: [String: String]) {
        self.init(calendarBaseURL: environment["GOOGLE_CALENDAR_BASE_URL"] ?? Self.googleCalendarBaseURL,
                  gmailBaseURL: environment["GMAIL_BASE_URL"] ?? Self.googleGmailBaseURL)
    }

    func baseURL(_ service: GoogleService) -> String {
        switch service {
        case .calendar: calendarBaseURL
        case .gmail: gmailBaseURL
        }
    }

    private static func trimmingSlash(_ url: String) -> String {
        var url = url
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }
}
