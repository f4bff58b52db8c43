import Foundation

/// Fits the rule set's weights to a labelled corpus, and estimates how the rules do on mail from a
/// person they were not fitted on (leave one persona out).
///
/// Which rules fire on a message does not depend on the weights (a rule weighted 0 fires and adds
/// nothing), so each message is read once into the rules that fire and every candidate weight vector
/// is scored by sums. The search is coordinate ascent over whole-point steps that keeps each rule's
/// sign (a signal for urgency stays one), from the given weights, with the threshold fixed: it
/// maximises F1 and, on a tie, keeps the weights nearer the start. What it cannot do is find words
/// a lexicon lacks; leave-one-persona-out estimates the weights' part, and the lexicons were written
/// with the tuning mail in view (`docs/urgency-tuning-log.md`).
public enum WeightFitting {
    /// One corpus message as the fitter sees it.
    public struct Firing: Sendable {
        public var rules: [RuleID]
        public var urgent: Bool
        public var language: String
        public var persona: String
    }

    /// Reads each record once, with the persona's preferences, as `UrgencyEvaluation.evaluate` does.
    public static func firings(_ records: [CorpusRecord], ruleSet: RuleSet, defaultNow: Date,
                               preferences: (String?) throws -> UrgencyPreferences) rethrows -> [Firing] {
        let scorers = try UrgencyEvaluation.scorers(for: records, ruleSet: ruleSet, preferences: preferences)
        return records.map { record in
            let scorer = scorers[record.persona ?? ""]!
            return Firing(rules: scorer.firingRules(record.message, now: scorer.preferences.now ?? defaultNow),
                          urgent: record.urgent, language: record.language ?? "?", persona: record.persona ?? "")
        }
    }

    /// The score `UrgencyScorer.score` gives a message whose firing rules are `rules`.
    static func score(_ rules: [RuleID], _ weights: [RuleID: Int]) -> Int {
        var total = 0, bulk = 0, strong = false
        for rule in rules {
            let weight = weights[rule] ?? 0
            total += weight
            if RuleID.bulkRules.contains(rule) { bulk += weight }
            if weight != 0, RuleID.strongEvents.contains(rule) { strong = true }
        }
        let floor = weights[.bulkFloor] ?? 0
        if floor < 0, strong, bulk < floor { total += floor - bulk }
        return total
    }

    static func confusion(_ firings: [Firing], _ weights: [RuleID: Int], threshold: Int) -> Confusion {
        var confusion = Confusion()
        for firing in firings { confusion.add(expected: firing.urgent, predicted: !firing.rules.isEmpty && score(firing.rules, weights) >= threshold) }
        return confusion
    }

    /// Weights fitted to `firings`, starting from `start`. The search runs on arrays: each rule an
    /// index, each message its rules' indices and a delta per candidate weight, since it scores every
    /// message once per candidate.
    public static func fit(_ firings: [Firing], start: [RuleID: Int], threshold: Int, maxPasses: Int = 10) -> [RuleID: Int] {
        let rules = RuleID.allCases
        let index = Dictionary(uniqueKeysWithValues: rules.enumerated().map { ($1, $0) })
        let bulk = rules.map { RuleID.bulkRules.contains($0) }, strong = rules.map { RuleID.strongEvents.contains($0) }
        let messages = firings.map { firing in (rules: firing.rules.compactMap { index[$0] }, urgent: firing.urgent, empty: firing.rules.isEmpty) }
        let initial = rules.map { start[$0] ?? 0 }
        let floor = start[.bulkFloor] ?? 0
        func f1(_ w: [Int]) -> Double {
            var confusion = Confusion()
            for message in messages {
                var total = 0, bulkSum = 0, strongFired = false
                for rule in message.rules {
                    total += w[rule]
                    if bulk[rule] { bulkSum += w[rule] }
                    if strong[rule], w[rule] != 0 { strongFired = true }
                }
                if floor < 0, strongFired, bulkSum < floor { total += floor - bulkSum }
                confusion.add(expected: message.urgent, predicted: !message.empty && total >= threshold)
            }
            return confusion.f1
        }
        func distance(_ w: [Int]) -> Int { zip(w, initial).reduce(0) { $0 + abs($1.0 - $1.1) } }
        var weights = initial
        var best = f1(weights)
        let tunable = rules.indices.filter { initial[$0] != 0 && rules[$0] != .bulkFloor }
        for _ in 0..<maxPasses {
            var improved = false
            for rule in tunable {
                let current = weights[rule]
                let sign = current > 0 ? 1 : -1
                var choice = (value: current, f1: best, distance: distance(weights))
                for step in [-40, -20, -10, -5, 5, 10, 20, 40] {
                    let value = current + step
                    guard value * sign > 0, RuleSet.bounds.contains(value) else { continue }
                    var trial = weights
                    trial[rule] = value
                    let score = f1(trial)
                    let far = distance(trial)
                    if score > choice.f1 + 1e-9 || (abs(score - choice.f1) <= 1e-9 && far < choice.distance) { choice = (value, score, far) }
                }
                if choice.value != current { weights[rule] = choice.value; improved = improved || choice.f1 > best + 1e-9; best = choice.f1 }
            }
            if !improved { break }
        }
        var fitted = start
        for (i, rule) in rules.enumerated() where start[rule] != nil || weights[i] != 0 { fitted[rule] = weights[i] }
        return fitted
    }

