extension RuleID {
    public static let negated = RuleID("negated")
    public static let closure = RuleID("closure")
    public static let fyi = RuleID("fyi")
    public static let marketing = RuleID("marketing")
    public static let automatedNotice = RuleID("automated_notice")
}

/// Wording that takes urgency away: not urgent, resolved, for information, marketing, routine
/// automated notices.
enum RelaxationRules {
    static let all: [Rule] = [
        .phrase(.negated, .relaxation, .negated, negatable: false, says: "says it is not urgent or can wait"),
        .phrase(.closure, .relaxation, .closure, says: "says it is resolved or closed"),
        .phrase(.fyi, .relaxation, .fyi, negatable: false, says: "for information only"),
        // Sales words in a person's mail to the user are work ("Black Friday", "coupon" at a retailer),
        // not an advertisement: only mail that looks bulk or was not written to the user is marketing.
        Rule(.marketing, .relaxation, "marketing wording") { message in
            guard message.looksBulk || !message.direct, let match = message.found(.marketing, negatable: false) else { return nil }
            return Evidence(match.language, why: message.why("marketing wording (\(match.language))"))
        },
        .phrase(.automatedNotice, .relaxation, .automatedNotice, negatable: false, role: .bulk, says: "routine automated notice"),
    ]
}
