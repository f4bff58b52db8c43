import AlfredCore
import Foundation
import Testing
@testable import Urgency

/// A message with a subject, a snippet and a Date header written at `sent` with the given offset.
func mail(_ subject: String, _ snippet: String = "", from: String = "Kim Berg <kim@partner.example.com>", to: String = me,
          sent: Date, offset: Int = 3600, labels: [String] = ["INBOX", "CATEGORY_PERSONAL"],
          extra: KeyValuePairs<String, String> = [:], thread: String? = nil) -> GmailMessage {
    var formatter = DateFormatter()
    formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(secondsFromGMT: offset)
    formatter.dateFormat = "EEE, d MMM yyyy HH:mm:ss Z"
    var headers: [GmailMessage.Header] = [.init(name: "From", value: from), .init(name: "To", value: to),
                                          .init(name: "Subject", value: subject), .init(name: "Date", value: formatter.string(from: sent))]
    headers += extra.map { .init(name: $0.key, value: $0.value) }
    return GmailMessage(id: "m", threadId: thread, labelIds: labels, snippet: snippet,
                        internalDate: String(Int64(sent.timeIntervalSince1970 * 1000)), payload: .init(headers: headers))
}

/// Tuesday 24 Nov 2026, 10:15 in Berlin.
let berlinNow = date("2026-11-24T10:15:00+01:00")
let berlin = UrgencyPreferences(vipSenders: ["thomas.reinhardt@vogelwerk.example.com"],
                                userAddresses: [me, "miriam.kessler@vogelwerk.example.com"],
                                timeZone: TimeZone(identifier: "Europe/Berlin")!, now: berlinNow)

func ids(_ message: GmailMessage, _ preferences: UrgencyPreferences = berlin, now: Date = berlinNow) -> [String] {
    UrgencyScorer(ruleSet: .standard, preferences: preferences).score(message, now: now).rules.map(\.id)
}

