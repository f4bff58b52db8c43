import Foundation
import Synchronization

/// The users' calendars and mailboxes behind the Calendar and Gmail routes, and the Swift calls that
/// change them while a test runs (the `/_fake/state/...` routes call these too).
extension GoogleStandIn {
    /// Per user subject: the primary calendar and the mailbox.
    struct Accounts: Sendable {
        var calendars: [String: CalendarState] = [:]
        var mailboxes: [String: Mailbox] = [:]
    }

    /// Builds every user's calendar and mailbox from the scenario, relative to `now`. A seed that
    /// cannot be used is skipped and described in the second result, so one typo does not empty
    /// the whole scenario.
    static func seedAccounts(_ configuration: Configuration, now: Date) -> (Accounts, [String]) {
        var accounts = Accounts()
        var problems: [String] = []
        for user in configuration.users {
            if let name = user.timeZone, TimeZone(identifier: name) == nil {
                problems.append("user \(user.email): unknown timeZone '\(name)'; use an IANA name such as Europe/Zurich")
            }
            var calendar = CalendarState(ownerEmail: user.email, zone: zone(of: user))
            for event in user.events {
                do throws(StandInError) { try calendar.upsert(event, now: now) } catch { problems.append(error.message) }
            }
            var mailbox = Mailbox(email: user.email, zone: zone(of: user))
            // Oldest first, so history ids follow the messages' dates.
            for message in user.messages.sorted(by: { ($0.arrivedMinutesAgo ?? 0) > ($1.arrivedMinutesAgo ?? 0) }) {
                do throws(StandInError) { try mailbox.deliver(message, now: now) } catch { problems.append(error.message) }
            }
            accounts.calendars[user.subject] = calendar
            accounts.mailboxes[user.subject] = mailbox
        }
        return (accounts, problems)
    }

    /// Seeds can only be checked against a clock; a scenario is rejected up front when any seed is bad.
    static func seedProblems(_ configuration: Configuration) -> [String] {
        seedAccounts(configuration, now: Date()).1
    }

    static func zone(of user: User) -> TimeZone {
        user.timeZone.flatMap(TimeZone.init(identifier:)) ?? TimeZone(identifier: "UTC")!  // UTC always exists
    }

    /// A scenario user by email (case-insensitive) or subject.
    func user(_ identifier: String) throws(StandInError) -> User {
        let users = scenario.withLock { $0.users }
        guard let user = users.first(where: { $0.subject == identifier || $0.email.lowercased() == identifier.lowercased() })
        else {
            throw StandInError(.invalidScenario,
                               "no user '\(identifier)'; the scenario has \(users.map { $0.email }.joined(separator: ", "))")
        }
        return user
    }

    /// Runs `body` on the user's calendar (created empty if the user came without one).
    func withCalendar<T>(of user: User, _ body: (inout CalendarState) throws(GoogleAPIError) -> T) throws(GoogleAPIError) -> T {
        try accounts.withLock { accounts throws(GoogleAPIError) -> T in
            var calendar = accounts.calendars[user.subject] ?? CalendarState(ownerEmail: user.email, zone: Self.zone(of: user))
            defer { accounts.calendars[user.subject] = calendar }
            return try body(&calendar)
        }
    }

    /// Runs `body` on the user's mailbox after delivering what has arrived by now on the stand-in's clock.
    func withMailbox<T>(of user: User, _ body: (inout Mailbox) throws(GoogleAPIError) -> T) throws(GoogleAPIError) -> T {
        let now = clock.now()
        let retention = TimeInterval(scenario.withLock { $0.gmail.historyRetentionSeconds })
        return try accounts.withLock { accounts throws(GoogleAPIError) -> T in
            var mailbox = accounts.mailboxes[user.subject] ?? Mailbox(email: user.email, zone: Self.zone(of: user))
            mailbox.catchUp(now: now, retention: retention)
            defer { accounts.mailboxes[user.subject] = mailbox }
            return try body(&mailbox)
        }
    }

    // MARK: Live changes

