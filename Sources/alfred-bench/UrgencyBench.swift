import AlfredCore
import ArgumentParser
import Foundation
import Urgency

/// `swift build -c release --product alfred-bench && .build/release/alfred-bench urgency`
///
/// Scoring throughput of the urgency rules on one core: every message of a labelled corpus (the
/// tuning split by default), scored repeatedly by one thread with its persona's preferences, as
/// `alfred urgency score` would. Pure CPU: no database, no processes. The last line is one JSON object.
struct UrgencyBench: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "urgency", abstract: "Urgency rule scoring throughput (messages/s, one core).")

    @Option(help: "Labelled corpus (JSONL).") var corpus = "Tests/UrgencyTests/Corpus/tune.jsonl"
    @Option(help: "Directory of <persona>.json preferences.") var personas = "Tests/UrgencyTests/Corpus/personas"
    @Option(help: "Seconds to keep scoring.") var seconds = 5.0
    @Option(help: "Rule set JSON to use instead of the embedded default (to compare versions).") var rules: String?

    func run() throws {
        let ruleSet = try rules.map(RuleSet.init(contentsOfFile:)) ?? .standard
        let text = try String(contentsOf: URL(fileURLWithPath: corpus), encoding: .utf8)
        let records = try text.split(separator: "\n").compactMap { try CorpusRecord.decode($0) }
        guard !records.isEmpty else { throw ValidationError("no records in \(corpus)") }
        var scorers: [String: UrgencyScorer] = [:]
        for record in records {
            let name = record.persona ?? ""
            if scorers[name] == nil {
                let path = URL(fileURLWithPath: personas).appendingPathComponent("\(name).json").path
                let preferences = (try? UrgencyPreferences(contentsOfFile: path)) ?? UrgencyPreferences()
                scorers[name] = UrgencyScorer(ruleSet: ruleSet, preferences: preferences)
            }
            scorers[name]!.learn(from: record.message)
        }
        // Each persona's messages in corpus order, scored with that persona's scorer: what a mail
        // check does with one user's new mail (copying the scorer for every message would measure
        // its two dozen reference counts, not the rules).
        var order: [String] = []
        var batches: [String: [GmailMessage]] = [:]
        for record in records {
            let name = record.persona ?? ""
            if batches[name] == nil { order.append(name) }
            batches[name, default: []].append(record.message)
        }
        let work = order.map { (scorers[$0]!, batches[$0]!) }
        let now = Date()
        func pass() -> Int {
            var urgent = 0
            for (scorer, messages) in work {
                let at = scorer.preferences.now ?? now
                for message in messages where scorer.score(message, now: at).urgent { urgent += 1 }
            }
            return urgent
        }
        // Warm up, then score whole passes until the time is up.
        var urgent = pass()
        let clock = ContinuousClock()
        let start = clock.now
        var scored = 0
        var elapsed = 0.0
        repeat {
            urgent += pass()
            scored += records.count
            let duration = clock.now - start
            elapsed = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        } while elapsed < seconds
        let rate = Double(scored) / elapsed
        print("scored \(scored) messages (\(records.count) distinct) in \(String(format: "%.2f", elapsed)) s on one thread: "
            + "\(Int(rate)) messages/s (\(String(format: "%.1f", 1e6 / rate)) µs each), rules \(ruleSet.version)")
        print(#"{"bench":"urgency","messages_per_second":\#(Int(rate)),"microseconds_per_message":\#(String(format: "%.2f", 1e6 / rate)),"corpus_messages":\#(records.count),"rule_set_version":"\#(ruleSet.version)","urgent_seen":\#(urgent)}"#)
    }
}
