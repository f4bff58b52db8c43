import AlfredTestCluster
import Foundation
import Testing

/// `alfred-bench chaos`, short: the whole system as separate processes (Postgres, two workers, the
/// broker, the key service, the attestor, both stand-ins), 200 users with meetings and briefs for
/// two minutes while its seeded schedule kills workers, the broker and the key service, restarts
/// Postgres (fast and immediate), and injects error bursts, resets and slow answers at the stand-ins.
///
/// Only what must hold however slow this machine is gets asserted: nothing lost, stranded, doubled
/// or failed, every reminder and brief delivered by the end, and the faults really happened.
/// Lateness is the bench's to report (`docs/benchmarks.md`), not a test's to assert.
///
/// The counting is the bench's audit, from outside the system once the workers stopped: the ledger
/// against what the Google stand-in was told, the APNs stand-in's device view against the ledger,
/// and each fault confirmed (pids changed, Postgres's start time moved, sockets and worker presence
/// back). The bench then plants one fault per check (a second copy pushed straight to the stand-in,
/// a ledger row deleted, a kill that never happened) and the run fails unless each is seen.
@Suite(.timeLimit(.minutes(20))) struct ChaosRunTests {
    @Test func twoMinutesUnderFaultsLoseDoubleAndStrandNothing() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("alfred-chaos-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("chaos.json").path
        // At the lowest CPU priority (its processes inherit it): the rest of the suite runs beside it
        // on the same cores, and its invariants do not depend on how fast it goes.
        let bench = try ChildProcess("/usr/bin/nice", ["-n", "19", try AlfredBinary.named("alfred-bench"),
            "chaos", "--users", "200", "--minutes", "2", "--drain-seconds", "60", "--seed", "1", "--output", output,
        ])
        let status = await bench.waitForExit(timeout: .seconds(18 * 60))
        try #require(status == 0, "\(bench.output.suffix(4000))")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any])
        func number(_ path: String...) -> Int? {
            var node: Any? = report
            for key in path { node = (node as? [String: Any])?[key] }
            return node as? Int
        }
        func empty(_ path: String...) -> Bool {
            var node: Any? = report
            for key in path { node = (node as? [String: Any])?[key] }
            return (node as? [String: Any])?.isEmpty == true
        }

        #expect(number("jobs_lost") == 0, "due and never run")
        #expect(number("jobs_stuck_running") == 0, "claimed, lease long gone, never rescued")
        let due = try #require(number("reminders", "due"))
        #expect(due > 300)
        #expect((number("reminders", "delivered_on_time") ?? 0) + (number("reminders", "delivered_late") ?? 0) == due,
                "every reminder delivered by the end")
        #expect(empty("reminders", "failed_by_reason"))
        #expect(empty("reminders", "jobs_discarded_by_reason"))
        #expect(number("reminders", "missing_from_ledger") == 0)
        #expect(number("reminders", "more_ledger_rows_than_meetings") == 0, "a meeting reminded twice")
        #expect(number("briefs", "delivered") == number("briefs", "due"))
        // What the devices show: each notification once, each explained by a ledger row.
        #expect(number("apns", "shown_more_than_once") == 0)
        #expect(number("apns", "shown_without_ledger_row") == 0)
        #expect(number("apns", "delivered_not_shown") == 0)
        // The faults ran, each confirmed from outside: workers killed and back, the broker and the
        // key service once each, Postgres restarted twice.
        #expect((report["faults_unconfirmed"] as? [Any])?.isEmpty == true, "\(report["faults_unconfirmed"] ?? "missing")")
        let recovery = report["recovery_after_fault"] as? [[String: Any]] ?? []
        let confirmed = recovery.filter { $0["confirmed"] as? Bool == true }.compactMap { $0["fault"] as? String }
        #expect(confirmed.filter { $0.hasPrefix("SIGKILL worker-") }.count >= 2, "\(confirmed)")
        #expect(confirmed.contains("SIGKILL broker") && confirmed.contains("SIGKILL keys"), "\(confirmed)")
        #expect(confirmed.filter { $0.hasPrefix("Postgres restart") }.count == 2, "\(confirmed)")
        #expect((number("error_bursts_injected") ?? 0) > 0)
        // Each check failed on its planted fault (the bench exits non-zero otherwise; read here too).
        let planted = report["planted_faults"] as? [String: Bool] ?? [:]
        #expect(planted == ["duplicate_push_seen": true, "dropped_ledger_row_seen": true, "skipped_fault_seen": true], "\(planted)")
    }
}