@Suite(.timeLimit(.minutes(5))) struct DeadlineTests {
    let earlier = date("2026-11-24T09:40:00+01:00")

    @Test(arguments: [
        ("Budget slides", "Can you review them by 3pm? Thomas needs them for the bank call."),
        ("Budgetfolien", "Kannst du bis 13 Uhr einmal drüberschauen?"),
        ("Frist", "Die Einspruchsfrist endet heute noch, Frist 17 Uhr."),
        ("Avoir client", "J'ai besoin de ton accord avant 16h, sinon la commande part."),
        ("Contrat", "Merci de me renvoyer le contrat signé d'ici midi."),
        ("Propuesta", "Necesito la propuesta hoy antes de las 14h."),
        ("Oferta", "Tenemos que contestar esta tarde."),
        ("Numbers", "Need the final numbers EOD today."),
        ("Quick one", "Please send it within the hour."),
        ("Kurs", "Die Bank hält den Kurs, antworte bitte in 45 Minuten."),
        ("Ce soir", "Le dossier doit partir ce soir."),
    ])
    func aDeadlineStillAheadTodayLeansUrgent(subject: String, snippet: String) {
        #expect(ids(mail(subject, snippet, sent: earlier)).contains("deadline_soon"), "\(subject)")
    }

    @Test(arguments: [
        ("Zielvereinbarungen", "Die Frist im HR-Portal ist Freitag, 27.11."),
        ("Report", "The package is due by Friday, no earlier needed."),
        ("Planung", "Können wir das bis nächste Woche klären?"),
        ("Liasse", "Nous aurons besoin des éléments pour le 15 décembre au plus tard."),
        ("Saldos", "Envíennos el documento firmado antes del 10 de diciembre."),
        ("Lunch", "Lunch tomorrow at 12:30?"),
    ])
    func aDeadlineDaysAwayDoesNot(subject: String, snippet: String) {
        let fired = ids(mail(subject, snippet, sent: earlier))
        #expect(fired.contains("deadline_later") && !fired.contains("deadline_soon"), "\(subject): \(fired)")
    }

    @Test func aDeadlineThatPassedDoesNot() {
        let fired = ids(mail("Reporting", "Die Abgabe war gestern 17 Uhr, die Holding hat verlängert.", sent: earlier))
        #expect(fired.contains("deadline_passed") || fired.contains("deadline_later"))
        #expect(!fired.contains("deadline_soon"))
        #expect(ids(mail("Slides", "Could you check them by 9am?", sent: date("2026-11-24T07:00:00+01:00"))).contains("deadline_passed"))
    }

    @Test func relativeDaysAreTheWritersDays() {
        // "tomorrow 12:00" written yesterday evening is today's noon; "today 5pm" written yesterday is gone.
        let yesterday = date("2026-11-23T18:12:00+01:00")
        #expect(ids(mail("Unterschrift", "Wir bräuchten die Erklärung bis morgen 12:00 Uhr.", sent: yesterday)).contains("deadline_soon"))
        #expect(ids(mail("Report", "It's due today by 5pm.", sent: yesterday)).contains("deadline_passed"))
        // A New York writer's "tomorrow 9am ET" at 20:31 their time is 15:00 in Berlin today.
        let newYorkEvening = date("2026-11-23T20:31:00-05:00")
        #expect(ids(mail("Wire cutoff", "The cutoff is 9am ET tomorrow.", sent: newYorkEvening, offset: -5 * 3600)).contains("deadline_soon"))
    }

    @Test func readsTheUsersZoneAcrossDaylightSavingTime() {
        // Berlin springs forward on 29 Mar 2026 at 02:00. A "by 3pm" written at 01:30 (+01:00) is 15:00
        // CEST: 4h45m ahead at 10:15 CEST, and gone at 15:30 CEST.
        let zone = TimeZone(identifier: "Europe/Berlin")!
        let prefs = UrgencyPreferences(userAddresses: [me], timeZone: zone)
        let message = mail("Slides", "Please review by 3pm.", sent: date("2026-03-29T01:30:00+01:00"))
        let before = UrgencyScorer(ruleSet: .standard, preferences: prefs).score(message, now: date("2026-03-29T14:45:00+02:00"), explain: true)
        let soon = try? #require(before.rules.first { $0.id == "deadline_soon" })
        #expect(soon?.detail?.contains("15:00 today") == true, "\(soon?.detail ?? "")")
        #expect(soon?.detail?.contains("0h15m ahead") == true, "\(soon?.detail ?? "")")
        let after = UrgencyScorer(ruleSet: .standard, preferences: prefs).score(message, now: date("2026-03-29T15:30:00+02:00"))
        #expect(after.rules.contains { $0.id == "deadline_passed" })
        // The same wall time in autumn (back to +01:00 on 25 Oct).
        let autumn = mail("Slides", "Please review by 3pm.", sent: date("2026-10-25T01:30:00+02:00"), offset: 7200)
        let october = UrgencyScorer(ruleSet: .standard, preferences: prefs).score(autumn, now: date("2026-10-25T14:00:00+01:00"), explain: true)
        #expect(october.rules.first { $0.id == "deadline_soon" }?.detail?.contains("15:00 today") == true)
    }

    @Test func sinceAndAgoAreNotDeadlines() {
        let fired = ids(mail("Checkout", "Checkout failing since 09:12, errors on every order.", sent: earlier))
        #expect(!fired.contains("deadline_soon"))
        #expect(fired.contains("incident:en"))
    }
}

