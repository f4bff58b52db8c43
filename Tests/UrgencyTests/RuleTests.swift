import AlfredCore
import Foundation
import Testing
@testable import Urgency

/// A minimal message: just the headers a rule needs. `labels: nil` means Gmail sent none.
func message(_ headers: KeyValuePairs<String, String> = [:], labels: [String]? = ["INBOX"], thread: String? = nil,
             mimeType: String? = nil, id: String = "m1") -> GmailMessage {
    GmailMessage(id: id, threadId: thread, labelIds: labels,
                 payload: .init(mimeType: mimeType, headers: headers.map { .init(name: $0.key, value: $0.value) }))
}

func date(_ rfc3339: String) -> Date { UrgencyPreferences.parseRFC3339(rfc3339)! }

let saturdayMorning = date("2026-11-21T09:00:00Z")
let me = "mara@example.com"

/// One rule firing on its own, with the id it reports.
struct RuleCase: Sendable, CustomTestStringConvertible {
    var expected: String
    var message: GmailMessage
    var preferences = UrgencyPreferences()
    var testDescription: String { expected }
}

@Suite(.timeLimit(.minutes(5))) struct RuleTests {
    static let addressed = UrgencyPreferences(userAddresses: [me])

    static let cases: [RuleCase] = [
        RuleCase(expected: "vip_sender", message: message(["From": "Boss <Boss@Example.com>"]),
                 preferences: UrgencyPreferences(vipSenders: ["boss@example.com"])),
        RuleCase(expected: "vip_sender", message: message(["From": "teacher@school.example.org"]),
                 preferences: UrgencyPreferences(vipSenders: ["@school.example.org"])),
        RuleCase(expected: "gmail_important", message: message(labels: ["INBOX", "IMPORTANT"])),
        RuleCase(expected: "gmail_starred", message: message(labels: ["INBOX", "STARRED"])),
        RuleCase(expected: "urgency_word:en", message: message(["Subject": "Urgent: the server"])),
        RuleCase(expected: "urgency_word:de", message: message(["Subject": "AW: WG: Dringend - Rechnung"])),
        RuleCase(expected: "user_keyword", message: message(["Subject": "About Lio's trip"]),
                 preferences: UrgencyPreferences(keywords: ["Lio"])),
        RuleCase(expected: "direct_to", message: message(["To": "Other <o@example.com>, Mara <MARA@example.com>"]),
                 preferences: addressed),
        RuleCase(expected: "direct_to", message: message(["To": "mara+receipts@example.com"]), preferences: addressed),
        RuleCase(expected: "cc_only", message: message(["To": "o@example.com", "Cc": "\"Lindqvist, Mara\" <mara@example.com>"]),
                 preferences: addressed),
        RuleCase(expected: "not_addressed", message: message(["To": "undisclosed-recipients:;"]), preferences: addressed),
        RuleCase(expected: "own_thread_reply", message: message(thread: "t-own"),
                 preferences: UrgencyPreferences(ownThreadIds: ["t-own"])),
        RuleCase(expected: "own_thread_reply", message: message(["References": "<a@x.example> <sent-1@example.com>"], thread: "new"),
                 preferences: UrgencyPreferences(ownMessageIds: ["<sent-1@example.com>"])),
        RuleCase(expected: "invite_today", message: message(["Subject": "Invitation: Sync @ Sat Nov 21, 2026 2pm - 3pm (UTC) (mara@example.com)"])),
        RuleCase(expected: "invite_not_today", message: message(["Subject": "Invitation: Sync @ Mon Nov 23, 2026 2pm - 3pm (UTC)"])),
        RuleCase(expected: "calendar_response", message: message(["Subject": "Accepted: Sync @ Sat Nov 21, 2026 2pm - 3pm (UTC)"])),
        RuleCase(expected: "list_unsubscribe", message: message(["List-Unsubscribe": "<mailto:u@example.com>"])),
        RuleCase(expected: "list_id", message: message(["List-Id": "Users <users.lists.example.org>"])),
        RuleCase(expected: "precedence_bulk", message: message(["Precedence": "bulk"])),
        RuleCase(expected: "precedence_bulk", message: message(["precedence": "List"])),
        RuleCase(expected: "precedence_bulk", message: message(["Precedence": "junk"])),
        RuleCase(expected: "auto_submitted", message: message(["Auto-Submitted": "auto-replied"])),
        RuleCase(expected: "auto_submitted", message: message(["Auto-Submitted": "auto-generated; type=x"])),
        RuleCase(expected: "auto_submitted", message: message(["X-Autoreply": "yes"])),
        RuleCase(expected: "auto_reply_subject", message: message(["Subject": "Automatic reply: Q4 forecast"])),
        RuleCase(expected: "auto_reply_subject", message: message(["Subject": "Abwesenheitsnotiz: Angebot"])),
        RuleCase(expected: "noreply_sender", message: message(["From": "Shop <no-reply@shop.example.com>"])),
        RuleCase(expected: "noreply_sender", message: message(["From": "do_not_reply@bank.example.com"])),
        RuleCase(expected: "noreply_sender", message: message(["From": "GitHub <notifications@github.example.com>"])),
        RuleCase(expected: "category_promotions", message: message(labels: ["INBOX", "CATEGORY_PROMOTIONS"])),
        RuleCase(expected: "category_social", message: message(labels: ["INBOX", "CATEGORY_SOCIAL"])),
        RuleCase(expected: "category_updates", message: message(labels: ["INBOX", "CATEGORY_UPDATES"])),
        RuleCase(expected: "category_forums", message: message(labels: ["INBOX", "CATEGORY_FORUMS"])),
        RuleCase(expected: "not_in_inbox", message: message(labels: ["UNREAD", "Label_12"])),
    ]

    @Test(arguments: cases)
    func eachRuleFiresAloneWithItsID(_ rule: RuleCase) {
        let decision = UrgencyScorer(ruleSet: .standard, preferences: rule.preferences).score(rule.message, now: saturdayMorning)
        #expect(decision.rules.map(\.id) == [rule.expected])
        let base = RuleID(rawValue: String(rule.expected.prefix { $0 != ":" }))!
        #expect(decision.rules.first?.weight == RuleSet.standard.weight(base))
        #expect(decision.score == RuleSet.standard.weight(base))
        #expect(decision.ruleSetVersion == RuleSet.standard.version)
    }

    @Test func aPlainMessageFiresNothing() {
        let decision = UrgencyScorer().score(message(["From": "a@example.com", "Subject": "Lunch?"]), now: saturdayMorning)
        #expect(decision.rules.isEmpty && decision.score == 0 && !decision.urgent)
        // Without labels at all (Gmail's `minimal` answers can lack them) nothing label-based fires either.
        #expect(UrgencyScorer().score(message(labels: nil), now: saturdayMorning).rules.isEmpty)
    }

    @Test func nearMissesDoNotFire() {
        let scorer = UrgencyScorer(ruleSet: .standard, preferences: UrgencyPreferences(
            vipSenders: ["@school.example.org"], userAddresses: [me], ownThreadIds: ["t-own"]))
        let cases: [GmailMessage] = [
            message(["From": "x@sub.school.example.org", "To": me]),      // a VIP domain is that exact domain
            message(["From": "x@school.example.org.evil.example", "To": me]),
            message(["Auto-Submitted": "no", "To": me]),                    // RFC 3834: "no" means a person
            message(["Precedence": "first-class", "To": me]),
            message(["From": "replyto@example.com", "To": me]),              // "reply" alone is not "noreply"
            message(["Subject": "Invitation to our webinar", "To": me]),    // no colon: not a calendar subject
            message(["Subject": "Invitation: Standup @ Weekly from 10am to 10:30am on Monday (CET)", "To": me]),
            message(["To": me], thread: "t-other"),
        ]
        for message in cases {
            // Since 2026-11-24.1 a domain that embeds the VIP's domain is a look-alike: that one fires it.
            let expected = message.header("From") == "x@school.example.org.evil.example" ? ["direct_to", "lookalike_domain"] : ["direct_to"]
            #expect(scorer.score(message, now: saturdayMorning).rules.map(\.id) == expected, "\(message.payload?.headers ?? [])")
        }
    }

    @Test(arguments: [("SPAM", "spam"), ("TRASH", "trash"), ("SENT", "sent"), ("DRAFT", "draft")])
    func suppressionLabelsAreNeverUrgent(label: String, id: String) {
        let scorer = UrgencyScorer(ruleSet: .standard, preferences: UrgencyPreferences(
            vipSenders: ["boss@example.com"], keywords: ["outage"], userAddresses: [me]))
        let screaming = message(["From": "boss@example.com", "To": me, "Subject": "URGENT outage, call me ASAP"],
                                labels: ["INBOX", "IMPORTANT", "STARRED", label])
        let decision = scorer.score(screaming, now: saturdayMorning)
        #expect(!decision.urgent)
        #expect(decision.score == 0)
        #expect(decision.rules == [FiredRule(id: "suppressed:\(id)", weight: 0)])
        #expect(decision.suppressedBy == id)
        // Without the label the same message is as urgent as it gets.
        let unsuppressed = message(["From": "boss@example.com", "To": me, "Subject": "URGENT outage, call me ASAP"],
                                   labels: ["INBOX", "IMPORTANT", "STARRED"])
        #expect(scorer.score(unsuppressed, now: saturdayMorning, quietHours: true).urgent)
    }

    @Test func rulesFireInAFixedOrderAndAddUp() {
        let scorer = UrgencyScorer(ruleSet: .standard, preferences: UrgencyPreferences(vipSenders: ["boss@example.com"], userAddresses: [me]))
        let decision = scorer.score(message(["From": "boss@example.com", "To": me, "Subject": "Dringend"],
                                            labels: ["INBOX", "IMPORTANT"]), now: saturdayMorning)
        #expect(decision.rules.map(\.id) == ["vip_sender", "gmail_important", "urgency_word:de", "direct_to"])
        #expect(decision.score == decision.rules.map(\.weight).reduce(0, +))
        let w = RuleSet.standard.weights
        let (vip, important, word, direct) = (w[.vipSender]!, w[.gmailImportant]!, w[.urgencyWord]!, w[.directTo]!)
        #expect(decision.score == vip + important + word + direct)
        #expect(decision.urgent)
        #expect(decision.description == "urgent \(vip + important + word + direct)/60 [vip_sender +\(vip), gmail_important +\(important), urgency_word:de +\(word), direct_to +\(direct)] rules \(RuleSet.standard.version)")
        #expect(scorer.score(message(["From": "boss@example.com", "To": me, "Subject": "Dringend"], labels: ["INBOX", "IMPORTANT"]),
                             now: saturdayMorning) == decision, "deterministic")
    }

    @Test func bulkSignalsOutweighAnUrgentWord() {
        let scorer = UrgencyScorer(ruleSet: .standard, preferences: Self.addressed)
        let blast = message(["From": "Deals <deals@shop.example.com>", "To": me, "Subject": "URGENT: your cart expires",
                             "List-Unsubscribe": "<mailto:u@shop.example.com>", "Precedence": "bulk"],
                            labels: ["INBOX", "CATEGORY_PROMOTIONS"])
        let decision = scorer.score(blast, now: saturdayMorning)
        #expect(!decision.urgent)
        #expect(decision.rules.map(\.id) == ["urgency_word:en", "direct_to", "list_unsubscribe", "precedence_bulk", "category_promotions"])
    }
}

