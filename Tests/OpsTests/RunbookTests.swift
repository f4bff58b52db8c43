import AlfredTestKit
import Foundation
import Testing

/// Runbooks: every alert's runbook_url leads to an existing file and heading, and the runbooks'
/// own links between each other resolve.
@Suite(.timeLimit(.minutes(5))) struct RunbookTests {
    @Test func everyRunbookURLPointsToAHeading() throws {
        let alerts = try OpsFiles.rules.filter { $0.kind == .alert }
        #expect(!alerts.isEmpty)
        for alert in alerts {
            let url = try #require(alert.fields["runbook_url"], "\(alert): no runbook_url")
            let parts = url.split(separator: "#", maxSplits: 1).map(String.init)
            #expect(parts.count == 2 && parts[0].hasPrefix("ops/runbooks/") && parts[0].hasSuffix(".md"),
                    "\(alert): runbook_url \(url) is not ops/runbooks/<file>.md#<anchor>")
            guard parts.count == 2 else { continue }
            let markdown = try? OpsFiles.text(parts[0])
            #expect(markdown != nil, "\(alert): \(parts[0]) does not exist")
            let anchors = MarkdownAnchors.anchors(in: markdown ?? "")
            #expect(anchors.contains(parts[1]), "\(alert): \(parts[0]) has no heading #\(parts[1]); it has \(anchors.sorted())")
        }
    }

    /// Relative links in ops/runbooks/*.md and ops/README.md (`[x](file.md#anchor)`, `[x](#anchor)`).
    @Test func runbookLinksResolve() throws {
        let documents = try OpsFiles.files(in: "ops/runbooks", suffix: ".md") + ["ops/README.md"]
        for document in documents {
            let markdown = try OpsFiles.text(document)
            let directory = document.split(separator: "/").dropLast().joined(separator: "/")
            for match in markdown.matches(of: #/\]\(([^)\s]+)\)/#) {
                let target = String(match.output.1)
                if target.contains("://") || target.hasPrefix("mailto:") { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let file = parts[0].isEmpty ? document : Self.normalize(directory + "/" + parts[0])
                #expect(FileManager.default.fileExists(atPath: OpsFiles.url(file).path), "\(document): link \(target) -> missing \(file)")
                if parts.count == 2, file.hasSuffix(".md"), let text = try? OpsFiles.text(file) {
                    #expect(MarkdownAnchors.anchors(in: text).contains(parts[1]), "\(document): link \(target) -> no such heading")
                }
            }
        }
    }

    /// "ops/runbooks/../README.md" -> "ops/README.md".
    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == "..", !parts.isEmpty { parts.removeLast(); continue }
            parts.append(part)
        }
        return parts.joined(separator: "/")
    }

    @Test func slugsFollowGitHub() {
        #expect(MarkdownAnchors.slug("ReminderDeliveryErrorBudgetBurn") == "reminderdeliveryerrorbudgetburn")
        #expect(MarkdownAnchors.slug("Why was the broker denied?") == "why-was-the-broker-denied")
        #expect(MarkdownAnchors.slug("Reader's guide: the SLO row (30 d)") == "readers-guide-the-slo-row-30-d")
    }
}
