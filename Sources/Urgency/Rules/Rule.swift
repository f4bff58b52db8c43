/// One scoring rule: a stable id (its weight comes from the rule set), the family it belongs to,
/// what it means (`--explain`), how the bulk floor treats it, and a predicate over the message's
/// features. Rules never read the message itself.
///
/// A new rule is one value in its family's file (with its `RuleID` beside it), a weight in the rule
/// set and, if it reads words, its lexicon entries. `Rule.all` fixes the order rules fire in (and so
/// the order of `UrgencyDecision.rules`).
struct Rule: Sendable {
    /// How `bulk_floor` treats a rule: a bulk rule's penalty is limited when a strong event fires.
    enum Role: Sendable { case signal, bulk, strongEvent }

    let id: RuleID
    let family: RuleFamily
    let summary: String
    let role: Role
    let fires: @Sendable (MessageFeatures) -> Evidence?

    init(_ id: RuleID, _ family: RuleFamily, _ summary: String, role: Role = .signal,
         fires: @escaping @Sendable (MessageFeatures) -> Evidence?) {
        self.id = id; self.family = family; self.summary = summary; self.role = role; self.fires = fires
    }

    /// A rule that fires on the first (not negated, unless `negatable` is false) match of one phrase
    /// family, qualified by the match's language: `decision_ask:it`.
    static func phrase(_ id: RuleID, _ family: RuleFamily, _ phrases: PhraseFamily, negatable: Bool = true,
                       role: Role = .signal, says: String) -> Rule {
        Rule(id, family, says, role: role) { message in
            message.found(phrases, negatable: negatable).map { match in
                Evidence(match.language, why: message.why("\(says) (\(match.language), \(message.place(match)))"))
            }
        }
    }

    /// A rule that fires, unqualified, when `condition` holds.
    static func when(_ id: RuleID, _ family: RuleFamily, _ summary: String, role: Role = .signal,
                     _ condition: @escaping @Sendable (MessageFeatures) -> Bool) -> Rule {
        Rule(id, family, summary, role: role) { condition($0) ? .fired : nil }
    }

    /// Every rule, family by family, in firing order.
    static let all: [Rule] = RuleFamily.allCases.flatMap(\.rules)
    static let byID: [RuleID: Rule] = Dictionary(uniqueKeysWithValues: all.map { ($0.id, $0) })
}

/// Why a rule fired: a qualifier appended to its id (`urgency_word:de`) and, with `--explain`, safe
/// text (never the matched words). Without text the rule's summary explains it.
struct Evidence {
    var qualifier: String?
    var why: String?
    init(_ qualifier: String? = nil, why: String? = nil) { self.qualifier = qualifier; self.why = why }
    static let fired = Evidence()
}

/// The families rules are grouped by, in firing order. Each family's rules live in their own file.
enum RuleFamily: String, CaseIterable, Sendable {
    /// Who sent it, and what Gmail and the user already said about it.
    case sender
    /// Urgency words and the user's own keywords.
    case words
    /// Whether it was written to the user, and in the user's own thread.
    case addressing
    /// Invitations and replies to them.
    case calendar
    /// Bulk and machine mail.
    case bulk
    /// Deadlines and time windows.
    case time
    /// What the writer asks of the user.
    case intent
    /// Things happening: incidents, security, travel, health and family, meetings, people waiting.
    case events
    /// Wording that takes urgency away: not urgent, resolved, FYI, marketing, routine notices.
    case relaxation
    /// Scams and impersonation.
    case trust

    var rules: [Rule] {
        switch self {
        case .sender: SenderRules.all
        case .words: WordRules.all
        case .addressing: AddressingRules.all
        case .calendar: CalendarRules.all
        case .bulk: BulkRules.all
        case .time: TimeRules.all
        case .intent: IntentRules.all
        case .events: EventRules.all
        case .relaxation: RelaxationRules.all
        case .trust: TrustRules.all
        }
    }
}