@Suite(.timeLimit(.minutes(5))) struct SubjectMatchingTests {
    static let scorer = UrgencyScorer()

    func language(_ subject: String) -> String? {
        Self.scorer.score(message(["Subject": subject]), now: saturdayMorning).rules
            .first { $0.id.hasPrefix("urgency_word:") }.map { String($0.id.dropFirst("urgency_word:".count)) }
    }

    @Test(arguments: [
        ("URGENT: board deck", "en"), ("Need this asap", "en"), ("Need this ASAP!", "en"), ("please reply urgently", "en"),
        ("Emergency - the dog", "en"), ("Call me when you see this", "en"), ("Time-sensitive: approval", "en"),
        ("Dringend: Rechnung", "de"), ("EILT: Zertifikat", "de"), ("Bitte sofort melden", "de"),
        ("Freigabe schnellstmöglich", "de"), ("Antwort unverzüglich", "de"), ("antwort unverzuglich", "de"),
        ("Notfall im Büro", "de"), ("Bitte ruf mich an", "de"),
        ("Demande urgente : devis", "es"), // "urgente" is shared; the first language listed that has it is named
        ("À traiter IMMÉDIATEMENT", "fr"), ("a traiter immediatement", "fr"), ("Rappelez-moi dès que possible", "fr"),
        ("rappelez moi des que possible", "fr"), ("Urgence : fuite d'eau", "fr"),
        ("URGENTE: confirmación", "es"), ("Necesito la firma de inmediato", "es"), ("Llámame", "es"), ("llamame", "es"),
        ("Al più presto: ordine", "it"), ("al piu presto", "it"), ("Subito: bonifico", "it"),
        ("Preciso o quanto antes", "pt"), ("o mais rapido possivel", "pt"), ("Responda imediatamente", "pt"),
        // Diacritic folding makes pt "urgência"/"emergência" the same word as es "urgencia"/"emergencia".
        ("Aprovação com urgência", "es"),
        ("Spoed: handtekening", "nl"), ("Kun je z.s.m. bellen?", "nl"), ("zsm graag", "nl"), ("Graag zo snel mogelijk", "nl"),
        ("RE: AW: WG: TR: RV: dringend", "de"), ("Re[2]: urgent", "en"), ("ＵＲＧＥＮＴ", "en"),
    ])
    func urgencyWordsMatchAcrossLanguages(subject: String, expected: String) {
        #expect(language(subject) == expected, "\(subject)")
    }

    @Test(arguments: [
        "Insurgent forces advance", "Resurgent demand for GPUs", "Sofortüberweisung erhalten", "Urgentdesk newsletter",
        "Eilte die Zeit?", "Subitoeventi weekly", "Emergencyroom.example.com invoice", "The spoedkoerier is here",
        "Unsubscribe from asap-weekly-digest", "Immediateness of feedback", "",
    ])
    func wholeWordsOnly(subject: String) {
        // Words inside longer words never match; a listed word next to punctuation or a hyphen does
        // ("asap-weekly" above is three words, so that one is a deliberate positive control below).
        if subject.hasPrefix("Unsubscribe") { #expect(language(subject) == "en"); return }
        #expect(language(subject) == nil, "\(subject)")
    }

    @Test func replyPrefixesAreStripped() {
        let prefixes = Set(RuleSet.standard.replyPrefixes.map(Text.fold))
        #expect(Text.strippingReplyPrefixes("Re: AW: WG: Invitation: Sync", prefixes: prefixes) == "Invitation: Sync")
        #expect(Text.strippingReplyPrefixes("RE : Fwd: TR: RV: hello", prefixes: prefixes) == "hello")
        #expect(Text.strippingReplyPrefixes("Re[3]: hello", prefixes: prefixes) == "hello")
        #expect(Text.strippingReplyPrefixes("Urgent: hello", prefixes: prefixes) == "Urgent: hello")
        #expect(Text.strippingReplyPrefixes("Note: Re: hello", prefixes: prefixes) == "Note: Re: hello")
        #expect(Text.strippingReplyPrefixes("no colon at all", prefixes: prefixes) == "no colon at all")
        // A forwarded invitation is still an invitation; an auto-reply to a reply still an auto-reply.
        let scorer = UrgencyScorer()
        #expect(scorer.score(message(["Subject": "Fwd: Invitation: Sync @ Sat Nov 21, 2026 2pm - 3pm (UTC)"]), now: saturdayMorning)
            .rules.map(\.id) == ["invite_today"])
        #expect(scorer.score(message(["Subject": "RE: Automatic reply: RE: budget"]), now: saturdayMorning)
            .rules.map(\.id) == ["auto_reply_subject"])
    }

    @Test func userKeywordsMatchLikeUrgencyWords() {
        let scorer = UrgencyScorer(ruleSet: .standard, preferences: UrgencyPreferences(keywords: ["SEV1", "Noor", "on call"]))
        func fires(_ subject: String) -> Bool {
            scorer.score(message(["Subject": subject]), now: saturdayMorning).rules.contains { $0.id == "user_keyword" }
        }
        #expect(fires("sev1: checkout down"))
        #expect(fires("Training NOOR afgelast"))
        #expect(fires("Who is on-call tonight?"))
        #expect(!fires("Noordzee weekend"))
        #expect(!fires("sev10 drill"))
    }
}

