import Foundation

extension RuleSet {
    /// The shipped rules. Written as JSON, not as Swift values, so that the default is exactly the
    /// format an operator's `--rules` file uses and can be copied out as a starting point.
    /// `UrgencyTests` checks it decodes; bump `version` with every change so decisions stay traceable.
    public static let standard: RuleSet = {
        do {
            return try RuleSet(json: Data(standardJSON.utf8))
        } catch {
            // Only reachable if this literal is edited into something invalid; the tests catch that first.
            fatalError("the embedded default urgency rule set is invalid: \(error)")
        }
    }()

    /// The JSON text of `standard`.
    ///
    /// Weights are points: a message is urgent at `threshold` (60) or more, during quiet hours at
    /// `quiet_hours_threshold` (90). The reasoning behind the numbers:
    /// - Who sent it is not enough: a VIP writing routinely to the user (VIP 30 + direct 15 + Gmail
    ///   IMPORTANT 10 = 55) is not an interruption; a VIP plus an urgency word, a keyword, a reply in
    ///   the user's thread or a today-invite is. (Version 2026-11-21.1 was measured with VIP at 40:
    ///   routine VIP mail then crossed the bar and cost 7 points of precision on the fixture set.)
    /// - An urgency word written to the user directly (45 + 15) reaches the bar; the same word from
    ///   a bulk sender (list headers, categories, noreply) stays far below it. That is what keeps
    ///   "URGENT: verify your account" and "Urgent hire!" recruiter blasts quiet.
    /// - Bulk signals stack on purpose: real newsletters carry several, a person's mail carries none.
    /// Version 2026-11-24.1 (issue #17) reads the snippet as well as the subject and adds rules for
    /// time (a deadline still ahead today is urgent-leaning, one days away or passed is not), intent
    /// (asks for a decision, blockers, questions in the user's own threads), events (incidents,
    /// security, same-day travel trouble, health and family emergencies, meetings moved to now),
    /// relaxation (negation, closure, FYI) and sender trust (impersonation, look-alike domains,
    /// gift-card and secret-wire asks). The phrase families are broad and multilingual on purpose:
    /// they name how people write about a situation, not the wording of any example.
    /// - Strong events (security 60, incident 50, travel 55, health 55) beat the machine-mail
    ///   penalties because `bulk_floor` limits those to -30 when one fires: a fraud alert from a
    ///   no-reply sender in Updates is urgent, while marketing (Promotions, List-Unsubscribe, the
    ///   marketing phrases) is never limited, so "ends tonight" in a sale stays quiet.
    /// - Time alone is not enough: a deadline still ahead today (+40) needs a person writing to the
    ///   user (+15) and a little more (an ask, a question, a VIP) to reach 60.
    /// - Relaxation outweighs an urgency word (-60 against +45) and an impersonation outweighs
    ///   everything a scam can say (-100).
    /// Version 2026-11-26.1 was tuned on the second tuning file (three users the first rules never
    /// saw, mostly English), with the frozen test split unread: a passed time counts as a missed
    /// deadline only after a deadline word ("by", "bis", "avant", "antes de"), so event times, chat
    /// stamps and "down since 02:41" stop pulling real asks down; "tonight" lasts until 23:00 and pulls
    /// a bare "10:45" next to it into the evening; "05:30" is a 24-hour time; closure needs a closed
    /// ticket or incident, not a closed school; a school or nursery closed today is a family emergency;
    /// "if not done by you" is a security event; credentials asked for through a link are phishing in
    /// all four languages; a bare "escalation" is no longer a page.
    /// Version 2026-11-26.2 makes no decision differently from .1 on the corpus files; it removes "hoy
    /// mismo" from `today` (it is a `today_deadline` phrase, and the duplicate made the reading depend
    /// on dictionary order) and a repeated "fin de journee".
    /// Version 2026-11-26.3 was tuned on the third tuning file (three more users; the frozen split still
    /// unread): in the user's evening the next morning is "soon" (a 7:10 flight or a 9:00 filing
    /// tomorrow is tonight's problem); "tonight" lasts until midnight; "5.30pm" is a time; facility
    /// incidents (lost power, a tripped boiler) are incidents; "need help" is an ask; "won't dispatch
    /// without a signed PO" blocks; "I'll get him" settles a pickup; bank details asked for through a
    /// form are phishing.
    static let standardJSON = #"""
    {
      "version": "2026-11-26.3",
      "threshold": 60,
      "quiet_hours_threshold": 90,
      "weights": {
        "vip_sender": 20,
        "gmail_important": 10,
        "gmail_starred": 35,
        "urgency_word": 45,
        "user_keyword": 45,
        "direct_to": 15,
        "own_thread_reply": 35,
        "invite_today": 50,
        "cc_only": -10,
        "not_addressed": -15,
        "invite_not_today": -20,
        "calendar_response": -30,
        "list_unsubscribe": -30,
        "list_id": -20,
        "precedence_bulk": -25,
        "auto_submitted": -50,
        "auto_reply_subject": -50,
        "noreply_sender": -30,
        "category_promotions": -50,
        "category_social": -40,
        "category_updates": -20,
        "category_forums": -25,
        "not_in_inbox": -30,
        "deadline_soon": 45,
        "today_mention": 15,
        "decision_ask": 30,
        "blocking": 15,
        "question": 10,
        "incident": 60,
        "security_event": 70,
        "travel_disruption": 55,
        "health_event": 55,
        "child_pickup": 30,
        "meeting_moved": 40,
        "waiting_for_you": 45,
        "deadline_later": -25,
        "deadline_passed": -15,
        "negated": -60,
        "closure": -70,
        "fyi": -35,
        "marketing": -30,
        "automated_notice": -25,
        "phishing": -70,
        "gift_card": -80,
        "payment_scam": -70,
        "impersonation": -100,
        "lookalike_domain": -60,
        "bulk_floor": -15
      },
      "urgency_words": [
        { "language": "en", "words": [
          "urgent", "urgently", "asap", "emergency", "immediately", "immediate attention", "right away",
          "as soon as possible", "time sensitive", "time critical", "call me", "please call", "need you now",
          "help needed now" ] },
        { "language": "de", "words": [
          "dringend", "dringende", "dringender", "dringendes", "eilt", "eilig", "eilige", "sofort", "umgehend",
          "unverzüglich", "schnellstmöglich", "so schnell wie möglich", "notfall", "zeitkritisch", "bitte anrufen",
          "ruf mich an", "ruf bitte an" ] },
        { "language": "es", "words": [
          "urgente", "urgentes", "urgencia", "urgentemente", "inmediatamente", "de inmediato", "lo antes posible",
          "cuanto antes", "lo más pronto posible", "emergencia", "llámame", "llámeme" ] },
        { "language": "it", "words": [
          "urgente", "urgenti", "urgenza", "urgentissimo", "urgentemente", "subito", "immediatamente", "al più presto",
          "prima possibile", "quanto prima", "emergenza", "chiamami", "mi chiami" ] },
        { "language": "pt", "words": [
          "urgente", "urgentes", "urgência", "com urgência", "imediatamente", "o mais rápido possível",
          "o quanto antes", "o mais breve possível", "emergência", "me liga", "ligue-me" ] },
        { "language": "fr", "words": [
          "urgente", "urgentes", "urgence", "en urgence", "immédiatement", "immédiat", "dès que possible",
          "au plus vite", "le plus vite possible", "au plus tôt", "sans délai", "appelle-moi", "appelez-moi",
          "rappelle-moi", "rappelez-moi" ] },
        { "language": "nl", "words": [
          "spoed", "spoedig", "met spoed", "dringende", "z.s.m.", "zsm", "zo snel mogelijk", "onmiddellijk",
          "noodgeval", "bel me", "bel mij" ] }
      ],
      "reply_prefixes": [
        "re", "aw", "wg", "fw", "fwd", "tr", "rv", "sv", "vs", "antw", "antwort", "r", "i", "rif", "res", "enc",
        "doorst", "antwoord", "réf", "ref"
      ],
      "invitation_prefixes": [
        "Invitation", "Updated invitation", "Updated invitation with note", "Invitation with note", "Canceled event",
        "Cancelled event", "Canceled event with note", "Event canceled", "Einladung", "Aktualisierte Einladung",
        "Abgesagter Termin", "Termin abgesagt", "Invitation mise à jour", "Événement annulé", "Invitación",
        "Invitación actualizada", "Evento cancelado", "Invito", "Invito aggiornato", "Evento annullato", "Convite",
        "Convite atualizado", "Uitnodiging", "Bijgewerkte uitnodiging", "Geannuleerde afspraak",
        "Afspraak geannuleerd"
      ],
      "calendar_response_prefixes": [
        "Accepted", "Declined", "Tentatively accepted", "Tentative", "Proposed new time", "Angenommen", "Abgelehnt",
        "Mit Vorbehalt angenommen", "Vorläufig angenommen", "Accepté", "Refusé", "Accepté provisoirement", "Aceptado",
        "Rechazado", "Aceptado provisionalmente", "Accettato", "Rifiutato", "Accettato provvisoriamente", "Aceito",
        "Recusado", "Aceito provisoriamente", "Geaccepteerd", "Geweigerd", "Voorlopig geaccepteerd"
      ],
      "auto_reply_prefixes": [
        "Automatic reply", "Auto reply", "Autoreply", "Auto-reply", "Out of office", "Out of the office",
        "Automatische Antwort", "Abwesenheitsnotiz", "Abwesend", "Réponse automatique", "Absence",
        "Respuesta automática", "Fuera de la oficina", "Risposta automatica", "Fuori sede", "Resposta automática",
        "Fora do escritório", "Automatisch antwoord", "Afwezig", "Niet aanwezig"
      ],
      "executive_titles": [
        "ceo", "cfo", "coo", "chief executive", "managing director", "president", "geschaftsfuhrer",
        "geschaftsfuhrerin", "geschaftsfuhrung", "vorstand", "vorstandsvorsitzender", "pdg", "directeur general",
        "directrice generale", "president directeur general", "director general", "directora general",
        "consejero delegado", "presidente", "ceo office", "office of the ceo"
      ],
      "phrases": {
        "decision_ask": [
          { "language": "en", "words": [
            "approve", "approval", "approved by you", "sign off", "sign-off", "signoff", "your signature",
            "need you to sign", "please sign", "can you sign", "go/no-go", "go or no-go", "go no go", "your go",
            "need your decision", "your decision", "need a decision", "decide", "your call", "need your ok", "your ok",
            "your okay", "your green light", "green light", "yes or no", "yes/no", "ok to proceed", "okay to proceed",
            "can you confirm", "please confirm", "need your confirmation", "your answer", "need your input",
            "need your answer", "sign the", "countersign", "countersignature", "signature required",
            "need help", "need your help", "what do you want us to do", "what should we do", "need to know tonight",
            "needs your signature", "sign-off required", "authorize", "authorise", "authorization",
            "release the payment" ] },
          { "language": "de", "words": [
            "freigabe", "freigeben", "gib frei", "geben sie frei", "deine freigabe", "ihre freigabe", "dein go",
            "ihr go", "go oder no-go", "go/no-go", "entscheiden", "entscheidung", "entscheide", "ja oder nein",
            "ja/nein", "unterschrift", "unterschreiben", "unterzeichnen", "gegenzeichnen", "zustimmung", "dein ok",
            "ihr ok", "dein okay", "grunes licht", "bestatigen", "deine antwort", "ihre antwort", "was sagst du",
            "was meinst du", "einverstanden", "genehmigen", "genehmigung", "absegnen" ] },
          { "language": "fr", "words": [
            "ton accord", "votre accord", "ton feu vert", "votre feu vert", "feu vert", "valider", "validation",
            "ta validation", "votre validation", "approuver", "approbation", "decider", "decision", "ta decision",
            "votre decision", "oui ou non", "oui/non", "signer", "signature", "ta signature", "votre signature",
            "confirmer", "ton ok", "votre ok", "qu'en dis-tu", "qu'en pensez-vous", "autoriser", "ta reponse",
            "votre reponse", "tu valides", "vous validez" ] },
          { "language": "es", "words": [
            "aprobacion", "aprobar", "apruebes", "apruebe", "tu visto bueno", "su visto bueno", "visto bueno", "tu ok",
            "tu okay", "decidir", "decision", "decidas", "decida", "si o no", "si/no", "firmar", "firmes", "tu firma",
            "su firma", "confirmar", "confirmes", "confirme", "autorizar", "autorizacion", "luz verde", "tu respuesta",
            "su respuesta", "que dices", "que opinas", "validar", "validacion" ] }
        ],
        "blocking": [
          { "language": "en", "words": [
            "otherwise", "blocked", "blocking", "blocker", "waiting on you", "waiting for your", "before i can",
            "until you", "can't proceed", "cannot proceed", "we're stuck", "we are stuck", "is stuck", "has been stuck",
            "without a signed", "without your signature", "won't dispatch", "can't dispatch", "cannot dispatch",
            "won't release", "goes to print", "on hold until", "so we can", "so that we can",
            "or we lose", "or we miss", "cutoff", "cut-off", "deadline", "last call", "before we can" ] },
          { "language": "de", "words": [
            "sonst", "ansonsten", "andernfalls", "ohne das", "ohne deine", "ohne ihre", "bevor ich", "bevor wir",
            "blockiert", "wartet auf", "warten auf deine", "warten auf ihre", "damit wir", "frist", "fristablauf",
            "deadline", "annahmeschluss", "cut-off", "hangt", "hangt an" ] },
          { "language": "fr", "words": [
            "sinon", "faute de quoi", "bloque", "bloquant", "bloquee", "sans ton", "sans votre", "sans ca",
            "avant que je", "avant de pouvoir", "pour qu'on puisse", "pour que nous puissions", "en attente de",
            "date limite", "delai", "echeance", "dernier delai" ] },
          { "language": "es", "words": [
            "si no", "de lo contrario", "bloqueado", "bloqueada", "bloquea", "sin tu", "sin su", "sin eso",
            "antes de poder", "para poder", "esperando tu", "esperando su", "fecha limite", "plazo", "se nos pasa" ] }
        ],
        "incident": [
          { "language": "en", "words": [
            "is down", "are down", "went down", "site down", "site is down", "outage", "p1", "p0", "sev1", "sev 1",
            "sev0", "sev-1", "incident", "major incident", "you are on call", "you're on call", "on-call", "on call",
            "paged", "pagerduty", "production down", "prod down", "not loading", "unreachable", "failing since",
            "errors since", "down since", "broken since", "502", "503", "500 errors", "checkout failing", "data loss",
            "escalation policy", "escalated to you", "portal down", "server down", "system down", "service down", "app is down",
            "website down", "offline", "went offline", "alarm state", "in alarm", "critical alert", "firing",
            "can't log in", "cannot log in", "customers can't", "users can't", "on the bridge", "join the bridge",
            "incident bridge", "war room", "lost power", "losing power", "power cut", "no power", "losing heat",
            "no heating", "tripped", "won't relight", "won't restart", "running out of fuel" ] },
          { "language": "de", "words": [
            "ausgefallen", "ausfall", "storung", "totalausfall", "nicht erreichbar", "geht nicht mehr",
            "funktioniert nicht", "funktioniert nicht mehr", "abgebrochen", "p1", "p1-storung", "incident",
            "bereitschaft", "rufbereitschaft", "eskalation", "eskalationsstufe", "steht still", "stillstand",
            "liegt lahm", "dienst nicht verfugbar", "produktionsausfall", "band steht", "ist down", "portal down",
            "server down", "system down", "seite down", "offline", "kaputt", "konnen sich nicht anmelden",
            "kommen nicht rein", "kunden konnen nicht" ] },
          { "language": "fr", "words": [
            "en panne", "panne", "hors service", "indisponible", "ne fonctionne plus", "ne marche plus", "incident",
            "incident majeur", "astreinte", "d'astreinte", "p1", "coupure", "interruption", "inaccessible",
            "bloque depuis", "plante", "escalade", "le site est tombe", "hors ligne", "a casse", "est casse",
            "ne peuvent plus", "plus personne ne peut" ] },
          { "language": "es", "words": [
            "caido", "caida", "se cayo", "no funciona", "no carga", "incidencia", "incidente", "fuera de servicio",
            "guardia", "de guardia", "p1", "interrupcion", "inaccesible", "sin servicio", "escalado", "escalada",
            "parada", "error critico", "caidos", "estamos caidos", "fuera de linea", "desconectados",
            "no pueden entrar", "no puede entrar" ] }
        ],
        "security": [
          { "language": "en", "words": [
            "compromised", "leaked", "leak", "breach", "hacked", "malware", "ransomware", "trojan", "virus",
            "suspicious sign-in", "suspicious sign in", "suspicious login", "new sign-in", "new sign in", "new login",
            "unusual sign-in", "unusual activity", "fraud", "fraud alert", "fraudulent", "suspicious transaction",
            "suspicious charge", "unauthorized", "unauthorised", "was this you", "wasn't you", "if this wasn't you",
            "if this was not you", "did you make this", "secure your account", "reset your password now", "api key",
            "secret key", "access key", "credentials", "token leaked", "lock your card", "card blocked",
            "block your card", "forwarding rule", "security alert", "account takeover", "stolen",
            "unusual transaction", "unusual payment", "is this you", "was it you", "public repo", "pushed to github",
            "exposed key", "if not done by you", "not done by you", "if you did not make", "if you didn't make",
            "if you did not authorise", "if you did not authorize", "not initiated by you", "new beneficiary",
            "new payee", "unrecognised transaction", "unrecognized transaction", "didn't recognise",
            "don't recognise", "don't recognize" ] },
          { "language": "de", "words": [
            "kompromittiert", "kompromittiertes", "kompromittierter", "gehackt", "geleakt", "offengelegt", "trojaner",
            "schadsoftware", "virus", "malware", "verdachtig", "verdachtige", "verdachtiger", "verdachtiges",
            "neue anmeldung", "ungewohnliche", "ungewohnlicher", "betrug", "betrugsverdacht", "missbrauch",
            "waren sie das", "warst du das", "haben sie diese zahlung", "sperren sie", "karte gesperrt", "unbefugt",
            "unberechtigt", "zugangsdaten", "api-schlussel", "passwort geandert", "weiterleitungsregel",
            "sicherheitswarnung", "sicherheitsvorfall", "gestohlen", "vom netz", "ungewohnliche zahlung",
            "ungewohnliche transaktion", "offentliches repo", "offentlichen repo", "nicht von ihnen",
            "nicht von dir", "neuer empfanger", "nicht autorisiert" ] },
          { "language": "fr", "words": [
            "compromis", "compromise", "pirate", "piratage", "fuite", "divulgue", "malveillant",
            "logiciel malveillant", "virus", "cheval de troie", "connexion suspecte", "nouvelle connexion",
            "activite inhabituelle", "activite suspecte", "operation suspecte", "transaction suspecte",
            "paiement suspect", "fraude", "frauduleux", "frauduleuse", "non autorise", "non autorisee",
            "est-ce bien vous", "etait-ce vous", "si ce n'etait pas vous", "si ce n'est pas vous", "faire opposition",
            "carte bloquee", "cle api", "identifiants", "alerte de securite", "vole", "volee",
            "operation inhabituelle", "transaction inhabituelle", "paiement inhabituel", "s'agit-il de vous",
            "est-ce vous", "depot public", "expose", "exposee", "si vous n'etes pas a l'origine",
            "si tu n'es pas a l'origine", "nouveau beneficiaire", "operation non reconnue" ] },
          { "language": "es", "words": [
            "comprometido", "comprometida", "hackeado", "hackeada", "filtrado", "filtrada", "filtracion", "malware",
            "virus", "troyano", "inicio de sesion sospechoso", "nuevo inicio de sesion", "inicio de sesion",
            "actividad inusual", "actividad sospechosa", "cargo sospechoso", "cargo no reconocido",
            "operacion sospechosa", "transaccion sospechosa", "fraude", "fraudulento", "fraudulenta", "no autorizado",
            "no autorizada", "fuiste tu", "fue usted", "si no fuiste tu", "si no has sido tu", "bloquea tu tarjeta",
            "tarjeta bloqueada", "clave api", "credenciales", "alerta de seguridad", "robado", "robada",
            "operacion inusual", "transaccion inusual", "eres tu", "es usted", "repo publico", "repositorio publico",
            "expuesta", "expuesto", "si usted no realizo", "si no realizaste", "si no reconoce", "si no reconoces",
            "nuevo beneficiario" ] }
        ],
        "negator": [
          { "language": "en", "words": ["not", "no", "never", "t", "isn", "nothing", "without"] },
          { "language": "de", "words": ["nicht", "kein", "keine", "keinen", "nie", "noch nicht", "ohne"] },
          { "language": "fr", "words": ["pas", "ne", "n", "jamais", "rien", "sans", "toujours pas"] },
          { "language": "es", "words": ["no", "nunca", "nada", "sin", "todavia no", "aun no"] }
        ],
        "negated": [
          { "language": "en", "words": [
            "not urgent", "nothing urgent", "no rush", "no hurry", "no need to hurry", "not in a hurry", "no pressure",
            "whenever you get a chance", "whenever you have a moment", "whenever you can", "when you get a chance",
            "when you have a moment", "when you have time", "at your convenience", "in your own time", "can wait",
            "it can wait", "this can wait", "no rush at all", "low priority", "not time-sensitive",
            "not time sensitive", "no worries if not", "if not, no worries", "no stress", "next week is fine",
            "no deadline", "take your time", "not a priority", "not pressing", "no urgency" ] },
          { "language": "de", "words": [
            "nicht dringend", "kein stress", "keine eile", "keine hektik", "eilt nicht", "eilt uberhaupt nicht",
            "hat zeit", "hat keine eile", "bei gelegenheit", "wenn du zeit hast", "wenn sie zeit haben",
            "wenn du mal zeit hast", "kann warten", "das kann warten", "in ruhe", "ganz entspannt", "entspannt",
            "ohne zeitdruck", "kein zeitdruck", "wenn nicht auch ok", "wenn nicht, auch ok", "irgendwann",
            "gelegentlich", "keine prioritat", "nicht eilig", "muss nicht heute", "nicht heute" ] },
          { "language": "fr", "words": [
            "pas urgent", "rien d'urgent", "pas d'urgence", "aucune urgence", "sans urgence", "pas presse",
            "rien ne presse", "ca peut attendre", "cela peut attendre", "peut attendre", "quand tu peux",
            "quand vous pouvez", "quand tu auras le temps", "quand vous aurez le temps", "a l'occasion",
            "prends ton temps", "prenez votre temps", "pas de stress", "sans stress", "pas de pression",
            "aucune pression", "sinon pas grave", "pas grave", "tranquillement", "a ta convenance",
            "a votre convenance", "pas pour aujourd'hui" ] },
          { "language": "es", "words": [
            "no es urgente", "nada urgente", "sin prisa", "sin prisas", "no hay prisa", "sin urgencia",
            "no corre prisa", "puede esperar", "cuando puedas", "cuando pueda", "cuando tengas un momento",
            "cuando tengas tiempo", "con calma", "tranquilo", "tranquila", "sin presion", "sin agobios",
            "si no, no pasa nada", "no pasa nada", "tomate tu tiempo", "no te preocupes", "no corre" ] }
        ],
        "closure": [
          { "language": "en", "words": [
            "resolved", "fixed", "all clear", "back up", "back online", "back to normal", "working again", "restored",
            "ticket closed", "issue closed", "incident closed", "case closed", "closing this", "closing the incident",
            "mitigated", "recovered", "sorted", "taken care of", "no longer", "false alarm", "never mind",
            "nevermind", "disregard", "please ignore", "cancelled the alert", "solved", "up and running",
            "done, thanks", "handled", "postmortem", "post-mortem", "i'll take care of it", "i'll handle it",
            "i'll sort it", "i'll get him", "i'll get her", "i'll pick him up", "i'll pick her up", "i'll grab him",
            "i'll grab her", "i'll do the pickup", "i've got it covered" ] },
          { "language": "de", "words": [
            "behoben", "erledigt", "geklart", "gelost", "entwarnung", "lauft wieder", "laufen wieder",
            "funktioniert wieder", "wieder online", "wiederhergestellt", "ticket geschlossen", "vorfall geschlossen", "storung geschlossen", "hat sich erledigt",
            "vom tisch", "kein handlungsbedarf", "fehlalarm", "bitte ignorieren", "ignorieren", "abgeschlossen",
            "wieder da", "ist durch", "nachbetrachtung", "ich kummere mich darum", "ich kummere mich drum" ] },
          { "language": "fr", "words": [
            "resolu", "resolue", "regle", "reglee", "corrige", "corrigee", "retabli", "retablie",
            "fonctionne a nouveau", "fonctionne de nouveau", "remis en service", "ticket clos", "incident clos", "ticket cloture", "incident cloture", "fausse alerte",
            "c'est bon", "c'est regle", "plus besoin", "ne tenez pas compte", "ignorez",
            "tout est rentre dans l'ordre", "je m'en occupe", "je m'en charge" ] },
          { "language": "es", "words": [
            "solucionado", "solucionada", "resuelto", "resuelta", "arreglado", "arreglada", "restablecido",
            "restablecida", "ya funciona", "funciona de nuevo", "vuelve a funcionar", "ticket cerrado", "incidencia cerrada",
            "incidente cerrado", "caso cerrado",
            "falsa alarma", "ignora", "ignorad", "olvidalo", "todo en orden", "normalidad", "yo me encargo", "yo me ocupo" ] }
        ],
        "fyi": [
          { "language": "en", "words": [
            "fyi", "for your information", "just so you know", "for your records", "for reference", "nothing needed",
            "nothing else needed", "nothing needed from you", "nothing else needed from you", "nothing else to do",
            "no action needed", "no action required", "nothing to do", "no need to reply", "no reply needed",
            "meeting notes", "weekly report", "status report", "newsletter", "cc'ing you", "looping you in",
            "keeping you in the loop" ] },
          { "language": "de", "words": [
            "zur info", "nur zur info", "zu ihrer information", "zur kenntnis", "zur kenntnisnahme",
            "kein handlungsbedarf", "nichts zu tun", "musst nichts tun", "mussen nichts tun",
            "mussen wir nicht besprechen", "kein weiterer handlungsbedarf", "protokoll", "wochenreport", "wochenbericht", "monatsbericht",
            "statusbericht", "in kopie", "nur in kopie" ] },
          { "language": "fr", "words": [
            "pour info", "pour information", "pour ton information", "pour votre information", "a titre d'information",
            "rien a faire", "aucune action", "pas besoin de repondre", "compte rendu", "compte-rendu", "proces-verbal",
            "rien de particulier", "rapport hebdomadaire", "en copie" ] },
          { "language": "es", "words": [
            "para tu informacion", "para su informacion", "a titulo informativo", "solo para que lo sepas", "nada que hacer",
            "no hace falta", "no hay que hacer nada", "no necesitas hacer nada", "acta", "informe semanal",
            "te pongo en copia", "en copia" ] }
        ],
        "marketing": [
          { "language": "en", "words": [
            "last chance", "final hours", "ends tonight", "ends today", "ends at midnight", "sale", "discount",
            "promo", "promo code", "coupon", "early-bird", "early bird", "limited time", "limited offer", "shop now",
            "buy now", "book now", "don't miss", "only today", "today only", "black friday", "cyber monday",
            "free shipping", "claim your", "upgrade now", "unsubscribe", "view in browser" ] },
          { "language": "de", "words": [
            "letzte chance", "nur heute", "nur noch heute", "rabatt", "sale", "gutschein", "gutscheincode",
            "jetzt zugreifen", "jetzt buchen", "jetzt kaufen", "jetzt sichern", "sichern sie sich", "nur noch",
            "solange der vorrat reicht", "versandkostenfrei", "black week", "black friday", "letzte gelegenheit",
            "endspurt", "im browser ansehen", "abmelden", "newsletter abbestellen", "tiefstpreis" ] },
          { "language": "fr", "words": [
            "derniere chance", "dernieres heures", "soldes", "promo", "promotion", "remise", "reduction",
            "offre speciale", "code promo", "aujourd'hui seulement", "seulement aujourd'hui", "profitez",
            "j'en profite", "livraison offerte", "black friday", "ne manquez pas", "se desabonner", "desinscrire",
            "voir en ligne", "jusqu'a minuit", "bon plan" ] },
          { "language": "es", "words": [
            "ultima oportunidad", "ultimas horas", "solo hoy", "rebajas", "descuento", "descuentos", "promocion",
            "codigo promocional", "cupon", "envio gratis", "aprovecha", "compra ya", "reserva ya", "no te lo pierdas",
            "black friday", "darse de baja", "darte de baja", "ver en el navegador", "hasta medianoche" ] }
        ],
        "automated_notice": [
          { "language": "en", "words": [
            "this is an automated message", "automated message", "do not reply", "please do not reply",
            "your statement", "statement is ready", "is available", "your invoice", "your receipt", "receipt for",
            "order confirmation", "has shipped", "has been shipped", "out for delivery", "was delivered",
            "has been delivered", "tracking number", "daily digest", "weekly digest", "daily summary", "your daily",
            "has been completed", "payment received", "password expires", "password will expire",
            "scheduled maintenance", "all parties have signed" ] },
          { "language": "de", "words": [
            "automatisch erstellt", "automatisch generiert", "bitte nicht antworten",
            "nicht auf diese e-mail antworten", "kontoauszug", "steht bereit", "steht zum abruf bereit",
            "ihre rechnung", "rechnung ist verfugbar", "bestellbestatigung", "versandt", "unterwegs", "zugestellt",
            "sendung verfolgen", "tagesbericht", "tagesubersicht", "zusammenfassung", "kennwort lauft",
            "passwort lauft", "wartungsarbeiten", "alle parteien haben unterschrieben" ] },
          { "language": "fr", "words": [
            "message automatique", "ne pas repondre", "merci de ne pas repondre", "releve", "votre releve",
            "est disponible", "votre facture", "confirmation de commande", "expedie", "expediee",
            "en cours de livraison", "livre", "livree", "suivre mon colis", "recapitulatif", "resume quotidien",
            "votre mot de passe expire", "maintenance programmee" ] },
          { "language": "es", "words": [
            "mensaje automatico", "no responda", "no responder", "por favor no responda", "extracto", "tu extracto",
            "esta disponible", "tu factura", "su factura", "confirmacion de pedido", "en reparto", "entregado",
            "resumen diario", "resumen semanal", "tu contrasena caduca", "mantenimiento programado" ] }
        ],
        "phishing": [
          { "language": "en", "words": [
            "verify your account", "verify your identity", "confirm your identity", "confirm your account",
            "validate your account", "mailbox is full", "mailbox full", "storage limit", "mailbox quota",
            "account will be suspended", "account will be closed", "account has been restricted",
            "temporarily restricted", "temporarily suspended", "account suspended", "update your payment details",
            "document will expire", "review document", "you have received a document", "shared a document with you",
            "click here to", "login to avoid", "within 24 hours or", "unlock your account", "re-activate",
            "reactivate your account", "confirm your credentials", "verify your credentials", "confirm your login",
            "confirm your bank details", "re-confirm your bank details", "verify your bank details",
            "update your bank details", "secure supplier form",
            "confirm your password", "via the link below", "using the link below", "will be deactivated" ] },
          { "language": "de", "words": [
            "verifizieren sie", "bestatigen sie ihr konto", "bestatigen sie ihre identitat", "identitat bestatigen",
            "postfach ist voll", "postfach voll", "speicherlimit", "speicherplatz", "wird gesperrt",
            "vorubergehend eingeschrankt", "eingeschrankt", "konto wurde gesperrt", "zahlungsdaten aktualisieren",
            "klicken sie hier", "handlung erforderlich", "innerhalb von 24 stunden", "reaktivieren",
            "bestatigen sie ihre zugangsdaten", "zugangsdaten bestatigen", "zugangsdaten uber den folgenden link",
            "uber den folgenden link", "wird deaktiviert", "passwort bestatigen" ] },
          { "language": "fr", "words": [
            "verifiez votre compte", "verifier votre compte", "confirmez votre identite", "confirmer votre identite",
            "boite de reception pleine", "boite pleine", "quota", "votre compte sera suspendu", "compte suspendu",
            "temporairement restreint", "temporairement suspendu", "mettre a jour vos informations", "cliquez ici",
            "action requise", "dans les 24 heures", "reactiver", "confirmez vos identifiants", "verifiez vos identifiants",
            "via le lien suivant", "via le lien ci-dessous", "sera desactive", "sera desactivee" ] },
          { "language": "es", "words": [
            "verifica tu cuenta", "verifique su cuenta", "confirma tu identidad", "confirme su identidad",
            "buzon lleno", "limite de almacenamiento", "cuenta sera suspendida", "cuenta suspendida",
            "temporalmente restringida", "temporalmente suspendida", "actualiza tus datos", "actualice sus datos",
            "haz clic aqui", "haga clic aqui", "accion requerida", "en las proximas 24 horas", "reactivar",
            "confirme sus credenciales", "confirma tus credenciales", "a traves del siguiente enlace",
            "en el siguiente enlace", "sera desactivada", "sera desactivado" ] }
        ],
        "gift_card": [
          { "language": "en", "words": [
            "gift card", "gift cards", "giftcard", "itunes card", "apple card", "google play card", "steam card",
            "amazon card", "scratch the back", "send me the codes", "send the codes", "card codes" ] },
          { "language": "de", "words": [
            "gutscheine", "gutscheinkarten", "geschenkkarte", "geschenkkarten", "apple-gutscheine",
            "amazon-gutscheine", "itunes-karten", "die codes", "codes als foto" ] },
          { "language": "fr", "words": [
            "carte cadeau", "cartes cadeaux", "cartes-cadeaux", "carte-cadeau", "bons d'achat", "les codes",
            "cartes itunes" ] },
          { "language": "es", "words": [
            "tarjeta regalo", "tarjetas regalo", "tarjetas de regalo", "tarjeta de regalo", "los codigos",
            "tarjetas itunes" ] }
        ],
        "payment_ask": [
          { "language": "en", "words": [
            "wire", "wire transfer", "bank transfer", "process a payment", "make a payment", "new bank details",
            "changed bank details", "updated bank details", "new supplier", "new account number", "transfer funds" ] },
          { "language": "de", "words": [
            "uberweisung", "uberweisen", "uberweise", "zahlung veranlassen", "veranlasse", "veranlassen",
            "neue bankverbindung", "geanderte bankverbindung", "neue iban", "auslandsuberweisung" ] },
          { "language": "fr", "words": [
            "virement", "virements", "effectuer un paiement", "nouvelles coordonnees bancaires", "nouveau rib",
            "nouvel iban" ] },
          { "language": "es", "words": [
            "transferencia", "transferencias", "hacer un pago", "realizar un pago", "nuevos datos bancarios",
            "nueva cuenta bancaria", "nuevo iban" ] }
        ],
        "secrecy": [
          { "language": "en", "words": [
            "confidential", "keep it between us", "keep this between us", "between us", "don't tell", "discreet",
            "sensitive", "can't talk", "cannot talk", "can't call", "in a meeting", "stuck in a meeting",
            "i'll explain later", "are you available", "are you at your desk", "quick favour", "quick favor" ] },
          { "language": "de", "words": [
            "vertraulich", "vertrauliche", "unter uns", "niemandem", "diskret", "kann nicht telefonieren",
            "nicht telefonieren", "sitze im meeting", "im meeting", "erklare ich spater", "bist du am platz",
            "kurze bitte" ] },
          { "language": "fr", "words": [
            "confidentiel", "confidentielle", "entre nous", "discret", "discrete", "je ne peux pas parler",
            "en reunion", "je t'expliquerai", "je vous expliquerai", "es-tu disponible", "etes-vous disponible",
            "petit service" ] },
          { "language": "es", "words": [
            "confidencial", "entre nosotros", "discrecion", "discreto", "no puedo hablar", "no puedo llamar",
            "en una reunion", "te explico luego", "te lo explico luego", "estas disponible", "esta disponible",
            "un favor" ] }
        ],
        "health": [
          { "language": "en", "words": [
            "fever", "temperature of", "hospital", "emergency room", "a&e", "ambulance", "paramedics", "fell",
            "had a fall", "injured", "injury", "accident", "broke his", "broke her", "broken arm", "broken leg",
            "allergic reaction", "seizure", "unconscious", "vomiting", "threw up", "stroke", "heart attack",
            "bleeding", "stitches", "concussion", "sent home sick", "is sick", "feels sick", "not well",
            "nurse's office", "school nurse", "in the er", "at the er", "to the er", "chest pain", "can't breathe",
            "passed out", "fainted", "collapsed" ] },
          { "language": "de", "words": [
            "fieber", "krankenhaus", "klinik", "klinikum", "notaufnahme", "rettungswagen", "notarzt", "krankenwagen",
            "gesturzt", "sturz", "hingefallen", "verletzt", "verletzung", "unfall", "gebrochen",
            "allergische reaktion", "bewusstlos", "erbrochen", "ubergeben", "schlaganfall", "herzinfarkt", "blutet",
            "genaht", "gehirnerschutterung", "brustschmerzen", "zusammengebrochen", "ohnmachtig", "kollabiert" ] },
          { "language": "fr", "words": [
            "fievre", "de la fievre", "hopital", "urgences", "aux urgences", "ambulance", "samu", "pompiers", "chute",
            "blesse", "blessee", "blessure", "accident", "fracture", "reaction allergique", "malaise", "inconscient",
            "vomi", "vomissements", "avc", "crise cardiaque", "saigne", "points de suture", "infirmerie", "est tombee",
            "est tombe dans", "a chute", "douleur thoracique", "douleurs thoraciques", "s'est evanoui",
            "s'est evanouie" ] },
          { "language": "es", "words": [
            "fiebre", "hospital", "urgencias", "ambulancia", "se cayo", "herido", "herida", "accidente", "fractura",
            "reaccion alergica", "desmayo", "se ha desmayado", "inconsciente", "vomitado", "vomitando", "ictus",
            "infarto", "sangra", "enfermeria", "ha tenido una caida", "se ha roto", "se cayo por", "dolor en el pecho",
            "desmayada", "desmayado" ] }
        ],
        "school_closure": [
          { "language": "en", "words": [
            "school will be closed", "school is closed", "school closed", "school closure", "school will close",
            "school is closing", "nursery will be closed", "nursery is closed", "nursery closed", "daycare is closed",
            "daycare will be closed", "daycare closed", "childcare is closed", "classes are cancelled",
            "classes are canceled", "snow day", "send your child home", "collect your child" ] },
          { "language": "de", "words": [
            "schule bleibt geschlossen", "schule ist geschlossen", "schule geschlossen", "schulschliessung",
            "kita bleibt geschlossen", "kita ist geschlossen", "kita geschlossen", "kindergarten bleibt geschlossen",
            "kindergarten ist geschlossen", "unterricht fallt aus", "schulausfall", "notbetreuung",
            "ihr kind abholen" ] },
          { "language": "fr", "words": [
            "l'ecole sera fermee", "l'ecole est fermee", "ecole fermee", "fermeture de l'ecole", "la creche sera fermee",
            "la creche est fermee", "creche fermee", "les cours sont annules", "pas de classe", "pas d'ecole",
            "venir chercher votre enfant" ] },
          { "language": "es", "words": [
            "el colegio estara cerrado", "el colegio esta cerrado", "colegio cerrado", "la escuela estara cerrada",
            "la escuela esta cerrada", "escuela cerrada", "cierre del colegio", "guarderia cerrada",
            "se suspenden las clases", "suspension de clases", "no habra clases", "recoger a su hijo",
            "recoger a su hija" ] }
        ],
        "pickup": [
          { "language": "en", "words": [
            "pick him up", "pick her up", "pick them up", "pick up", "pickup", "collect him", "collect her",
            "come get", "come and get", "come pick", "can you get him", "can you get her", "fetch him", "fetch her" ] },
          { "language": "de", "words": ["abholen", "abzuholen", "holst du", "ihn holen", "sie holen", "holen", "abgeholt"] },
          { "language": "fr", "words": [
            "venir le chercher", "venir la chercher", "venir les chercher", "le recuperer", "la recuperer",
            "les recuperer", "recuperer", "aller le chercher", "aller la chercher", "passer le prendre",
            "passer la prendre" ] },
          { "language": "es", "words": [
            "recogerlo", "recogerla", "recogerlos", "recoger", "a buscarlo", "a buscarla", "pasar a por",
            "venir a por", "ir a por" ] }
        ],
        "travel_transport": [
          { "language": "en", "words": [
            "flight", "your flight", "train", "gate", "boarding", "departure", "connection", "ferry", "bus", "rail",
            "terminal", "platform", "booking", "trip", "trains", "flights", "buses", "shuttle" ] },
          { "language": "de", "words": [
            "flug", "ihr flug", "zug", "ice", "gleis", "abflug", "abfahrt", "anschluss", "fahrt", "reise",
            "verbindung", "boarding", "gate", "ruckfahrt", "ruckflug", "bahn", "s-bahn", "zuge", "fluge", "flieger",
            "maschine" ] },
          { "language": "fr", "words": [
            "vol", "votre vol", "train", "tgv", "porte", "embarquement", "depart", "correspondance", "voyage",
            "trajet", "quai", "voie", "ouigo", "trains", "vols", "navette" ] },
          { "language": "es", "words": [
            "vuelo", "su vuelo", "tu vuelo", "tren", "puerta", "embarque", "salida", "conexion", "viaje", "trayecto",
            "anden", "trenes", "vuelos", "autobus" ] }
        ],
        "travel_problem": [
          { "language": "en", "words": [
            "cancelled", "canceled", "cancellation", "delayed", "delay", "gate change", "gate changed", "new gate",
            "rebook", "rebooked", "rebooking", "strike", "diverted", "missed connection", "overbooked", "disruption",
            "schedule change", "will not run", "not running", "suspended" ] },
          { "language": "de", "words": [
            "fallt aus", "ausfall", "gestrichen", "annulliert", "verspatung", "verspatet", "gleiswechsel",
            "gatewechsel", "gate geandert", "umbuchen", "umbuchung", "umgebucht", "streik", "fahrt nicht", "storung",
            "anschluss verpasst", "ersatzverkehr", "uberbucht" ] },
          { "language": "fr", "words": [
            "annule", "annulee", "annulation", "supprime", "supprimee", "retard", "retarde", "retardee",
            "changement de porte", "nouvelle porte", "changement de quai", "changement de voie", "greve",
            "perturbation", "perturbe", "correspondance manquee", "surbooking", "reprogramme" ] },
          { "language": "es", "words": [
            "cancelado", "cancelada", "cancelacion", "retrasado", "retrasada", "retraso", "cambio de puerta",
            "nueva puerta", "cambio de anden", "huelga", "reubicado", "reprogramado", "perdido la conexion",
            "overbooking", "incidencia" ] }
        ],
        "meeting_change": [
          { "language": "en", "words": [
            "moved to", "moved up", "moved it to", "rescheduled to", "rescheduled for", "pushed to", "brought forward",
            "pulled forward", "now at", "now starts", "new time", "changed to", "instead of", "has been moved",
            "is now today", "today instead" ] },
          { "language": "de", "words": [
            "vorgezogen", "verschoben auf", "verlegt auf", "verlegt", "jetzt um", "neuer termin", "neue uhrzeit",
            "statt", "anstatt", "stattdessen", "geandert", "vorverlegt", "heute statt" ] },
          { "language": "fr", "words": [
            "avance", "avancee", "deplace a", "deplacee a", "decale a", "decalee a", "reporte a", "maintenant a",
            "nouvel horaire", "nouvelle heure", "au lieu de", "modifie", "modifiee", "aujourd'hui au lieu" ] },
          { "language": "es", "words": [
            "adelantado", "adelantada", "adelantamos", "movido a", "movida a", "cambiado a", "cambiada a",
            "trasladado", "trasladada", "ahora a las", "nuevo horario", "nueva hora", "en lugar de", "en vez de",
            "modificado" ] }
        ],
        "meeting_word": [
          { "language": "en", "words": [
            "meeting", "call", "sync", "standup", "stand-up", "review", "interview", "session", "appointment",
            "presentation", "demo", "workshop", "board", "1:1", "check-in", "briefing", "invitation", "event" ] },
          { "language": "de", "words": [
            "termin", "besprechung", "meeting", "call", "sitzung", "vorbesprechung", "gesprach", "runde", "jour fixe",
            "telko", "telefonkonferenz", "prasentation", "workshop", "einladung", "veranstaltung", "demo",
            "vorstellung" ] },
          { "language": "fr", "words": [
            "reunion", "rendez-vous", "rdv", "point", "appel", "entretien", "seance", "conseil", "visio",
            "presentation", "atelier", "invitation", "evenement", "conseil de classe", "demo" ] },
          { "language": "es", "words": [
            "reunion", "cita", "llamada", "videollamada", "sesion", "comite", "presentacion", "entrevista", "taller",
            "invitacion", "evento", "consejo", "demo" ] }
        ],
        "waiting_for_you": [
          { "language": "en", "words": [
            "we're waiting", "we are waiting", "waiting for you", "everyone is waiting", "where are you",
            "starting now", "started without you", "already started", "we're all in", "we are all in", "dial in now",
            "asking for you", "asking where you are" ] },
          { "language": "de", "words": [
            "wir warten", "warten auf dich", "warten auf sie", "wo bist du", "wo sind sie", "sind alle schon",
            "beginnt jetzt", "fangt jetzt an", "hat schon angefangen", "schon im call", "fragt nach dir",
            "fragt nach ihnen" ] },
          { "language": "fr", "words": [
            "on t'attend", "on vous attend", "nous t'attendons", "nous vous attendons", "tu es ou", "ou es-tu",
            "ou etes-vous", "a deja commence", "tout le monde est la", "demande ou tu es", "te demande",
            "vous demande" ] },
          { "language": "es", "words": [
            "te estamos esperando", "le estamos esperando", "te esperamos", "donde estas", "ya hemos empezado",
            "empieza ahora", "ya empezo", "estamos todos", "nos esperan", "te conectas", "se conecta",
            "pregunta por ti" ] }
        ],
        "today": [
          { "language": "en", "words": ["today", "today's", "this morning"] },
          { "language": "de", "words": ["heute", "heute fruh", "heute vormittag", "heute morgen"] },
          { "language": "fr", "words": ["aujourd'hui", "ce matin", "ce jour"] },
          { "language": "es", "words": ["hoy", "esta manana"] }
        ],
        "tomorrow": [
          { "language": "en", "words": ["tomorrow", "tmrw", "tomorrow's"] },
          { "language": "de", "words": ["morgen", "morgig", "morgigen"] },
          { "language": "fr", "words": ["demain"] },
          { "language": "es", "words": ["manana"] }
        ],
        "day_after_tomorrow": [
          { "language": "en", "words": ["day after tomorrow"] },
          { "language": "de", "words": ["ubermorgen"] },
          { "language": "fr", "words": ["apres-demain", "apres demain"] },
          { "language": "es", "words": ["pasado manana"] }
        ],
        "yesterday": [
          { "language": "en", "words": ["yesterday", "last night"] },
          { "language": "de", "words": ["gestern", "gestern abend"] },
          { "language": "fr", "words": ["hier", "hier soir"] },
          { "language": "es", "words": ["ayer", "anoche"] }
        ],
        "today_deadline": [
          { "language": "en", "words": [
            "by today", "due today", "later today", "today still", "by end of today", "before end of today",
            "still today", "today please", "same day", "sometime today", "no later than today" ] },
          { "language": "de", "words": [
            "noch heute", "heute noch", "bis heute", "heute bitte", "im laufe des tages", "im lauf des tages",
            "heute fallig", "endet heute", "lauft heute ab", "spatestens heute" ] },
          { "language": "fr", "words": [
            "aujourd'hui meme", "d'ici ce soir", "avant ce soir", "dans la journee", "aujourd'hui au plus tard",
            "pour aujourd'hui", "avant la fin de la journee", "des aujourd'hui" ] },
          { "language": "es", "words": [
            "hoy mismo", "antes de que acabe el dia", "a lo largo del dia", "durante el dia", "para hoy",
            "hoy sin falta", "antes de esta noche", "como tarde hoy" ] }
        ],
        "tonight": [
          { "language": "en", "words": ["tonight", "this evening"] },
          { "language": "de", "words": ["heute abend", "heute nacht", "abends"] },
          { "language": "fr", "words": ["ce soir", "cette nuit", "ce soir-la"] },
          { "language": "es", "words": ["esta noche", "esta tarde-noche"] }
        ],
        "afternoon": [
          { "language": "en", "words": ["this afternoon", "afternoon"] },
          { "language": "de", "words": ["heute nachmittag", "nachmittag", "nachmittags"] },
          { "language": "fr", "words": ["cet apres-midi", "cet apres midi", "apres-midi"] },
          { "language": "es", "words": ["esta tarde", "por la tarde"] }
        ],
        "morning": [
          { "language": "en", "words": ["morning"] },
          { "language": "de", "words": ["vormittag", "vormittags", "fruh"] },
          { "language": "fr", "words": ["matin", "matinee"] },
          { "language": "es", "words": ["por la manana", "a primera hora"] }
        ],
        "noon": [
          { "language": "en", "words": ["noon", "midday", "lunchtime", "lunch time"] },
          { "language": "de", "words": ["mittag", "mittags", "mittagszeit"] },
          { "language": "fr", "words": ["midi"] },
          { "language": "es", "words": ["mediodia"] }
        ],
        "midnight": [
          { "language": "en", "words": ["midnight"] },
          { "language": "de", "words": ["mitternacht"] },
          { "language": "fr", "words": ["minuit"] },
          { "language": "es", "words": ["medianoche"] }
        ],
        "end_of_day": [
          { "language": "en", "words": [
            "eod", "end of day", "end of the day", "end of business", "cob", "close of business", "eob", "end of play",
            "eop" ] },
          { "language": "de", "words": [
            "feierabend", "dienstschluss", "tagesende", "ende des tages", "bis ende des tages", "geschaftsschluss",
            "buroschluss" ] },
          { "language": "fr", "words": ["fin de journee", "fin de la journee", "avant la fermeture"] },
          { "language": "es", "words": ["final del dia", "fin del dia", "fin de la jornada", "cierre"] }
        ],
        "within_hour": [
          { "language": "en", "words": [
            "within the hour", "within an hour", "in an hour", "within the next hour", "in the next hour",
            "in the next half hour", "within the next half hour", "in the next 30 minutes",
            "asap within the hour", "in half an hour", "within half an hour" ] },
          { "language": "de", "words": [
            "innerhalb einer stunde", "in einer stunde", "in der nachsten stunde", "binnen einer stunde",
            "innerhalb der nachsten stunde", "in einer halben stunde", "in ner stunde" ] },
          { "language": "fr", "words": [
            "dans l'heure", "d'ici une heure", "dans une heure", "dans la prochaine heure", "dans une demi-heure",
            "d'ici une demi-heure" ] },
          { "language": "es", "words": [
            "en una hora", "en la proxima hora", "en menos de una hora", "dentro de una hora", "en media hora",
            "antes de una hora" ] }
        ],
        "later": [
          { "language": "en", "words": [
            "next week", "next month", "next year", "end of the week", "end of week", "later this week", "this week",
            "in two weeks", "in a couple of weeks", "after the holidays", "in january", "in december", "next quarter",
            "early next week", "by the end of the month", "end of month" ] },
          { "language": "de", "words": [
            "nachste woche", "nachsten woche", "kommende woche", "kommenden woche", "nachsten monat", "ende der woche",
            "diese woche", "im laufe der woche", "in zwei wochen", "nach den feiertagen", "im januar", "im dezember",
            "nachstes jahr", "ende des monats", "monatsende", "anfang nachster woche" ] },
          { "language": "fr", "words": [
            "la semaine prochaine", "semaine prochaine", "le mois prochain", "fin de semaine", "cette semaine",
            "dans deux semaines", "en janvier", "en decembre", "l'annee prochaine", "fin du mois",
            "apres les vacances", "debut de semaine prochaine" ] },
          { "language": "es", "words": [
            "la semana que viene", "la proxima semana", "proxima semana", "el mes que viene", "el proximo mes",
            "final de semana", "esta semana", "en dos semanas", "en enero", "en diciembre", "el ano que viene",
            "fin de mes", "despues de las fiestas" ] }
        ],
        "deadline_cue": [
          { "language": "en", "words": [
            "by", "before", "until", "till", "due", "due by", "no later than", "deadline", "cutoff", "cut-off", "latest",
            "submission" ] },
          { "language": "de", "words": ["bis", "spatestens", "vor", "bis spatestens", "frist", "fallig", "deadline", "abgabe", "abgabetermin"] },
          { "language": "fr", "words": ["avant", "d'ici", "au plus tard", "jusqu'a", "date limite", "delai", "pour", "rendu", "echeance"] },
          { "language": "es", "words": ["antes de", "antes de las", "hasta", "a mas tardar", "como tarde", "plazo", "para", "entrega", "vencimiento"] }
        ],
        "since": [
          { "language": "en", "words": ["since", "as of"] },
          { "language": "de", "words": ["seit"] },
          { "language": "fr", "words": ["depuis"] },
          { "language": "es", "words": ["desde"] }
        ],
        "ago": [
          { "language": "en", "words": ["ago"] },
          { "language": "de", "words": ["vor"] },
          { "language": "fr", "words": ["il y a"] },
          { "language": "es", "words": ["hace"] }
        ],
        "within": [
          { "language": "en", "words": ["in", "within", "in the next", "within the next", "in about", "in less than"] },
          { "language": "de", "words": [
            "in", "innerhalb", "innerhalb von", "binnen", "in den nachsten", "in etwa", "in ca" ] },
          { "language": "fr", "words": ["dans", "d'ici", "sous", "dans les", "d'ici les"] },
          { "language": "es", "words": ["en", "dentro de", "en los proximos", "en unos", "en menos de"] }
        ],
        "minutes": [
          { "language": "en", "words": ["minutes", "minute", "mins", "min"] },
          { "language": "de", "words": ["minuten", "minute", "min"] },
          { "language": "fr", "words": ["minutes", "minute", "min", "mn"] },
          { "language": "es", "words": ["minutos", "minuto", "min"] }
        ],
        "hours": [
          { "language": "en", "words": ["hours", "hour", "hrs", "hr"] },
          { "language": "de", "words": ["stunden", "stunde", "std"] },
          { "language": "fr", "words": ["heures", "heure"] },
          { "language": "es", "words": ["horas", "hora"] }
        ],
        "user_time": [
          { "language": "en", "words": ["your time", "your local time", "berlin time", "paris time", "madrid time"] },
          { "language": "de", "words": ["deiner zeit", "ihrer zeit", "eurer zeit", "deutscher zeit"] },
          { "language": "fr", "words": ["ton heure", "votre heure", "heure de paris", "heure francaise", "heure locale"] },
          { "language": "es", "words": [
            "tu hora", "su hora", "hora de madrid", "hora peninsular", "hora espanola", "hora local" ] }
        ],
        "monday": [
          { "language": "en", "words": ["monday", "mon"] },
          { "language": "de", "words": ["montag"] },
          { "language": "fr", "words": ["lundi"] },
          { "language": "es", "words": ["lunes"] }
        ],
        "tuesday": [
          { "language": "en", "words": ["tuesday", "tue", "tues"] },
          { "language": "de", "words": ["dienstag"] },
          { "language": "fr", "words": ["mardi"] },
          { "language": "es", "words": ["martes"] }
        ],
        "wednesday": [
          { "language": "en", "words": ["wednesday", "wed"] },
          { "language": "de", "words": ["mittwoch"] },
          { "language": "fr", "words": ["mercredi"] },
          { "language": "es", "words": ["miercoles"] }
        ],
        "thursday": [
          { "language": "en", "words": ["thursday", "thu", "thurs"] },
          { "language": "de", "words": ["donnerstag"] },
          { "language": "fr", "words": ["jeudi"] },
          { "language": "es", "words": ["jueves"] }
        ],
        "friday": [
          { "language": "en", "words": ["friday", "fri"] },
          { "language": "de", "words": ["freitag"] },
          { "language": "fr", "words": ["vendredi"] },
          { "language": "es", "words": ["viernes"] }
        ],
        "saturday": [
          { "language": "en", "words": ["saturday"] },
          { "language": "de", "words": ["samstag", "sonnabend"] },
          { "language": "fr", "words": ["samedi"] },
          { "language": "es", "words": ["sabado"] }
        ],
        "sunday": [
          { "language": "en", "words": ["sunday"] },
          { "language": "de", "words": ["sonntag"] },
          { "language": "fr", "words": ["dimanche"] },
          { "language": "es", "words": ["domingo"] }
        ],
        "january": [
          { "language": "en", "words": ["january", "jan"] },
          { "language": "de", "words": ["januar", "janner"] },
          { "language": "fr", "words": ["janvier", "janv"] },
          { "language": "es", "words": ["enero", "ene"] }
        ],
        "february": [
          { "language": "en", "words": ["february", "feb"] },
          { "language": "de", "words": ["februar"] },
          { "language": "fr", "words": ["fevrier", "fevr"] },
          { "language": "es", "words": ["febrero"] }
        ],
        "march": [
          { "language": "en", "words": ["march"] },
          { "language": "de", "words": ["marz"] },
          { "language": "fr", "words": ["mars"] },
          { "language": "es", "words": ["marzo"] }
        ],
        "april": [
          { "language": "en", "words": ["april", "apr"] },
          { "language": "fr", "words": ["avril", "avr"] },
          { "language": "es", "words": ["abril", "abr"] }
        ],
        "may": [
          { "language": "de", "words": ["mai"] },
          { "language": "es", "words": ["mayo"] }
        ],
        "june": [
          { "language": "en", "words": ["june", "jun"] },
          { "language": "de", "words": ["juni"] },
          { "language": "fr", "words": ["juin"] },
          { "language": "es", "words": ["junio"] }
        ],
        "july": [
          { "language": "en", "words": ["july", "jul"] },
          { "language": "de", "words": ["juli"] },
          { "language": "fr", "words": ["juillet", "juil"] },
          { "language": "es", "words": ["julio"] }
        ],
        "august": [
          { "language": "en", "words": ["august", "aug"] },
          { "language": "fr", "words": ["aout"] },
          { "language": "es", "words": ["agosto", "ago"] }
        ],
        "september": [
          { "language": "en", "words": ["september", "sep", "sept"] },
          { "language": "fr", "words": ["septembre"] },
          { "language": "es", "words": ["septiembre", "setiembre"] }
        ],
        "october": [
          { "language": "en", "words": ["october", "oct"] },
          { "language": "de", "words": ["oktober", "okt"] },
          { "language": "fr", "words": ["octobre"] },
          { "language": "es", "words": ["octubre"] }
        ],
        "november": [
          { "language": "en", "words": ["november", "nov"] },
          { "language": "fr", "words": ["novembre"] },
          { "language": "es", "words": ["noviembre"] }
        ],
        "december": [
          { "language": "en", "words": ["december", "dec"] },
          { "language": "de", "words": ["dezember", "dez"] },
          { "language": "fr", "words": ["decembre"] },
          { "language": "es", "words": ["diciembre", "dic"] }
        ],
        "bank_change": [
          { "language": "en", "words": [
            "new bank details", "changed bank details", "updated bank details", "our bank details have changed",
            "new account details", "new account number", "changed our bank", "new iban" ] },
          { "language": "de", "words": [
            "neue bankverbindung", "geanderte bankverbindung", "kontoverbindung geandert", "neue kontoverbindung",
            "neues konto", "neue iban", "bankverbindung hat sich geandert" ] },
          { "language": "fr", "words": [
            "nouvelles coordonnees bancaires", "nouveau rib", "nouvel iban", "changement de rib",
            "coordonnees bancaires ont change", "nouveau compte" ] },
          { "language": "es", "words": [
            "nuevos datos bancarios", "nueva cuenta bancaria", "nuevo iban", "cambio de cuenta", "nueva cuenta",
            "datos bancarios han cambiado" ] }
        ]
      },
      "automated_senders": [
        "noreply", "donotreply", "mailerdaemon", "postmaster", "notification", "notify", "newsletter", "bounce",
        "mailer"
      ]
    }
    """#
}