    /// Per language: the shipped weights' result and, for each persona, the result of weights fitted
    /// on every other persona's messages (summed over personas).
    public struct Estimate: Sendable, Codable {
        public var inSample: [String: Confusion]
        public var leaveOnePersonaOut: [String: Confusion]
        public var personas: Int
        enum CodingKeys: String, CodingKey { case inSample = "in_sample", leaveOnePersonaOut = "leave_one_persona_out", personas }
    }

    public static func leaveOnePersonaOut(_ firings: [Firing], ruleSet: RuleSet) -> Estimate {
        var estimate = Estimate(inSample: [:], leaveOnePersonaOut: [:], personas: 0)
        for firing in firings {
            estimate.inSample[firing.language, default: Confusion()]
                .add(expected: firing.urgent, predicted: !firing.rules.isEmpty && score(firing.rules, ruleSet.weights) >= ruleSet.threshold)
        }
        let personas = Array(Set(firings.map(\.persona))).sorted()
        estimate.personas = personas.count
        // The shipped weights were fitted with every persona in view: starting there, the fit would
        // stay there and the estimate would flatter. Each fold starts from the same uninformed
        // weights instead (every rule ±30 by its sign, the floor as shipped).
        let neutral = ruleSet.weights.mapValues { $0 == 0 ? 0 : ($0 > 0 ? 30 : -30) }
            .merging([.bulkFloor: ruleSet.weight(.bulkFloor)]) { $1 }
        for persona in personas {
            let weights = fit(firings.filter { $0.persona != persona }, start: neutral, threshold: ruleSet.threshold)
            for firing in firings where firing.persona == persona {
                estimate.leaveOnePersonaOut[firing.language, default: Confusion()]
                    .add(expected: firing.urgent, predicted: !firing.rules.isEmpty && score(firing.rules, weights) >= ruleSet.threshold)
            }
        }
        return estimate
    }
}

extension WeightFitting.Estimate {
    public var text: String {
        func pct(_ value: Double) -> String { String(format: "%.3f", value) }
        var out = ["leave one persona out (\(personas) personas): weights fitted on all other personas, scored on the one left out",
                   "language   n     shipped P / R       left-out P / R"]
        for language in inSample.keys.sorted() {
            let a = inSample[language]!, b = leaveOnePersonaOut[language] ?? Confusion()
            out.append("\(language.padding(toLength: 10, withPad: " ", startingAt: 0)) \(String(a.total).padding(toLength: 5, withPad: " ", startingAt: 0)) \(pct(a.precision)) / \(pct(a.recall))       \(pct(b.precision)) / \(pct(b.recall))")
        }
        return out.joined(separator: "\n")
    }
}
