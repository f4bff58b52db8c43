import AlfredTesting
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The README's run command, end to end: `alfred dev` starts the key service, broker and worker
/// processes and both stand-ins; a calendar event becomes a reminder at its minute, the APNs stand-in
/// accepts it, and the worker's lateness histogram has it. Ctrl-C stops everything cleanly.
@Suite struct DevCommandTests {
    @Test func aCalendarEventBecomesAPushAtItsMinuteWithLatenessInTheHistogram() async throws {
        let port = try EmbeddedPostgres.freePort()
        let dev = try ChildProcess(AlfredBinary.path, ["dev", "--first-meeting-in", "75", "--metrics-port", "\(port)"])
        defer {
            // On a failed expectation too: Ctrl-C lets dev stop its processes and its cluster.
            if dev.poll() == nil {
                dev.signal(SIGINT)
                let deadline = Date().addingTimeInterval(30)
                while dev.poll() == nil && Date() < deadline { usleep(100_000) }
                if dev.poll() == nil { dev.signal(SIGKILL) }
            }
        }
        // The meeting starts 75 s after the stand-in; its reminder is due at +15 s.
        #expect(try await eventually(timeout: .seconds(90)) { dev.output.contains("push  meeting.reminder") }, "\(dev.output)")
        let line = try #require(dev.output.split(separator: "\n").first { $0.contains("push  meeting.reminder") })
        #expect(line.contains("\"Board sync in 1 min\""))
        let lateness = try #require(line.firstMatch(of: /lateness (-?[0-9.]+) s/).flatMap { Double($0.1) }, "\(line)")
        #expect(lateness >= 0 && lateness < 5, "delivered at the reminder's minute: \(lateness) s late")

        let metrics = try await run("/usr/bin/curl", ["-s", "http://127.0.0.1:\(port)/metrics"])
        let count = metrics.output.split(separator: "\n").first { $0.hasPrefix("alfred_reminder_delivery_seconds_count") }
        #expect(count.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0 >= 1, "\(metrics.output.prefix(500))")
        #expect(metrics.output.contains(#"alfred_push_deliveries_total{kind="meeting.reminder",result="delivered"} 1"#))

        dev.signal(SIGINT)
        #expect(await dev.waitForExit(timeout: .seconds(30)) == 0, "\(dev.output.suffix(2000))")
        #expect(dev.output.contains("stopped; the private cluster"))
    }
}
