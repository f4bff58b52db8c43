import Testing
@testable import Urgency

/// The rules are values grouped by family: each id has exactly one rule, in one family, and the
/// firing order is the families' order.
@Suite(.timeLimit(.minutes(5))) struct RuleCatalogTests {
    @Test func everyRuleIDHasExactlyOneRuleValue() {
        var counts: [RuleID: Int] = [:]
        for rule in Rule.all { counts[rule.id, default: 0] += 1 }
        // bulk_floor is not a signal: the scorer applies it after the rules (see RuleID.bulkFloor).
        for id in RuleID.allCases where id != .bulkFloor {
            #expect(counts[id] == 1, "\(id.rawValue) has \(counts[id] ?? 0) rule values")
        }
        #expect(counts[.bulkFloor] == nil)
    }

    @Test func rulesFireFamilyByFamily() {
        let order = Rule.all.map(\.family)
        let families = RuleFamily.allCases
        #expect(order == order.sorted { families.firstIndex(of: $0)! < families.firstIndex(of: $1)! })
        #expect(Set(order) == Set(families), "every family has at least one rule")
    }

    /// A rule weighted 0 by the rule set is off: it neither fires nor appears in the decision.
    @Test func aRuleWeightedZeroIsOff() throws {
        var rules = RuleSet.standard
        rules.weights[.gmailStarred] = 0
        let starred = message(labels: ["INBOX", "STARRED"])
        let on = UrgencyScorer().score(starred, now: saturdayMorning)
        let off = UrgencyScorer(ruleSet: rules).score(starred, now: saturdayMorning)
        #expect(on.rules.map(\.id).contains("gmail_starred"))
        #expect(!off.rules.map(\.id).contains("gmail_starred"))
    }
}
