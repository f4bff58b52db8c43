import Foundation
import Testing
@testable import Urgency

/// Wednesday 25 Nov 2026, 09:00 in Rome (and Lisbon, an hour behind).
let romeNow = date("2026-11-25T09:00:00+01:00")
let rome = UrgencyPreferences(userAddresses: [me], timeZone: TimeZone(identifier: "Europe/Rome")!, now: romeNow)
let lisbon = UrgencyPreferences(userAddresses: [me], timeZone: TimeZone(identifier: "Europe/Lisbon")!, now: romeNow)
let newYork = UrgencyPreferences(userAddresses: [me], timeZone: TimeZone(identifier: "America/New_York")!, now: romeNow)

/// Italian and Portuguese read as the other four languages do, and the situations that are urgent
/// without an urgency word are read in every language.
@Suite(.timeLimit(.minutes(5))) struct SixLanguageTests {
    let sent = date("2026-11-25T08:50:00+01:00")

    @Test(arguments: [
        ("Firma", "Serve la tua firma entro le 18."),
        ("Deposito", "Il deposito scade oggi alle 17:00."),
        ("Portale", "Il portale chiude alle ore 12."),
        ("Offerta", "Mandami i tempi ciclo prima delle 15."),
        ("Ordine", "Ci serve la conferma entro fine giornata."),
        ("Assinatura", "Preciso da assinatura até às 18h."),
        ("Lote", "O envio vence hoje às 17h."),
        ("Proposta", "Precisamos da proposta até ao final do dia."),
    ])
    func italianAndPortugueseDeadlinesTodayAreRead(subject: String, snippet: String) {
        let fired = ids(mail(subject, snippet, sent: sent), rome, now: romeNow)
        #expect(fired.contains("deadline_soon"), "\(snippet): \(fired)")
    }

    @Test(arguments: [
        ("Riunione", "La riunione è domani alle 10."),
        ("Reunião", "Reunião amanhã às 10h, até lá."),
        ("Budget", "Ne parliamo la prossima settimana."),
    ])
    func daysAwayIsNotSoon(subject: String, snippet: String) {
        let fired = ids(mail(subject, snippet, sent: sent), rome, now: romeNow)
        #expect(!fired.contains("deadline_soon") && fired.contains("deadline_later"), "\(snippet): \(fired)")
    }

    /// "le 18 novembre" is a French date: the Italian article reads as an hour only after its preposition.
    @Test func aFrenchDateIsNoItalianHour() {
        let message = mail("Facture", "Merci de régler avant le 18 novembre.", sent: sent)
        let reading = UrgencyScorer(preferences: rome).features(of: message, now: romeNow, explain: false).reading
        #expect(reading.instant != date("2026-11-25T18:00:00+01:00"), "'le 18' read as 18:00 today")
        #expect(!ids(message, rome, now: romeNow).contains("deadline_soon"))
    }

    /// A zone phrase that names a place means that place's zone, whatever the user's zone is.
    @Test func aNamedCitysZoneIsThatCitys() throws {
        // The user is in New York; "10:00 heure de Paris" is 04:00 there, not 10:00.
        let scorer = UrgencyScorer(preferences: newYork)
        let paris = scorer.features(of: mail("Appel", "Appel client à 10:00 heure de Paris, merci de confirmer.", sent: sent),
                                    now: romeNow, explain: false)
        let instant = try #require(paris.reading.instant)
        #expect(instant == date("2026-11-25T10:00:00+01:00"), "read as Paris time: 04:00 in New York")
        let own = scorer.features(of: mail("Call", "Client call at 10:00 your time, please confirm.", sent: sent),
                                  now: romeNow, explain: false)
        #expect(try #require(own.reading.instant) == date("2026-11-25T10:00:00-05:00"), "'your time' is the user's zone")
        let brasilia = UrgencyScorer(preferences: lisbon).features(
            of: mail("Reunião", "Reunião às 10:00 horário de Brasília.", sent: sent), now: romeNow, explain: false)
        #expect(try #require(brasilia.reading.instant) == date("2026-11-25T10:00:00-03:00"))
    }

    @Test(arguments: [
        ("it", "Linea 3", "La linea 3 è ferma da stamattina, gli operai sono fermi.", "work_stopped"),
        ("pt", "Linha parada", "A linha 2 está parada e a equipa está parada à espera.", "work_stopped"),
        ("de", "Kassen", "Die Kassen gehen nicht mehr, seit 13:30 nur Barzahlung.", "work_stopped"),
        ("fr", "T2", "Le tunnel T2 est en défaut depuis 9h35.", "work_stopped"),
        ("pt", "Pacientes", "Os pacientes estão à espera desde as 8h.", "people_affected"),
        ("en", "Drivers", "The drivers are waiting at the dock.", "people_affected"),
        ("it", "Visita", "È arrivato l'ing. Taddei, è in sala d'attesa.", "someone_here"),
        ("de", "Theke", "Herr Kessler steht an der Theke und will auf Rechnung kaufen.", "someone_here"),
        ("pt", "Débito", "O pagamento foi recusado por saldo insuficiente.", "money_at_risk"),
        ("it", "Bonifico", "Il bonifico non è passato, addebito respinto.", "money_at_risk"),
    ])
    func urgentWithoutAnUrgencyWord(language: String, subject: String, snippet: String, rule: String) {
        let fired = ids(mail(subject, snippet, sent: sent), rome, now: romeNow)
        #expect(fired.contains("\(rule):\(language)") || fired.contains { $0.hasPrefix(rule + ":") }, "\(snippet): \(fired)")
    }

    /// A place alone is no visitor: keys left at the entrance, a courier's delivery list.
    @Test(arguments: [
        "Te he dejado las llaves del coche en la entrada.",
        "Amanhã de manhã o motoboy leva as placas.",
    ])
    func aPlaceWithoutSomeoneArrivingIsNoVisitor(snippet: String) {
        let fired = ids(mail("Recado", snippet, sent: sent), rome, now: romeNow)
        #expect(!fired.contains { $0.hasPrefix("someone_here") }, "\(snippet): \(fired)")
    }

    /// Sales words in a colleague's mail to the user are work; in bulk mail they are marketing.
    @Test func marketingWordsCountOnlyInMailThatLooksBulk() {
        let colleague = mail("Deploy x Black Friday", "O deploy das 16h derruba o painel durante a live de Black Friday. Pede o freeze?",
                             sent: sent)
        #expect(!ids(colleague, lisbon, now: romeNow).contains { $0.hasPrefix("marketing") })
        let shop = mail("Black Friday: -50%", "Só hoje, Black Friday em toda a loja.", sent: sent,
                        labels: ["INBOX", "CATEGORY_PROMOTIONS"], extra: ["List-Unsubscribe": "<mailto:u@shop.example>"])
        #expect(ids(shop, lisbon, now: romeNow).contains { $0.hasPrefix("marketing") })
    }

    /// A negator is a negation word: a multi-word negator whose last word is not one on its own made
    /// every "é" a negator ("não é") and hid "la febbre è andata via".
    @Test func negatorsEndInANegationWord() {
        let negators = RuleSet.standard.phrases[.negator] ?? []
        let single = Set(negators.flatMap(\.words).map(Text.tokenList).filter { $0.count == 1 }.map { $0[0] })
        for entry in negators {
            for phrase in entry.words {
                let last = Text.tokenList(phrase).last ?? ""
                #expect(single.contains(last), "negator '\(phrase)' (\(entry.language)) ends in '\(last)', not a negation word")
            }
        }
        let fired = ids(mail("papà", "Tutto bene oggi. La febbre è andata via, 36,6 stasera.", sent: sent), rome, now: romeNow)
        #expect(fired.contains { $0.hasPrefix("closure") }, "\(fired)")
    }

    /// Every content family speaks all six languages.
    @Test func everyContentFamilyHasAllSixLanguages() {
        let content: [PhraseFamily] = [.decisionAsk, .blocking, .incident, .security, .negated, .closure, .fyi, .marketing,
                                       .automatedNotice, .phishing, .health, .pickup, .travelTransport, .travelProblem,
                                       .meetingChange, .meetingWord, .waitingForYou, .workStopped, .peopleIdle, .customerImpact,
                                       .someoneHere, .moneyConsequence, .consequenceCue, .arrival, .people, .today, .tomorrow,
                                       .deadlineCue, .endOfDay]
        for family in content {
            let languages = Set((RuleSet.standard.phrases[family] ?? []).filter { !$0.words.isEmpty }.map(\.language))
            #expect(languages.isSuperset(of: ["en", "de", "fr", "es", "it", "pt"]), "\(family.rawValue): \(languages.sorted())")
        }
        let urgency = Set(RuleSet.standard.urgencyWords.map(\.language))
        #expect(urgency.isSuperset(of: ["en", "de", "fr", "es", "it", "pt"]))
    }
}
