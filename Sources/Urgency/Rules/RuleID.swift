/// The stable id of a scoring rule. These strings appear in decisions, in `alfred urgency score`
/// output and as keys of `RuleSet.weights`, so renaming one is a breaking change for rule files.
/// Some rules fire with a qualifier appended (`urgency_word:de`); the id is the part before it.
///
/// Each id is declared beside its rule, in its family's file; the known ids are the rules' ids and
/// `bulk_floor`, and any other string is refused (`init?(rawValue:)`), so a typo in a rule file is
/// an error instead of a rule that silently never fires.
public struct RuleID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: String
    init(_ rawValue: String) { self.rawValue = rawValue }

    /// A known rule's id, or nil.
    public init?(rawValue: String) {
        guard Self.known.contains(rawValue) else { return nil }
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// Every rule's id in firing order, then `bulk_floor`.
    public static var allCases: [RuleID] { Rule.all.map(\.id) + [.bulkFloor] }
    private static let known = Set(allCases.map(\.rawValue))

    /// Not a signal: its weight is the floor (e.g. -15) below which the bulk and machine-mail rules
    /// together may not pull a message that carries a strong event signal (security, incident,
    /// travel, health). The scorer adds it after the rules, with the positive difference, so a fraud
    /// alert from a no-reply sender in Updates is weighed, not vetoed.
    public static let bulkFloor = RuleID("bulk_floor")

    /// What the rule means, for `--explain`: fixed text, never message data.
    public var summary: String {
        self == .bulkFloor ? "machine-mail penalties limited by a strong event" : Rule.byID[self]?.summary ?? rawValue
    }

    /// The rules whose weights `bulk_floor` limits.
    static let bulkRules = Set(Rule.all.filter { $0.role == .bulk }.map(\.id))
    /// Strong event signals that bring the floor into play.
    static let strongEvents = Set(Rule.all.filter { $0.role == .strongEvent }.map(\.id))
}