    /// Adds an event to the user's primary calendar, or replaces the one with the same id (a move or
    /// an edit: `updated` advances and sync tokens report it). An id `<seriesId>_<stamp>` naming an
    /// occurrence of a series changes only that occurrence. Returns the event id (generated if the
    /// seed has none). `user` is an email or a subject.
    @discardableResult
    public func upsertEvent(_ event: SeedEvent, forUser user: String) throws(StandInError) -> String {
        let owner = try self.user(user)
        let now = clock.now()
        return try accounts.withLock { accounts throws(StandInError) -> String in
            var calendar = accounts.calendars[owner.subject] ?? CalendarState(ownerEmail: owner.email, zone: Self.zone(of: owner))
            let id = try calendar.upsert(event, now: now)
            accounts.calendars[owner.subject] = calendar
            return id
        }
    }

    /// Deletes an event or a whole series, or cancels one occurrence when `id` is an instance id.
    /// Lists then show it the way Google shows cancelled events.
    public func cancelEvent(id: String, forUser user: String) throws(StandInError) {
        let owner = try self.user(user)
        let now = clock.now()
        try accounts.withLock { accounts throws(StandInError) in
            guard var calendar = accounts.calendars[owner.subject] else {
                throw StandInError(.invalidScenario, "no event '\(id)' on \(owner.email)'s calendar")
            }
            try calendar.cancel(id: id, now: now)
            accounts.calendars[owner.subject] = calendar
        }
    }

    /// Puts a message in the user's mailbox now, or at `arrivesInSeconds` on the stand-in's clock.
    /// Returns the message id (generated if the seed has none).
    @discardableResult
    public func deliverMessage(_ message: SeedMessage, toUser user: String) throws(StandInError) -> String {
        let owner = try self.user(user)
        let now = clock.now()
        return try accounts.withLock { accounts throws(StandInError) -> String in
            var mailbox = accounts.mailboxes[owner.subject] ?? Mailbox(email: owner.email, zone: Self.zone(of: owner))
            let id = try mailbox.deliver(message, now: now)
            accounts.mailboxes[owner.subject] = mailbox
            return id
        }
    }

    /// Deletes a message: `messages.get` answers 404 and history gets a `messageDeleted` record.
    public func deleteMessage(id: String, forUser user: String) throws(StandInError) {
        let owner = try self.user(user)
        let now = clock.now()
        try accounts.withLock { accounts throws(StandInError) in
            guard var mailbox = accounts.mailboxes[owner.subject] else {
                throw StandInError(.invalidScenario, "no message '\(id)' in \(owner.email)'s mailbox")
            }
            try mailbox.delete(id: id, now: now)
            accounts.mailboxes[owner.subject] = mailbox
        }
    }

    /// A bearer token for `user` with exactly `scopes`, without the OAuth dance; it expires after
    /// `oauth.accessTokenLifetimeSeconds` on the stand-in's clock and dies with the user's grants.
    public func mintAccessToken(forUser user: String, scopes: [String]) throws(StandInError) -> String {
        let owner = try self.user(user)
        let now = clock.now()
        guard let token = ledger.withLock({ $0.mintAccessToken(subject: owner.subject, scopes: scopes, now: now) }) else {
            throw StandInError(.invalidScenario, "user '\(user)' is not in the current scenario")
        }
        return token
    }

    /// Every Calendar sync token handed out so far answers 410 `fullSyncRequired` from now on.
    public func expireSyncTokens() {
        accounts.withLock { accounts in
            for subject in accounts.calendars.keys { accounts.calendars[subject]?.expireSyncTokens() }
        }
    }

    /// Every Gmail history id handed out so far answers 404 from now on; fresh ones (from a new
    /// `profile`, `watch` or message) work.
    public func expireHistory() {
        accounts.withLock { accounts in
            for subject in accounts.mailboxes.keys { accounts.mailboxes[subject]?.expireHistory() }
        }
    }

    /// The user's current Gmail `historyId` (what `profile` answers), after pending arrivals.
    public func currentHistoryId(forUser user: String) throws(StandInError) -> String {
        let owner = try self.user(user)
        do {
            return try withMailbox(of: owner) { mailbox throws(GoogleAPIError) in String(mailbox.historyId) }
        } catch {
            throw StandInError(.invalidScenario, "mailbox of \(owner.email) is unreadable: \(error.message)")
        }
    }
}
