import AlfredCore
import Foundation

/// One line of a labelled corpus: `{"urgent", "language", "category", "persona", "note", "message"}`.
/// The label is the user's answer to "should this interrupt me now?".
public struct CorpusRecord: Sendable, Decodable {
    public var urgent: Bool
    public var language: String?
    public var category: String?
    public var persona: String?
    public var message: GmailMessage

    public init(urgent: Bool, language: String? = nil, category: String? = nil, persona: String? = nil, message: GmailMessage) {
        self.urgent = urgent; self.language = language; self.category = category; self.persona = persona; self.message = message
    }

    /// Decodes one JSONL line; nil for a blank one. Errors name the problem, never the line's text.
    public static func decode(_ line: some StringProtocol) throws(MessageLineError) -> CorpusRecord? {
        guard line.contains(where: { !$0.isWhitespace }) else { return nil }
        do {
            return try JSONDecoder().decode(CorpusRecord.self, from: Data(line.utf8))
        } catch let error as DecodingError {
            throw MessageLineError(reason: DecodingFailure.describe(error))
        } catch {
            throw MessageLineError(reason: "cannot decode")
        }
    }
}

/// Precision, recall and F1 from confusion counts.
public struct Confusion: Sendable, Equatable, Codable {
    public var truePositives = 0, falsePositives = 0, falseNegatives = 0, trueNegatives = 0
    public init() {}
    public var precision: Double { ratio(truePositives, truePositives + falsePositives) }
    public var recall: Double { ratio(truePositives, truePositives + falseNegatives) }
    public var f1: Double { precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall) }
    public var total: Int { truePositives + falsePositives + falseNegatives + trueNegatives }
    private func ratio(_ a: Int, _ b: Int) -> Double { b == 0 ? 0 : Double(a) / Double(b) }

    mutating func add(expected: Bool, predicted: Bool) {
        switch (expected, predicted) {
        case (true, true): truePositives += 1
        case (false, true): falsePositives += 1
        case (true, false): falseNegatives += 1
        case (false, false): trueNegatives += 1
        }
    }

    enum CodingKeys: String, CodingKey {
        case truePositives = "true_positives", falsePositives = "false_positives", falseNegatives = "false_negatives"
        case trueNegatives = "true_negatives", precision, recall, f1
    }
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(truePositives, forKey: .truePositives)
        try container.encode(falsePositives, forKey: .falsePositives)
        try container.encode(falseNegatives, forKey: .falseNegatives)
        try container.encode(trueNegatives, forKey: .trueNegatives)
        try container.encode((precision * 1000).rounded() / 1000, forKey: .precision)
        try container.encode((recall * 1000).rounded() / 1000, forKey: .recall)
        try container.encode((f1 * 1000).rounded() / 1000, forKey: .f1)
    }
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        truePositives = try container.decode(Int.self, forKey: .truePositives)
        falsePositives = try container.decode(Int.self, forKey: .falsePositives)
        falseNegatives = try container.decode(Int.self, forKey: .falseNegatives)
        trueNegatives = try container.decode(Int.self, forKey: .trueNegatives)
    }
}

/// The result of scoring a labelled corpus: overall and per-language numbers for the rules and for
/// the "urgent if Gmail marked it IMPORTANT" baseline, per-category catches and false alerts, and
/// each rule's part in true and false alerts. Message ids only: no subject, address or snippet.
public struct EvaluationReport: Sendable, Codable {
    public struct Category: Sendable, Equatable, Codable {
        public var labelledUrgent = 0, labelledNot = 0, alerted = 0
        /// Urgent messages of this category the rules caught / all urgent ones.
        public var recall: Double { labelledUrgent == 0 ? 0 : Double(min(alerted, labelledUrgent)) / Double(labelledUrgent) }
        enum CodingKeys: String, CodingKey { case labelledUrgent = "labelled_urgent", labelledNot = "labelled_not", alerted }
    }
    public struct RuleUse: Sendable, Equatable, Codable {
        public var trueAlerts = 0, falseAlerts = 0, missedUrgent = 0, quietNot = 0
        enum CodingKeys: String, CodingKey {
            case trueAlerts = "true_alerts", falseAlerts = "false_alerts", missedUrgent = "missed_urgent", quietNot = "quiet_not_urgent"
        }
    }
    /// A wrong decision: the message id, its labels' category and language, and the rules.
    public struct Miss: Sendable, Codable {
        public var id: String
        public var expected: Bool
        public var category: String
        public var language: String
        public var score: Int
        public var rules: [String]
    }

    public var ruleSetVersion: String
    public var messages: Int
    public var rules: Confusion
    public var baseline: Confusion
    public var perLanguage: [String: Confusion]
    public var baselinePerLanguage: [String: Confusion]
    public var perCategory: [String: Category]
    public var ruleUse: [String: RuleUse]
    public var misses: [Miss]

    enum CodingKeys: String, CodingKey {
        case ruleSetVersion = "rule_set_version", messages, rules, baseline
        case perLanguage = "per_language", baselinePerLanguage = "baseline_per_language"
        case perCategory = "per_category", ruleUse = "rule_use", misses
    }
}

