import AlfredTestCluster
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The README's run command, end to end: `alfred-dev` starts the API, key service, attestor, broker and worker
/// processes and the stand-ins; the demo user signs in, sets preferences and registers an iPhone through the API; a calendar event becomes a reminder at its minute, the APNs stand-in
/// accepts it, and the worker's lateness histogram has it. Ctrl-C stops everything cleanly.
@Suite(.timeLimit(.minutes(10))) struct DevCommandTests {
    @Test func aCalendarEventBecomesAPushAtItsMinuteWithLatenessInTheHistogram() async throws {
        let port = try EmbeddedPostgres.freePort()
        let dev = try ChildProcess(AlfredBinary.dev, [
            "--first-meeting-in", "75", "--metrics-port", "\(port)", "--api-port", "\(try EmbeddedPostgres.freePort())",
            "--apple-port", "\(try EmbeddedPostgres.freePort())", "--delete-all-after", "75",
        ])
        do {
            try await Self.checkTheReminder(dev, metricsPort: port)
        } catch {
            // On a failed check too: Ctrl-C lets dev stop its processes and its cluster.
            await dev.terminate(with: SIGINT)
            throw error
        }
        #expect(await dev.terminate(with: SIGINT) == 0, "\(dev.output.suffix(2000))")
        #expect(dev.output.contains("stopped; the private cluster"))
    }

    static func checkTheReminder(_ dev: ChildProcess, metricsPort port: Int) async throws {
        // The meeting starts 75 s after the stand-in; its reminder is due at +15 s, one minute before.
        #expect(try await eventually(timeout: .seconds(180)) { dev.output.contains("push  meeting.reminder") }, "\(dev.output)")
        let line = try #require(dev.output.split(separator: "\n").first { $0.contains("push  meeting.reminder") })
        #expect(line.contains("\"Board sync in 1 min\""))
        // Lateness is the stand-in's acceptance minus the reminder's scheduled time. The order of
        // events is what is checked: not before its minute, and before the meeting (60 s later) began.
        let lateness = try #require(line.firstMatch(of: /lateness (-?[0-9.]+) s/).flatMap { Double($0.1) }, "\(line)")
        #expect(lateness >= 0, "not delivered before its minute: \(lateness) s")
        #expect(lateness < 60, "delivered before the meeting began: \(lateness) s after the reminder's minute")

        // The stand-in prints the push as it accepts it; the worker counts it once the 200 is back and
        // recorded, a moment later (longer on a busy machine): wait for the count, then check it.
        let delivered = #"alfred_push_deliveries_total{kind="meeting.reminder",result="delivered"} 1"#
        var metrics = ""
        let counted = try await eventually(timeout: .seconds(60)) {
            metrics = (try? await run(try await Prerequisites.path(of: .curl), ["-s", "http://127.0.0.1:\(port)/metrics"]))?.output ?? ""
            return metrics.contains(delivered)
        }
        #expect(counted, "\(metrics.suffix(3000))")
        let count = metrics.split(separator: "\n").first { $0.hasPrefix("alfred_reminder_delivery_seconds_count") }
        #expect(count.flatMap { Double($0.split(separator: " ").last ?? "") } ?? 0 >= 1, "\(metrics.suffix(3000))")

        // The user came in through the API, and later left through it.
        #expect(dev.output.contains("signed in through the API"), "\(dev.output)")
        // The reminder above came from a connector the API created (start, consent, callback).
        #expect(dev.output.contains("connected Google through the API"), "\(dev.output)")
        // The urgent mail came by Gmail push: the stand-in's Pub/Sub push, verified by the API,
        // brought the mail check forward (the worker watches the mailbox on the dev topic).
        #expect(try await eventually(timeout: .seconds(180)) {
            dev.output.contains("gmail push  Pub/Sub -> API answered 202") && dev.output.contains("push  mail.urgent")
        }, "\(dev.output)")
        // Relay mode: the relay user's own mailbox got mail; Gmail's push became one silent wake-up.
        #expect(try await eventually(timeout: .seconds(120)) { dev.output.contains("push  mail.relay") }, "\(dev.output)")
        let relay = try #require(dev.output.split(separator: "\n").first { $0.contains("push  mail.relay") })
        #expect(relay.contains("(silent)") && !relay.contains("Lunch") && !relay.contains("noon"), "\(relay)")
        #expect(try await eventually(timeout: .seconds(180)) { dev.output.contains("delete-all completed") }, "\(dev.output.suffix(2000))")
        // One message in the relayed mailbox, one wake-up (by then well past it).
        #expect(dev.output.components(separatedBy: "push  mail.relay").count == 2, "\(dev.output)")
    }
}
