import AlfredCore
import AsyncHTTPClient
import Delivery
import Foundation
import Sealing
import GoogleAPI
import JobQueue
import Logging
import Metrics

/// The production `GoogleReaders`: the Calendar and Gmail clients over a shared HTTP client, with
/// access tokens from the token broker. Maps Google's failures onto what the queue should do.
public struct GoogleAPIReaders: GoogleReaders {
    let configuration: GoogleAPIConfiguration
    let http: HTTPClient
    let tokens: any TokenSource
    let logger: Logger
    let clock: any Clock<Duration>
    let now: @Sendable () -> Date
    let random: AnyGenerator
    let metrics: (any MetricsFactory)?

    /// - Parameters: `clock` paces backoff, `now` judges token expiry and Retry-After dates, `random`
    ///   jitters the backoff, `metrics` counts requests (nil: the process-wide `MetricsSystem`).
    public init(configuration: GoogleAPIConfiguration, http: HTTPClient, tokens: any TokenSource, logger: Logger,
                clock: any Clock<Duration> = ContinuousClock(), now: @escaping @Sendable () -> Date = { Date() },
                random: AnyGenerator = AnyGenerator(SystemRandomNumberGenerator()), metrics: (any MetricsFactory)? = nil) {
        self.configuration = configuration; self.http = http; self.tokens = tokens; self.logger = logger
        self.clock = clock; self.now = now; self.random = random; self.metrics = metrics
    }

    private func transport(_ connector: UUID) -> GoogleHTTP {
        GoogleHTTP(configuration: configuration, http: http, tokens: tokens, connectorID: connector, logger: logger,
                   clock: clock, now: now, random: random, metricsFactory: metrics)
    }

    public func calendar(connector: UUID) -> any CalendarReader { CalendarAPIReader(client: CalendarClient(http: transport(connector))) }
    public func mail(connector: UUID) -> any MailReader { GmailAPIReader(client: GmailClient(http: transport(connector))) }
}

/// Google's failures as queue actions. Transient ones retry after Google's Retry-After at least; a
/// request Google calls malformed is a bug and is discarded rather than retried forever. Access
/// problems (401 after a fresh token, 403, a calendar that is gone) wait long: they end when the
/// user re-consents (the broker marks the connector and the job then ends) or access comes back.
func queueAction<T>(_ body: () async throws -> T) async throws -> T {
    do {
        return try await body()
    } catch let error as GoogleAPIError {
        switch error.code {
        case .badRequest: throw JobError.discard(error.description)
        case .quotaExceeded: throw JobError.retry(error.description, after: max(error.retryAfter ?? .zero, .seconds(3600)))
        case .unauthorized, .forbidden, .notFound, .gone:
            throw JobError.retry(error.description, after: max(error.retryAfter ?? .zero, .seconds(900)))
        default: throw JobError.retry(error.description, after: error.retryAfter)
        }
    }
}

struct CalendarAPIReader: CalendarReader {
    let client: CalendarClient

    func sync(cursor: CalendarCursor?, fullSyncWindow window: DateInterval?) async throws -> CalendarChanges {
        try await queueAction {
            let range = window.map { $0.start..<$0.end } ?? (cursor.map { $0.windowStart..<$0.windowEnd } ?? Date()..<Date())
            let token = window == nil ? cursor?.syncToken : nil
            let result = try await client.sync(syncToken: token, window: range)
            let mode: CalendarChanges.Mode = switch result.kind {
            case .incremental: .incremental
            case .full: .full
            case .fullAfterExpiredToken: .resync
            }
            let next = CalendarCursor(syncToken: result.page.nextSyncToken,
                                      windowStart: mode == .incremental ? (cursor?.windowStart ?? range.lowerBound) : range.lowerBound,
                                      windowEnd: mode == .incremental ? (cursor?.windowEnd ?? range.upperBound) : range.upperBound)
            return CalendarChanges(events: result.page.events.map(MeetingEvent.init), cursor: next, mode: mode)
        }
    }

    func event(id: String) async throws -> MeetingEvent? {
        try await queueAction { try await client.event(eventID: id).map(MeetingEvent.init) }
    }

    func events(in window: DateInterval) async throws -> [MeetingEvent] {
        try await queueAction {
            try await client.fullSync(timeMin: window.start, timeMax: window.end).events.map(MeetingEvent.init)
        }
    }
}

extension MeetingEvent {
    init(_ event: CalendarEvent) {
        self.init(id: event.id, cancelled: event.isCancelled, start: event.start?.instant, allDay: event.isAllDay,
                  declined: event.isDeclined, eventType: event.eventType ?? "default",
                  title: event.summary?.unsafeValue, place: event.location?.unsafeValue,
                  meetingLink: event.meetingLink?.unsafeValue)
    }
}

struct GmailAPIReader: MailReader {
    let client: GmailClient
    /// After a lost history, how much of the recent inbox is re-read.
    static let fallbackWindow = 50

    func start() async throws -> (historyID: String, address: String?) {
        try await queueAction {
            let profile = try await client.profile()
            return (profile.historyID, profile.emailAddress?.unsafeValue)
        }
    }

    func watch(topicName: String) async throws -> (expiration: Date, address: String?) {
        try await queueAction {
            let watch = try await client.watch(topicName: topicName)
            let profile = try await client.profile()
            return (watch.expiration, profile.emailAddress?.unsafeValue)
        }
    }

    func changes(since historyID: String) async throws -> MailChanges {
        try await queueAction {
            do {
                let delta = try await client.history(startHistoryID: historyID)
                return MailChanges(messageIDs: delta.addedMessageIDs, historyID: delta.historyID, fellBack: false)
            } catch let error as GoogleAPIError where error.code == .historyExpired {
                let profile = try await client.profile()
                let ids = try await client.recentInboxMessageIDs(maxResults: Self.fallbackWindow)
                return MailChanges(messageIDs: ids, historyID: profile.historyID, fellBack: true)
            }
        }
    }

    func messages(ids: [String]) async throws -> [GmailMessage] {
        try await queueAction { try await client.messages(ids: ids) }
    }
}