@Suite(.timeLimit(.minutes(5))) struct ThresholdTests {
    /// A non-VIP colleague writing "urgent" directly: 45 + 15 = 60, exactly the normal bar.
    let urgentWord = message(["From": "colleague@example.com", "To": me, "Subject": "Urgent: export failing"])

    @Test func quietHoursAskForMore() {
        let scorer = UrgencyScorer(ruleSet: .standard, preferences: UrgencyPreferences(userAddresses: [me]))
        let normal = scorer.score(urgentWord, now: saturdayMorning)
        let quiet = scorer.score(urgentWord, now: saturdayMorning, quietHours: true)
        #expect(normal.urgent && normal.threshold == 60)
        #expect(!quiet.urgent && quiet.threshold == 90)
        #expect(normal.score == quiet.score && normal.rules == quiet.rules, "quiet hours move the bar, not the score")
    }

    @Test func userThresholdOverridesKeepTheQuietGap() {
        let stricter = UrgencyScorer(ruleSet: .standard, preferences: UrgencyPreferences(threshold: 70, userAddresses: [me]))
        #expect(stricter.threshold == 70 && stricter.quietHoursThreshold == 100)
        #expect(!stricter.score(urgentWord, now: saturdayMorning).urgent)
        let explicit = UrgencyScorer(ruleSet: .standard, preferences: UrgencyPreferences(threshold: 50, quietHoursThreshold: 55, userAddresses: [me]))
        #expect(explicit.score(urgentWord, now: saturdayMorning, quietHours: true).urgent)
        let inverted = UrgencyScorer(ruleSet: .standard, preferences: UrgencyPreferences(threshold: 80, quietHoursThreshold: 40))
        #expect(inverted.quietHoursThreshold == 80, "quiet hours never lower the bar")
    }

    @Test func perUserVIPsAndKeywordsChangeTheOutcome() {
        let mail = message(["From": "Ingrid <ingrid@example.org>", "To": me, "Subject": "Papa - bitte melden"], labels: ["INBOX", "IMPORTANT"])
        let plain = UrgencyScorer(ruleSet: .standard, preferences: UrgencyPreferences(userAddresses: [me]))
        let vip = UrgencyScorer(ruleSet: .standard, preferences: UrgencyPreferences(vipSenders: ["ingrid@example.org"], userAddresses: [me]))
        let both = UrgencyScorer(ruleSet: .standard, preferences: UrgencyPreferences(vipSenders: ["ingrid@example.org"], keywords: ["Papa"], userAddresses: [me]))
        let w = RuleSet.standard.weights
        #expect(plain.score(mail, now: saturdayMorning).score == w[.gmailImportant]! + w[.directTo]!)
        #expect(vip.score(mail, now: saturdayMorning).score == w[.vipSender]! + w[.gmailImportant]! + w[.directTo]!)
        #expect(!vip.score(mail, now: saturdayMorning).urgent, "a VIP alone is not an interruption")
        #expect(both.score(mail, now: saturdayMorning).urgent)
        #expect(both.score(mail, now: saturdayMorning).rules.map(\.id) == ["vip_sender", "gmail_important", "user_keyword", "direct_to"])
    }
}

