import AlfredCore
import Foundation
import Logging
import NIOCore
import PostgresNIO

/// `JobStore` on PostgreSQL. Stateless apart from its connection pool: any number of workers on any
/// number of hosts share one table, and Postgres row locks are the only coordination.
public struct PostgresJobStore: JobStore {
    public struct Configuration: Sendable {
        /// Enqueues, retries and recurring completions due within this many seconds NOTIFY workers.
        /// Must be at least the workers' poll interval, so a job is never found late by polling alone.
        public var notifyHorizon: Duration = .seconds(60)
        public init() {}
    }

    let client: PostgresClient
    let logger: Logger
    let configuration: Configuration

    public init(client: PostgresClient, logger: Logger, configuration: Configuration = .init()) {
        self.client = client
        self.logger = logger
        self.configuration = configuration
    }

    private var horizon: Double { configuration.notifyHorizon.seconds }

    public func enqueue(_ jobs: [NewJob], onConflict: UniqueConflict) async throws -> [EnqueueResult] {
        try await enqueue(jobs, onConflict: onConflict, on: nil)
    }

    /// Enqueue inside the caller's transaction (pass the connection `withTransaction` gave you), so
    /// the jobs exist exactly when the caller's other writes do.
    public func enqueue(_ jobs: [NewJob], onConflict: UniqueConflict, on connection: PostgresConnection?)
        async throws -> [EnqueueResult]
    {
        guard !jobs.isEmpty else { return [] }
        // One live row per unique key: within a batch only the first (keep) or last (replace) of a
        // key is sent; the others report what happened to it.
        var sentIndexForKey: [String: Int] = [:]
        var send: [Int] = []
        for (index, job) in jobs.enumerated() {
            guard let key = job.uniqueKey else { send.append(index); continue }
            if let previous = sentIndexForKey[key] {
                if onConflict == .replaceSchedule { send[send.firstIndex(of: previous)!] = index; sentIndexForKey[key] = index }
            } else {
                sentIndexForKey[key] = index
                send.append(index)
            }
        }
        var columns = JobSQL.EnqueueColumns()
        var ids = [UUID](repeating: UUID(), count: jobs.count)
        for index in send {
            let job = jobs[index]
            let id = job.id?.uuid ?? UUID.timeOrdered()
            ids[index] = id
            columns.ids.append(id)
            columns.kinds.append(job.kind.name)
            columns.queues.append(job.queue)
            columns.priorities.append(job.priority)
            columns.payloads.append(ByteBuffer(bytes: job.payload))
            switch job.schedule {
            case .now: columns.dueAbsolute.append(JobSQL.noInstant); columns.dueDelay.append(0)
            case .after(let delay): columns.dueAbsolute.append(JobSQL.noInstant); columns.dueDelay.append(delay.seconds)
            case .at(let date): columns.dueAbsolute.append(date); columns.dueDelay.append(0)
            }
            columns.deadlines.append(job.deadline ?? JobSQL.noInstant)
            columns.maxAttempts.append(Int32(clamping: job.maxAttempts))
            columns.uniqueKeys.append(job.uniqueKey ?? "")
            columns.users.append(job.userID ?? JobSQL.noUser)
        }
        let statement = JobSQL.Enqueue(columns: columns, replace: onConflict == .replaceSchedule, horizon: horizon)
        let rows: [JobSQL.Enqueue.Row]
        if let connection {
            rows = try await connection.execute(statement, logger: logger).reduce(into: []) { $0.append($1) }
        } else {
            rows = try await Pooled.execute(client, statement, logger: logger)
        }
        var inserted = Set<UUID>()
        var rescheduledByKey: [String: UUID] = [:]
        var existingByKey: [String: UUID] = [:]
        for (id, key, outcome) in rows {
            guard let id else { continue }
            switch outcome {
            case "inserted": inserted.insert(id)
            case "rescheduled": if let key { rescheduledByKey[key] = id }
            case "existing": if let key { existingByKey[key] = id }
            default: break
            }
        }
        let sent = Set(send)
        return jobs.indices.map { index in
            let job = jobs[index]
            if sent.contains(index), inserted.contains(ids[index]) { return .inserted(JobID(ids[index])) }
            guard let key = job.uniqueKey else { return .duplicate(nil) }  // unreachable: keyless rows always insert
            if sent.contains(index), let id = rescheduledByKey[key] { return .rescheduled(JobID(id)) }
            if let first = sentIndexForKey[key], first != index, inserted.contains(ids[first]) {
                return .duplicate(JobID(ids[first]))
            }
            return .duplicate((rescheduledByKey[key] ?? existingByKey[key]).map { JobID($0) })
        }
    }

