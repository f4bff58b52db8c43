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
    /// the whole scenario. Problems name seeds by position (`users[0].events[3]`), never by email,
    /// title or time: they are logged.
    static func seedAccounts(_ configuration: Configuration, now: Date) -> (Accounts, [String]) {
        var accounts = Accounts()
        var problems: [String] = []
        for (userIndex, user) in configuration.users.enumerated() {
            let userName = "users[\(userIndex)]"
            if let name = user.timeZone, TimeZone(identifier: name) == nil {
                problems.append("\(userName): unknown timeZone; use an IANA name such as Europe/Zurich")
            }
            var calendar = CalendarState(ownerEmail: user.email, zone: zone(of: user))
            for (index, event) in user.events.enumerated() {
                do throws(StandInError) { try calendar.upsert(event, now: now) } catch {
                    problems.append("\(userName).events[\(index)]: \(error.message)")
                }
            }
            var mailbox = Mailbox(email: user.email, zone: zone(of: user))
            // Oldest first, so history ids follow the messages' dates.
            let oldestFirst = user.messages.enumerated()
                .sorted { ($0.element.arrivedMinutesAgo ?? 0) > ($1.element.arrivedMinutesAgo ?? 0) }
            for (index, message) in oldestFirst {
                do throws(StandInError) { try mailbox.deliver(message, now: now) } catch {
                    problems.append("\(userName).messages[\(index)]: \(error.message)")
                }
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
            throw StandInError(.unknownUser,
                               "no user '\(identifier)'; the scenario has \(users.map { $0.email }.joined(separator: ", "))")
        }
        return user
    }

    /// Runs `body` on the user's calendar (created empty if the user came without one). Every read
    /// and change of a calendar goes through here.
    func withCalendar<T, E: Error>(of user: User, _ body: (inout CalendarState) throws(E) -> T) throws(E) -> T {
        try accounts.withLock { accounts throws(E) -> T in
            var calendar = accounts.calendars[user.subject] ?? CalendarState(ownerEmail: user.email, zone: Self.zone(of: user))
            defer { accounts.calendars[user.subject] = calendar }
            return try body(&calendar)
        }
    }

    /// Runs `body` on the user's mailbox after delivering what has arrived by now on the stand-in's
    /// clock. Every read and change of a mailbox goes through here, so history records are made in
    /// time order (which retention relies on): a message due earlier gets its id before a later change.
    /// A change passes the `now` it makes its records at, so the catch-up runs at that same instant.
    func withMailbox<T, E: Error>(of user: User, now: Date? = nil,
                                  _ body: (inout Mailbox) throws(E) -> T) throws(E) -> T {
        let now = now ?? clock.now()
        let retention = TimeInterval(scenario.withLock { $0.gmail.historyRetentionSeconds })
        return try accounts.withLock { accounts throws(E) -> T in
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
        return try withCalendar(of: owner) { calendar throws(StandInError) in try calendar.upsert(event, now: now) }
    }

    /// Deletes an event or a whole series, or cancels one occurrence when `id` is an instance id.
    /// Lists then show it the way Google shows cancelled events.
    public func cancelEvent(id: String, forUser user: String) throws(StandInError) {
        let owner = try self.user(user)
        let now = clock.now()
        try withCalendar(of: owner) { calendar throws(StandInError) in try calendar.cancel(id: id, now: now) }
    }

    /// Puts a message in the user's mailbox now, or at `arrivesInSeconds` on the stand-in's clock.
    /// Returns the message id (generated if the seed has none).
    @discardableResult
    public func deliverMessage(_ message: SeedMessage, toUser user: String) throws(StandInError) -> String {
        let owner = try self.user(user)
        let now = clock.now()
        return try withMailbox(of: owner, now: now) { mailbox throws(StandInError) in try mailbox.deliver(message, now: now) }
    }

    /// The mailbox's watch, if one was set and has not been stopped (it may have expired: compare
    /// `expiration` with the stand-in's clock).
    public func gmailWatch(forUser user: String) throws(StandInError) -> (topicName: String, expiration: Date)? {
        let owner = try self.user(user)
        return withMailbox(of: owner) { mailbox in mailbox.watch.map { ($0.topicName, $0.expiration) } }
    }

    /// Deletes a message: `messages.get` answers 404 and history gets a `messageDeleted` record.
    public func deleteMessage(id: String, forUser user: String) throws(StandInError) {
        let owner = try self.user(user)
        let now = clock.now()
        try withMailbox(of: owner, now: now) { mailbox throws(StandInError) in try mailbox.delete(id: id, now: now) }
    }

    /// A bearer token for `user` with exactly `scopes`, without the OAuth dance; it expires after
    /// `oauth.accessTokenLifetimeSeconds` on the stand-in's clock and dies with the user's grants.
    public func mintAccessToken(forUser user: String, scopes: [String]) throws(StandInError) -> String {
        let owner = try self.user(user)
        let now = clock.now()
        guard let token = ledger.withLock({ $0.mintAccessToken(subject: owner.subject, scopes: scopes, now: now) }) else {
            throw StandInError(.unknownUser, "user '\(user)' is not in the current scenario")
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
        return withMailbox(of: owner) { mailbox in String(mailbox.historyId) }
    }
}
