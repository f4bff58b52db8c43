extension RuleID {
    public static let phishing = RuleID("phishing")
    public static let giftCard = RuleID("gift_card")
    public static let paymentScam = RuleID("payment_scam")
    public static let impersonation = RuleID("impersonation")
    public static let lookalikeDomain = RuleID("lookalike_domain")
}

/// Scams and impersonation.
enum TrustRules {
    static let all: [Rule] = [
        .phrase(.phishing, .trust, .phishing, negatable: false, says: "account-scare wording typical of phishing"),
        .phrase(.giftCard, .trust, .giftCard, negatable: false, says: "asks for gift cards"),
        // A payment ask with secrecy or changed bank details, or changed bank details alone.
        Rule(.paymentScam, .trust, "a secret or pressured payment ask") { message in
            if let payment = message.found(.paymentAsk),
               let reason = message.found(.secrecy, negatable: false) ?? message.found(.bankChange, negatable: false) {
                return Evidence(payment.language, why: message.why("payment ask with secrecy or changed bank details (\(payment.language)/\(reason.language))"))
            }
            return message.found(.bankChange, negatable: false).map { change in
                Evidence(change.language, why: message.why("says bank details changed (\(change.language))"))
            }
        },
        Rule(.impersonation, .trust, "display name impersonates someone") { message in
            switch message.impersonation {
            case .name?: Evidence("name", why: message.why("display name of a known person (VIP, the user or a correspondent) from a domain that is not theirs"))
            case .title?: Evidence("title", why: message.why("display name claims an executive role, from outside the organisation"))
            case nil: nil
            }
        },
        Rule(.lookalikeDomain, .trust, "a look-alike domain") { message in
            message.lookalikeDomain ? Evidence(why: message.why("sender domain imitates one of the organisation's domains")) : nil
        },
    ]
}
