import AlfredTestKit
import Foundation
import Testing

/// What every rule must carry, and that the names it uses exist.
@Suite(.timeLimit(.minutes(10))) struct AlertRuleTests {
    static let severities: Set<String> = ["page", "ticket"]

    @Test func everyAlertHasSeverityAnnotationsAndRunbook() throws {
        let alerts = try OpsFiles.rules.filter { $0.kind == .alert }
        #expect(alerts.count >= 10, "\(alerts.map(\.name))")
        for alert in alerts {
            let severity = alert.fields["severity"]
            #expect(severity.map(Self.severities.contains) == true, "\(alert): severity \(severity ?? "missing")")
            for key in ["summary", "description", "runbook_url"] {
                #expect(!(alert.fields[key] ?? "").isEmpty, "\(alert): no \(key)")
            }
            #expect(!alert.expr.isEmpty, "\(alert): no expr")
        }
    }

    @Test func ruleNamesAreUnique() throws {
        var seen: [String: Rule] = [:]
        for rule in try OpsFiles.rules {
            #expect(seen[rule.name] == nil, "\(rule) is also defined as \(seen[rule.name].map(\.description) ?? "")")
            seen[rule.name] = rule
        }
    }

    /// The SLO alerts and recording rules the spec (external-apis.md §7) and the dashboard rely on.
    @Test func sloRulesExist() throws {
        let rules = try OpsFiles.rules
        let names = Set(rules.map(\.name))
        for window in ["5m", "30m", "1h", "6h", "3d"] {
            for name in ["alfred:reminder_events:rate\(window)", "alfred:reminder_good:rate\(window)",
                         "alfred:reminder_slo_errors:ratio_rate\(window)", "alfred:oauth_refresh_attempts:rate\(window)",
                         "alfred:oauth_refresh_failures:rate\(window)", "alfred:oauth_refresh_errors:ratio_rate\(window)",
                         "alfred:api_requests:rate\(window)", "alfred:api_failures:rate\(window)", "alfred:api_slo_errors:ratio_rate\(window)"] {
                #expect(names.contains(name), "missing recording rule \(name)")
            }
        }
        let alerts = Dictionary(uniqueKeysWithValues: rules.filter { $0.kind == .alert }.map { ($0.name, $0) })
        for (name, severity) in [("ReminderDeliveryErrorBudgetBurn", "page"), ("ReminderDeliveryErrorBudgetBurnSlow", "ticket"),
                                 ("OAuthRefreshErrorBudgetBurn", "page"), ("OAuthRefreshErrorBudgetBurnSlow", "ticket"),
                                 ("APIAvailabilityErrorBudgetBurn", "page"), ("APIAvailabilityErrorBudgetBurnSlow", "ticket"),
                                 ("APIReadLatencyHigh", "ticket"), ("AlfredAPIDown", "page"), ("AlfredAPIInstanceDown", "ticket")] {
            #expect(alerts[name]?.fields["severity"] == severity, "\(name) should exist with severity \(severity)")
        }
        // The 60 s bucket is matched whichever way the exporter formats it.
        let good = rules.filter { $0.name.hasPrefix("alfred:reminder_good:") }
        #expect(good.allSatisfy { $0.expr.contains(#"le=~"60(\\.0)?""#) }, "\(good.map(\.expr))")
        // invalid_grant is neither a failure nor an attempt.
        for rule in rules where rule.name.hasPrefix("alfred:oauth_refresh_attempts:") || rule.name.hasPrefix("alfred:oauth_refresh_failures:") {
            #expect(rule.expr.contains("invalid_grant"), "\(rule) must leave invalid_grant out: \(rule.expr)")
        }
        // The API's SLI counts the app's routes only (not /healthz, /openapi.json or unmatched paths),
        // and only 5xx as failures; its latency rules read the 250 ms bucket of reads.
        for rule in rules where rule.name.hasPrefix("alfred:api_requests:") || rule.name.hasPrefix("alfred:api_failures:") {
            #expect(rule.expr.contains(#"route=~"/v1/.+""#), "\(rule) must count only routes under /v1/: \(rule.expr)")
            #expect(rule.name.hasPrefix("alfred:api_failures:") == rule.expr.contains(#"status_class="5xx""#), "\(rule): \(rule.expr)")
        }
        let slow = try #require(rules.first { $0.name == "alfred:api_reads_slow:rate5m" })
        #expect(slow.expr.contains(#"le="0.25""#) && slow.expr.contains(#"method="GET""#), "\(slow.expr)")
    }

    /// Every metric an expression names is one the code exports (MetricNames.swift), every
    /// alfred:* name is a recording rule defined here, every job="..." a scrape job.
    @Test func rulesUseOnlyKnownNames() throws {
        let rules = try OpsFiles.rules
        let exported = try OpsFiles.exportedMetrics
        let recorded = Set(rules.filter { $0.kind == .record }.map(\.name))
        let jobs = try OpsFiles.scrapeJobs
        for rule in rules {
            for metric in PromQLNames.metrics(in: rule.expr) {
                #expect(PromQLNames.isExported(metric, by: exported), "\(rule) uses \(metric), which MetricNames.swift does not declare")
            }
            for name in PromQLNames.recordingRules(in: rule.expr) {
                #expect(recorded.contains(name), "\(rule) uses \(name), which no recording rule defines")
            }
            for job in PromQLNames.jobs(in: rule.expr) {
                #expect(jobs.contains(job), "\(rule) selects job=\"\(job)\", which prometheus.yml does not scrape")
            }
        }
    }

    /// Each alert is exercised by a promtool unit test in which it is expected to fire.
    @Test func everyAlertIsUnitTested() throws {
        let tests = try OpsFiles.ruleTestFiles.map { try OpsFiles.text($0) }.joined(separator: "\n")
        for alert in try OpsFiles.rules where alert.kind == .alert {
            let firing = tests.matches(of: try Regex("alertname: \(alert.name)\\s+eval_time: \\S+\\s+exp_alerts:"))
            #expect(!firing.isEmpty, "no unit test in ops/prometheus/tests expects \(alert.name) to fire")
        }
    }
}