@Suite(.timeLimit(.minutes(5))) struct IntentAndRelaxationTests {
    let sent = date("2026-11-24T09:40:00+01:00")

    @Test(arguments: [
        ("Freigabe Bestellung", "Brauche deine Freigabe für die Bestellung, sonst verlieren wir den Preis.", "decision_ask:de"),
        ("PO", "Can you approve the PO so we can ship?", "decision_ask:en"),
        ("Avoir", "J'ai besoin de ton accord pour l'avoir.", "decision_ask:fr"),
        ("Contraoferta", "¿Me das tu visto bueno para la contraoferta?", "decision_ask:es"),
        ("Checkout", "The site is down, checkout failing for everyone.", "incident:en"),
        ("Portal", "Das Banking-Portal ist ausgefallen, Störung seit 8:30.", "incident:de"),
        ("Robots", "40 robots hors ligne, l'appli est en panne.", "incident:fr"),
        ("Web", "La web está caída y no funciona el pago.", "incident:es"),
        ("Laptop", "Your laptop is compromised, disconnect it.", "security_event:en"),
        ("Karte", "Verdächtige Transaktion auf Ihrer Karte. Waren Sie das?", "security_event:de"),
        ("Carte", "Opération suspecte sur votre carte, est-ce bien vous ?", "security_event:fr"),
        ("Clave", "La clave API se ha filtrado en un repo público.", "security_event:es"),
        ("Emil", "Emil hat 39 Fieber, bitte abholen.", "health_event:de"),
        ("Mom", "Your mother fell and is in the hospital.", "health_event:en"),
        ("Léa", "Léa a de la fièvre, merci de venir la chercher.", "health_event:fr"),
        ("Abuela", "Tu abuela está en urgencias.", "health_event:es"),
    ])
    func intentAndEventFamiliesInEachLanguage(subject: String, snippet: String, rule: String) {
        #expect(ids(mail(subject, snippet, sent: sent)).contains(rule), "\(subject)")
    }

    @Test(arguments: [
        ("Question", "Not urgent, whenever you get a chance.", "negated:en"),
        ("Frage", "Kein Stress, hat Zeit bis Montag.", "negated:de"),
        ("Question", "Pas urgent, quand tu peux.", "negated:fr"),
        ("Pregunta", "Sin prisa, cuando puedas.", "negated:es"),
        ("Outage", "Resolved: the API is back to normal.", "closure:en"),
        ("VPN", "Lag am Zertifikat, ist behoben.", "closure:de"),
        ("Panne", "Incident résolu, tout fonctionne à nouveau.", "closure:fr"),
        ("Caída", "Incidencia solucionada, ya funciona.", "closure:es"),
    ])
    func negationAndClosurePullDown(subject: String, snippet: String, rule: String) {
        let decision = UrgencyScorer(ruleSet: .standard, preferences: berlin).score(mail(subject, snippet, sent: sent), now: berlinNow)
        #expect(decision.rules.contains { $0.id == rule && $0.weight < 0 }, "\(subject): \(decision)")
        #expect(!decision.urgent)
    }

    @Test func aNegatedUrgencyWordIsNotAnUrgencyWord() {
        let fired = ids(mail("nicht dringend: Dienstwagen", "Hallo Miriam, nicht dringend.", sent: sent))
        #expect(!fired.contains { $0.hasPrefix("urgency_word") })
        #expect(fired.contains("negated:de"))
        // "still not resolved" is no closure.
        #expect(!ids(mail("Outage", "Still not resolved, customers are calling.", sent: sent)).contains { $0.hasPrefix("closure") })
    }

    @Test func questionsInTheUsersOwnThreadBlock() {
        var scorer = UrgencyScorer(ruleSet: .standard, preferences: berlin)
        scorer.learn(from: mail("Forecast Q4", "Kannst du den Forecast aktualisieren?", from: "Miriam <\(me)>", to: "sven@vogelwerk.example.com",
                                sent: date("2026-11-23T17:10:00+01:00"), labels: ["SENT"], extra: ["Message-ID": "<f1@example.com>"]))
        let reply = mail("AW: Forecast Q4", "Eine Sache musst du entscheiden: drin lassen oder raus?", sent: sent,
                         extra: ["In-Reply-To": "<f1@example.com>"])
        let decision = scorer.score(reply, now: berlinNow)
        #expect(decision.urgent, "\(decision)")
        #expect(decision.rules.map(\.id).contains("own_thread_reply"))
    }
}

