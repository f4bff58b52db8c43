import AlfredCore
import ArgumentParser
@preconcurrency import Foundation
#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Urgency

struct UrgencyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "urgency",
        abstract: "Evaluate and tune the urgent-mail rules.",
        subcommands: [Score.self, Evaluate.self])

    struct Score: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Score Gmail message metadata: one JSON decision per input line.",
            discussion: """
                Input: one Gmail messages.get?format=metadata JSON object per line; empty lines are ignored.
                Output: for each message, one line
                  {"id":…,"urgent":…,"score":…,"rules":[{"id":…,"weight":…}],"rule_set_version":…}
                With --explain each rule also carries "why" (safe text: a rule family, a language, a deadline
                and how far ahead it is; never a subject, address or snippet) and the line the "threshold".
                The whole input is read first: its SENT messages teach the scorer the user's own threads and the
                names of the people the user knows, whatever their order in the file.
                "Now" (deadlines, calendar invitations) is the preferences' "now" in their "time_zone", else the real now.
                A line that is not a message object is reported on stderr with its line number and skipped;
                the others are still scored and the exit status is then 1. Unusable --preferences or --rules
                files stop before any scoring, also with status 1.
                """)

        @Argument(help: "Messages, one JSON object per line; '-' reads standard input.") var file: String
        @Option(help: "User preferences JSON: vip_senders, keywords, threshold, user_addresses, own_thread_ids, time_zone, now.")
        var preferences: String?
        @Option(help: "Rule set JSON to use instead of the embedded default.") var rules: String?
        @Flag(help: "Apply the higher quiet-hours threshold.") var quietHours = false
        @Flag(help: "Explain each rule that fired: its weight and why, in safe terms.") var explain = false

        func run() throws {
            let ruleSet = try rules.map(RuleSet.init(contentsOfFile:)) ?? .standard
            let settings = try preferences.map(UrgencyPreferences.init(contentsOfFile:)) ?? UrgencyPreferences()
            let now = settings.now ?? Date()
            var scorer = UrgencyScorer(ruleSet: ruleSet, preferences: settings)
            var skipped = 0
            var messages: [GmailMessage] = []
            try UrgencyCommand.forEachLine(of: file) { number, line in
                do {
                    guard let message = try MessageLines.decode(line) else { return }
                    messages.append(message)
                } catch {
                    skipped += 1
                    FileHandle.standardError.write(Data("alfred urgency score: line \(number): \(error); skipped\n".utf8))
                }
            }
            // First pass: the user's history (SENT mail and the names in it) before any decision.
            for message in messages { scorer.learn(from: message) }
            for message in messages {
                let decision = scorer.score(message, now: now, quietHours: quietHours, explain: explain)
                print(explain ? MessageLines.encodeExplained(decision, messageID: message.id) : MessageLines.encode(decision, messageID: message.id))
            }
            if skipped > 0 {
                FileHandle.standardError.write(Data("alfred urgency score: \(skipped) line(s) skipped\n".utf8))
                throw ExitCode(1)
            }
        }
    }

    struct Evaluate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Score a labelled corpus and report precision, recall and each rule's part.",
            discussion: """
                Input: one record per line, {"urgent":…,"language":…,"category":…,"persona":…,"note":…,"message":{…}}.
                Each record is scored with its persona's preferences (--personas DIR reads DIR/<persona>.json) or
                with one --preferences file for all; each persona's messages are learned from first, as `score` does.
                Prints precision, recall, F1 and the confusion counts overall and per language, next to the
                "urgent if Gmail marked it IMPORTANT" baseline; per category the urgent messages caught or the false
                alerts; and per rule how many true and false alerts it took part in. --json prints one JSON object.
                --misses lists the wrong decisions by message id, category and rules (no message content).
                --leave-one-persona-out adds, per language, the result on each persona of weights fitted (by
                coordinate ascent on F1, signs kept) to every other persona's messages: the estimate for mail
                from people the weights never saw.
                """)

        @Argument(help: "Labelled corpus, one JSON record per line.") var file: String
        @Option(help: "One preferences JSON for every record.") var preferences: String?
        @Option(help: "Directory of <persona>.json preferences files.") var personas: String?
        @Option(help: "Rule set JSON to use instead of the embedded default.") var rules: String?
        @Flag(help: "Print the report as one JSON object.") var json = false
        @Flag(help: "List the wrong decisions (ids, categories, rules).") var misses = false
        @Flag(help: "Also estimate per language with weights fitted on every persona but the one scored.")
        var leaveOnePersonaOut = false
        @Flag(help: "Print the weights fitted to the whole corpus (coordinate ascent on F1, signs kept), as changes.")
        var fitWeights = false

        func validate() throws {
            if preferences != nil && personas != nil { throw ValidationError("give --preferences or --personas, not both") }
        }

        func run() throws {
            let ruleSet = try rules.map(RuleSet.init(contentsOfFile:)) ?? .standard
            let shared = try preferences.map(UrgencyPreferences.init(contentsOfFile:))
            var records: [CorpusRecord] = []
            var skipped = 0
            try UrgencyCommand.forEachLine(of: file) { number, line in
                do {
                    if let record = try CorpusRecord.decode(line) { records.append(record) }
                } catch {
                    skipped += 1
                    FileHandle.standardError.write(Data("alfred urgency evaluate: line \(number): \(error); skipped\n".utf8))
                }
            }
            var loaded: [String: UrgencyPreferences] = [:]
            let preferencesOf = { (persona: String?) throws -> UrgencyPreferences in
                if let shared { return shared }
                guard let personas else { return UrgencyPreferences() }
                guard let persona, !persona.isEmpty, !persona.contains("/") else {
                    throw ValidationError("a record has no usable persona; use --preferences")
                }
                if let cached = loaded[persona] { return cached }
                let value = try UrgencyPreferences(contentsOfFile: URL(fileURLWithPath: personas).appendingPathComponent("\(persona).json").path)
                loaded[persona] = value
                return value
            }
            let report = try UrgencyEvaluation.evaluate(records, ruleSet: ruleSet, defaultNow: Date(), preferences: preferencesOf)
            let estimate = try leaveOnePersonaOut
                ? WeightFitting.leaveOnePersonaOut(WeightFitting.firings(records, ruleSet: ruleSet, defaultNow: Date(), preferences: preferencesOf),
                                                   ruleSet: ruleSet) : nil
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                print(String(decoding: try encoder.encode(report), as: UTF8.self))
            } else {
                print(report.text)
                if let estimate { print("\n" + estimate.text) }
                if fitWeights {
                    let firings = try WeightFitting.firings(records, ruleSet: ruleSet, defaultNow: Date(), preferences: preferencesOf)
                    let fitted = WeightFitting.fit(firings, start: ruleSet.weights, threshold: ruleSet.threshold)
                    print("\nweights fitted to this corpus (changes only)")
                    for rule in RuleID.allCases where fitted[rule] != ruleSet.weights[rule] {
                        print("  \(rule.rawValue.padding(toLength: 24, withPad: " ", startingAt: 0)) \(ruleSet.weight(rule)) -> \(fitted[rule] ?? 0)")
                    }
                }
                if misses {
                    print("\nwrong decisions")
                    for miss in report.misses {
                        print("  \(miss.expected ? "missed" : "false ") \(miss.id) \(miss.language) \(miss.category) \(miss.score) [\(miss.rules.joined(separator: ", "))]")
                    }
                }
            }
            if skipped > 0 { throw ExitCode(1) }
        }
    }

    /// Streams lines (numbered from 1, without the line break) from a file or standard input.
    static func forEachLine(of path: String, _ body: (Int, String) throws -> Void) throws {
        let stream: UnsafeMutablePointer<FILE>
        if path == "-" {
            stream = stdin
        } else {
            guard let opened = fopen(path, "r") else {
                throw ValidationError("cannot read \(path): \(String(cString: strerror(errno)))")
            }
            stream = opened
        }
        defer { if path != "-" { fclose(stream) } }
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        var number = 0
        while getline(&buffer, &capacity, stream) >= 0, let buffer {
            number += 1
            var line = String(cString: buffer)
            while line.last == "\n" || line.last == "\r\n" || line.last == "\r" { line.removeLast() }
            try body(number, line)
        }
        // getline says -1 for end of file and for a read error alike: only the first is success.
        if ferror(stream) != 0 { throw ValidationError("cannot read \(path) after line \(number): \(String(cString: strerror(errno)))") }
    }
}
