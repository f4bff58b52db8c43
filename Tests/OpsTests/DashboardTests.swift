import AlfredTestKit
import Foundation
import Testing

/// The Grafana dashboard: valid JSON for a current Grafana, a Prometheus data source variable, and
/// only names that exist.
@Suite(.timeLimit(.minutes(5))) struct DashboardTests {
    static func json() throws -> [String: Any] { try OpsFiles.dashboardJSON() }
    static func panels() throws -> [[String: Any]] { try OpsFiles.dashboardPanels() }
    static func queries() throws -> [OpsFiles.DashboardQuery] { try OpsFiles.dashboardQueries() }

    @Test func isAGrafanaDashboardWithAPrometheusVariable() throws {
        let dashboard = try Self.json()
        let schema = try #require(dashboard["schemaVersion"] as? Int)
        #expect((36...41).contains(schema), "schemaVersion \(schema)")
        #expect((dashboard["uid"] as? String)?.isEmpty == false)
        #expect((dashboard["title"] as? String)?.isEmpty == false)
        let variables = (dashboard["templating"] as? [String: Any])?["list"] as? [[String: Any]] ?? []
        let datasource = variables.first { $0["type"] as? String == "datasource" }
        #expect(datasource?["query"] as? String == "prometheus", "no Prometheus data source variable: \(variables)")
        let name = try #require(datasource?["name"] as? String)

        let panels = try Self.panels()
        let ids = panels.compactMap { $0["id"] as? Int }
        #expect(ids.count == panels.count && Set(ids).count == ids.count, "panel ids must be present and unique")
        for panel in panels where panel["type"] as? String != "row" {
            let title = panel["title"] as? String ?? "?"
            #expect(panel["gridPos"] is [String: Any], "\(title): no gridPos")
            let uid = (panel["datasource"] as? [String: Any])?["uid"] as? String
            #expect(uid == "${\(name)}", "\(title): data source \(uid ?? "none") is not the variable")
            #expect(!(panel["targets"] as? [[String: Any]] ?? []).isEmpty, "\(title): no query")
        }
    }

    /// Every metric a query names is exported by the code (MetricNames.swift), every alfred:* name
    /// is a recording rule in ops/prometheus/rules, and every job="..." a scrape job.
    @Test func queriesUseOnlyKnownNames() throws {
        let exported = try OpsFiles.exportedMetrics
        let recorded = Set(try OpsFiles.rules.filter { $0.kind == .record }.map(\.name))
        let jobs = try OpsFiles.scrapeJobs
        for query in try Self.queries() {
            for metric in PromQLNames.metrics(in: query.expr) {
                #expect(PromQLNames.isExported(metric, by: exported), "\(query.panel): \(metric) is not in MetricNames.swift")
            }
            for name in PromQLNames.recordingRules(in: query.expr) {
                #expect(recorded.contains(name), "\(query.panel): \(name) is not a recording rule")
            }
            for job in PromQLNames.jobs(in: query.expr) {
                #expect(jobs.contains(job), "\(query.panel): job \(job) is not scraped")
            }
            // Grafana-style job regexes (job=~"alfred-.*") must match some scrape job.
            for match in query.expr.matches(of: #/\bjob\s*=~\s*"([^"]+)"/#) {
                let pattern = try Regex("^(?:\(match.output.1))$")
                #expect(jobs.contains { $0.wholeMatch(of: pattern) != nil }, "\(query.panel): job=~\(match.output.1) matches no scrape job")
            }
        }
    }

    /// What the dashboard is for (issue #5): each of these metrics is on it.
    @Test func showsTheSLOAndDeliveryMetrics() throws {
        let exprs = try Self.queries().map(\.expr).joined(separator: "\n")
        for name in ["alfred:reminder_good:rate5m", "alfred:reminder_slo_errors:ratio_rate1h", "alfred_reminder_delivery_seconds_bucket",
                     "alfred_push_deliveries_total", "alfred_apns_requests_total", "alfred_oauth_refresh_total",
                     "alfred_urgent_mail_total", "alfred_urgent_feedback_total", "alfred_queue_ready_depth",
                     "alfred_queue_oldest_due_age_seconds", "alfred_job_duration_seconds_bucket",
                     "alfred_delete_all_duration_seconds_bucket", "alfred:api_failures:rate5m", "alfred:api_requests:rate5m",
                     "alfred:api_slo_errors:ratio_rate1h", "alfred_api_requests_total", "alfred_api_request_duration_seconds_bucket",
                     "alfred_api_sessions_total"] {
            #expect(exprs.contains(name), "the dashboard does not show \(name)")
        }
        #expect(exprs.contains("histogram_quantile(0.99, sum by (le) (rate(alfred_reminder_delivery_seconds_bucket"))
        #expect(exprs.contains("histogram_quantile(0.99, sum by (route, method, le) (rate(alfred_api_request_duration_seconds_bucket"))
        #expect(exprs.contains("sum by (route, status_class) (rate(alfred_api_requests_total"))
    }
}