    public func claim(queue: String, limit: Int, owner: String, lease: Duration, ahead: ClaimAhead?,
                      session: PresenceSession?) async throws -> [ClaimedJob] {
        guard limit > 0 else { return [] }
        let rows = try await run(JobSQL.claim(queue: queue, limit: limit, owner: owner, leaseSeconds: lease.seconds,
                                              aheadSeconds: ahead?.window.seconds ?? 0, aheadKinds: ahead?.kinds ?? [],
                                              session: session?.key ?? 0))
        var claimed: [ClaimedJob] = []
        claimed.reserveCapacity(limit)
        for (id, kind, queue, payload, attempts, maxAttempts, token, deadline, user, late, past, sinceScheduled) in try rows.decode(
            (UUID, String, String, ByteBuffer, Int32, Int32, UUID, Date?, UUID?, Double, Bool, Double).self)
        {
            claimed.append(ClaimedJob(
                id: JobID(id), kind: kind, queue: queue, payload: Array(buffer: payload), attempt: Int(attempts),
                maxAttempts: Int(maxAttempts), leaseToken: token, deadline: deadline, userID: user,
                lateness: .seconds(max(0, late)), pastDeadline: past, dueIn: .seconds(max(0, -late)),
                sinceScheduled: .seconds(max(0, sinceScheduled))))
        }
        return claimed
    }

    public func releaseClaim(owner: String) async throws -> Int {
        let rows = try await run(JobSQL.releaseClaim(owner: owner, horizon: horizon))
        var released = 0
        for marker in try rows.decode(Int32?.self) where marker != nil { released += 1 }
        return released
    }

    public func complete(_ completions: [Completion]) async throws -> Set<Lease> {
        guard !completions.isEmpty else { return [] }
        var ids: [UUID] = [], tokens: [UUID] = [], recur: [Bool] = [], absolute: [Date] = [], delay: [Double] = []
        for completion in completions {
            ids.append(completion.lease.id.uuid)
            tokens.append(completion.lease.token)
            switch completion.next {
            case nil: recur.append(false); absolute.append(JobSQL.noInstant); delay.append(0)
            case .now?: recur.append(true); absolute.append(JobSQL.noInstant); delay.append(0)
            case .after(let d)?: recur.append(true); absolute.append(JobSQL.noInstant); delay.append(d.seconds)
            case .at(let date)?: recur.append(true); absolute.append(date); delay.append(0)
            }
        }
        let rows = try await run(JobSQL.complete(
            ids: ids, tokens: tokens, recur: recur, nextAbsolute: absolute, nextDelay: delay, horizon: horizon))
        var done = Set<Lease>()
        for (id, token) in try rows.decode((UUID?, UUID?).self) {
            if let id, let token { done.insert(Lease(id: JobID(id), token: token)) }
        }
        return Set(completions.map(\.lease)).subtracting(done)
    }

    public func fail(_ lease: Lease, error: String, disposition: FailureDisposition) async throws -> JobState? {
        let (retry, delay): (Bool, Double) = switch disposition {
        case .retry(let after): (true, after.seconds)
        case .discard: (false, 0)
        }
        let rows = try await run(JobSQL.fail(
            id: lease.id.uuid, token: lease.token, error: String(error.prefix(2000)), retry: retry,
            delaySeconds: delay, horizon: horizon))
        for state in try rows.decode(String?.self) {
            if let state { return JobState(rawValue: state) }
        }
        return nil
    }

    public func snooze(_ lease: Lease, for delay: Duration) async throws -> Bool {
        let rows = try await run(JobSQL.snooze(
            id: lease.id.uuid, token: lease.token, delaySeconds: delay.seconds, horizon: horizon))
        for marker in try rows.decode(Int32?.self) where marker != nil { return true }
        return false
    }

    public func heartbeat(_ leases: [Lease], lease: Duration) async throws -> Set<Lease> {
        guard !leases.isEmpty else { return [] }
        let rows = try await run(JobSQL.heartbeat(
            ids: leases.map(\.id.uuid), tokens: leases.map(\.token), leaseSeconds: lease.seconds))
        var extended = Set<Lease>()
        for (id, token) in try rows.decode((UUID, UUID).self) { extended.insert(Lease(id: JobID(id), token: token)) }
        return Set(leases).subtracting(extended)
    }

    public func rescueExpired(limit: Int) async throws -> [(kind: String, state: JobState)] {
        let rows = try await run(JobSQL.rescue(limit: limit, horizon: horizon))
        var rescued: [(kind: String, state: JobState)] = []
        for (kind, state) in try rows.decode((String?, String?).self) {
            if let kind, let state = state.flatMap(JobState.init(rawValue:)) { rescued.append((kind, state)) }
        }
        return rescued
    }

    public func prune(olderThan retention: Duration, limit: Int) async throws -> Int {
        let rows = try await run(JobSQL.prune(retentionSeconds: retention.seconds, limit: limit))
        for count in try rows.decode(Int.self) { return count }
        return 0
    }

    public func secondsUntilNextDue(queue: String, ahead: ClaimAhead?) async throws -> Double? {
        let rows = try await run(JobSQL.secondsUntilNextDue(queue: queue, aheadSeconds: ahead?.window.seconds ?? 0,
                                                            aheadKinds: ahead?.kinds ?? []))
        for seconds in try rows.decode(Double?.self) { return seconds }
        return nil
    }

