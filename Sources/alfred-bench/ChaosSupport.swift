import AlfredCore
import AlfredTestCluster
import ArgumentParser
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import PostgresNIO
import StandIns
import Store
import Synchronization
#if canImport(Glibc)
@preconcurrency import Glibc
#endif

/// What the chaos run asks of the system, fixed by the seed: each user's meetings (their reminders
/// fall inside the run) and morning brief time. Times are seconds from the plan's origin, which is
/// when the Google stand-in starts (its scenario's event times count from there).
struct LoadPlan: Sendable {
    let users: Int
    let origin: Date
    let setupSeconds: Double
    let runSeconds: Double
    /// Per user, each meeting's start, in seconds from `origin`.
    let meetingStarts: [[Double]]
    /// Per user, the brief's local (UTC) time, "HH:MM", and when that is.
    let briefTimes: [String]
    let briefs: [Date]

    init(users: Int, meetings: Int, setupSeconds: Double, runSeconds: Double, rng: inout SeededGenerator) {
        self.users = users
        self.setupSeconds = setupSeconds
        self.runSeconds = runSeconds
        origin = Date()
        // Reminders (a minute before each start) fall between the run's start and 30 s before its end.
        meetingStarts = (0..<users).map { _ in
            (0..<meetings).map { _ in setupSeconds + 60 + Double.random(in: 0...(runSeconds - 30), using: &rng) }.sorted()
        }
        let calendar = { var c = Calendar(identifier: .gregorian); c.timeZone = TimeZone(identifier: "UTC")!; return c }()
        var times: [String] = [], briefs: [Date] = []
        for _ in 0..<users {
            // A whole minute inside the run (briefs are due at the start of their minute).
            let at = origin.addingTimeInterval(setupSeconds + 60 + Double.random(in: 0...(runSeconds - 120), using: &rng))
            let minute = calendar.dateInterval(of: .minute, for: at)!.start.addingTimeInterval(60)
            let parts = calendar.dateComponents([.hour, .minute], from: minute)
            times.append(String(format: "%02d:%02d", parts.hour!, parts.minute!))
            briefs.append(minute)
        }
        briefTimes = times
        self.briefs = briefs
    }

    static func subject(_ user: Int) -> String { "chaos-\(user)" }

    /// A colleague on the user's own domain with a production outage: urgent by the default rules (an
    /// "executive" from outside would score as impersonation). The body of `POST /_fake/state/messages`.
    static func urgentMessage(to user: Int, id: String) -> String {
        #"{"user": "\#(email(user))", "message": {"id": "\#(id)", "from": "Dana Ops <dana@chaos.example>", "#
            + #""to": "\#(email(user))", "subject": "URGENT: the production database is down", "#
            + #""labelIds": ["INBOX", "UNREAD", "IMPORTANT"], "snippet": "Can you call me now? Customers cannot log in."}}"#
    }
    static func email(_ user: Int) -> String { "user\(user)@chaos.example" }

    func remindersDue(excluding excluded: Set<Int>) -> Int {
        meetingStarts.enumerated().filter { !excluded.contains($0.offset) }.reduce(0) { $0 + $1.element.count }
    }

    func pick(_ count: Int, rng: inout SeededGenerator) -> [Int] {
        var picked: Set<Int> = []
        while picked.count < min(count, users) { picked.insert(Int.random(in: 0..<users, using: &rng)) }
        return picked.sorted()
    }

    /// The Google stand-in's scenario: the OAuth client, and every user with their meetings.
    func scenario() throws -> Data {
        let list: [[String: Any]] = (0..<users).map { user in
            ["subject": Self.subject(user), "email": Self.email(user), "timeZone": "UTC",
             "events": meetingStarts[user].enumerated().map { index, start in
                 ["id": "meeting-\(index)", "summary": "Review \(index)", "location": "Room \(user % 40)",
                  "startInMinutes": start / 60, "durationMinutes": 30, "selfResponse": "accepted"] as [String: Any]
             },
             "messages": [] as [Any]]
        }
        return try JSONSerialization.data(withJSONObject: [
            "clients": [["id": ChaosBench.clientID, "secret": "alfred-local-secret", "redirectURIs": [ChaosBench.redirect]]],
            "users": list,
        ])
    }
}