@Suite(.timeLimit(.minutes(5))) struct TrustAndCategoryTests {
    let sent = date("2026-11-24T09:44:00+01:00")

    @Test func aVIPsNameFromAnotherDomainIsAnImpersonation() {
        let scam = mail("Vertraulich – Überweisung heute", "Bitte veranlasse heute noch eine Überweisung, ich kann nicht telefonieren.",
                        from: "Thomas Reinhardt <thomas.reinhardt@vogelwerk-holding.example.net>", sent: sent)
        let decision = UrgencyScorer(ruleSet: .standard, preferences: berlin).score(scam, now: berlinNow)
        #expect(decision.rules.map(\.id).contains("impersonation:name"))
        #expect(decision.rules.map(\.id).contains("lookalike_domain"))
        #expect(!decision.urgent)
        // The real one is a VIP, and fine.
        let real = mail("Kurze Frage", "Hast du kurz Zeit?", from: "Thomas Reinhardt <thomas.reinhardt@vogelwerk.example.com>", sent: sent)
        #expect(!ids(real).contains { $0.hasPrefix("impersonation") })
    }

    @Test func learnedCorrespondentsAndTitlesAreProtectedToo() {
        var scorer = UrgencyScorer(ruleSet: .standard, preferences: berlin)
        scorer.learn(from: mail("Capex", "Mark, attached.", from: "Miriam <\(me)>", to: "Mark Ellison <mark.ellison@vogelwerk.example.com>",
                                sent: sent, labels: ["SENT"]))
        let scam = mail("Quick favour", "Are you available? I need you to process an urgent wire today, keep it between us.",
                        from: "Mark Ellison <mark.ellison.office@freemail.example.net>", sent: sent)
        let decision = scorer.score(scam, now: berlinNow)
        #expect(decision.rules.map(\.id).contains("impersonation:name"))
        #expect(decision.rules.map(\.id).contains("payment_scam:en"))
        #expect(!decision.urgent)
        let ceo = mail("Gift cards", "I need 5 gift cards for a client, send me the codes.", from: "CEO Office <ceo@mail-ceo.example.org>", sent: sent)
        let fired = ids(ceo)
        #expect(fired.contains("impersonation:title") && fired.contains("gift_card:en"))
    }

    @Test func strongEventsAreWeighedAgainstMachineMailNotVetoed() {
        let fraud = mail("Verdächtige Transaktion", "Wir haben eine ungewöhnliche Zahlung festgestellt. Haben Sie diese Zahlung veranlasst?",
                         from: "Bank <noreply@bank.example.com>", sent: sent, labels: ["INBOX", "CATEGORY_UPDATES"],
                         extra: ["Auto-Submitted": "auto-generated"])
        let decision = UrgencyScorer(ruleSet: .standard, preferences: berlin).score(fraud, now: berlinNow)
        #expect(decision.urgent, "\(decision)")
        #expect(decision.rules.map(\.id).contains("bulk_floor"))
        // Marketing is never limited: "ends tonight" in a sale stays quiet.
        let sale = mail("Last chance: 30% off ends tonight", "Our sale ends tonight at midnight. Shop now!",
                        from: "Shop <deals@shop.example.com>", sent: sent, labels: ["INBOX", "CATEGORY_PROMOTIONS"],
                        extra: ["List-Unsubscribe": "<mailto:u@shop.example.com>"])
        let promo = UrgencyScorer(ruleSet: .standard, preferences: berlin).score(sale, now: berlinNow)
        #expect(!promo.urgent)
        #expect(!promo.rules.map(\.id).contains("bulk_floor"))
    }
}

