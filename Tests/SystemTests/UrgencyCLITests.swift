import AlfredTestCluster
import Foundation
import Testing

/// `alfred urgency score` as an operator runs it: the built binary on the labelled fixture set, read
/// from a file and from standard input, and on broken input.
@Suite(.timeLimit(.minutes(10))) struct UrgencyCLITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("UrgencyTests/Fixtures")
    static let messages = fixtures.appendingPathComponent("messages.jsonl").path
    static let preferences = fixtures.appendingPathComponent("preferences.json").path

    /// The JSON lines of the output (stdout and stderr arrive interleaved in one file).
    func decisions(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").filter { $0.hasPrefix("{") }.map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    func temporaryFile(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("urgency-\(UUID().uuidString)").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func scoresTheFixtureSetOneLinePerMessage() async throws {
        let result = try await run(AlfredBinary.path, ["urgency", "score", Self.messages, "--preferences", Self.preferences])
        #expect(result.code == 0, "\(result.output.suffix(2000))")
        let inputIDs = try String(contentsOfFile: Self.messages, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])["id"] as? String
        }
        let lines = result.output.split(separator: "\n")
        #expect(lines.count == inputIDs.count, "exactly one line per message, nothing else")
        #expect(lines.allSatisfy { $0.hasPrefix(#"{"id":""#) && !$0.contains("\n") })
        let output = try decisions(result.output)
        #expect(output.map { $0["id"] as? String } == inputIDs, "in input order")
        for decision in output {
            #expect(Set(decision.keys) == ["id", "urgent", "score", "rules", "rule_set_version"])
            #expect(decision["urgent"] is Bool && decision["score"] is Int && decision["rule_set_version"] is String)
            let rules = try #require(decision["rules"] as? [[String: Any]])
            #expect(rules.allSatisfy { $0["id"] is String && $0["weight"] is Int })
            #expect(rules.compactMap { $0["weight"] as? Int }.reduce(0, +) == decision["score"] as? Int)
        }

        // The rule set evaluated from outside: the same floors as UrgencyEvaluationTests.
        let labels = try JSONDecoder().decode([String: Bool].self, from: Data(contentsOf: Self.fixtures.appendingPathComponent("labels.json")))
        var truePositives = 0, falsePositives = 0, falseNegatives = 0
        for decision in output {
            let id = try #require(decision["id"] as? String)
            switch (try #require(labels[id] as Bool?), try #require(decision["urgent"] as? Bool)) {
            case (true, true): truePositives += 1
            case (false, true): falsePositives += 1
            case (true, false): falseNegatives += 1
            case (false, false): break
            }
        }
        let precision = Double(truePositives) / Double(truePositives + falsePositives)
        let recall = Double(truePositives) / Double(truePositives + falseNegatives)
        #expect(precision >= 0.88 && recall >= 0.86, "precision \(precision) recall \(recall)")
    }

    @Test func readsStandardInputAndAppliesQuietHoursAndRuleFiles() async throws {
        let binary = try AlfredBinary.path
        let piped = try await run("/bin/sh", ["-c", #"exec "$0" urgency score - --preferences "$1" < "$2""#, binary, Self.preferences, Self.messages])
        let fromFile = try await run(binary, ["urgency", "score", Self.messages, "--preferences", Self.preferences])
        #expect(piped.code == 0)
        #expect(piped.output == fromFile.output, "stdin and a file give the same decisions")

        let quiet = try await run(binary, ["urgency", "score", Self.messages, "--preferences", Self.preferences, "--quiet-hours"])
        let urgentCount = { (output: String) in try self.decisions(output).filter { $0["urgent"] as? Bool == true }.count }
        #expect(try urgentCount(quiet.output) < urgentCount(fromFile.output))
        #expect(try urgentCount(quiet.output) > 0)

        let rules = try temporaryFile(#"{"version": "cli-test.1", "threshold": 10, "quiet_hours_threshold": 20, "weights": {"gmail_starred": 15}}"#)
        defer { try? FileManager.default.removeItem(atPath: rules) }
        let custom = try await run(binary, ["urgency", "score", Self.messages, "--rules", rules])
        let customDecisions = try decisions(custom.output)
        #expect(custom.code == 0)
        #expect(customDecisions.allSatisfy { $0["rule_set_version"] as? String == "cli-test.1" })
        #expect(customDecisions.filter { $0["urgent"] as? Bool == true }.allSatisfy {
            ($0["rules"] as? [[String: Any]])?.map { $0["id"] as? String } == ["gmail_starred"]
        })
    }

    @Test func aMalformedLineIsReportedSkippedAndFailsTheRunAtTheEnd() async throws {
        let input = try temporaryFile("""
            {"id":"first","labelIds":["INBOX","IMPORTANT"],"payload":{"headers":[{"name":"Subject","value":"Dringend"}]}}

            {"id":"second", "labelIds": [
            {"threadId":"no-id"}
            {"id":"third","labelIds":["SPAM"]}
            """)
        defer { try? FileManager.default.removeItem(atPath: input) }
        let result = try await run(AlfredBinary.path, ["urgency", "score", input])
        #expect(result.code == 1)
        #expect(try decisions(result.output).map { $0["id"] as? String } == ["first", "third"], "the good lines are still scored")
        #expect(result.output.contains("line 3: not valid JSON; skipped"), "\(result.output)")
        #expect(result.output.contains("line 4: missing field 'id'; skipped"), "\(result.output)")
        #expect(!result.output.contains("line 2"), "an empty line is not an error")
        #expect(!result.output.contains("no-id"), "errors never echo the line")
    }

    @Test(arguments: [
        (["urgency", "score", "/nonexistent/messages.jsonl"], "cannot read /nonexistent/messages.jsonl"),
        (["urgency", "score", "-", "--rules", "/nonexistent/rules.json"], "rule set unreadable"),
        (["urgency", "score", "-", "--preferences", "/nonexistent/prefs.json"], "preferences: cannot read"),
    ])
    func unusableInputFilesStopWithAClearError(arguments: [String], message: String) async throws {
        let result = try await run(AlfredBinary.path, arguments)
        #expect(result.code == 1)
        #expect(result.output.contains(message), "\(result.output)")
    }

    @Test func anInvalidPreferencesFileNamesTheField() async throws {
        let preferences = try temporaryFile(#"{"time_zone": "Mars/Olympus"}"#)
        defer { try? FileManager.default.removeItem(atPath: preferences) }
        let result = try await run(AlfredBinary.path, ["urgency", "score", Self.messages, "--preferences", preferences])
        #expect(result.code == 1)
        #expect(result.output.contains("'time_zone'") && result.output.contains("not an IANA time zone"), "\(result.output)")
        #expect(try decisions(result.output).isEmpty, "nothing is scored with preferences that cannot be read")
    }
}