/// The faults of one run, in order, fixed by the seed.
struct FaultSchedule: Sendable {
    enum Kind: Sendable {
        case killWorker(Int, downSeconds: Double)
        case kill(String)
        case restartPostgres(immediate: Bool)
        case revokeAndUnregister
    }

    struct Fault: Sendable {
        let at: Double
        let kind: Kind
    }

    let faults: [Fault]

    init(runSeconds: Double, rng: inout SeededGenerator) {
        var faults: [Fault] = [Fault(at: runSeconds * 0.15, kind: .revokeAndUnregister),
                               Fault(at: runSeconds * 0.3, kind: .kill("broker")),
                               Fault(at: runSeconds * 0.45, kind: .kill("keys")),
                               Fault(at: runSeconds * 0.6, kind: .restartPostgres(immediate: false)),
                               Fault(at: runSeconds * 0.8, kind: .restartPostgres(immediate: true))]
        var at = Double.random(in: 30...60, using: &rng)
        while at < runSeconds {
            faults.append(Fault(at: at, kind: .killWorker(Int.random(in: 1...2, using: &rng), downSeconds: Double.random(in: 1...3, using: &rng))))
            at += Double.random(in: 30...60, using: &rng)
        }
        self.faults = faults.sorted { $0.at < $1.at }
    }
}

/// Whether a fault really happened, seen from outside the harness: process ids, Postgres's start
/// time, a socket answering again, the database's view of the live workers, a stand-in's answer.
struct Confirmation: Sendable {
    let confirmed: Bool
    let evidence: String
}

/// When each fault happened, and the outside evidence that it did.
final class FaultLog: Sendable {
    struct Entry: Sendable {
        let at: Date
        /// When the fault was over (Postgres answering again); `at` for a kill, whose process comes
        /// back while the other worker goes on.
        let over: Date
        let name: String
        /// An error burst at a stand-in (not a process fault: no recovery to measure).
        let burst: Bool
        let confirmation: Confirmation
    }

    private let entries = Mutex<[Entry]>([])

    /// `over`: when the fault ended (default now); a kill passes its own moment, since the other
    /// worker goes on at once, whatever the confirmation waited for afterwards.
    func record(_ name: String, burst: Bool = false, startedAt: Date? = nil, over: Date? = nil, _ confirmation: Confirmation) {
        let mark = confirmation.confirmed ? "" : " (NOT CONFIRMED: \(confirmation.evidence))"
        print("\(Date().formatted(.iso8601.time(includingFractionalSeconds: false))) fault: \(name)\(mark)")
        entries.withLock {
            $0.append(Entry(at: startedAt ?? Date(), over: over ?? Date(), name: name, burst: burst, confirmation: confirmation))
        }
    }

    var all: [Entry] { entries.withLock { $0 } }
}

/// The run's processes, by name: started, killed, restarted, and their peak memory sampled.
final class Fleet: Sendable {
    private struct Member: Sendable {
        var process: ChildProcess
        let executable: String
        let arguments: [String]
        let environment: [String: String]
        var peakRSSMB = 0
        var restarts = 0
    }

    private let members = Mutex<[String: Member]>([:])
    /// Where every process's output is kept (`name.N.log`, N counting its starts); nil: discarded.
    private let logs: URL?

    init(logs: URL? = nil) { self.logs = logs }

    private func spawn(_ name: String, start: Int, _ executable: String, _ arguments: [String],
                       environment: [String: String]) throws -> ChildProcess {
        try ChildProcess(executable, arguments, environment: environment,
                         outputPath: logs?.appendingPathComponent("\(name).\(start).log").path)
    }

