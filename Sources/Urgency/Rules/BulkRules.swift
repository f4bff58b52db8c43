extension RuleID {
    public static let listUnsubscribe = RuleID("list_unsubscribe")
    public static let listID = RuleID("list_id")
    public static let precedenceBulk = RuleID("precedence_bulk")
    public static let autoSubmitted = RuleID("auto_submitted")
    public static let autoReplySubject = RuleID("auto_reply_subject")
    public static let noreplySender = RuleID("noreply_sender")
    public static let categoryPromotions = RuleID("category_promotions")
    public static let categorySocial = RuleID("category_social")
    public static let categoryUpdates = RuleID("category_updates")
    public static let categoryForums = RuleID("category_forums")
    public static let notInInbox = RuleID("not_in_inbox")
}

/// Bulk and machine mail. Most are `.bulk`: when a strong event fires, `bulk_floor` limits their sum.
enum BulkRules {
    static let all: [Rule] = [
        .when(.listUnsubscribe, .bulk, "bulk mail (List-Unsubscribe)", role: .bulk) { $0.header("list-unsubscribe") != nil },
        .when(.listID, .bulk, "mailing-list mail (List-Id)", role: .bulk) { $0.header("list-id") != nil },
        .when(.precedenceBulk, .bulk, "bulk precedence", role: .bulk) { message in
            message.header("precedence").map(UrgencyScorer.token).map { ["bulk", "list", "junk"].contains($0) } == true
        },
        .when(.autoSubmitted, .bulk, "sent by a machine (Auto-Submitted)", role: .bulk) { $0.autoSubmitted },
        .when(.autoReplySubject, .bulk, "an automatic reply") { $0.autoReplySubject },
        .when(.noreplySender, .bulk, "a no-reply or notification sender", role: .bulk) { $0.automatedSender },
        .when(.categoryPromotions, .bulk, "Gmail's Promotions category") { $0.labels.contains("CATEGORY_PROMOTIONS") },
        .when(.categorySocial, .bulk, "Gmail's Social category", role: .bulk) { $0.labels.contains("CATEGORY_SOCIAL") },
        .when(.categoryUpdates, .bulk, "Gmail's Updates category", role: .bulk) { $0.labels.contains("CATEGORY_UPDATES") },
        .when(.categoryForums, .bulk, "Gmail's Forums category", role: .bulk) { $0.labels.contains("CATEGORY_FORUMS") },
        // A user filter that skipped the inbox has already said "not now".
        .when(.notInInbox, .bulk, "a filter kept it out of the inbox") { !$0.labels.isEmpty && !$0.labels.contains("INBOX") },
    ]
}
