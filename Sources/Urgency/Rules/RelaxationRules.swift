/// Wording that takes urgency away: not urgent, resolved, for information, marketing, routine
/// automated notices.
enum RelaxationRules {
    static let all: [Rule] = [
        .phrase(.negated, .relaxation, .negated, negatable: false, says: "says it is not urgent or can wait"),
        .phrase(.closure, .relaxation, .closure, says: "says it is resolved or closed"),
        .phrase(.fyi, .relaxation, .fyi, negatable: false, says: "for information only"),
        .phrase(.marketing, .relaxation, .marketing, negatable: false, says: "marketing wording"),
        .phrase(.automatedNotice, .relaxation, .automatedNotice, negatable: false, says: "routine automated notice"),
    ]
}