/// What rule set 2026-11-26.1 (and .2) learned from the second tuning file: a time that has passed is a
/// missed deadline only when it was said as one; evenings last until late; closures, school closures,
/// transactions the user may not have made, and credentials asked for through a link.
@Suite(.timeLimit(.minutes(5))) struct EventTimesAndEveningsTests {
    /// Monday 23 Nov 2026, 22:10 in New York: late evening.
    let evening = date("2026-11-23T22:10:00-05:00")
    var newYork: UrgencyPreferences {
        UrgencyPreferences(vipSenders: [], userAddresses: [me], timeZone: TimeZone(identifier: "America/New_York")!, now: evening)
    }
    func fired(_ subject: String, _ snippet: String, sentMinutesAgo minutes: Double = 5, from: String = "Kim Berg <kim@partner.example.com>",
               labels: [String] = ["INBOX", "CATEGORY_PERSONAL"]) -> [String] {
        ids(mail(subject, snippet, from: from, sent: evening.addingTimeInterval(-minutes * 60), offset: -5 * 3600, labels: labels),
            newYork, now: evening)
    }

    @Test(arguments: [
        ("toast timing", "The CEO toast at 7:30 instead of 8:15? Band leader is on the phone with me right now - yes or no?"),
        ("fwd from #ops", "[10:00 PM] kev: check-in iPads throwing errors [10:01 PM] arjun: can you hop on the zoom? we're stuck"),
        ("DOWN: checkout", "Checkout is DOWN. Down since 2026-11-24 02:41:17 (14m)."),
    ])
    func timesOfEventsThatPassedAreNotMissedDeadlines(subject: String, snippet: String) {
        #expect(!fired(subject, snippet).contains("deadline_passed"), "\(subject)")
    }

    @Test func aDeadlineSaidAsOneStillCountsAsMissed() {
        #expect(fired("Slides", "Could you check them by 9pm?").contains("deadline_passed"))
        #expect(fired("Slides", "Could you check them at 9pm?").contains("deadline_passed") == false)
    }

    @Test(arguments: [
        ("walkthrough", "I moved the walkthrough from tomorrow 9a to 10:45 tonight at the pier. Can you be there?"),
        ("walk-in", "Need you to OK a reefer truck rental tonight, their engineer is off till 6am."),
        ("Change order", "It would be appreciated if countersignature could be provided this evening."),
    ])
    func tonightIsStillAheadLateInTheEvening(subject: String, snippet: String) {
        #expect(fired(subject, snippet).contains("deadline_soon"), "\(subject)")
    }

    @Test func aClosedSchoolTodayIsAFamilyEmergencyAndNotAClosure() {
        let rules = fired("SCHOOL CLOSED TODAY", "Due to a heating failure the school will be CLOSED TODAY to all pupils.",
                          from: "St Jude's <office@stjudes.example.org>", labels: ["INBOX", "CATEGORY_UPDATES"])
        #expect(rules.contains("health_event:en"))
        #expect(!rules.contains { $0.hasPrefix("closure") })
        #expect(!fired("Term dates", "The school will be closed on Monday 7 December for staff training.")
            .contains { $0.hasPrefix("health_event") })
        #expect(fired("INC-4411", "Ticket closed, the fix is deployed.").contains("closure:en"))
    }

    /// "hoy mismo" was listed both as a bare "today" and as a deadline ("today, no later"): which one
    /// the reader took depended on the order a dictionary happened to iterate in, so the same message
    /// scored differently from one process to the next. No phrase is in two day or time families now,
    /// and the index keeps the listed order.
    @Test func aPhraseIsInOneTimeFamilyAndTheDeadlineReadsTheSameEveryRun() {
        var owner: [String: PhraseFamily] = [:]
        for family in PhraseFamily.allCases where TimeReader.timeFamilies.contains(family) {
            for list in RuleSet.standard.phrases[family] ?? [] {
                for phrase in list.words {
                    let key = list.language + ":" + phrase
                    #expect(owner[key] == nil || owner[key] == family, "\(key) is in \(owner[key].map(\.rawValue) ?? "") and \(family.rawValue)")
                    owner[key] = family
                }
            }
        }
        let rules = ids(mail("Pago pendiente", "Le pedimos realizar hoy mismo el pago del anticipo.", sent: date("2026-11-23T17:14:25-06:00"),
                             offset: -6 * 3600), newYork, now: evening)
        #expect(rules.contains("deadline_soon"), "\(rules)")
    }

    /// Rule set 2026-11-26.3: in the user's evening, tomorrow morning is soon; in the morning it is not.
    @Test func inTheEveningTomorrowMorningIsSoon() {
        let rules = fired("Pièce 12", "Maître Marchetti doit déposer demain à 9 h et a besoin de savoir : pouvez-vous livrer ?")
        #expect(rules.contains("deadline_soon"), "\(rules)")
        let morning = date("2026-11-23T09:10:00-05:00")
        let early = ids(mail("Pièce 12", "Maître Marchetti doit déposer demain à 9 h.", sent: morning.addingTimeInterval(-300),
                             offset: -5 * 3600), newYork, now: morning)
        #expect(early.contains("deadline_later"), "\(early)")
        #expect(fired("Customs audit", "Documents to upload before the 11.30pm cut-off today, please.").contains("deadline_soon"))
    }

    @Test func aTransactionTheUserMayNotHaveMadeIsASecurityEvent() {
        let rules = fired("Alert: INR 2,85,000.00 debited", "INR 2,85,000 debited to a new beneficiary. If not done by you, call us immediately.",
                          from: "Bank <alerts@bank.example.com>", labels: ["INBOX", "CATEGORY_UPDATES"])
        #expect(rules.contains("security_event:en"))
    }

    @Test func credentialsAskedForThroughALinkArePhishingNotASecurityEvent() {
        let rules = fired("Dringend: Ihr Zugang läuft heute ab",
                          "Bitte bestätigen Sie Ihre Zugangsdaten über den folgenden Link, sonst wird Ihr Zugang deaktiviert.",
                          from: "Portal <portal@lieferanten-portal.example.net>", labels: ["INBOX", "CATEGORY_UPDATES"])
        #expect(rules.contains("phishing:de"))
        #expect(!rules.contains { $0.hasPrefix("security_event") })
    }
}