@Suite(.timeLimit(.minutes(5))) struct OwnThreadTests {
    @Test func learnsThreadsAndMessageIDsFromSentMail() {
        var scorer = UrgencyScorer(ruleSet: .standard, preferences: UrgencyPreferences(userAddresses: [me]))
        let reply = message(["From": "agent@example.net", "To": me, "Subject": "Re: Viewing"], thread: "t-9")
        let replyByReference = message(["From": "lawyer@example.net", "To": me, "In-Reply-To": "<sent-42@example.com>"], thread: "t-new")
        #expect(!scorer.score(reply, now: saturdayMorning).rules.contains { $0.id == "own_thread_reply" })

        // Only the user's SENT mail teaches; someone else's message in a thread does not.
        scorer.learn(from: message(["From": "agent@example.net", "Message-ID": "<sent-42@example.com>"], labels: ["INBOX"], thread: "t-9"))
        #expect(!scorer.score(reply, now: saturdayMorning).rules.contains { $0.id == "own_thread_reply" })
        #expect(!scorer.score(replyByReference, now: saturdayMorning).rules.contains { $0.id == "own_thread_reply" })

        scorer.learn(from: message(["From": me, "Message-ID": " <sent-42@example.com> "], labels: ["SENT"], thread: "t-9"))
        #expect(scorer.score(reply, now: saturdayMorning).rules.map(\.id) == ["direct_to", "own_thread_reply"])
        #expect(scorer.score(replyByReference, now: saturdayMorning).rules.map(\.id) == ["direct_to", "own_thread_reply"])
    }
}

