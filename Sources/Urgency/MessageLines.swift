import AlfredCore
import Foundation

/// The line format of `alfred urgency score`: one Gmail `messages.get?format=metadata` JSON object
/// per input line, one compact JSON decision per output line.
public enum MessageLines {
    /// Decodes one input line; nil for a blank line (ignored, not an error).
    /// The error names what is wrong (not JSON, a missing `id`, a field of the wrong type) without
    /// echoing the line, which holds subjects and addresses.
    public static func decode(_ line: some StringProtocol) throws(MessageLineError) -> GmailMessage? {
        guard line.contains(where: { !$0.isWhitespace }) else { return nil }
        do {
            return try JSONDecoder().decode(GmailMessage.self, from: Data(line.utf8))
        } catch let error as DecodingError {
            throw MessageLineError(reason: DecodingFailure.describe(error))
        } catch {
            throw MessageLineError(reason: "cannot decode")
        }
    }

    /// `{"id":…,"urgent":…,"score":…,"rules":[{"id":…,"weight":…}],"rule_set_version":…}`, keys in
    /// that order (written by hand: Foundation's encoder does not keep key order on Linux).
    public static func encode(_ decision: UrgencyDecision, messageID: String) -> String {
        let rules = decision.rules.map { #"{"id":\#(quoted($0.id)),"weight":\#($0.weight)}"# }.joined(separator: ",")
        return #"{"id":\#(quoted(messageID)),"urgent":\#(decision.urgent),"score":\#(decision.score),"#
            + #""rules":[\#(rules)],"rule_set_version":\#(quoted(decision.ruleSetVersion))}"#
    }

    /// The `--explain` form: the threshold, and for each rule its weight and why (safe text only):
    /// `{"id":…,"urgent":…,"score":…,"threshold":…,"rules":[{"id":…,"weight":…,"why":…}],"rule_set_version":…}`.
    public static func encodeExplained(_ decision: UrgencyDecision, messageID: String) -> String {
        let rules = decision.rules.map {
            #"{"id":\#(quoted($0.id)),"weight":\#($0.weight),"why":\#(quoted($0.detail ?? ""))}"#
        }.joined(separator: ",")
        return #"{"id":\#(quoted(messageID)),"urgent":\#(decision.urgent),"score":\#(decision.score),"threshold":\#(decision.threshold),"#
            + #""rules":[\#(rules)],"rule_set_version":\#(quoted(decision.ruleSetVersion))}"#
    }

    /// A JSON string literal (RFC 8259 escaping).
    static func quoted(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// A line that is not a usable Gmail message object.
public struct MessageLineError: Error, CustomStringConvertible, Equatable {
    public let reason: String
    public var description: String { reason }
}
