import Foundation

/// The repository's `ops/` tree as the tests see it: paths, the Prometheus rule files (read with a
/// small line scanner: no YAML library here, and promtool has already checked the syntax), the
/// metric names the code exports, and Markdown anchors.
public enum OpsFiles {
    public static let root = Repository.root

    public static func url(_ relative: String) -> URL { root.appendingPathComponent(relative) }

    public static func text(_ relative: String) throws -> String {
        try String(contentsOf: url(relative), encoding: .utf8)
    }

    /// Repository-relative paths of the files in `directory` ending in `suffix`, sorted.
    public static func files(in directory: String, suffix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url(directory).path)
            .filter { $0.hasSuffix(suffix) }.sorted().map { "\(directory)/\($0)" }
    }

    public static var ruleFiles: [String] { get throws { try files(in: "ops/prometheus/rules", suffix: ".yml") } }
    public static var ruleTestFiles: [String] { get throws { try files(in: "ops/prometheus/tests", suffix: ".yml") } }
    public static let dashboard = "ops/grafana/alfred-slo-dashboard.json"
    public static let prometheusConfig = "ops/prometheus/prometheus.yml"

    public struct DashboardQuery: Sendable { public let panel: String; public let expr: String }

    /// The Grafana dashboard's JSON.
    public static func dashboardJSON() throws -> [String: Any] {
        let data = try Data(contentsOf: url(dashboard))
        guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw OpsFileError("\(dashboard) is not a JSON object")
        }
        return json
    }

    /// Its panels, rows' panels included.
    public static func dashboardPanels() throws -> [[String: Any]] {
        func flatten(_ panels: [[String: Any]]) -> [[String: Any]] {
            panels.flatMap { [$0] + flatten($0["panels"] as? [[String: Any]] ?? []) }
        }
        return flatten(try dashboardJSON()["panels"] as? [[String: Any]] ?? [])
    }

    /// Every PromQL query of its panels.
    public static func dashboardQueries() throws -> [DashboardQuery] {
        try dashboardPanels().flatMap { panel in
            (panel["targets"] as? [[String: Any]] ?? []).compactMap { target in
                (target["expr"] as? String).map { DashboardQuery(panel: panel["title"] as? String ?? "?", expr: $0) }
            }
        }
    }

    /// Every rule in ops/prometheus/rules.
    public static var rules: [Rule] { get throws { try ruleFiles.flatMap { Rule.scan(try text($0), file: $0) } } }

    /// Every metric name declared in Sources/AlfredCore/MetricNames.swift.
    public static var exportedMetrics: Set<String> {
        get throws {
            let source = try text("Sources/AlfredCore/MetricNames.swift")
            return Set(source.matches(of: #/"(alfred_[a-z0-9_]+)"/#).map { String($0.output.1) })
        }
    }

    /// Scrape job names in prometheus.yml.
    public static var scrapeJobs: Set<String> {
        get throws {
            Set(try text(prometheusConfig).matches(of: #/job_name:\s*"?([A-Za-z0-9_.-]+)"?/#).map { String($0.output.1) })
        }
    }
}

/// One entry of a Prometheus rule file: `- alert: Name` or `- record: name`, its expression, and
/// every `key: value` below it (labels and annotations flattened: `severity`, `summary`, ...).
public struct Rule: CustomStringConvertible {
    public enum Kind: String, Sendable { case alert, record }
    public let kind: Kind
    public let name: String
    public let file: String
    public var expr = ""
    public var fields: [String: String] = [:]

    public var description: String { "\(kind.rawValue) \(name) (\(file))" }

    /// Scans the block-style YAML the rule files are written in. Multi-line values (`|`, `>-`) are
    /// joined with spaces, which is enough to check presence and to find names in expressions.
    public static func scan(_ text: String, file: String) -> [Rule] {
        var rules: [Rule] = []
        var current: Rule?
        var ruleIndent = 0
        var blockKey: String?
        var blockIndent = 0
        func indent(of line: Substring) -> Int { line.prefix(while: { $0 == " " }).count }
        func finish() { if let rule = current { rules.append(rule) }; current = nil; blockKey = nil }

        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let lineIndent = indent(of: raw)
            if let key = blockKey {
                if lineIndent > blockIndent {
                    let previous = key == "expr" ? current?.expr ?? "" : current?.fields[key] ?? ""
                    let joined = previous.isEmpty ? line : previous + " " + line
                    if key == "expr" { current?.expr = joined } else { current?.fields[key] = joined }
                    continue
                }
                blockKey = nil
            }
            if let match = line.wholeMatch(of: #/- (alert|record):\s*(\S+)/#) {
                finish()
                current = Rule(kind: Kind(rawValue: String(match.output.1))!, name: String(match.output.2), file: file)
                ruleIndent = lineIndent
                continue
            }
            guard current != nil else { continue }
            if lineIndent <= ruleIndent { finish(); continue }
            guard let match = line.wholeMatch(of: #/([A-Za-z_]+):\s*(.*)/#) else { continue }
            let key = String(match.output.1)
            var value = String(match.output.2)
            if ["|", "|-", ">", ">-"].contains(value) {
                blockKey = key
                blockIndent = lineIndent
                value = ""
            }
            value = value.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            if key == "expr" { current?.expr = value } else { current?.fields[key] = value }
        }
        finish()
        return rules
    }
}

/// Metric and recording-rule names inside PromQL text.
public enum PromQLNames {
    /// `alfred_*` series names, with histogram suffixes (`_bucket`, `_count`, `_sum`) kept.
    public static func metrics(in expr: String) -> Set<String> {
        Set(expr.matches(of: #/\balfred_[a-z0-9_]+/#).map { String($0.output) })
    }

    /// `alfred:...` recording-rule names.
    public static func recordingRules(in expr: String) -> Set<String> {
        Set(expr.matches(of: #/\balfred:[a-zA-Z0-9_:]+/#).map { String($0.output) })
    }

    /// Values of `job="..."` matchers.
    public static func jobs(in expr: String) -> Set<String> {
        Set(expr.matches(of: #/\bjob\s*=\s*"([^"]+)"/#).map { String($0.output.1) })
    }

    /// Whether `name` is exported by the code: exactly, or as a histogram's `_bucket`/`_count`/`_sum`.
    public static func isExported(_ name: String, by exported: Set<String>) -> Bool {
        if exported.contains(name) { return true }
        for suffix in ["_bucket", "_count", "_sum"] where name.hasSuffix(suffix) {
            if exported.contains(String(name.dropLast(suffix.count))) { return true }
        }
        return false
    }
}

/// GitHub's heading anchors: lower case; letters, digits, spaces, hyphens and underscores kept;
/// spaces become hyphens; a repeated heading gets `-1`, `-2`, ...
public enum MarkdownAnchors {
    public static func anchors(in markdown: String) -> Set<String> {
        var seen: [String: Int] = [:]
        var result: Set<String> = []
        var inFence = false
        for raw in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("```") { inFence.toggle(); continue }
            guard !inFence, let match = line.wholeMatch(of: #/#{1,6}\s+(.+)/#) else { continue }
            let slug = slug(String(match.output.1))
            let count = seen[slug, default: 0]
            seen[slug] = count + 1
            result.insert(count == 0 ? slug : "\(slug)-\(count)")
        }
        return result
    }

    public static func slug(_ heading: String) -> String {
        String(heading.lowercased().compactMap { character -> Character? in
            if character == " " { return "-" }
            if character.isLetter || character.isNumber || character == "-" || character == "_" { return character }
            return nil
        })
    }
}


public struct OpsFileError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