@Suite(.timeLimit(.minutes(5))) struct InvitationTests {
    func fired(_ subject: String, now: Date, zone: String, headers: KeyValuePairs<String, String> = [:], mimeType: String? = nil) -> [String] {
        let scorer = UrgencyScorer(ruleSet: .standard, preferences: UrgencyPreferences(timeZone: TimeZone(identifier: zone)!))
        var mail = message(headers, mimeType: mimeType)
        mail.payload?.headers?.append(.init(name: "Subject", value: subject))
        return scorer.score(mail, now: now).rules.map(\.id)
    }

    @Test func todayIsTheUsersToday() {
        // 23:30 UTC on Saturday is already Sunday 00:30 in Amsterdam.
        let lateSaturdayUTC = date("2026-11-21T23:30:00Z")
        let sunday = "Invitation: Brunch @ Sun Nov 22, 2026 11am - 1pm (CET) (mara@example.com)"
        let saturday = "Invitation: Drinks @ Sat Nov 21, 2026 (CET) (mara@example.com)"
        #expect(fired(sunday, now: lateSaturdayUTC, zone: "Europe/Amsterdam") == ["invite_today"])
        #expect(fired(saturday, now: lateSaturdayUTC, zone: "Europe/Amsterdam") == ["invite_not_today"])
        #expect(fired(sunday, now: lateSaturdayUTC, zone: "UTC") == ["invite_not_today"])
        #expect(fired(saturday, now: lateSaturdayUTC, zone: "UTC") == ["invite_today"])
        // And westward: 05:00 UTC Saturday is Friday 21:00 in Los Angeles.
        let friday = "Invitation: Late call @ Fri Nov 20, 2026 10pm - 11pm (PST) (mara@example.com)"
        #expect(fired(friday, now: date("2026-11-21T05:00:00Z"), zone: "America/Los_Angeles") == ["invite_today"])
        #expect(fired(friday, now: date("2026-11-21T05:00:00Z"), zone: "Europe/Amsterdam") == ["invite_not_today"])
    }

    @Test func aMeetingThatIsOverIsNotForToday() {
        let nineFortyCET = date("2026-11-21T09:40:00+01:00")
        #expect(fired("Updated invitation with note: Standup @ Sat Nov 21, 2026 8am - 8:15am (CET)", now: nineFortyCET, zone: "Europe/Amsterdam") == ["invite_not_today"])
        #expect(fired("Updated invitation: Standup @ Sat Nov 21, 2026 9am - 9:15am (CET)", now: nineFortyCET, zone: "Europe/Amsterdam") == ["invite_today"], "started 40 minutes ago")
        #expect(fired("Invitation: Dinner @ Sat Nov 21, 2026 7pm - 10pm (CET)", now: nineFortyCET, zone: "Europe/Amsterdam") == ["invite_today"])
    }

    @Test(arguments: [
        ("Invitation: Sync @ Sat Nov 21, 2026 2pm - 3pm (CET) (a@example.com)", 2026, 11, 21, 14, 0),
        ("Updated invitation: Sync @ Tue Dec 1, 2026 10:30am - 11am (CET)", 2026, 12, 1, 10, 30),
        ("Einladung: Sync @ Sa. 21. Nov. 2026 13:00 - 13:30 (MEZ) (a@example.com)", 2026, 11, 21, 13, 0),
        ("Einladung: Sync @ Mo. 1. März 2027 09:00 - 10:00 (MEZ)", 2027, 3, 1, 9, 0),
        ("Invitation : Point @ sam. 21 nov. 2026 14h30 - 15h (UTC+1)", 2026, 11, 21, 14, 30),
        ("Invitación: Revisión @ mar 24 nov 2026 10:00 - 11:00 (CET)", 2026, 11, 24, 10, 0),
        ("Invito: Riunione @ sab 21 nov 2026 12:00 - 12:30 (CET)", 2026, 11, 21, 12, 0),
        ("Convite: Assinatura @ qua 2 de dez. de 2026 15:00 - 16:00 (CET)", 2026, 12, 2, 15, 0),
        ("Uitnodiging: Oudergesprek @ za 21 nov. 2026 15:00 - 15:15 (CET)", 2026, 11, 21, 15, 0),
        ("Invitation: Juli party @ Fri Jul 3, 2026 12pm - 1pm", 2026, 7, 3, 12, 0),
        ("Invitation: Midnight @ Sat Nov 21, 2026 12am - 1am", 2026, 11, 21, 0, 0),
    ])
    func readsGoogleCalendarDates(subject: String, year: Int, month: Int, day: Int, hour: Int, minute: Int) throws {
        let parsed = try #require(InvitationDate(subject: subject))
        #expect(parsed == InvitationDate(year: year, month: month, day: day, start: .init(hour: hour, minute: minute)))
    }

    @Test func datesWithoutTimesAndSubjectsWithoutDates() {
        #expect(InvitationDate(subject: "Invitation: Holiday @ Sat Nov 21, 2026 (CET)") == InvitationDate(year: 2026, month: 11, day: 21))
        #expect(InvitationDate(subject: "Invitation: 1:1 @ Weekly from 10am to 10:30am on Monday (CET)") == nil)
        #expect(InvitationDate(subject: "Lunch @ the usual place") == nil)
        #expect(InvitationDate(subject: "Invitation: Sync") == nil)
    }

    @Test func calendarPartsAreInvitationsButNeedADateToCountAsToday() {
        // Outlook-style: a text/calendar body and a plain title. Known to be an invitation, date unknown.
        #expect(!fired("Go/no-go", now: saturdayMorning, zone: "UTC", mimeType: "text/calendar").contains { $0.hasPrefix("invite") })
        #expect(fired("Sync @ Sat Nov 21, 2026 4pm", now: saturdayMorning, zone: "UTC",
                      headers: ["Content-Type": "text/calendar; method=REQUEST"]) == ["invite_today"])
        #expect(fired("Sync @ Sun Nov 22, 2026 4pm", now: saturdayMorning, zone: "UTC",
                      headers: ["Content-Class": "urn:content-classes:calendarmessage"]) == ["invite_not_today"])
        // Without any calendar marker a date in the subject is no invitation; since 2026-11-24.1 it is
        // read as a time like any other (4pm today, still ahead).
        #expect(fired("Party @ Sat Nov 21, 2026 4pm", now: saturdayMorning, zone: "UTC") == ["deadline_soon"])
    }
}
