import Foundation
import Testing
@testable import Urgency

/// The fitter scores by sums of the rules that fire; those sums must be the scorer's own scores, or
/// what it fits is not what ships.
@Suite(.timeLimit(.minutes(5))) struct WeightFittingTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")

    static func tuning(_ name: String) throws -> [CorpusRecord] {
        let text = try String(contentsOf: corpus.appendingPathComponent(name), encoding: .utf8)
        return try text.split(separator: "\n").compactMap { try CorpusRecord.decode($0) }
    }

    static func preferences(_ persona: String?) throws -> UrgencyPreferences {
        try UrgencyPreferences(contentsOfFile: corpus.appendingPathComponent("personas/\(persona ?? "").json").path)
    }

    @Test func sumsOfFiringRulesAreTheScorersScores() throws {
        let records = try Self.tuning("tune-4.jsonl") + Self.tuning("tune-it.jsonl")
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let firings = try WeightFitting.firings(records, ruleSet: .standard, defaultNow: now, preferences: Self.preferences)
        let scorers = try UrgencyEvaluation.scorers(for: records, preferences: Self.preferences)
        var floors = 0
        for (record, firing) in zip(records, firings) {
            let scorer = scorers[record.persona ?? ""]!
            let decision = scorer.score(record.message, now: scorer.preferences.now ?? now)
            if decision.suppressedBy != nil { #expect(firing.rules.isEmpty); continue }
            #expect(WeightFitting.score(firing.rules, RuleSet.standard.weights) == decision.score, "\(record.message.id)")
            if decision.rules.contains(where: { $0.id == "bulk_floor" }) { floors += 1 }
        }
        #expect(floors > 0, "the bulk floor is part of what is compared")
    }

    /// A planted bad weight (every VIP message urgent) is pulled back by the fitter, and the fit
    /// scores better than the planted set on the corpus it was fitted to.
    @Test func theFitterPullsBackAPlantedBadWeight() throws {
        var planted = RuleSet.standard
        planted.weights[.vipSender] = 90
        let records = try Self.tuning("tune.jsonl")
        let firings = try WeightFitting.firings(records, ruleSet: planted, defaultNow: Date(), preferences: Self.preferences)
        let fitted = WeightFitting.fit(firings, start: planted.weights, threshold: planted.threshold)
        #expect(fitted[.vipSender]! < 90)
        let before = WeightFitting.confusion(firings, planted.weights, threshold: planted.threshold)
        let after = WeightFitting.confusion(firings, fitted, threshold: planted.threshold)
        #expect(after.f1 > before.f1, "\(before) -> \(after)")
        // Signs are kept: a signal for urgency stays one.
        for (rule, weight) in fitted { #expect(weight.signum() == (planted.weights[rule] ?? 0).signum(), "\(rule)") }
    }
}