@Suite(.timeLimit(.minutes(5))) struct SnippetTests {
    @Test func entitiesAreDecoded() {
        #expect(Text.decodingEntities("it&#39;s &amp; &quot;x&quot; &gt; y &#x27;z&#x27; &unknown; &") == "it's & \"x\" > y 'z' &unknown; &")
    }

    @Test func quotedTextIsNotRead() {
        let folded = Text.fold("Thanks, all good here. On Tue, Anna wrote: URGENT server down")
        #expect(Text.ownText(ofFoldedSnippet: folded) == "thanks, all good here.")
        let german = Text.fold("Erledigt. Am Mo., 23. Nov. 2026 um 16:02 schrieb Miriam: dringend")
        #expect(Text.ownText(ofFoldedSnippet: german) == "erledigt.")
    }

    @Test func explanationsNameRulesAndTimesNeverText() {
        let message = mail("Budgetfolien für Thomas", "Kannst du bis 13 Uhr drüberschauen? Dringend!", sent: date("2026-11-24T09:47:00+01:00"))
        let decision = UrgencyScorer(ruleSet: .standard, preferences: berlin).score(message, now: berlinNow, explain: true)
        let text = Text.fold(decision.rules.compactMap(\.detail).joined(separator: " | "))
        #expect(UrgencyScorer(ruleSet: .standard, preferences: berlin).score(message, now: berlinNow).rules.allSatisfy { $0.detail == nil },
                "no explanation is built unless asked for")
        #expect(text.contains("deadline 13:00 today"), "\(text)")
        #expect(text.contains("2h45m ahead"), "\(text)")
        for word in ["budgetfolien", "thomas", "druberschauen", "dringend", "kim", "@"] { #expect(!text.contains(word), "\(word)") }
        let line = MessageLines.encodeExplained(decision, messageID: "m")
        #expect(line.contains(#""why":"#) && !line.contains("Budget"))
    }
}

