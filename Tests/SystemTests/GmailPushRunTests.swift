import AlfredTestCluster
import Foundation
import Testing

/// `alfred-bench gmail-push`, small: urgent mail from arrival to the alert through the production
/// path, every part its own process. A message lands in a watched mailbox at the Google stand-in, its
/// Pub/Sub push (OIDC token) goes to `alfred api`, the API brings the user's mail check forward, an
/// `alfred worker` reads the message's metadata with a token from the broker, the rules find it
/// urgent and the APNs stand-in accepts the alert.
///
/// Asserted: every message of both phases alerted (read from the APNs stand-in's device view), each
/// by its own acknowledged push; the planted pushes with another audience all refused by the API and
/// followed by no alert, which shows the alerts came through the push and not the hourly safety net.
/// Latency is the bench's to report (`docs/benchmarks.md`), not a test's to assert.
@Suite(.timeLimit(.minutes(15))) struct GmailPushRunTests {
    @Test func urgentMailArrivingInAWatchedMailboxAlertsThroughPubSubTheAPIAndAWorker() async throws {
        let bench = try ChildProcess("/usr/bin/nice", ["-n", "19", try AlfredBinary.named("alfred-bench"),
            "gmail-push", "--users", "40", "--rate", "4", "--seconds", "3", "--burst", "10", "--timeout", "300",
        ])
        let status = await bench.waitForExit(timeout: .seconds(13 * 60))
        try #require(status == 0, "\(bench.output.suffix(4000))")
        let last = try #require(bench.output.split(separator: "\n").last { $0.hasPrefix("{") })
        let report = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        let steady = try #require(report["steady"] as? [String: Any])
        let burst = try #require(report["burst"] as? [String: Any])

        #expect(steady["messages"] as? Int == 12 && steady["alerted"] as? Int == 12, "\(steady)")
        #expect(burst["messages"] as? Int == 10 && burst["alerted"] as? Int == 10, "\(burst)")
        #expect(report["not_alerted"] as? Int == 0)
        // One push per message, each acknowledged by the API (the planted five are refused).
        #expect(report["pubsub_pushes_acknowledged"] as? Int == 22, "\(report)")
        let requests = try #require(report["gmail_requests_during_pushes_by_method"] as? [String: Int])
        #expect((requests["gmail.history"] ?? 0) >= 22 && (requests["gmail.messages"] ?? 0) >= 22, "\(requests)")

        let planted = try #require(report["planted_wrong_audience"] as? [String: Any])
        #expect(planted["seen"] as? Bool == true, "\(planted)")
        #expect(planted["alerts"] as? Int == 0)
    }
}
