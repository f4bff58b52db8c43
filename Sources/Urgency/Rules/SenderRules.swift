extension RuleID {
    public static let vipSender = RuleID("vip_sender")
    public static let gmailImportant = RuleID("gmail_important")
    public static let gmailStarred = RuleID("gmail_starred")
    public static let urgencyWord = RuleID("urgency_word")
    public static let userKeyword = RuleID("user_keyword")
    public static let directTo = RuleID("direct_to")
    public static let ccOnly = RuleID("cc_only")
    public static let notAddressed = RuleID("not_addressed")
    public static let ownThreadReply = RuleID("own_thread_reply")
    public static let calendarResponse = RuleID("calendar_response")
    public static let inviteToday = RuleID("invite_today")
    public static let inviteNotToday = RuleID("invite_not_today")
}

/// Who sent it, and what Gmail and the user already said about it.
enum SenderRules {
    static let all: [Rule] = [
        .when(.vipSender, .sender, "sender is on the user's VIP list") { $0.isVIP },
        .when(.gmailImportant, .sender, "Gmail marked it important") { $0.labels.contains("IMPORTANT") },
        .when(.gmailStarred, .sender, "the user starred it") { $0.labels.contains("STARRED") },
    ]
}

/// Urgency words (in the subject or the snippet, unless negated) and the user's own keywords.
enum WordRules {
    static let all: [Rule] = [
        Rule(.urgencyWord, .words, "an urgency word") { message in
            // The language listed first in the rule set wins where several match.
            message.urgencyWords.min(by: { $0.rank < $1.rank }).map { first in
                Evidence(first.language, why: message.why("urgency word (\(first.language)) in the \(message.place(first))"))
            }
        },
        .when(.userKeyword, .words, "one of the user's keywords") { $0.keywordHit },
    ]
}

/// Whether it was written to the user (unknown when the user's addresses are not configured), and
/// whether it replies in a thread the user wrote in.
enum AddressingRules {
    static let all: [Rule] = [
        .when(.directTo, .addressing, "addressed to the user in To") { $0.addressing == .to },
        .when(.ccOnly, .addressing, "the user is only in Cc") { $0.addressing == .cc },
        .when(.notAddressed, .addressing, "not addressed to the user (a list or Bcc)") { $0.addressing == .neither },
        .when(.ownThreadReply, .addressing, "a reply in a thread the user wrote in") { $0.ownThreadReply },
    ]
}

/// Calendar traffic: an invitation for the rest of today matters now, any other does not. An
/// invitation without a readable date (Outlook's, recurring ones) fires neither: "not today" would
/// be a guess.
enum CalendarRules {
    static let all: [Rule] = [
        .when(.calendarResponse, .calendar, "a reply to an invitation") { $0.calendarResponse },
        .when(.inviteToday, .calendar, "a calendar invitation for the rest of today") { $0.invitation == .today },
        .when(.inviteNotToday, .calendar, "a calendar invitation for another day") { $0.invitation == .notToday },
    ]
}