/// The tuning split of the labelled corpus (Corpus/tune.jsonl) with its personas. Never the frozen
/// test split: that one is read by the lead's own test only.
@Suite(.timeLimit(.minutes(2))) struct TuneCorpusEvaluationTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")

    /// tune.jsonl (420 messages, four users), tune-2.jsonl and tune-3.jsonl (180 and 150, three more
    /// users each, two thirds English), each with the precision it reaches today as its floor. In
    /// tune-3 Gmail's IMPORTANT label is right far more often (baseline F1 0.776), which leaves the
    /// rules less room above it than the 0.2 the issue asks for on the frozen split.
    @Test(arguments: [("tune.jsonl", 0.95, 0.2), ("tune-2.jsonl", 0.95, 0.2), ("tune-3.jsonl", 0.90, 0.15)])
    func rulesBeatTheBarAndTheImportantBaselineOnEachTuningFile(file: String, minimumPrecision: Double, overBaseline: Double) throws {
        let text = try String(contentsOf: Self.corpus.appendingPathComponent(file), encoding: .utf8)
        let records = try text.split(separator: "\n").compactMap { try CorpusRecord.decode($0) }
        #expect(records.count >= 150)
        var loaded: [String: UrgencyPreferences] = [:]
        let report = try UrgencyEvaluation.evaluate(records, defaultNow: berlinNow) { persona in
            let name = try #require(persona)
            try #require(!name.hasPrefix("test-"), "the tune split never uses a test persona")
            if let cached = loaded[name] { return cached }
            let value = try UrgencyPreferences(contentsOfFile: Self.corpus.appendingPathComponent("personas/\(name).json").path)
            loaded[name] = value
            return value
        }
        print(report.text)
        // Measured with 2026-11-24.1 on tune.jsonl: precision 0.977, recall 0.992, F1 0.984 (IMPORTANT
        // baseline 0.558 / 0.414 / 0.475); on tune-2.jsonl, before any tuning on it, 0.958 / 0.836.
        // With 2026-11-26.1: tune.jsonl 0.984 / 0.992, tune-2.jsonl 1.000 / 0.964 (baseline 0.518 / 0.527).
        // tune-3.jsonl before any tuning on it (2026-11-26.2): 0.837 / 0.837 (baseline 0.776 / 0.776);
        // with 2026-11-26.3: 0.907 / 1.000, the other two files unchanged.
        #expect(report.rules.precision >= minimumPrecision)
        #expect(report.rules.recall >= 0.95)
        #expect(report.rules.f1 >= report.baseline.f1 + overBaseline)
        // Per language where a file has enough of it to measure (tune-2 has 20 each but English).
        for (language, numbers) in report.perLanguage where records.filter({ $0.language == language }).count >= 50 {
            #expect(numbers.precision >= 0.9 && numbers.recall >= 0.9, "\(language): \(numbers.precision) \(numbers.recall)")
        }
        #expect(report.ruleUse["suppressed:sent"]?.falseAlerts ?? 0 == 0)
        #expect(report.misses.allSatisfy { !$0.id.isEmpty })
    }

    @Test func confusionArithmetic() {
        var c = Confusion()
        for (e, p) in [(true, true), (true, true), (true, false), (false, true), (false, false)] { c.add(expected: e, predicted: p) }
        #expect(c.truePositives == 2 && c.falseNegatives == 1 && c.falsePositives == 1 && c.trueNegatives == 1)
        #expect(abs(c.precision - 2.0 / 3) < 1e-9 && abs(c.recall - 2.0 / 3) < 1e-9 && abs(c.f1 - 2.0 / 3) < 1e-9)
    }
}
