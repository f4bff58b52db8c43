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
        subcommands: [Score.self])

    struct Score: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Score Gmail message metadata: one JSON decision per input line.",
            discussion: """
                Input: one Gmail messages.get?format=metadata JSON object per line; empty lines are ignored.
                Output: for each message, one line
                  {"id":…,"urgent":…,"score":…,"rules":[{"id":…,"weight":…}],"rule_set_version":…}
                Messages labelled SENT teach the scorer the user's own threads, for the lines after them.
                "Today" (calendar invitations) is the preferences' "now" in their "time_zone", else the real now.
                A line that is not a message object is reported on stderr with its line number and skipped;
                the others are still scored and the exit status is then 1. Unusable --preferences or --rules
                files stop before any scoring, also with status 1.
                """)

        @Argument(help: "Messages, one JSON object per line; '-' reads standard input.") var file: String
        @Option(help: "User preferences JSON: vip_senders, keywords, threshold, user_addresses, own_thread_ids, time_zone, now.")
        var preferences: String?
        @Option(help: "Rule set JSON to use instead of the embedded default.") var rules: String?
        @Flag(help: "Apply the higher quiet-hours threshold.") var quietHours = false

        func run() throws {
            let ruleSet = try rules.map(RuleSet.init(contentsOfFile:)) ?? .standard
            let settings = try preferences.map(UrgencyPreferences.init(contentsOfFile:)) ?? UrgencyPreferences()
            let now = settings.now ?? Date()
            var scorer = UrgencyScorer(ruleSet: ruleSet, preferences: settings)
            var skipped = 0
            try Self.forEachLine(of: file) { number, line in
                do {
                    guard let message = try MessageLines.decode(line) else { return }
                    scorer.learn(from: message)
                    print(MessageLines.encode(scorer.score(message, now: now, quietHours: quietHours), messageID: message.id))
                } catch {
                    skipped += 1
                    FileHandle.standardError.write(Data("alfred urgency score: line \(number): \(error); skipped\n".utf8))
                }
            }
            if skipped > 0 {
                FileHandle.standardError.write(Data("alfred urgency score: \(skipped) line(s) skipped\n".utf8))
                throw ExitCode(1)
            }
        }

        /// Streams lines (numbered from 1, without the line break) from a file or standard input, so a
        /// large export or a pipe is scored as it arrives.
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
}
