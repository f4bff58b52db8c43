import AlfredTestCluster
import Foundation
import Testing

/// The Prometheus configuration, rules and rule unit tests, checked by promtool itself.
@Suite(.timeLimit(.minutes(10))) struct PromtoolTests {
    /// Also loads every rule file the config names (rule_files is relative to the config file).
    @Test func prometheusConfigIsValid() async throws {
        let result = try await Promtool.run(["check", "config", OpsFiles.prometheusConfig])
        #expect(result.code == 0, "\(result.output)")
        // The config must actually load the rules, not only parse: "SUCCESS: N rule files found".
        let ruleFiles = try OpsFiles.ruleFiles.count
        #expect(result.output.contains("SUCCESS: \(ruleFiles) rule files found"), "\(result.output)")
    }

    @Test func ruleFilesAreValid() async throws {
        let files = try OpsFiles.ruleFiles
        #expect(!files.isEmpty)
        let result = try await Promtool.run(["check", "rules"] + files)
        #expect(result.code == 0, "\(result.output)")
    }

    /// `promtool test rules`: the burn-rate scenarios (healthy, fast and slow burns, low traffic,
    /// invalid_grant) and the operational alerts. One file per case, run in parallel.
    @Test(arguments: try OpsFiles.ruleTestFiles)
    func ruleUnitTestsPass(file: String) async throws {
        let result = try await Promtool.run(["test", "rules", file])
        #expect(result.code == 0, "\(result.output)")
        #expect(result.output.contains("SUCCESS"), "\(result.output)")
    }

    /// Every rule file is exercised by some unit test file.
    @Test func everyRuleFileHasUnitTests() throws {
        let tested = try OpsFiles.ruleTestFiles.map { try OpsFiles.text($0) }.joined(separator: "\n")
        for file in try OpsFiles.ruleFiles {
            let name = URL(fileURLWithPath: file).lastPathComponent
            #expect(tested.contains("../rules/\(name)"), "no test in ops/prometheus/tests loads rules/\(name)")
        }
    }

    /// Every dashboard query parses as PromQL: each becomes a recording rule in a scratch rule file
    /// that promtool checks (Grafana's $__rate_interval replaced by a duration).
    @Test func dashboardQueriesParse() async throws {
        let queries = try OpsFiles.dashboardQueries()
        #expect(!queries.isEmpty)
        var yaml = "groups:\n  - name: dashboard-queries\n    rules:\n"
        for (index, query) in queries.enumerated() {
            let expr = query.expr.replacingOccurrences(of: "$__rate_interval", with: "5m")
            yaml += "      - record: dashboard:query_\(index + 1)\n        expr: |\n"
            yaml += expr.split(separator: "\n").map { "          \($0)\n" }.joined()
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("alfred-dashboard-\(UUID().uuidString).yml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await Promtool.run(["check", "rules", file.path])
        #expect(result.code == 0, "\(result.output)")
    }
}