    func add(_ name: String, _ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws {
        let process = try spawn(name, start: 0, executable, arguments, environment: environment)
        members.withLock { $0[name] = Member(process: process, executable: executable, arguments: arguments, environment: environment) }
    }

    func process(_ name: String) throws -> ChildProcess {
        guard let process = members.withLock({ $0[name]?.process }) else { throw ValidationError("no process \(name)") }
        return process
    }

    func output(_ name: String) -> String { members.withLock { $0[name]?.process.output } ?? "" }

    /// SIGKILL, then the same command again after `restartAfter` seconds. Confirmed when the killed
    /// pid is gone, the new process has another pid, and it is back: `back` (its socket answers, or
    /// the database sees its presence) holds within a minute.
    func kill(_ name: String, restartAfter seconds: Double,
              back: @Sendable () async -> Bool) async throws -> Confirmation {
        guard let member = members.withLock({ $0[name] }) else { return Confirmation(confirmed: false, evidence: "no process \(name)") }
        let old = member.process.pid
        note(name, Self.peakRSS(old))
        member.process.signal(SIGKILL)
        let status = await member.process.waitForExit(timeout: .seconds(30))
        let gone = Glibc.kill(old, 0) == -1 && errno == ESRCH
        try await Task.sleep(for: .seconds(seconds))
        let fresh = try spawn(name, start: member.restarts + 1, member.executable, member.arguments, environment: member.environment)
        members.withLock { $0[name]?.process = fresh; $0[name]?.restarts += 1 }
        let answered = await Self.within(.seconds(60), back)
        return Confirmation(confirmed: gone && fresh.pid != old && answered,
                            evidence: "pid \(old) \(gone ? "gone" : "still there") (exit \(status.map(String.init) ?? "none")), now pid \(fresh.pid), \(answered ? "back" : "not back within 60 s")")
    }

    /// The evidence of a fault the harness did not cause: what `kill`'s check says of a process left
    /// alone (its pid is the same), for the run to show that an unconfirmed fault is caught.
    func confirmUntouched(_ name: String) -> Confirmation {
        let pid = members.withLock { $0[name]?.process.pid } ?? 0
        let gone = Glibc.kill(pid, 0) == -1 && errno == ESRCH
        return Confirmation(confirmed: gone, evidence: "pid \(pid) \(gone ? "gone" : "still running: no kill happened")")
    }

    /// Polls `condition` every 100 ms until it holds or `limit` passes.
    static func within(_ limit: Duration, _ condition: @Sendable () async -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while ContinuousClock.now < deadline {
            if await condition() { return true }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    /// Whether a Unix socket accepts a connection now (a stale file from a killed server refuses it).
    static func answers(_ path: String) -> Bool {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in raw.copyBytes(from: Array(path.utf8.prefix(raw.count - 1))) }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        } == 0
    }

    /// SIGTERM to `names` and wait for each to exit (the workers, before the audit counts anything).
    func stop(_ names: [String]) async {
        for name in names {
            guard let process = members.withLock({ $0[name]?.process }) else { continue }
            _ = await process.terminate(with: SIGTERM, grace: .seconds(60))
        }
    }

    /// Samples every process's peak resident set every 2 s until `end`.
    func sample(until end: Date) async throws {
        while Date() < end {
            for (name, pid) in members.withLock({ $0.map { ($0.key, $0.value.process.pid) } }) { note(name, Self.peakRSS(pid)) }
            try await Task.sleep(for: .seconds(2))
        }
    }

    private func note(_ name: String, _ rss: Int) {
        members.withLock { if let current = $0[name]?.peakRSSMB, rss > current { $0[name]?.peakRSSMB = rss } }
    }

    var peakRSS: [String: Int] { members.withLock { $0.mapValues(\.peakRSSMB) } }
    var restarts: [String: Int] { members.withLock { $0.mapValues(\.restarts) } }

    func stopAll() {
        for member in members.withLock({ Array($0.values) }) { member.process.signal(SIGTERM) }
    }

    static func peakRSS(_ pid: pid_t) -> Int { Int(AlfredBench.peakRSSMegabytes(pid)) }
}

/// What a user would have seen, from the ledger, the queue and the APNs stand-in, read after the
/// workers stopped.
enum ChaosReport {
    /// Per user index, the reminder rows of the ledger.
    static func reminderRows(_ client: PostgresClient, ids: [UUID],
                             logger: Logger) async throws -> [Int: [(state: String, lateness: Double?, scheduled: Date)]] {
        let index = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($0.element, $0.offset) })
        var byUser: [Int: [(state: String, lateness: Double?, scheduled: Date)]] = [:]
        for try await (user, state, lateness, scheduled) in try await client.query("""
            SELECT user_id, state, extract(epoch FROM first_accepted_at - scheduled_at)::float8, scheduled_at
            FROM notifications WHERE kind = 'meeting.reminder'
            """, logger: logger).decode((UUID, String, Double?, Date).self) {
            guard let user = index[user] else { continue }
            byUser[user, default: []].append((state, lateness, scheduled))
        }
        return byUser
    }

    /// Meetings the Google stand-in was told about that have no ledger row (users left out).
    static func missingFromLedger(_ client: PostgresClient, plan: LoadPlan, ids: [UUID], excluded: Set<Int>, logger: Logger) async throws -> Int {
        let byUser = try await reminderRows(client, ids: ids, logger: logger)
        return (0..<plan.users).filter { !excluded.contains($0) }.reduce(0) { $0 + max(0, plan.meetingStarts[$1].count - (byUser[$1]?.count ?? 0)) }
    }

    static func measure(plan: LoadPlan, ids: [UUID], tokens: [String], runStart: Date, runSeconds: Double, setupOverrun: Double,
                        revoked: Set<Int>, unregistered: Set<Int>, faults: [FaultLog.Entry], mailSent: Int, client: PostgresClient,
                        apnsRoot: String, http: HTTPClient, fleet: Fleet,
                        logger: Logger) async throws -> (report: [String: Any], device: DeviceAudit, shown: [APNsDelivery], ledger: [DeviceAudit.LedgerRow], missing: Int) {
        let runEnd = runStart.addingTimeInterval(runSeconds)
        do {
            // Reminders: one ledger row per meeting, by user and scheduled time.
            let byUser = try await reminderRows(client, ids: ids, logger: logger)
            let excluded = revoked.union(unregistered)
            var due = 0, onTime = 0, late = 0, missing = 0, doubled = 0
            var failed: [String: Int] = [:], lateness: [(Double, Date)] = []
            for user in 0..<plan.users where !excluded.contains(user) {
                let rows = byUser[user] ?? []
                due += plan.meetingStarts[user].count
                // The ledger names no meeting (only the user and the reminder's time), so rows are
                // matched by count: fewer than the user's meetings is a lost reminder, more a doubled one.
                missing += max(0, plan.meetingStarts[user].count - rows.count)
                doubled += max(0, rows.count - plan.meetingStarts[user].count)
                for row in rows {
                    if row.state == "delivered", let seconds = row.lateness {
                        lateness.append((seconds, row.scheduled))
                        if seconds <= 60 { onTime += 1 } else { late += 1 }
                    } else {
                        failed[row.state, default: 0] += 1
                    }
                }
            }
            // Reminder jobs given up on, by their recorded reason (the ledger row may not exist yet).
            var discarded: [String: Int] = [:]
            for try await reason in try await client.query("""
                SELECT coalesce(left(last_error, 80), '?') FROM jobs WHERE kind = 'meeting.reminder' AND state = 'discarded'
                """, logger: logger).decode(String.self) {
                discarded[reason, default: 0] += 1
            }
            // The reminders later than 5 s, grouped by how their push went (attempts, claimed and
            // finished relative to the time due): where lateness came from, not only how much.
            var lateGroups: [String: (count: Int, first: Double, last: Double, worst: Double)] = [:]
            for try await (offset, seconds, attempts, created, claimed) in try await client.query("""
                SELECT extract(epoch FROM n.scheduled_at - \(runStart))::float8, extract(epoch FROM n.first_accepted_at - n.scheduled_at)::float8,
                       coalesce(j.attempts, -1), extract(epoch FROM j.created_at - n.scheduled_at)::float8,
                       extract(epoch FROM j.last_run_at - n.scheduled_at)::float8
                FROM notifications n LEFT JOIN jobs j ON j.id = n.job_id
                WHERE n.kind = 'meeting.reminder' AND n.first_accepted_at - n.scheduled_at > interval '5 seconds'
                """, logger: logger).decode((Double, Double, Int, Double?, Double?).self) {
                let key = "push attempts \(attempts), enqueued \(created.map { String(format: "%+.0f", $0) } ?? "?") s, "
                    + "last claimed \(claimed.map { String(format: "%+.0f", $0) } ?? "?") s from due"
                var group = lateGroups[key] ?? (0, .infinity, -.infinity, 0)
                group.count += 1
                group.first = min(group.first, offset); group.last = max(group.last, offset); group.worst = max(group.worst, seconds)
                lateGroups[key] = group
            }
            // The 20 largest groups (`reminders.later_than_5_s` counts them all).
            let lateReminders: [[String: Any]] = lateGroups.sorted { $0.value.count > $1.value.count }.prefix(20).map {
                ["how": $0.key, "count": $0.value.count, "due_from_s": round($0.value.first), "due_to_s": round($0.value.last),
                 "max_lateness_s": round3($0.value.worst)]
            }
            // Due before the run ended and still not run, or still claimed, after the drain.
            let lost = try await count(client, "SELECT count(*)::int FROM jobs WHERE state = 'queued' AND due_at < \(runEnd.addingTimeInterval(-5))", logger)
            // Stuck: still claimed, with a lease that ran out longer ago than a rescue interval (10 s,
            // `alfred worker`'s default) plus a margin. A job running right now (a recurring mail
            // check) is not stuck.
            let stuck = try await count(client, "SELECT count(*)::int FROM jobs WHERE state = 'running' AND leased_until < now() - interval '20 seconds'", logger)
            let runningAtCount = try await count(client, "SELECT count(*)::int FROM jobs WHERE state = 'running'", logger)
            // From each process fault to the first job claimed and the first job finished after it
            // (completed, or a push APNs accepted), by the database's clock; and how late the
            // reminders due in the minute after it were (the measure that matters when work was due).
            var recovery: [[String: Any]] = []
            var worstRecovery = 0.0
            for fault in faults where !fault.burst {
                // Measured from the fault's start to the first claim and completion once it was over.
                let rows = try await client.query("""
                    SELECT extract(epoch FROM (SELECT min(last_run_at) FROM jobs WHERE last_run_at > \(fault.over)) - \(fault.at))::float8,
                           extract(epoch FROM least(
                               (SELECT min(finished_at) FROM jobs WHERE state = 'completed' AND finished_at > \(fault.over)),
                               (SELECT min(first_accepted_at) FROM notifications WHERE first_accepted_at > \(fault.over))) - \(fault.at))::float8
                    """, logger: logger).collect()
                let (claim, completion) = try rows.first?.decode((Double?, Double?).self) ?? (nil, nil)
                let dueNext = lateness.filter { $0.1 >= fault.at && $0.1 < fault.at.addingTimeInterval(60) }
                if !dueNext.isEmpty { worstRecovery = max(worstRecovery, completion ?? .infinity) }
                recovery.append(["fault": fault.name, "at_s": round(fault.at.timeIntervalSince(runStart)),
                                 "confirmed": fault.confirmation.confirmed, "evidence": fault.confirmation.evidence,
                                 "first_claim_after_s": claim.map(round3) ?? -1, "first_completion_after_s": completion.map(round3) ?? -1,
                                 "reminders_due_in_next_60_s": dueNext.count,
                                 "their_max_lateness_s": dueNext.map(\.0).max().map(round3) ?? -1])
            }
            var finished: [String: Any] = [:]
            for try await (kind, state, count) in try await client.query("""
                SELECT kind, state, count(*)::int FROM jobs GROUP BY 1, 2 ORDER BY 1, 2
                """, logger: logger).decode((String, String, Int).self) {
                finished["\(kind) \(state)"] = count
            }
            // Briefs of the users who kept their grant and device: a brief is composed five minutes
            // ahead, so one composed before its user's grant was revoked may still go out.
            let keptIDs = ids.enumerated().filter { !excluded.contains($0.offset) }.map(\.element)
            let briefsDelivered = try await client.query("""
                SELECT count(*)::int FROM notifications WHERE kind = 'morning.brief' AND state = 'delivered' AND user_id = ANY(\(keptIDs))
                """, logger: logger).collect().first?.decode(Int.self) ?? -1
            let urgentDelivered = try await count(client, "SELECT count(*)::int FROM notifications WHERE kind = 'mail.urgent' AND state = 'delivered'", logger)
            // What the APNs stand-in accepted: copies of one notification carry one collapse id.
            let deliveries = try await fetch(apnsRoot + "/_fake/deliveries", http: http)
            var copies: [String: Int] = [:]
            for delivery in deliveries {
                let key = "\(delivery["deviceToken"] ?? delivery["device_token"] ?? "?")|\(delivery["collapseID"] ?? delivery["collapse_id"] ?? "none")"
                copies[key, default: 0] += 1
            }
            let acceptedMoreThanOnce = copies.values.filter { $0 > 1 }.count
            let deviceOf = Dictionary(uniqueKeysWithValues: zip(ids, tokens).filter { !$0.1.isEmpty })
            let (device, shownList, ledger) = try await DeviceAudit.read(client: client, apnsRoot: apnsRoot, http: http, deviceOf: deviceOf, logger: logger)
            let shown = shownList.count

            let windows = faults.filter { !$0.burst }.map { ($0.at, $0.at.addingTimeInterval(60)) }
            let sorted = lateness.map(\.0).sorted()
            let quiet = lateness.filter { late in !windows.contains { late.1 >= $0.0 && late.1 <= $0.1 } }.map(\.0).sorted()
            func p99(_ values: [Double]) -> Double { values.isEmpty ? -1 : round3(values[min(values.count - 1, Int(Double(values.count) * 0.99))]) }
            let report: [String: Any] = [
                "users": plan.users, "run_seconds": runSeconds,
                "reminders": [
                    "due": due, "delivered_on_time": onTime, "delivered_late": late, "failed_by_reason": failed,
                    "missing_from_ledger": missing, "more_ledger_rows_than_meetings": doubled, "jobs_discarded_by_reason": discarded,
                    "on_time_ratio": due == 0 ? 0 : round3(Double(onTime) / Double(due)),
                    "lateness_p99_s": p99(sorted), "lateness_p99_outside_fault_windows_s": p99(quiet),
                    "lateness_max_s": sorted.last.map(round3) ?? -1, "later_than_5_s": sorted.filter { $0 > 5 }.count,
                    "excluded_users": ["grant_revoked": revoked.count, "device_unregistered": unregistered.count],
                ],
                "briefs": ["due": plan.briefs.count - excluded.count, "delivered": briefsDelivered],
                "urgent_mail": ["messages_sent": mailSent, "alerts_delivered": urgentDelivered],
                "apns": ["accepted": deliveries.count, "shown_on_devices": shown,
                         "notifications_accepted_more_than_once_same_collapse_id": acceptedMoreThanOnce].merging(device.json) { $1 },
                "faults_unconfirmed": faults.filter { !$0.confirmation.confirmed }.map { "\($0.name): \($0.confirmation.evidence)" },
                "setup_overrun_s": round3(setupOverrun),
                "jobs_lost": lost, "jobs_stuck_running": stuck, "jobs_running_when_counted": runningAtCount, "jobs_by_kind_and_state": finished,
                "recovery_after_fault": recovery, "reminders_later_than_5_s": lateReminders,
                "max_recovery_s_where_reminders_were_due": round3(worstRecovery),
                "error_bursts_injected": faults.filter(\.burst).count,
                "peak_rss_mb": fleet.peakRSS, "restarts": fleet.restarts,
            ]
            return (report, device, shownList, ledger, missing)
        }
    }

    static func round3(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }

    static func count(_ client: PostgresClient, _ query: PostgresQuery, _ logger: Logger) async throws -> Int {
        try await client.query(query, logger: logger).collect().first?.decode(Int.self) ?? 0
    }

    static func fetch(_ url: String, http: HTTPClient) async throws -> [[String: Any]] {
        let response = try await http.execute(HTTPClientRequest(url: url), timeout: .seconds(120))
        let body = try await response.body.collect(upTo: 1 << 30)
        return (try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [[String: Any]]) ?? []
    }
}