    public func stats() async throws -> QueueStats {
        var counts: [QueueStats.Row] = []
        for (queue, state, count) in try await run(JobSQL.countsByQueueAndState).decode((String, String, Int).self) {
            if let state = JobState(rawValue: state) { counts.append(.init(queue: queue, state: state, count: count)) }
        }
        return QueueStats(rows: counts, ready: try await ready())
    }

    public func ready() async throws -> [QueueStats.Ready] {
        var ready: [QueueStats.Ready] = []
        for (queue, depth, age, paused) in try await run(JobSQL.ready).decode((String, Int, Double, Bool).self) {
            ready.append(.init(queue: queue, depth: depth, oldestDueAgeSeconds: max(0, age), paused: paused))
        }
        return ready
    }

    public func list(state: JobState?, limit: Int) async throws -> [JobSummary] {
        var summaries: [JobSummary] = []
        // An operator's listing is recorded (and refused if it cannot be) before anything is read.
        _ = try await run(AuditSQL.operatorRead(command: "jobs.list", subject: nil))
        let rows = try await run(JobSQL.list(state: state?.rawValue, limit: limit))
        for (id, kind, queue, state, attempts, maxAttempts, due, error) in try rows.decode(
            (UUID, String, String, String, Int32, Int32, Date, String?).self)
        {
            summaries.append(JobSummary(
                id: JobID(id), kind: kind, queue: queue, state: JobState(rawValue: state) ?? .queued,
                attempts: Int(attempts), maxAttempts: Int(maxAttempts), dueAt: due, lastError: error))
        }
        return summaries
    }

    public func cancel(_ id: JobID) async throws -> Bool {
        for _ in try await run(JobSQL.cancel(id: id.uuid)).decode(UUID.self) { return true }
        return false
    }

    /// Pauses a queue: workers claim nothing more from it until it is resumed.
    public func pause(queue: String, reason: String?) async throws {
        _ = try await run(JobSQL.pause(queue: queue, reason: reason))
    }

    /// Resumes a paused queue and wakes its workers; false when it was not paused.
    public func resume(queue: String) async throws -> Bool {
        try await !run(JobSQL.resume(queue: queue)).isEmpty
    }

    /// Paused queues, with the reason given and when.
    public func pauses() async throws -> [QueuePause] {
        var pauses: [QueuePause] = []
        for (queue, reason, at) in try await run(JobSQL.pauses).decode((String, String?, Date).self) {
            pauses.append(QueuePause(queue: queue, reason: reason, pausedAt: at))
        }
        return pauses
    }

    public func retry(_ id: JobID) async throws -> Bool {
        do {
            for marker in try await run(JobSQL.retry(id: id.uuid)).decode(UUID?.self) where marker != nil {
                return true
            }
            return false
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
            throw StoreError.uniqueKeyTaken(id)
        }
    }

    /// Runs a query on the caller's connection, or on one from the pool. Rows are collected before
    /// the connection goes back to the pool.
    private func run(_ query: PostgresQuery, on connection: PostgresConnection? = nil) async throws -> [PostgresRow] {
        if let connection {
            return try await connection.query(query, logger: logger).collect()
        }
        return try await Pooled.rows(client, query, logger: logger)
    }
}

/// Store errors that callers act on. `description` is safe to log: ids and codes, never payloads.
public struct StoreError: Error, CustomStringConvertible, Equatable {
    private enum Code: Equatable { case uniqueKeyTaken, migration, privacyRequestMissing, connectionWait, connectionLost, unexpected }
    private let code: Code
    public let message: String

    public static func uniqueKeyTaken(_ id: JobID) -> StoreError {
        StoreError(code: .uniqueKeyTaken, message:
            "job \(id) cannot be retried: another job with its unique key is queued or running; cancel that one first")
    }
    public static func migration(_ message: String) -> StoreError { StoreError(code: .migration, message: message) }
    public static func privacyRequestMissing(_ id: UUID) -> StoreError {
        StoreError(code: .privacyRequestMissing, message: "no privacy request \(id.uuidString.lowercased())")
    }
    /// No pooled connection within `limit` (see `Pooled`); retryable like any unreachable database.
    public static func connectionWait(_ limit: Duration) -> StoreError {
        StoreError(code: .connectionWait, message: "no database connection became available within \(limit); retrying will open a new one")
    }
    /// The connection closed under the statement (Postgres restarted or ended the session): whether the
    /// statement ran is unknown, as with any lost connection; retryable on another connection.
    public static let connectionLost = StoreError(code: .connectionLost, message:
        "the database connection closed before the statement was answered (Postgres restarting?); retrying takes another connection")
    /// The database answered something our statements never return: a bug, not a retryable condition.
    public static func unexpected(_ message: String) -> StoreError { StoreError(code: .unexpected, message: message) }
    /// A failure of the connection rather than of the statement: another statement would fail alike.
    public var isConnectionLevel: Bool { code == .connectionWait || code == .connectionLost }
    public var description: String { message }
}

/// A paused queue (`alfred jobs pause`).
public struct QueuePause: Sendable, Codable, Equatable {
    public let queue: String
    public let reason: String?
    public let pausedAt: Date
}
