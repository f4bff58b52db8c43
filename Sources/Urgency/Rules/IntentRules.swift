extension RuleID {
    public static let decisionAsk = RuleID("decision_ask")
    public static let blocking = RuleID("blocking")
    public static let consequence = RuleID("consequence")
    public static let question = RuleID("question")
}

/// What the writer asks of the user.
enum IntentRules {
    static let all: [Rule] = [
        .phrase(.decisionAsk, .intent, .decisionAsk, says: "asks for a decision or approval"),
        .phrase(.blocking, .intent, .blocking, says: "says something is blocked or due"),
        .phrase(.consequence, .intent, .consequenceCue, says: "says what is lost if nothing happens"),
        Rule(.question, .intent, "asks the user a question") { message in
            message.direct && message.asks ? Evidence(why: message.why("asks the user a question")) : nil
        },
    ]
}
