/// Who sent it, and what Gmail and the user already said about it.
enum SenderRules {
    static let all: [Rule] = [
        Rule(.vipSender, .sender) { $0.isVIP ? .fired : nil },
        Rule(.gmailImportant, .sender) { $0.labels.contains("IMPORTANT") ? .fired : nil },
        Rule(.gmailStarred, .sender) { $0.labels.contains("STARRED") ? .fired : nil },
    ]
}

/// Urgency words (in the subject or the snippet, unless negated) and the user's own keywords.
enum WordRules {
    static let all: [Rule] = [
        Rule(.urgencyWord, .words) { message in
            // The language listed first in the rule set wins where several match.
            message.urgencyWords.min(by: { $0.rank < $1.rank }).map { first in
                Evidence(first.language, why: message.why("urgency word (\(first.language)) in the \(message.place(first))"))
            }
        },
        Rule(.userKeyword, .words) { $0.keywordHit ? .fired : nil },
    ]
}

/// Whether it was written to the user (unknown when the user's addresses are not configured), and
/// whether it replies in a thread the user wrote in.
enum AddressingRules {
    static let all: [Rule] = [
        Rule(.directTo, .addressing) { $0.addressing == .to ? .fired : nil },
        Rule(.ccOnly, .addressing) { $0.addressing == .cc ? .fired : nil },
        Rule(.notAddressed, .addressing) { $0.addressing == .neither ? .fired : nil },
        Rule(.ownThreadReply, .addressing) { $0.ownThreadReply ? .fired : nil },
    ]
}

/// Calendar traffic: an invitation for the rest of today matters now, any other does not. An
/// invitation without a readable date (Outlook's, recurring ones) fires neither: "not today" would
/// be a guess.
enum CalendarRules {
    static let all: [Rule] = [
        Rule(.calendarResponse, .calendar) { $0.calendarResponse ? .fired : nil },
        Rule(.inviteToday, .calendar) { $0.invitation == .today ? .fired : nil },
        Rule(.inviteNotToday, .calendar) { $0.invitation == .notToday ? .fired : nil },
    ]
}

/// Bulk and machine mail.
enum BulkRules {
    static let all: [Rule] = [
        Rule(.listUnsubscribe, .bulk) { $0.header("list-unsubscribe") != nil ? .fired : nil },
        Rule(.listID, .bulk) { $0.header("list-id") != nil ? .fired : nil },
        Rule(.precedenceBulk, .bulk) { message in
            message.header("precedence").map(UrgencyScorer.token).map { ["bulk", "list", "junk"].contains($0) } == true ? .fired : nil
        },
        Rule(.autoSubmitted, .bulk) { $0.autoSubmitted ? .fired : nil },
        Rule(.autoReplySubject, .bulk) { $0.autoReplySubject ? .fired : nil },
        Rule(.noreplySender, .bulk) { $0.automatedSender ? .fired : nil },
        Rule(.categoryPromotions, .bulk) { $0.labels.contains("CATEGORY_PROMOTIONS") ? .fired : nil },
        Rule(.categorySocial, .bulk) { $0.labels.contains("CATEGORY_SOCIAL") ? .fired : nil },
        Rule(.categoryUpdates, .bulk) { $0.labels.contains("CATEGORY_UPDATES") ? .fired : nil },
        Rule(.categoryForums, .bulk) { $0.labels.contains("CATEGORY_FORUMS") ? .fired : nil },
        // A user filter that skipped the inbox has already said "not now".
        Rule(.notInInbox, .bulk) { !$0.labels.isEmpty && !$0.labels.contains("INBOX") ? .fired : nil },
    ]
}
