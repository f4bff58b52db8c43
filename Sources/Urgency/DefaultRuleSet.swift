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
    static let standardJSON = #"""
    {
      "version": "2026-11-21.2",
      "threshold": 60,
      "quiet_hours_threshold": 90,
      "weights": {
        "vip_sender": 30,
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
        "not_in_inbox": -30
      },
      "urgency_words": [
        { "language": "en", "words": [
          "urgent", "urgently", "asap", "emergency", "immediately", "immediate attention",
          "right away", "as soon as possible", "time sensitive", "time critical", "call me",
          "please call", "need you now", "help needed now" ] },
        { "language": "de", "words": [
          "dringend", "dringende", "dringender", "dringendes", "eilt", "eilig", "eilige", "sofort",
          "umgehend", "unverzüglich", "schnellstmöglich", "so schnell wie möglich", "notfall",
          "zeitkritisch", "bitte anrufen", "ruf mich an", "ruf bitte an" ] },
        { "language": "es", "words": [
          "urgente", "urgentes", "urgencia", "urgentemente", "inmediatamente", "de inmediato", "lo antes posible",
          "cuanto antes", "lo más pronto posible", "emergencia", "llámame", "llámeme" ] },
        { "language": "it", "words": [
          "urgente", "urgenti", "urgenza", "urgentissimo", "urgentemente", "subito", "immediatamente", "al più presto",
          "prima possibile", "quanto prima", "emergenza", "chiamami", "mi chiami" ] },
        { "language": "pt", "words": [
          "urgente", "urgentes", "urgência", "com urgência", "imediatamente", "o mais rápido possível", "o quanto antes",
          "o mais breve possível", "emergência", "me liga", "ligue-me" ] },
        { "language": "fr", "words": [
          "urgente", "urgentes", "urgence", "en urgence", "immédiatement", "immédiat", "dès que possible",
          "au plus vite", "le plus vite possible", "au plus tôt", "sans délai", "appelle-moi",
          "appelez-moi", "rappelle-moi", "rappelez-moi" ] },
        { "language": "nl", "words": [
          "spoed", "spoedig", "met spoed", "dringende", "z.s.m.", "zsm", "zo snel mogelijk",
          "onmiddellijk", "noodgeval", "bel me", "bel mij" ] }
      ],
      "reply_prefixes": [
        "re", "aw", "wg", "fw", "fwd", "tr", "rv", "sv", "vs", "antw", "antwort", "r", "i", "rif",
        "res", "enc", "doorst", "antwoord", "réf", "ref"
      ],
      "invitation_prefixes": [
        "Invitation", "Updated invitation", "Updated invitation with note", "Invitation with note",
        "Canceled event", "Cancelled event", "Canceled event with note", "Event canceled",
        "Einladung", "Aktualisierte Einladung", "Abgesagter Termin", "Termin abgesagt",
        "Invitation mise à jour", "Événement annulé",
        "Invitación", "Invitación actualizada", "Evento cancelado",
        "Invito", "Invito aggiornato", "Evento annullato",
        "Convite", "Convite atualizado",
        "Uitnodiging", "Bijgewerkte uitnodiging", "Geannuleerde afspraak", "Afspraak geannuleerd"
      ],
      "calendar_response_prefixes": [
        "Accepted", "Declined", "Tentatively accepted", "Tentative", "Proposed new time",
        "Angenommen", "Abgelehnt", "Mit Vorbehalt angenommen", "Vorläufig angenommen",
        "Accepté", "Refusé", "Accepté provisoirement",
        "Aceptado", "Rechazado", "Aceptado provisionalmente",
        "Accettato", "Rifiutato", "Accettato provvisoriamente",
        "Aceito", "Recusado", "Aceito provisoriamente",
        "Geaccepteerd", "Geweigerd", "Voorlopig geaccepteerd"
      ],
      "auto_reply_prefixes": [
        "Automatic reply", "Auto reply", "Autoreply", "Auto-reply", "Out of office", "Out of the office",
        "Automatische Antwort", "Abwesenheitsnotiz", "Abwesend",
        "Réponse automatique", "Absence", "Respuesta automática", "Fuera de la oficina",
        "Risposta automatica", "Fuori sede", "Resposta automática", "Fora do escritório",
        "Automatisch antwoord", "Afwezig", "Niet aanwezig"
      ],
      "automated_senders": [
        "noreply", "donotreply", "mailerdaemon", "postmaster", "notification", "notify",
        "newsletter", "bounce", "mailer"
      ]
    }
    """#
}