public enum UrgencyEvaluation {
    /// One scorer per persona (key: the persona, "" for none), each having learned from all of that
    /// persona's messages (SENT history, names) before any is scored, as `alfred urgency score` does.
    public static func scorers(for records: [CorpusRecord], ruleSet: RuleSet = .standard,
                               preferences: (String?) throws -> UrgencyPreferences) rethrows -> [String: UrgencyScorer] {
        var scorers: [String: UrgencyScorer] = [:]
        for record in records {
            let key = record.persona ?? ""
            if scorers[key] == nil { scorers[key] = UrgencyScorer(ruleSet: ruleSet, preferences: try preferences(record.persona)) }
            scorers[key]!.learn(from: record.message)
        }
        return scorers
    }

    /// Scores `records` as `alfred urgency score` would for each persona: one scorer per persona,
    /// which first learns from all of that persona's messages (SENT history, names), then scores
    /// each at the persona's `now` (else `defaultNow`). SENT, DRAFT, SPAM and TRASH messages are
    /// never alerted, by the rules or by the baseline.
    public static func evaluate(_ records: [CorpusRecord], ruleSet: RuleSet = .standard, defaultNow: Date,
                                preferences: (String?) throws -> UrgencyPreferences) rethrows -> EvaluationReport {
        let scorers = try self.scorers(for: records, ruleSet: ruleSet, preferences: preferences)
        var report = EvaluationReport(ruleSetVersion: ruleSet.version, messages: records.count, rules: Confusion(), baseline: Confusion(),
                                      perLanguage: [:], baselinePerLanguage: [:], perCategory: [:], ruleUse: [:], misses: [])
        let hard: Set<String> = ["SENT", "DRAFT", "SPAM", "TRASH"]
        for record in records {
            let scorer = scorers[record.persona ?? ""]!
            let decision = scorer.score(record.message, now: scorer.preferences.now ?? defaultNow)
            let labels = record.message.labels
            let important = labels.contains("IMPORTANT") && labels.isDisjoint(with: hard)
            let language = record.language ?? "?"
            report.rules.add(expected: record.urgent, predicted: decision.urgent)
            report.baseline.add(expected: record.urgent, predicted: important)
            report.perLanguage[language, default: Confusion()].add(expected: record.urgent, predicted: decision.urgent)
            report.baselinePerLanguage[language, default: Confusion()].add(expected: record.urgent, predicted: important)
            var category = report.perCategory[record.category ?? "?", default: EvaluationReport.Category()]
            if record.urgent { category.labelledUrgent += 1 } else { category.labelledNot += 1 }
            if decision.urgent { category.alerted += 1 }
            report.perCategory[record.category ?? "?"] = category
            for rule in decision.rules {
                var use = report.ruleUse[rule.id, default: EvaluationReport.RuleUse()]
                switch (record.urgent, decision.urgent) {
                case (true, true): use.trueAlerts += 1
                case (false, true): use.falseAlerts += 1
                case (true, false): use.missedUrgent += 1
                case (false, false): use.quietNot += 1
                }
                report.ruleUse[rule.id] = use
            }
            if record.urgent != decision.urgent {
                report.misses.append(.init(id: record.message.id, expected: record.urgent, category: record.category ?? "?",
                                           language: language, score: decision.score, rules: decision.rules.map(\.description)))
            }
        }
        return report
    }
}

extension EvaluationReport {
    /// The human-readable report `alfred urgency evaluate` prints.
    public var text: String {
        func pct(_ value: Double) -> String { String(format: "%.3f", value) }
        func line(_ name: String, _ c: Confusion, _ b: Confusion?) -> String {
            var text = "\(name.padding(toLength: 10, withPad: " ", startingAt: 0)) n=\(String(c.total).padding(toLength: 4, withPad: " ", startingAt: 0))"
                + " P \(pct(c.precision))  R \(pct(c.recall))  F1 \(pct(c.f1))   tp \(c.truePositives) fp \(c.falsePositives) fn \(c.falseNegatives) tn \(c.trueNegatives)"
            if let b { text += "   | IMPORTANT: P \(pct(b.precision)) R \(pct(b.recall)) F1 \(pct(b.f1))" }
            return text
        }
        var out = ["urgency rules \(ruleSetVersion) on \(messages) labelled messages", line("all", rules, baseline)]
        for language in perLanguage.keys.sorted() { out.append(line(language, perLanguage[language]!, baselinePerLanguage[language])) }
        out.append("")
        out.append("per category (labelled urgent: caught / total; labelled not urgent: false alerts / total)")
        for name in perCategory.keys.sorted() {
            let c = perCategory[name]!
            if c.labelledUrgent > 0 { out.append("  \(name.padding(toLength: 24, withPad: " ", startingAt: 0)) caught \(c.alerted)/\(c.labelledUrgent)") }
            else { out.append("  \(name.padding(toLength: 24, withPad: " ", startingAt: 0)) false alerts \(c.alerted)/\(c.labelledNot)") }
        }
        out.append("")
        out.append("rule contributions (true alerts / false alerts / urgent missed / not urgent kept quiet)")
        for id in ruleUse.keys.sorted() {
            let use = ruleUse[id]!
            out.append("  \(id.padding(toLength: 28, withPad: " ", startingAt: 0)) \(use.trueAlerts) / \(use.falseAlerts) / \(use.missedUrgent) / \(use.quietNot)")
        }
        return out.joined(separator: "\n")
    }
}
