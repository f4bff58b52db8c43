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

    /// The JSON text of `standard`: weights are points, a message is urgent at `threshold` or more
    /// (the quiet-hours bar during quiet hours). Why each number is what it is, and every version's
    /// results on the tuning files and the frozen split, is in `docs/urgency-tuning-log.md`; the rules
    /// that read these weights and phrases are in `Rules/`, one family per file.
    static let standardJSON = #"""
    {
      "version": "2026-11-28.1",
      "threshold": 60,
      "quiet_hours_threshold": 90,
      "weights": {
        "vip_sender": 10,
        "gmail_important": 15,
        "gmail_starred": 25,
        "urgency_word": 45,
        "user_keyword": 45,
        "direct_to": 15,
        "own_thread_reply": 30,
        "invite_today": 50,
        "cc_only": -5,
        "not_addressed": -5,
        "invite_not_today": -20,
        "calendar_response": -30,
        "list_unsubscribe": -30,
        "list_id": -20,
        "precedence_bulk": -25,
        "auto_submitted": -20,
        "auto_reply_subject": -50,
        "noreply_sender": -30,
        "category_promotions": -50,
        "category_social": -40,
        "category_updates": -10,
        "category_forums": -25,
        "not_in_inbox": -30,
        "deadline_soon": 55,
        "today_mention": 30,
        "decision_ask": 30,
        "blocking": 10,
        "question": 10,
        "incident": 60,
        "security_event": 75,
        "travel_disruption": 55,
        "health_event": 70,
        "child_pickup": 30,
        "meeting_moved": 40,
        "waiting_for_you": 45,
        "deadline_later": -25,
        "deadline_passed": -15,
        "negated": -60,
        "closure": -90,
        "fyi": -55,
        "marketing": -30,
        "automated_notice": -25,
        "phishing": -105,
        "gift_card": -80,
        "payment_scam": -75,
        "impersonation": -100,
        "lookalike_domain": -120,
        "bulk_floor": -15,
        "work_stopped": 45,
        "people_affected": 45,
        "someone_here": 90,
        "money_at_risk": 30,
        "consequence": 15
      },
      "urgency_words": [
        { "language": "en", "words": [
          "urgent", "urgently", "asap", "emergency", "immediately", "immediate attention", "right away",
          "as soon as possible", "time sensitive", "time critical", "call me", "please call", "need you now",
          "help needed now" ] },
        { "language": "de", "words": [
          "dringend", "dringende", "dringender", "dringendes", "eilt", "eilig", "eilige", "sofort", "umgehend",
          "unverzüglich", "schnellstmöglich", "so schnell wie möglich", "notfall", "zeitkritisch",
          "bitte anrufen", "ruf mich an", "ruf bitte an" ] },
        { "language": "es", "words": [
          "urgente", "urgentes", "urgencia", "urgentemente", "inmediatamente", "de inmediato",
          "lo antes posible", "cuanto antes", "lo más pronto posible", "emergencia", "llámame", "llámeme" ] },
        { "language": "it", "words": [
          "urgenti", "urgenza", "urgentissimo", "subito", "immediatamente", "al più presto", "prima possibile",
          "quanto prima", "emergenza", "chiamami", "mi chiami", "urgentissima", "urgentissimi", "con urgenza",
          "d'urgenza", "immediato", "immediata", "il prima possibile", "appena possibile", "richiamami",
          "mi richiami", "chiamatemi", "telefonami", "mi telefoni", "improrogabile", "indifferibile",
          "tempestivamente", "senza indugio", "massima priorità", "priorità alta", "alta priorità",
          "puoi chiamarmi", "può chiamarmi", "puoi richiamarmi", "può richiamarmi" ] },
        { "language": "pt", "words": [
          "com urgência", "imediatamente", "o mais rápido possível", "o quanto antes", "o mais breve possível",
          "me liga", "ligue-me", "muito urgente", "máxima urgência", "de imediato", "atenção imediata",
          "o mais rapidamente possível", "o mais depressa possível", "o mais cedo possível", "quanto antes",
          "com a maior brevidade", "sem demora", "agora mesmo", "prioridade máxima", "alta prioridade",
          "emergências", "me liga já", "me ligue", "liga me", "telefona me", "telefone me", "ligue para mim",
          "liga para mim", "preciso de você agora", "preciso de ti agora", "socorro", "ajuda urgente" ] },
        { "language": "fr", "words": [
          "urgence", "en urgence", "immédiatement", "immédiat", "dès que possible", "au plus vite",
          "le plus vite possible", "au plus tôt", "sans délai", "appelle-moi", "appelez-moi", "rappelle-moi",
          "rappelez-moi" ] },
        { "language": "nl", "words": [
          "spoed", "spoedig", "met spoed", "z.s.m.", "zsm", "zo snel mogelijk", "onmiddellijk", "noodgeval",
          "bel me", "bel mij" ] }
      ],
      "reply_prefixes": [
        "re", "aw", "wg", "fw", "fwd", "tr", "rv", "sv", "vs", "antw", "antwort", "r", "i", "rif", "res",
        "enc", "doorst", "antwoord", "réf", "ref", "risp", "inoltro", "inoltra", "resp"
      ],
      "invitation_prefixes": [
        "Invitation", "Updated invitation", "Updated invitation with note", "Invitation with note",
        "Canceled event", "Cancelled event", "Canceled event with note", "Event canceled", "Einladung",
        "Aktualisierte Einladung", "Abgesagter Termin", "Termin abgesagt", "Invitation mise à jour",
        "Événement annulé", "Invitación", "Invitación actualizada", "Evento cancelado", "Invito",
        "Invito aggiornato", "Evento annullato", "Convite", "Convite atualizado", "Uitnodiging",
        "Bijgewerkte uitnodiging", "Geannuleerde afspraak", "Afspraak geannuleerd"
      ],
      "calendar_response_prefixes": [
        "Accepted", "Declined", "Tentatively accepted", "Tentative", "Proposed new time", "Angenommen",
        "Abgelehnt", "Mit Vorbehalt angenommen", "Vorläufig angenommen", "Accepté", "Refusé",
        "Accepté provisoirement", "Aceptado", "Rechazado", "Aceptado provisionalmente", "Accettato",
        "Rifiutato", "Accettato provvisoriamente", "Aceito", "Recusado", "Aceito provisoriamente",
        "Geaccepteerd", "Geweigerd", "Voorlopig geaccepteerd"
      ],
      "auto_reply_prefixes": [
        "Automatic reply", "Auto reply", "Autoreply", "Auto-reply", "Out of office", "Out of the office",
        "Automatische Antwort", "Abwesenheitsnotiz", "Abwesend", "Réponse automatique", "Absence",
        "Respuesta automática", "Fuera de la oficina", "Risposta automatica", "Fuori sede",
        "Resposta automática", "Fora do escritório", "Automatisch antwoord", "Afwezig", "Niet aanwezig"
      ],
      "executive_titles": [
        "ceo", "cfo", "coo", "chief executive", "managing director", "president", "geschaftsfuhrer",
        "geschaftsfuhrerin", "geschaftsfuhrung", "vorstand", "vorstandsvorsitzender", "pdg",
        "directeur general", "directrice generale", "president directeur general", "director general",
        "directora general", "consejero delegado", "presidente", "ceo office", "office of the ceo",
        "amministratore delegato", "amministratrice delegata", "l'ad", "amministratore unico",
        "amministratrice unica", "consigliere delegato", "consigliera delegata", "direttore generale",
        "direttrice generale", "presidente del cda", "direttore finanziario", "direttrice finanziaria",
        "diretor geral", "diretora geral", "director geral", "directora geral", "presidente executivo",
        "presidente executiva", "administrador delegado", "administradora delegada",
        "presidente do conselho de administração", "presidente da comissão executiva", "diretor executivo",
        "diretora executiva", "director executivo", "diretor presidente", "diretora presidente",
        "diretor financeiro", "diretora financeira"
      ],
      "phrases": {
        "decision_ask": [
          { "language": "en", "words": [
            "what do i tell", "what should i tell", "what do i do",
            "a comment from you", "request for comment", "before we publish",
            "approve", "approval", "approved by you", "sign off", "signoff", "your signature",
            "need you to sign", "please sign", "can you sign", "go/no-go", "go or no-go", "your go",
            "need your decision", "your decision", "need a decision", "decide", "your call", "need your ok",
            "your ok", "your okay", "your green light", "green light", "yes or no", "yes/no", "ok to proceed",
            "okay to proceed", "can you confirm", "please confirm", "need your confirmation", "your answer",
            "need your input", "need your answer", "sign the", "countersign", "countersignature",
            "signature required", "need help", "need your help", "what do you want us to do",
            "what should we do", "need to know tonight", "needs your signature", "sign-off required",
            "authorize", "authorise", "authorization", "release the payment" ] },
          { "language": "de", "words": [
            "was sage ich ihm", "was soll ich machen",
            "eine stellungnahme", "vor der veröffentlichung",
            "freigabe", "freigeben", "gib frei", "geben sie frei", "deine freigabe", "ihre freigabe",
            "dein go", "ihr go", "go oder no-go", "entscheiden", "entscheidung", "entscheide", "ja oder nein",
            "ja/nein", "unterschrift", "unterschreiben", "unterzeichnen", "gegenzeichnen", "zustimmung",
            "dein ok", "ihr ok", "dein okay", "grunes licht", "bestatigen", "deine antwort", "ihre antwort",
            "was sagst du", "einverstanden", "genehmigen", "genehmigung", "absegnen" ] },
          { "language": "fr", "words": [
            "qu'est-ce que je lui dis", "je fais quoi",
            "un commentaire de votre part", "avant publication",
            "ton accord", "votre accord", "ton feu vert", "votre feu vert", "feu vert", "valider",
            "validation", "ta validation", "votre validation", "approuver", "approbation", "decider",
            "decision", "ta decision", "votre decision", "oui ou non", "oui/non", "signer", "signature",
            "ta signature", "votre signature", "confirmer", "ton ok", "votre ok", "qu'en dis-tu", "autoriser",
            "ta reponse", "votre reponse", "tu valides", "vous validez" ] },
          { "language": "es", "words": [
            "qué le digo", "qué hago", "cómo hago", "dime tú",
            "un comentario suyo", "antes de publicar",
            "aprobacion", "aprobar", "apruebes", "apruebe", "tu visto bueno", "su visto bueno", "visto bueno",
            "tu ok", "tu okay", "decidir", "decidas", "decida", "si o no", "si/no", "firmar", "firmes",
            "tu firma", "su firma", "confirmar", "confirmes", "confirme", "autorizar", "autorizacion",
            "luz verde", "tu respuesta", "su respuesta", "que dices", "validar", "validacion" ] },
          { "language": "it", "words": [
            "che gli dico", "cosa gli dico", "che le dico", "cosa le dico", "che faccio", "cosa faccio",
            "come faccio", "dimmi tu", "mi dici tu", "mi dica lei", "lo faccio passare", "la faccio passare",
            "ripariamo o", "o lo rifacciamo",
            "vuole te", "chiedono di lei", "chiede un commento", "un vostro commento",
            "un suo commento", "prima di pubblicare",
            "approvare", "approvazione", "approvi", "approvate", "può approvare", "puoi approvare",
            "potete approvare", "mi approvi", "ci approvi", "autorizzare", "autorizzazione", "autorizzi",
            "autorizzate", "può autorizzare", "puoi autorizzare", "potete autorizzare", "firmare", "firmi",
            "firmate", "da firmare", "può firmare", "puoi firmare", "potete firmare", "la tua firma",
            "la sua firma", "la vostra firma", "firma richiesta", "serve la firma", "controfirmare",
            "controfirma", "sottoscrivere", "decidere", "decisione", "decidi", "decidete", "devi decidere",
            "deve decidere", "via libera", "il tuo ok", "il suo ok", "il vostro ok", "l'ok", "benestare",
            "nulla osta", "nullaosta", "tuo visto", "suo visto", "confermi", "confermate", "puoi confermare",
            "può confermare", "potete confermare", "mi confermi", "mi conferma", "mi confermate",
            "ci confermi", "ci conferma", "ci confermate", "tua conferma", "sua conferma", "vostra conferma",
            "attendo conferma", "posso procedere", "possiamo procedere", "ok a procedere", "ok per procedere",
            "validare", "validi", "tuo parere", "suo parere", "vostro parere", "tuo riscontro",
            "suo riscontro", "vostro riscontro", "tua risposta", "sua risposta", "vostra risposta",
            "cosa facciamo", "che facciamo", "come procediamo", "ti va bene", "le va bene", "vi va bene",
            "bisogno di aiuto", "serve aiuto", "bisogno del tuo aiuto", "bisogno del suo aiuto",
            "ho bisogno di te", "sbloccare il pagamento", "autorizzare il pagamento" ] },
          { "language": "pt", "words": [
            "o que lhe digo", "como faço", "diz-me tu",
            "um comentário vosso", "um comentário seu", "antes de publicar",
            "aprovar", "aprovação", "aprovações", "aprove", "aproves", "aprovem", "aprova", "sua aprovação",
            "tua aprovação", "para aprovação", "pendente de aprovação", "aprovado por si", "aprovado por você",
            "seu aval", "teu aval", "o seu aval", "sinal verde", "dar luz verde", "seu ok", "teu ok",
            "o seu ok", "o teu ok", "dar o ok", "decidam", "decisão", "sua decisão", "tua decisão",
            "para decisão", "sim ou não", "assinar", "assine", "assines", "assinem", "tua assinatura",
            "para assinatura", "assinatura necessária", "pode assinar", "podes assinar", "consegue assinar",
            "rubricar", "rubrique", "contra assinar", "contra assinatura", "confirmem", "pode confirmar",
            "podes confirmar", "consegue confirmar", "consegues confirmar", "você confirma", "sua confirmação",
            "tua confirmação", "autorize", "autorizes", "autorizem", "autorização", "sua autorização",
            "tua autorização", "valide", "valides", "para validação", "para despacho", "seu parecer",
            "o seu parecer", "teu parecer", "para parecer", "sua resposta", "tua resposta", "a sua resposta",
            "a tua resposta", "preciso de resposta", "o que me diz", "o que dizes", "preciso de ajuda",
            "preciso da sua ajuda", "preciso da tua ajuda", "preciso da ajuda", "o que fazemos",
            "o que devemos fazer", "o que faço", "como procedemos", "como devemos proceder", "podemos avançar",
            "posso avançar", "avançamos", "podemos prosseguir", "posso prosseguir", "liberar o pagamento",
            "libertar o pagamento", "autorizar o pagamento", "aprovar o pagamento", "dar o seu acordo",
            "o seu acordo", "sua concordância", "de acordo ou não", "a sua confirmação",
            "preciso de confirmação", "aguardo confirmação", "da sua assinatura", "da tua assinatura",
            "falta a sua assinatura", "falta assinatura", "pode aprovar", "podes aprovar", "consegue aprovar",
            "ok para avançar", "ok para prosseguir" ] }
        ],
        "blocking": [
          { "language": "en", "words": [
            "still haven't received", "have not yet received", "still missing",
            "needs your signature", "need your signature", "must be signed by you", "only you can",
            "otherwise", "blocked", "blocking", "blocker", "waiting on you", "waiting for your",
            "before i can", "until you", "can't proceed", "cannot proceed", "we're stuck", "we are stuck",
            "is stuck", "has been stuck", "without your signature", "can't dispatch", "cannot dispatch",
            "won't release", "goes to print", "on hold until", "so we can", "so that we can", "or we lose",
            "or we miss", "cutoff", "cut-off", "deadline", "last call", "before we can" ] },
          { "language": "de", "words": [
            "noch nicht erhalten", "fehlt noch", "fehlen noch",
            "brauchen ihre unterschrift", "ihre unterschrift fehlt", "muss von ihnen unterschrieben",
            "nur sie können",
            "sonst", "ansonsten", "andernfalls", "ohne das", "ohne deine", "ohne ihre", "bevor ich",
            "bevor wir", "blockiert", "wartet auf", "warten auf deine", "warten auf ihre", "damit wir",
            "frist", "fristablauf", "annahmeschluss", "hangt", "hangt an" ] },
          { "language": "fr", "words": [
            "nous n'avons toujours pas reçu", "il manque toujours", "toujours manquant",
            "il faut votre signature", "besoin de votre signature", "doit être signé par vous",
            "vous seul pouvez",
            "sinon", "faute de quoi", "bloque", "bloquant", "bloquee", "sans ton", "sans votre", "sans ca",
            "avant que je", "avant de pouvoir", "pour qu'on puisse", "pour que nous puissions",
            "en attente de", "date limite", "delai", "echeance", "dernier delai" ] },
          { "language": "es", "words": [
            "todavía no hemos recibido", "aún no hemos recibido", "todavía falta", "aún falta",
            "necesita su firma", "necesitamos su firma", "necesitamos tu firma", "tiene que firmar",
            "solo usted puede",
            "si no", "bloqueado", "bloqueada", "bloquea", "sin tu", "sin su", "sin eso", "antes de poder",
            "para poder", "esperando tu", "esperando su", "fecha limite", "plazo", "se nos pasa" ] },
          { "language": "it", "words": [
            "non abbiamo ancora ricevuto", "non ci risulta ancora", "non risulta ancora", "manca ancora",
            "mancano ancora", "ancora mancante", "ancora mancanti",
            "va firmata da lei", "va firmato da lei", "va firmata da te", "va firmato da te",
            "serve la tua firma", "serve la sua firma", "ci serve la tua firma", "ci serve la sua firma",
            "vuole la firma", "vuole la sua firma", "devi firmare", "deve firmare lei", "solo tu puoi",
            "solo lei può", "senza la firma",
            "altrimenti", "in caso contrario", "diversamente", "bloccato", "bloccata", "bloccati", "bloccate",
            "bloccante", "bloccanti", "blocca", "bloccando", "siamo bloccati", "sono bloccato",
            "sono bloccata", "in sospeso", "resta in sospeso", "fermo in attesa", "ferma in attesa",
            "fermi in attesa", "ferme in attesa", "resta fermo", "resta ferma", "restano fermi",
            "restano ferme", "pratica ferma", "in attesa di", "in attesa del tuo", "in attesa della tua",
            "in attesa del vostro", "in attesa della vostra", "in attesa di firma", "in attesa della firma",
            "in attesa di approvazione", "in attesa di autorizzazione", "aspettiamo il tuo",
            "aspettiamo la tua", "aspetto il tuo", "aspetto la tua", "attendiamo il vostro",
            "attendiamo la vostra", "senza il tuo", "senza la tua", "senza il suo", "senza la sua",
            "senza il vostro", "senza la vostra", "senza firma", "manca la tua", "manca il tuo",
            "manca la sua", "manca il suo", "manca la firma", "manca solo", "prima che io possa",
            "prima di poter", "per poter", "così possiamo", "in modo da poter", "non possiamo procedere",
            "non posso procedere", "impossibile procedere", "non si può procedere", "non possiamo spedire",
            "non possiamo consegnare", "non possiamo evadere", "non possiamo fatturare", "fermo in dogana",
            "ferma in dogana", "fermi in dogana", "ferme in dogana", "bloccato in dogana",
            "bloccata in dogana", "dipende da te", "dipende da lei", "tocca a te", "tocca a lei", "scadenza",
            "termine ultimo", "ultimo giorno utile", "a pena di", "pena la decadenza", "va in stampa",
            "chiusura ordini", "ultima chiamata", "rischiamo di perdere", "altrimenti perdiamo" ] },
          { "language": "pt", "words": [
            "ainda não recebemos", "ainda não consta", "ainda falta", "ainda faltam",
            "precisa da sua assinatura", "precisamos da sua assinatura", "precisa da tua assinatura",
            "tem de assinar", "tens de assinar", "só você pode", "só o senhor pode", "só a senhora pode",
            "caso contrário", "do contrário", "senão", "bloqueados", "bloqueadas", "bloqueia", "bloqueando",
            "bloqueio", "impedimento", "impeditivo", "está parado", "está parada", "estão parados",
            "estão paradas", "tá parado", "tá parada", "ficou parado", "ficou parada", "parado", "parados",
            "paradas", "travado", "travada", "travados", "travadas", "está travado", "está travada",
            "encravado", "encravada", "empancado", "empancada", "emperrado", "emperrada",
            "não conseguimos avançar", "não podemos avançar", "não consigo avançar", "não dá para avançar",
            "sem poder avançar", "não podemos prosseguir", "não conseguimos prosseguir", "impossível avançar",
            "à espera da sua", "à espera do seu", "à espera da tua", "à espera do teu", "a aguardar a sua",
            "a aguardar o seu", "a aguardar a tua", "a aguardar o teu", "aguardando sua", "aguardando seu",
            "aguardando a sua", "aguardando o seu", "esperando sua", "esperando seu", "esperando a sua",
            "esperando o seu", "pendente da sua", "pendente do seu", "depende de você", "depende de si",
            "depende de ti", "depende da sua", "depende do seu", "sem a sua", "sem o seu", "sem a tua",
            "sem o teu", "sem sua", "sem seu", "sem isso", "sem a assinatura", "sem assinatura",
            "sem aprovação", "sem a aprovação", "antes de podermos", "para podermos", "para que possamos",
            "até recebermos", "retido", "retida", "retidos", "retidas", "não sai", "não pode sair",
            "não podemos expedir", "não podemos enviar", "não podemos faturar", "não podemos libertar",
            "não podemos liberar", "não pode ser expedido", "não pode ser expedida", "vai para impressão",
            "em espera até", "suspenso até", "ou perdemos", "senão perdemos", "para não perder",
            "perdemos o prazo", "prazo", "prazo final", "prazo limite", "data limite", "último dia",
            "última chamada", "vence hoje", "prazo termina", "prazo expira" ] }
        ],
        "incident": [
          { "language": "en", "words": [
            "collapsed", "collapse", "landslide", "sinkhole", "water coming through", "dripping",
            "nobody answers", "no one is answering", "can't reach him", "can't reach her", "phone is off",
            "listeria", "withdraw the product", "locked out",
            "alarm", "evacuated", "evacuation", "fire brigade", "fire department", "above threshold",
            "out of range",
            "is down", "are down", "went down", "site down", "site is down", "outage", "p1", "p0", "sev1",
            "sev 1", "sev0", "incident", "major incident", "you are on call", "you're on call", "on-call",
            "paged", "pagerduty", "production down", "prod down", "not loading", "unreachable",
            "failing since", "errors since", "down since", "broken since", "502", "503", "500 errors",
            "checkout failing", "data loss", "escalation policy", "escalated to you", "portal down",
            "server down", "system down", "service down", "app is down", "website down", "offline",
            "went offline", "alarm state", "in alarm", "critical alert", "firing", "can't log in",
            "cannot log in", "customers can't", "users can't", "on the bridge", "join the bridge",
            "incident bridge", "war room", "lost power", "losing power", "power cut", "no power",
            "losing heat", "no heating", "tripped", "won't restart", "running out of fuel", "fatal error",
            "critical error", "malfunction", "is failing", "are failing", "elevated failures", "theft",
            "robbery", "break-in", "broken into", "burglary", "fire alarm", "flooding", "water leak",
            "burst pipe", "power outage", "water shutoff", "shut off", "spill", "leaking", "gas leak",
            "smell of gas", "product recall", "batch recall", "lot recall", "do not use" ] },
          { "language": "de", "words": [
            "es raucht", "rauchentwicklung",
            "eingestürzt", "einsturz", "erdrutsch", "es tropft", "niemand geht ran", "niemand meldet sich",
            "ich erreiche ihn nicht", "handy aus", "listerien",
            "aus dem verkauf nehmen",
            "alarm", "evakuiert", "evakuierung", "rauch", "feuerwehr", "grenzwert überschritten",
            "außerhalb des bereichs",
            "ausgefallen", "ausfall", "storung", "totalausfall", "nicht erreichbar", "geht nicht mehr",
            "funktioniert nicht", "funktioniert nicht mehr", "abgebrochen", "p1-storung", "bereitschaft",
            "rufbereitschaft", "eskalation", "eskalationsstufe", "steht still", "stillstand", "liegt lahm",
            "dienst nicht verfugbar", "produktionsausfall", "band steht", "ist down", "seite down", "kaputt",
            "konnen sich nicht anmelden", "kommen nicht rein", "kunden konnen nicht", "schwerwiegender fehler",
            "kritischer fehler", "diebstahl", "einbruch", "überfall", "wasserrohrbruch", "wasserschaden",
            "stromausfall", "kein strom", "feueralarm", "ausgelaufen", "gasgeruch", "gasleck",
            "nicht verwenden", "rückrufaktion", "produktrückruf", "chargenrückruf" ] },
          { "language": "fr", "words": [
            "de la fumée", "il y a de la fumée",
            "effondrement", "s'est effondré", "glissement de terrain", "ça goutte", "personne ne répond",
            "je n'arrive pas à le joindre", "téléphone éteint", "listeria",
            "retrait du produit", "rappel produit",
            "alarme", "évacué", "évacuée", "évacuation", "pompiers", "hors plage", "seuil dépassé",
            "en panne", "panne", "hors service", "indisponible", "ne fonctionne plus", "ne marche plus",
            "incident majeur", "astreinte", "d'astreinte", "coupure", "interruption", "inaccessible",
            "bloque depuis", "plante", "escalade", "le site est tombe", "hors ligne", "a casse", "est casse",
            "ne peuvent plus", "plus personne ne peut", "erreur fatale", "erreur critique", "cambriolage",
            "effraction", "braquage", "inondation", "fuite d'eau", "dégât des eaux", "coupure de courant",
            "panne de courant", "alarme incendie", "déversement", "fuite de gaz", "odeur de gaz",
            "rappel de lot", "retrait de lot", "ne pas utiliser" ] },
          { "language": "es", "words": [
            "sale humo", "hay humo",
            "derrumbe", "se ha derrumbado", "desprendimiento", "socavón", "gotera", "está goteando",
            "nadie contesta", "no consigo localizarlo", "teléfono apagado", "listeria",
            "retirar el producto",
            "alarma", "evacuado", "evacuada", "evacuación", "bomberos", "fuera de rango",
            "por encima del límite",
            "caido", "caida", "se cayo", "no funciona", "no carga", "incidencia", "incidente",
            "fuera de servicio", "guardia", "de guardia", "interrupcion", "inaccesible", "sin servicio",
            "escalado", "escalada", "parada", "error critico", "caidos", "estamos caidos", "fuera de linea",
            "desconectados", "no puede entrar", "error fatal", "robo", "atraco", "inundación", "apagón",
            "corte de luz", "sin luz", "alarma de incendio", "derrame", "olor a gas", "retirada del lote",
            "no utilizar" ] },
          { "language": "it", "words": [
            "fumo dal", "fumo dalla", "fumo nel", "fumo nella", "richiamo del prodotto", "richiamo prodotto",
            "avviso di richiamo",
            "frana", "smottamento", "cedimento", "avvallamento", "voragine", "crollo", "crollato", "crollata",
            "è crollato", "è crollata", "strada interrotta",
            "sta gocciolando", "gocciola", "infiltrazione", "infiltrazioni", "acqua dal soffitto",
            "perdita di gas", "nessuno risponde", "non riesco a sentirlo", "non riesco a sentirla",
            "non riesco a contattarlo", "non riesco a contattarla", "telefono spento", "irreperibile",
            "esito non conforme", "listeria", "salmonella",
            "ritirare il prodotto", "ritiro dalla vendita", "comunicazione di richiamo",
            "ha bucato", "soda caustica", "è in blocco", "chiusa fuori", "chiuso fuori",
            "chiavi dentro",
            "allarme", "allarmi", "evacuato", "evacuata", "evacuati", "evacuazione", "esce fumo",
            "c'è fumo", "vigili del fuoco", "pompieri", "superamento soglia", "fuori soglia",
            "soglia superata", "fuori range", "fuori temperatura", "bassa pressione", "pressione bassa",
            "sulla riserva", "in riserva",
            "guasto", "guasta", "guasti", "guaste", "in avaria", "avaria", "fuori servizio", "fuori uso",
            "in panne", "in tilt", "non funziona", "non funzionano", "non funzionante", "non funzionanti",
            "malfunzionamento", "malfunzionamenti", "non parte", "non si avvia", "non si accende",
            "non riparte", "non si riavvia", "non si carica", "non carica", "non si apre", "non raggiungibile",
            "non raggiungibili", "irraggiungibile", "irraggiungibili", "non risponde", "non rispondono",
            "disservizio", "disservizi", "interruzione del servizio", "interruzione di servizio",
            "servizio interrotto", "servizio sospeso", "down", "è down", "sono down", "sito down",
            "sistema down", "servizio down", "sito giù", "server giù", "sistema giù", "è giù", "fuori linea",
            "andato offline", "incidente critico", "priorità 1", "reperibilità", "in reperibilità",
            "sei reperibile", "sei di reperibilità", "bridge", "call di crisi", "unità di crisi", "task force",
            "è fermo", "è ferma", "sono fermi", "sono ferme", "siamo fermi", "siamo ferme", "tutto fermo",
            "fermo macchina", "fermo impianto", "fermo linea", "fermo produzione", "fermo di produzione",
            "fermo totale", "impianto fermo", "impianti fermi", "linea ferma", "linee ferme", "macchina ferma",
            "macchine ferme", "macchinario fermo", "macchinari fermi", "produzione ferma", "reparto fermo",
            "stabilimento fermo", "magazzino fermo", "cantiere fermo", "sistema fermo", "sistemi fermi",
            "server fermo", "server fermi", "casse ferme", "cassa ferma", "camion fermo", "camion fermi",
            "mezzo fermo", "mezzi fermi", "produzione bloccata", "linea bloccata", "linee bloccate",
            "impianto bloccato", "impianti bloccati", "macchina bloccata", "macchine bloccate",
            "sistema bloccato", "sistemi bloccati", "server bloccato", "gestionale bloccato", "casse bloccate",
            "cassa bloccata", "pos bloccato", "si è bloccato", "si è bloccata", "si sono bloccati",
            "si è rotto", "si è rotta", "si sono rotti", "crash", "in crash", "crashato", "crashata",
            "errore critico", "errori critici", "errore 500", "errore 502", "errore 503", "perdita di dati",
            "dati persi", "in allarme", "allarme critico", "allarme attivo", "allarme scattato",
            "scattato l'allarme", "allarme antincendio", "allarme incendio", "incendio",
            "principio di incendio", "fuga di gas", "blackout", "black out", "mancanza di corrente",
            "manca la corrente", "senza corrente", "interruzione di corrente", "calo di tensione",
            "saltata la corrente", "saltata la luce", "manca la luce", "senza luce", "senza riscaldamento",
            "caldaia in blocco", "caldaia bloccata", "caldaia guasta", "senza acqua calda", "perdita d'acqua",
            "allagamento", "allagato", "allagata", "catena del freddo interrotta", "non riesco ad accedere",
            "non riusciamo ad accedere", "impossibile accedere", "non riescono ad accedere",
            "clienti non riescono", "utenti non riescono", "nessuno riesce", "errore fatale",
            "errore bloccante", "furto", "rapina", "effrazione", "sversamento", "fuoriuscita", "odore di gas",
            "sta perdendo", "perde liquido", "ha urtato", "richiamo del lotto", "ritiro del lotto",
            "divieto di utilizzo" ] },
          { "language": "pt", "words": [
            "há fumo", "sai fumo", "fumo no", "fumo na",
            "deslizamento", "desabamento", "desabou", "derrocada", "caiu o teto", "infiltração",
            "está a pingar", "pingando", "ninguém atende", "não consigo falar com ele",
            "não consigo falar com ela", "telemóvel desligado", "celular desligado",
            "listeria", "salmonela", "recolha do produto", "retirar da venda", "fechada do lado de fora",
            "chaves lá dentro",
            "alarmes", "evacuado", "evacuada", "evacuados", "evacuação", "fumaça", "bombeiros",
            "acima do limite", "fora da faixa", "fora de temperatura", "pressão baixa", "na reserva",
            "fora do ar", "está fora do ar", "saiu do ar", "caídas", "está caído", "está caída",
            "sistema caiu", "servidor caiu", "site caiu", "rede caiu", "caiu o sistema", "caiu a rede",
            "caiu o servidor", "caiu a internet", "está em baixo", "estão em baixo", "foi abaixo",
            "foram abaixo", "em baixo desde", "sem internet", "sem rede", "sem sistema", "indisponível",
            "indisponíveis", "inacessível", "inacessíveis", "não está a funcionar", "não estão a funcionar",
            "não está funcionando", "não estão funcionando", "não funciona", "não funcionam",
            "deixou de funcionar", "parou de funcionar", "não carrega", "não abre", "incidentes",
            "incidente grave", "incidente major", "severidade 1", "prioridade 1", "interrupção",
            "interrupção do serviço", "interrupção de serviço", "falha geral", "falha crítica", "falha grave",
            "erro crítico", "pane", "pane no sistema", "apagão", "queda do sistema", "queda do servidor",
            "queda de energia", "falta de energia", "falta de luz", "sem luz", "sem energia",
            "corte de energia", "falha de energia", "sem aquecimento", "sem aquecimento central",
            "disjuntor disparou", "alarme", "alarme disparou", "em alarme", "alarme crítico", "alerta crítico",
            "de piquete", "de prevenção", "de sobreaviso", "escalonado", "escalonada", "escalado para si",
            "escalado para você", "produção parada", "linha parada", "linha de produção parada",
            "máquina parada", "máquinas paradas", "equipamento parado", "paragem de produção",
            "paragem da produção", "paragem da linha", "paragem de linha", "paragem não planeada",
            "parada de linha", "parada de produção", "parada não programada", "a linha parou",
            "a produção parou", "a máquina parou", "o sistema parou", "o servidor parou", "avariado",
            "avariada", "avariados", "avariadas", "em avaria", "máquina avariada", "equipamento avariado",
            "máquina quebrou", "não arranca", "não reinicia", "não acende", "não reacende", "perda de dados",
            "perdemos dados", "fuga de água", "vazamento de água", "fuga de gás", "vazamento de gás",
            "inundação", "inundado", "inundada", "clientes não conseguem", "utilizadores não conseguem",
            "usuários não conseguem", "ninguém consegue", "não consigo entrar", "não conseguem entrar",
            "não conseguimos entrar", "não consigo aceder", "não conseguem aceder", "não conseguimos aceder",
            "não consigo acessar", "não conseguem acessar", "não conseguimos acessar",
            "não consigo fazer login", "não conseguem fazer login", "erro 500", "erro 502", "erro 503",
            "erros 500", "está a falhar", "estão a falhar", "está falhando", "estão falhando",
            "a falhar desde", "falhando desde", "erros desde", "parado desde", "parada desde",
            "fora do ar desde", "ficou offline", "está offline", "desconectado", "sem ligação", "sem conexão",
            "sem comunicação", "perdemos a ligação", "perdemos a conexão", "sala de crise",
            "gabinete de crise", "célula de crise", "sem combustível", "sem gasóleo", "sem diesel",
            "servidor não responde", "sistema não responde", "falha no sistema", "falha do sistema",
            "sistema em baixo", "servidor em baixo", "site em baixo", "rede em baixo", "fora de serviço",
            "sem serviço", "avariou", "disparou o alarme", "ecrã preto", "ecrã azul", "ecrã congelado",
            "tela azul", "tela preta", "tela congelada", "sistema travou", "computador travou",
            "servidor travou", "travou tudo", "está dando erro", "estão dando erro", "está a dar erro",
            "estão a dar erro", "erro fatal", "roubo", "assalto", "alagamento", "vazamento",
            "alarme de incêndio", "derramamento", "cheiro a gás", "cheiro de gás", "recolha do lote",
            "recolhimento do lote", "não utilizar" ] }
        ],
        "security": [
          { "language": "en", "words": [
            "card suspended", "we have blocked", "we blocked", "transfer held",
            "payment attempts", "someone logged in", "changed the iban", "changed the bank details",
            "compromised", "leaked", "leak", "breach", "hacked", "malware", "ransomware", "trojan", "virus",
            "suspicious sign-in", "suspicious login", "new sign-in", "new login", "unusual sign-in",
            "unusual activity", "fraud", "fraud alert", "fraudulent", "suspicious transaction",
            "suspicious charge", "unauthorized", "unauthorised", "was this you", "wasn't you",
            "if this wasn't you", "if this was not you", "did you make this", "secure your account",
            "reset your password now", "api key", "secret key", "access key", "credentials", "token leaked",
            "lock your card", "card blocked", "block your card", "forwarding rule", "security alert",
            "account takeover", "stolen", "unusual transaction", "unusual payment", "is this you",
            "was it you", "public repo", "pushed to github", "exposed key", "if not done by you",
            "not done by you", "if you did not make", "if you didn't make", "if you did not authorise",
            "if you did not authorize", "not initiated by you", "new beneficiary", "new payee",
            "unrecognised transaction", "unrecognized transaction", "didn't recognise", "don't recognise",
            "don't recognize", "if you did not", "if you didn't", "password was changed",
            "password has been changed", "new device", "new device registered", "sign-in from" ] },
          { "language": "de", "words": [
            "karte vorsorglich gesperrt", "haben wir gesperrt", "überweisung angehalten",
            "zahlungsversuche", "jemand hat sich angemeldet", "iban geändert",
            "kompromittiert", "kompromittiertes", "kompromittierter", "gehackt", "geleakt", "offengelegt",
            "trojaner", "schadsoftware", "verdachtig", "verdachtige", "verdachtiger", "verdachtiges",
            "neue anmeldung", "ungewohnliche", "ungewohnlicher", "betrug", "betrugsverdacht", "missbrauch",
            "waren sie das", "warst du das", "sperren sie", "karte gesperrt", "unbefugt", "unberechtigt",
            "zugangsdaten", "api-schlussel", "passwort geandert", "weiterleitungsregel", "sicherheitswarnung",
            "sicherheitsvorfall", "gestohlen", "vom netz", "ungewohnliche zahlung",
            "ungewohnliche transaktion", "offentliches repo", "offentlichen repo", "nicht von ihnen",
            "nicht von dir", "neuer empfanger", "nicht autorisiert", "nicht selbst veranlasst", "neues gerät",
            "passwort wurde geändert", "falls sie das nicht", "wenn sie das nicht", "anmeldung von" ] },
          { "language": "fr", "words": [
            "carte bloquée", "carte suspendue", "nous avons bloqué", "nous avons suspendu",
            "virement suspendu", "tentatives de paiement", "quelqu'un s'est connecté", "a changé l'iban",
            "compromis", "compromise", "pirate", "piratage", "fuite", "divulgue", "malveillant",
            "logiciel malveillant", "cheval de troie", "connexion suspecte", "nouvelle connexion",
            "activite inhabituelle", "activite suspecte", "operation suspecte", "transaction suspecte",
            "paiement suspect", "fraude", "frauduleux", "frauduleuse", "non autorise", "non autorisee",
            "est-ce bien vous", "etait-ce vous", "si ce n'etait pas vous", "si ce n'est pas vous",
            "faire opposition", "carte bloquee", "cle api", "identifiants", "alerte de securite", "vole",
            "volee", "operation inhabituelle", "transaction inhabituelle", "paiement inhabituel",
            "s'agit-il de vous", "est-ce vous", "depot public", "expose", "exposee",
            "si vous n'etes pas a l'origine", "si tu n'es pas a l'origine", "nouveau beneficiaire",
            "operation non reconnue", "nouvel appareil", "mot de passe a été modifié", "si vous n'avez pas",
            "connexion depuis" ] },
          { "language": "es", "words": [
            "tarjeta suspendida", "hemos bloqueado", "hemos suspendido",
            "transferencia retenida", "intentos de pago", "alguien entró", "cambió el iban",
            "comprometido", "comprometida", "hackeado", "hackeada", "filtrado", "filtrada", "filtracion",
            "troyano", "inicio de sesion sospechoso", "nuevo inicio de sesion", "inicio de sesion",
            "actividad inusual", "actividad sospechosa", "cargo sospechoso", "cargo no reconocido",
            "operacion sospechosa", "transaccion sospechosa", "fraudulento", "fraudulenta", "no autorizado",
            "no autorizada", "fuiste tu", "fue usted", "si no fuiste tu", "si no has sido tu",
            "bloquea tu tarjeta", "tarjeta bloqueada", "clave api", "credenciales", "alerta de seguridad",
            "robado", "robada", "operacion inusual", "transaccion inusual", "eres tu", "es usted",
            "repo publico", "repositorio publico", "expuesta", "expuesto", "si usted no realizo",
            "si no realizaste", "si no reconoce", "si no reconoces", "nuevo beneficiario", "nuevo dispositivo",
            "contraseña ha sido cambiada", "si usted no", "acceso realizado", "nuevo acceso" ] },
          { "language": "it", "words": [
            "carta sospesa", "abbiamo bloccato", "abbiamo sospeso",
            "bonifico sospeso", "bonifico bloccato", "operazione sospesa", "operazione bloccata",
            "pagamento bloccato", "non riconosciuti", "non riconosciute", "tentativi di pagamento",
            "tentativo di pagamento", "qualcuno è entrato", "ha cambiato l'iban",
            "iban modificato", "iban cambiato",
            "compromesso", "compromessa", "compromessi", "compromesse", "violato", "violata", "violazione",
            "violazione dei dati", "data breach", "fuga di dati", "dati esposti", "hackerato", "hackerata",
            "hackerati", "attacco hacker", "attacco informatico", "cavallo di troia", "accesso sospetto",
            "accessi sospetti", "nuovo accesso", "accesso insolito", "accesso anomalo",
            "accesso non autorizzato", "tentativo di accesso", "tentativi di accesso", "attività sospetta",
            "attività insolita", "attività anomala", "operazione sospetta", "operazione insolita",
            "operazione non riconosciuta", "transazione sospetta", "transazione non riconosciuta",
            "pagamento sospetto", "pagamento non riconosciuto", "addebito sospetto",
            "addebito non riconosciuto", "movimento sospetto", "movimento non riconosciuto",
            "operazione con carta", "utilizzo della carta", "frode", "frodi", "fraudolento", "fraudolenta",
            "fraudolenti", "fraudolente", "allerta frode", "tentativo di frode", "non autorizzato",
            "non autorizzata", "non autorizzati", "non autorizzate", "sei stato tu", "sei stata tu",
            "è stato lei", "è stata lei", "eri tu", "non sei stato tu", "non sei stata tu", "non è stato lei",
            "se non hai effettuato", "se non ha effettuato", "se non riconosci", "se non riconosce",
            "non riconosci", "non hai autorizzato", "non ha autorizzato", "qualcuno ha tentato",
            "qualcuno ha provato", "qualcuno ha effettuato", "qualcuno ha usato", "blocca la carta",
            "blocca la tua carta", "bloccare la carta", "carta bloccata", "carta clonata", "clonazione",
            "chiave api", "credenziali", "token esposto", "password modificata", "password cambiata",
            "password reimpostata", "password è stata modificata", "password è stata cambiata",
            "modifica della password", "cambio password", "account bloccato", "account è stato bloccato",
            "utenza bloccata", "codice di verifica", "codice otp", "otp", "codice di sicurezza",
            "avviso di sicurezza", "allerta di sicurezza", "alert di sicurezza", "notifica di sicurezza",
            "rubato", "rubata", "rubati", "rubate", "furto", "furto di identità", "esposto", "esposta",
            "repository pubblico", "repo pubblico", "nuovo beneficiario", "nuovo dispositivo",
            "dispositivo sconosciuto", "regola di inoltro", "se non sei stato tu", "se non è stato lei",
            "accesso effettuato", "effettuato un accesso" ] },
          { "language": "pt", "words": [
            "cartão suspenso", "bloqueámos", "bloqueamos o seu", "suspendemos",
            "transferência suspensa", "transferência bloqueada", "pagamento bloqueado",
            "tentativas de pagamento", "tentativa de pagamento", "alguém entrou", "alterou o iban",
            "iban alterado",
            "invadido", "invadida", "conta invadida", "hackeados", "pirateado", "pirateada", "ciberataque",
            "ataque informático", "ataque cibernético", "ataque hacker", "vazado", "vazada", "vazados",
            "vazadas", "vazamento de dados", "fuga de dados", "fuga de informação", "violação de dados",
            "violação de segurança", "cavalo de troia", "novo início de sessão", "início de sessão",
            "início de sessão suspeito", "novo acesso", "novo login", "acesso suspeito", "login suspeito",
            "acesso não reconhecido", "tentativa de acesso", "tentativa de login", "novo dispositivo",
            "dispositivo novo", "atividade suspeita", "actividade suspeita", "atividade incomum",
            "atividade invulgar", "atividade anormal", "atividade não habitual", "movimento suspeito",
            "movimentos suspeitos", "compra suspeita", "transação suspeita", "transacção suspeita",
            "operação suspeita", "operação não reconhecida", "transação não reconhecida",
            "compra não reconhecida", "movimento não reconhecido", "pagamento não reconhecido",
            "cobrança não reconhecida", "débito não reconhecido", "fraudes", "tentativa de fraude",
            "alerta de fraude", "golpe", "burla", "alerta de segurança", "aviso de segurança",
            "não autorizado", "não autorizada", "não autorizados", "não autorizadas", "foi você",
            "foi o senhor", "foi a senhora", "foste tu", "é você", "és tu", "reconhece esta", "reconhece este",
            "não reconhece", "não reconheces", "se não foi você", "se não foste tu", "caso não tenha sido",
            "se não reconhece", "se não reconhecer", "caso não reconheça", "se não efetuou", "se não efectuou",
            "se não realizou", "se não fez", "se não autorizou", "se não solicitou",
            "caso não tenha solicitado", "caso não tenha efetuado", "senha alterada", "senha foi alterada",
            "palavra passe alterada", "palavra passe foi alterada", "alteração de senha",
            "alteração da palavra passe", "código de verificação", "código de segurança", "conta bloqueada",
            "conta foi bloqueada", "acesso bloqueado", "cartão bloqueado", "bloqueie o seu cartão",
            "bloqueie seu cartão", "bloqueia o teu cartão", "bloquear o cartão", "cartão clonado",
            "cartão roubado", "clonado", "clonada", "clonagem", "chave api", "chave de api", "chave da api",
            "chave secreta", "chave de acesso", "credenciais", "token exposto", "token vazado",
            "regra de reencaminhamento", "regra de encaminhamento", "reencaminhamento automático", "roubado",
            "roubada", "roubados", "furtado", "furtada", "roubo de identidade", "usurpação de identidade",
            "proteja a sua conta", "proteja sua conta", "protege a tua conta", "novo beneficiário",
            "novo favorecido", "beneficiário adicionado", "favorecido adicionado", "não foi o senhor",
            "chave exposta", "dados expostos", "credenciais expostas", "conta comprometida",
            "foi comprometida", "foi comprometido", "foram comprometidos", "dados comprometidos",
            "credenciais comprometidas", "acesso efetuado" ] }
        ],
        "negator": [
          { "language": "en", "words": [
            "not", "no", "never", "t", "isn", "nothing", "without" ] },
          { "language": "de", "words": [
            "nicht", "kein", "keine", "keinen", "nie", "noch nicht", "ohne" ] },
          { "language": "fr", "words": [
            "pas", "ne", "n", "jamais", "rien", "sans", "toujours pas" ] },
          { "language": "es", "words": [
            "nunca", "nada", "sin", "todavia no", "aun no" ] },
          { "language": "it", "words": [
            "non", "mai", "nessun", "nessuna", "nessuno", "niente", "nulla", "senza", "ancora non" ] },
          { "language": "pt", "words": [
            "não", "sem", "nem", "nenhum", "nenhuma", "ainda não", "já não" ] }
        ],
        "negated": [
          { "language": "en", "words": [
            "no need to reply", "no need to respond", "don't need to reply",
            "not urgent", "nothing urgent", "no rush", "no hurry", "no need to hurry", "not in a hurry",
            "no pressure", "whenever you get a chance", "whenever you have a moment", "whenever you can",
            "when you get a chance", "when you have a moment", "when you have time", "at your convenience",
            "in your own time", "can wait", "it can wait", "this can wait", "no rush at all", "low priority",
            "not time-sensitive", "no worries if not", "if not, no worries", "no stress", "next week is fine",
            "no deadline", "take your time", "not a priority", "not pressing", "no urgency" ] },
          { "language": "de", "words": [
            "du musst nicht antworten", "keine antwort nötig",
            "nicht dringend", "kein stress", "keine eile", "keine hektik", "eilt nicht",
            "eilt uberhaupt nicht", "hat zeit", "hat keine eile", "bei gelegenheit", "wenn du zeit hast",
            "wenn sie zeit haben", "wenn du mal zeit hast", "kann warten", "das kann warten", "in ruhe",
            "ganz entspannt", "entspannt", "ohne zeitdruck", "kein zeitdruck", "irgendwann", "gelegentlich",
            "keine prioritat", "nicht eilig", "muss nicht heute", "nicht heute" ] },
          { "language": "fr", "words": [
            "pas besoin de répondre", "inutile de répondre",
            "pas urgent", "rien d'urgent", "pas d'urgence", "aucune urgence", "sans urgence", "pas presse",
            "rien ne presse", "ca peut attendre", "cela peut attendre", "peut attendre", "quand tu peux",
            "quand vous pouvez", "quand tu auras le temps", "quand vous aurez le temps", "a l'occasion",
            "prends ton temps", "prenez votre temps", "pas de stress", "sans stress", "pas de pression",
            "aucune pression", "sinon pas grave", "pas grave", "tranquillement", "a ta convenance",
            "a votre convenance", "pas pour aujourd'hui" ] },
          { "language": "es", "words": [
            "no hace falta que respondas", "no hace falta responder",
            "no es urgente", "nada urgente", "sin prisa", "sin prisas", "no hay prisa", "sin urgencia",
            "no corre prisa", "puede esperar", "cuando puedas", "cuando pueda", "cuando tengas un momento",
            "cuando tengas tiempo", "con calma", "tranquilo", "tranquila", "sin presion", "sin agobios",
            "si no, no pasa nada", "no pasa nada", "tomate tu tiempo", "no te preocupes", "no corre" ] },
          { "language": "it", "words": [
            "non serve che mi rispondi", "non serve che rispondi", "non serve rispondere",
            "non c'è bisogno di rispondere", "non serve che mi risponda",
            "non urgente", "non è urgente", "non urgentissimo", "niente di urgente", "nulla di urgente",
            "nessuna urgenza", "senza urgenza", "non è un'urgenza", "non c'è fretta", "nessuna fretta",
            "senza fretta", "non c'è premura", "nessuna premura", "con tutta calma", "fai con calma",
            "faccia con calma", "con comodo", "fai con comodo", "faccia con comodo", "quando puoi",
            "quando può", "quando potete", "quando hai tempo", "quando ha tempo", "quando avete tempo",
            "quando hai un momento", "quando ha un momento", "quando hai un attimo", "quando ha un attimo",
            "a tuo piacimento", "a sua discrezione", "può aspettare", "puoi aspettare", "può attendere",
            "possono aspettare", "bassa priorità", "priorità bassa", "non prioritario", "non prioritaria",
            "non è una priorità", "nessuna pressione", "nessuno stress", "senza stress", "tranquillo",
            "tranquilla", "tranquilli", "prenditi il tuo tempo", "prenditi tempo", "si prenda il tempo",
            "prossima settimana va bene", "nessuna scadenza", "senza scadenza", "non c'è scadenza",
            "non serve subito", "non serve oggi", "non è per oggi", "non per oggi", "se no pazienza",
            "nessun problema se" ] },
          { "language": "pt", "words": [
            "não precisa responder", "não precisas de responder", "não é preciso responder",
            "não é urgente", "não urgente", "sem urgência", "nenhuma urgência", "sem pressa", "sem pressas",
            "não há pressa", "não tem pressa", "não tenho pressa", "nenhuma pressa", "pode esperar",
            "isto pode esperar", "isso pode esperar", "pode ficar para depois", "fica para depois",
            "quando puder", "quando puderes", "quando você puder", "quando tiver tempo",
            "quando tiveres tempo", "quando você tiver tempo", "quando tiver um momento",
            "quando tiveres um momento", "quando tiver um tempinho", "quando tiver um minuto", "quando der",
            "quando lhe der jeito", "quando te der jeito", "quando der jeito", "quando for conveniente",
            "quando lhe for conveniente", "com calma", "na calma", "sem stress", "sem estresse", "sem pressão",
            "baixa prioridade", "prioridade baixa", "não é prioritário", "não é prioridade",
            "não é prioridade nenhuma", "não tem prazo", "sem prazo", "não há prazo", "não se preocupe",
            "não te preocupes", "não se preocupa", "não faz mal", "no seu tempo", "no teu tempo",
            "ao seu ritmo", "o tempo que precisar", "próxima semana serve", "semana que vem serve" ] }
        ],
        "closure": [
          { "language": "en", "words": [
            "alarm cleared", "back within range", "values normal",
            "resolved", "fixed", "all clear", "back up", "back online", "back to normal", "working again",
            "restored", "ticket closed", "issue closed", "incident closed", "case closed", "closing this",
            "closing the incident", "mitigated", "recovered", "sorted", "taken care of", "no longer",
            "false alarm", "never mind", "nevermind", "disregard", "please ignore", "cancelled the alert",
            "solved", "up and running", "done, thanks", "handled", "postmortem", "post-mortem",
            "i'll take care of it", "i'll handle it", "i'll sort it", "i'll get her", "i'll grab him",
            "i'll grab her", "i've got it covered", "running again", "restarted", "i'll get him",
            "i'll pick him up", "i'll pick her up", "i'll pick them up", "i'll get them" ] },
          { "language": "de", "words": [
            "alarm beendet", "wieder im normalbereich", "wieder normal", "werte normal",
            "behoben", "erledigt", "geklart", "gelost", "entwarnung", "lauft wieder", "laufen wieder",
            "funktioniert wieder", "wieder online", "wiederhergestellt", "ticket geschlossen",
            "vorfall geschlossen", "storung geschlossen", "hat sich erledigt", "vom tisch",
            "kein handlungsbedarf", "fehlalarm", "bitte ignorieren", "ignorieren", "abgeschlossen",
            "wieder da", "ist durch", "nachbetrachtung", "ich kummere mich darum", "ich kummere mich drum" ] },
          { "language": "fr", "words": [
            "rentré dans l'ordre", "alarme close", "retour à la normale", "valeurs normales",
            "resolu", "resolue", "regle", "reglee", "corrige", "corrigee", "retabli", "retablie",
            "fonctionne a nouveau", "fonctionne de nouveau", "remis en service", "ticket clos",
            "incident clos", "ticket cloture", "incident cloture", "fausse alerte", "c'est bon", "c'est regle",
            "plus besoin", "ne tenez pas compte", "ignorez", "tout est rentre dans l'ordre", "je m'en occupe",
            "je m'en charge" ] },
          { "language": "es", "words": [
            "normalizado", "normalizada", "alarma cerrada", "vuelve a la normalidad", "valores normales",
            "solucionado", "solucionada", "resuelto", "resuelta", "arreglado", "arreglada", "restablecido",
            "restablecida", "ya funciona", "funciona de nuevo", "vuelve a funcionar", "ticket cerrado",
            "incidencia cerrada", "incidente cerrado", "caso cerrado", "falsa alarma", "ignora", "ignorad",
            "olvidalo", "todo en orden", "normalidad", "yo me encargo", "yo me ocupo" ] },
          { "language": "it", "words": [
            "rientrato", "rientrata", "rientrati", "rientrate", "tutto rientrato", "tornato nella norma",
            "tornata nella norma", "tornati nella norma", "valori nella norma",
            "risolto", "risolta", "risolti", "risolte", "sistemato", "sistemata", "sistemati", "sistemate",
            "riparato", "riparata", "riparati", "ripristinato", "ripristinata", "ripristinati", "ripristinate",
            "sbloccato", "sbloccata", "sbloccati", "sbloccate", "riattivato", "riattivata",
            "funziona di nuovo", "funziona nuovamente", "ora funziona", "adesso funziona",
            "torna a funzionare", "tornato a funzionare", "tornata a funzionare", "tornati a funzionare",
            "di nuovo online", "di nuovo operativo", "di nuovo operativa", "nuovamente operativo",
            "nuovamente operativa", "tornato online", "di nuovo attivo", "tutto ok", "tutto a posto",
            "tutto sistemato", "tornato alla normalità", "tornata alla normalità", "tutto regolare",
            "allarme rientrato", "emergenza rientrata", "situazione rientrata", "falso allarme",
            "ticket chiuso", "incidente chiuso", "segnalazione chiusa", "caso chiuso", "chiudo il ticket",
            "chiudiamo il ticket", "lascia perdere", "lasciate perdere", "lasci perdere", "non importa più",
            "non serve più", "non più necessario", "non è più necessario", "ignori", "ignorate",
            "ci penso io", "me ne occupo io", "me ne occupo", "ci pensiamo noi", "vado io", "ci vado io",
            "passo io", "lo prendo io", "la prendo io", "li prendo io", "ripartita", "ripartito", "ripartiti",
            "ripartite", "andata via", "è passata", "è passato" ] },
          { "language": "pt", "words": [
            "alarme encerrado", "valores normais",
            "resolvido", "resolvida", "resolvidos", "resolvidas", "tudo resolvido", "solucionados",
            "solucionadas", "corrigido", "corrigida", "corrigidos", "corrigidas", "reparado", "reparada",
            "consertado", "consertada", "já funciona", "já está a funcionar", "já está funcionando",
            "voltou a funcionar", "volta a funcionar", "funciona novamente", "funcionando novamente",
            "a funcionar novamente", "normalizado", "normalizada", "situação normalizada", "tudo normalizado",
            "restabelecido", "restabelecida", "restabelecidos", "restaurado", "restaurada", "restaurados",
            "reposto", "reposta", "repostos", "serviço reposto", "energia reposta", "voltou ao ar",
            "de volta ao ar", "já está no ar", "voltou ao normal", "de volta ao normal", "tudo normal",
            "tudo em ordem", "ticket fechado", "chamado fechado", "chamado encerrado", "incidente encerrado",
            "incidente fechado", "incidente resolvido", "caso encerrado", "ocorrência encerrada",
            "ocorrência fechada", "mitigado", "mitigada", "alarme falso", "falso alarme", "esqueça", "esquece",
            "esquece isso", "desconsidere", "desconsiderar", "favor desconsiderar", "por favor ignore",
            "pode ignorar", "podem ignorar", "ignorem", "já não é necessário", "já não é preciso",
            "não é mais necessário", "deixou de ser necessário", "eu trato", "eu trato disso", "eu resolvo",
            "eu cuido disso", "eu me encarrego", "deixa comigo", "deixe comigo", "eu vou buscá lo",
            "eu vou buscá la", "eu vou buscar", "eu busco", "eu apanho", "eu pego ele", "eu pego ela",
            "eu vou pegar", "já tratei", "já está tratado", "pós incidente" ] }
        ],
        "fyi": [
          { "language": "en", "words": [
            "fyi", "for your information", "just so you know", "for your records", "for reference",
            "nothing needed", "nothing else needed", "nothing needed from you", "nothing else needed from you",
            "nothing else to do", "no action needed", "no action required", "nothing to do",
            "no need to reply", "no reply needed", "meeting notes", "weekly report", "status report",
            "newsletter", "cc'ing you", "looping you in", "keeping you in the loop" ] },
          { "language": "de", "words": [
            "zur info", "nur zur info", "zu ihrer information", "zur kenntnis", "zur kenntnisnahme",
            "kein handlungsbedarf", "nichts zu tun", "musst nichts tun", "mussen nichts tun",
            "kein weiterer handlungsbedarf", "protokoll", "wochenreport", "wochenbericht", "monatsbericht",
            "statusbericht", "in kopie", "nur in kopie" ] },
          { "language": "fr", "words": [
            "pour info", "pour information", "pour ton information", "pour votre information",
            "a titre d'information", "rien a faire", "aucune action", "pas besoin de repondre", "compte rendu",
            "proces-verbal", "rien de particulier", "rapport hebdomadaire", "en copie" ] },
          { "language": "es", "words": [
            "para tu informacion", "para su informacion", "a titulo informativo", "solo para que lo sepas",
            "nada que hacer", "no hace falta", "no hay que hacer nada", "no necesitas hacer nada", "acta",
            "informe semanal", "te pongo en copia", "en copia" ] },
          { "language": "it", "words": [
            "per conoscenza", "per tua conoscenza", "per sua conoscenza", "per vostra conoscenza",
            "per opportuna conoscenza", "per opportuna informazione", "per informazione",
            "per tua informazione", "per sua informazione", "per vostra informazione", "a titolo informativo",
            "solo per informazione", "per info", "ti metto in copia", "vi metto in copia", "la metto in copia",
            "in copia", "in cc", "nessuna azione richiesta", "nessuna azione necessaria",
            "richiesta alcuna azione", "nulla da fare", "niente da fare", "non serve rispondere",
            "non occorre rispondere", "non è necessario rispondere", "nessuna risposta necessaria",
            "verbale della riunione", "verbale riunione", "verbale dell'incontro", "resoconto",
            "report settimanale", "rapporto settimanale", "aggiornamento settimanale", "per gli atti",
            "agli atti", "per archivio", "per tenerti aggiornato", "per tenervi aggiornati",
            "giusto per aggiornarti" ] },
          { "language": "pt", "words": [
            "para conhecimento", "para seu conhecimento", "para vosso conhecimento", "para teu conhecimento",
            "para sua informação", "para tua informação", "para informação", "só para informar",
            "apenas para informação", "só para saberes", "só para você saber", "só para que saiba",
            "para registo", "para registro", "para arquivo", "nenhuma ação necessária",
            "nenhuma acção necessária", "não precisa fazer nada", "nada a fazer", "não é necessário responder",
            "não precisa responder", "não precisa de responder", "não precisas de responder", "ata da reunião",
            "acta da reunião", "relatório semanal", "relatório de situação", "ponto de situação",
            "boletim informativo", "em cópia", "coloco em cópia", "com conhecimento", "para que saiba",
            "nenhuma ação é necessária", "sem necessidade de ação", "não requer ação", "não precisa de fazer",
            "não precisas de fazer", "não é preciso fazer", "não é necessário fazer" ] }
        ],
        "marketing": [
          { "language": "en", "words": [
            "last chance", "final hours", "ends tonight", "ends today", "ends at midnight", "sale", "discount",
            "promo", "promo code", "coupon", "early-bird", "limited time", "limited offer", "shop now",
            "buy now", "book now", "don't miss", "only today", "today only", "black friday", "cyber monday",
            "free shipping", "claim your", "upgrade now", "unsubscribe", "view in browser" ] },
          { "language": "de", "words": [
            "letzte chance", "nur heute", "nur noch heute", "rabatt", "gutschein", "gutscheincode",
            "jetzt zugreifen", "jetzt buchen", "jetzt kaufen", "jetzt sichern", "sichern sie sich", "nur noch",
            "solange der vorrat reicht", "versandkostenfrei", "black week", "letzte gelegenheit", "endspurt",
            "im browser ansehen", "abmelden", "newsletter abbestellen", "tiefstpreis" ] },
          { "language": "fr", "words": [
            "derniere chance", "dernieres heures", "soldes", "promotion", "remise", "reduction",
            "offre speciale", "code promo", "aujourd'hui seulement", "seulement aujourd'hui", "profitez",
            "j'en profite", "livraison offerte", "ne manquez pas", "se desabonner", "desinscrire",
            "voir en ligne", "jusqu'a minuit", "bon plan" ] },
          { "language": "es", "words": [
            "ultima oportunidad", "ultimas horas", "solo hoy", "rebajas", "descuento", "descuentos",
            "promocion", "codigo promocional", "cupon", "envio gratis", "aprovecha", "compra ya", "reserva ya",
            "no te lo pierdas", "darse de baja", "darte de baja", "ver en el navegador", "hasta medianoche" ] },
          { "language": "it", "words": [
            "ultima occasione", "ultima possibilità", "ultime ore", "solo oggi", "soltanto oggi",
            "oggi soltanto", "solo per oggi", "saldi", "sconto", "sconti", "scontato", "scontati",
            "promozione", "promozioni", "offerta speciale", "offerte speciali", "offerta limitata",
            "offerta a tempo", "a tempo limitato", "offerta lampo", "offerte lampo", "imperdibile",
            "imperdibili", "codice sconto", "codice promo", "codice promozionale", "buono sconto",
            "spedizione gratuita", "spedizione gratis", "consegna gratuita", "fuori tutto", "sottocosto",
            "acquista ora", "compra ora", "compra subito", "prenota ora", "prenota subito", "approfitta",
            "approfittane", "non perdere", "non perderti", "da non perdere", "disiscriviti",
            "annulla iscrizione", "cancella iscrizione", "annullare l'iscrizione", "visualizza nel browser",
            "visualizza online", "versione web", "fino a mezzanotte", "iscriviti", "iscriviti ora", "webinar" ] },
          { "language": "pt", "words": [
            "última oportunidade", "últimos dias", "só hoje", "apenas hoje", "somente hoje", "termina hoje",
            "acaba hoje", "termina esta noite", "até à meia noite", "promoção", "promoções", "desconto",
            "descontos", "de desconto", "cupão", "cupom", "código de desconto", "oferta especial",
            "oferta limitada", "tempo limitado", "por tempo limitado", "portes grátis", "frete grátis",
            "entrega grátis", "compre já", "compre agora", "compra já", "reserve já", "reserva já",
            "aproveite", "aproveita", "não perca", "não percas", "anular subscrição", "cancelar subscrição",
            "cancelar inscrição", "descadastrar", "descadastre se", "deixar de receber", "ver no navegador",
            "ver no browser", "webinário", "inscreva se", "inscreve te", "garanta já", "garanta o seu",
            "garanta seu", "stock limitado", "estoque limitado", "época de saldos", "em saldos",
            "saldos de verão", "saldos de inverno", "liquidação total", "queima de estoque" ] }
        ],
        "automated_notice": [
          { "language": "en", "words": [
            "this is an automated message", "automated message", "do not reply", "please do not reply",
            "your statement", "statement is ready", "is available", "your invoice", "your receipt",
            "receipt for", "order confirmation", "has shipped", "has been shipped", "out for delivery",
            "was delivered", "has been delivered", "tracking number", "daily digest", "weekly digest",
            "daily summary", "your daily", "has been completed", "payment received", "password expires",
            "password will expire", "scheduled maintenance", "all parties have signed" ] },
          { "language": "de", "words": [
            "automatisch erstellt", "automatisch generiert", "bitte nicht antworten",
            "nicht auf diese e-mail antworten", "kontoauszug", "steht bereit", "steht zum abruf bereit",
            "ihre rechnung", "rechnung ist verfugbar", "bestellbestatigung", "versandt", "unterwegs",
            "zugestellt", "sendung verfolgen", "tagesbericht", "tagesubersicht", "zusammenfassung",
            "kennwort lauft", "passwort lauft", "wartungsarbeiten" ] },
          { "language": "fr", "words": [
            "message automatique", "ne pas repondre", "merci de ne pas repondre", "releve", "votre releve",
            "est disponible", "votre facture", "confirmation de commande", "expedie", "expediee",
            "en cours de livraison", "livre", "livree", "suivre mon colis", "recapitulatif",
            "resume quotidien", "votre mot de passe expire", "maintenance programmee" ] },
          { "language": "es", "words": [
            "mensaje automatico", "no responda", "no responder", "por favor no responda", "extracto",
            "tu extracto", "esta disponible", "tu factura", "su factura", "confirmacion de pedido",
            "en reparto", "entregado", "resumen diario", "resumen semanal", "tu contrasena caduca",
            "mantenimiento programado" ] },
          { "language": "it", "words": [
            "messaggio automatico", "messaggio generato automaticamente", "generato automaticamente",
            "email automatica", "notifica automatica", "non rispondere", "non rispondere a questa",
            "estratto conto", "è disponibile", "disponibile online", "la tua fattura", "fattura disponibile",
            "nuova fattura", "fattura elettronica", "la tua bolletta", "bolletta disponibile", "cedolino",
            "referto disponibile", "referti disponibili", "ricevuta", "ricevuta di pagamento",
            "la tua ricevuta", "ricevuta di accettazione", "ricevuta di consegna", "avvenuta consegna",
            "conferma d'ordine", "conferma dell'ordine", "ordine confermato", "il tuo ordine", "spedito",
            "spedita", "è stato spedito", "in consegna", "in transito", "consegnato", "consegnata",
            "è stato consegnato", "numero di tracking", "codice di tracciamento", "traccia la spedizione",
            "traccia il tuo ordine", "riepilogo giornaliero", "riepilogo settimanale", "riepilogo",
            "report giornaliero", "pagamento ricevuto", "pagamento effettuato", "pagamento completato",
            "pagamento accreditato", "backup completato", "backup riuscito", "completato con successo",
            "operazione completata", "la tua password scade", "password in scadenza",
            "manutenzione programmata", "manutenzione pianificata", "promemoria", "promemoria appuntamento",
            "ti ricordiamo", "le ricordiamo", "vi ricordiamo", "prenotazione confermata",
            "conferma di prenotazione", "le parti hanno firmato", "documento firmato" ] },
          { "language": "pt", "words": [
            "mensagem automática", "e mail automático", "email automático", "gerado automaticamente",
            "enviado automaticamente", "não responda", "não responder", "por favor não responda",
            "favor não responder", "extrato", "o seu extrato", "seu extrato", "extrato disponível",
            "está disponível", "já está disponível", "disponível para consulta", "a sua fatura", "sua fatura",
            "fatura disponível", "a sua factura", "recibo", "o seu recibo", "seu recibo", "comprovativo",
            "comprovante", "confirmação de encomenda", "confirmação do pedido", "confirmação de pedido",
            "encomenda confirmada", "pedido confirmado", "encomenda enviada", "pedido enviado", "foi expedida",
            "foi expedido", "em trânsito", "saiu para entrega", "em distribuição", "em rota de entrega",
            "foi entregue", "encomenda entregue", "pedido entregue", "número de rastreio",
            "código de rastreio", "código de rastreamento", "resumo diário", "resumo semanal",
            "relatório diário", "backup concluído", "cópia de segurança concluída", "concluído com sucesso",
            "concluída com sucesso", "pagamento recebido", "pagamento confirmado", "recebemos o seu pagamento",
            "recebemos seu pagamento", "senha expira", "a sua senha expira", "palavra passe expira",
            "palavra passe vai expirar", "senha irá expirar", "manutenção programada", "manutenção agendada",
            "lembrete", "lembrete de consulta", "lembrete de marcação", "todas as partes assinaram" ] }
        ],
        "phishing": [
          { "language": "en", "words": [
            "verification portal", "verify your details",
            "verify your account", "verify your identity", "confirm your identity", "confirm your account",
            "validate your account", "mailbox is full", "mailbox full", "storage limit", "mailbox quota",
            "account will be suspended", "account will be closed", "account has been restricted",
            "temporarily restricted", "temporarily suspended", "account suspended",
            "update your payment details", "document will expire", "review document",
            "you have received a document", "shared a document with you", "click here to", "login to avoid",
            "within 24 hours or", "unlock your account", "re-activate", "reactivate your account",
            "confirm your credentials", "verify your credentials", "confirm your login",
            "confirm your bank details", "re-confirm your bank details", "verify your bank details",
            "update your bank details", "confirm your password", "via the link below", "using the link below",
            "confirm your payment details", "confirm your payment information", "account will be deactivated" ] },
          { "language": "de", "words": [
            "bestätigen sie ihre zugangsdaten", "verifizierungsportal", "überprüfen sie ihre daten",
            "verifizieren sie", "bestatigen sie ihr konto", "bestatigen sie ihre identitat",
            "identitat bestatigen", "postfach ist voll", "postfach voll", "speicherlimit", "speicherplatz",
            "vorubergehend eingeschrankt", "eingeschrankt", "konto wurde gesperrt",
            "zahlungsdaten aktualisieren", "klicken sie hier", "handlung erforderlich",
            "innerhalb von 24 stunden", "reaktivieren", "bestatigen sie ihre zugangsdaten",
            "zugangsdaten bestatigen", "zugangsdaten uber den folgenden link", "uber den folgenden link",
            "wird deaktiviert", "passwort bestatigen", "konto wird gesperrt", "zugang wird gesperrt",
            "postfach wird gesperrt" ] },
          { "language": "fr", "words": [
            "portail de vérification", "vérifiez vos données",
            "verifiez votre compte", "verifier votre compte", "confirmez votre identite",
            "confirmer votre identite", "boite de reception pleine", "boite pleine",
            "votre compte sera suspendu", "compte suspendu", "temporairement restreint",
            "temporairement suspendu", "mettre a jour vos informations", "cliquez ici", "action requise",
            "dans les 24 heures", "reactiver", "confirmez vos identifiants", "verifiez vos identifiants",
            "via le lien suivant", "via le lien ci-dessous", "quota depasse", "quota de stockage",
            "quota atteint", "compte sera désactivé" ] },
          { "language": "es", "words": [
            "portal de verificación", "verifique sus datos",
            "verifica tu cuenta", "verifique su cuenta", "confirma tu identidad", "confirme su identidad",
            "buzon lleno", "limite de almacenamiento", "cuenta sera suspendida", "cuenta suspendida",
            "temporalmente restringida", "temporalmente suspendida", "actualiza tus datos",
            "actualice sus datos", "haz clic aqui", "haga clic aqui", "accion requerida",
            "en las proximas 24 horas", "reactivar", "confirme sus credenciales", "confirma tus credenciales",
            "a traves del siguiente enlace", "en el siguiente enlace", "cuenta será desactivada" ] },
          { "language": "it", "words": [
            "confermi le credenziali", "confermare le credenziali", "conferma le credenziali",
            "inserisca le credenziali", "inserisci le credenziali", "portale di verifica",
            "verifichi i suoi dati", "verifica i tuoi dati", "verificare i suoi dati",
            "verificare i tuoi dati",
            "verifica il tuo account", "verifichi il suo account", "verifica account",
            "conferma il tuo account", "confermi il suo account", "convalida il tuo account",
            "verifica la tua identità", "verifichi la sua identità", "conferma la tua identità",
            "confermi la sua identità", "casella piena", "casella di posta piena", "spazio esaurito",
            "quota superata", "limite di archiviazione", "spazio di archiviazione", "sarà chiuso",
            "sarà chiusa", "sarà disattivato", "sarà disattivata", "sarà bloccato", "sarà bloccata",
            "account sospeso", "account è stato sospeso", "temporaneamente sospeso", "temporaneamente sospesa",
            "temporaneamente limitato", "temporaneamente limitata", "temporaneamente bloccato",
            "aggiorna i tuoi dati", "aggiorni i suoi dati", "aggiorna il pagamento", "aggiorna la carta",
            "clicca qui", "clicchi qui", "fai clic qui", "faccia clic qui", "azione richiesta", "entro 24 ore",
            "nelle prossime 24 ore", "entro 48 ore", "riattiva il tuo account", "riattivare il tuo account",
            "sblocca il tuo account", "sbloccare il tuo account", "conferma le tue credenziali",
            "verifica le tue credenziali", "confermi le sue credenziali", "conferma la tua password",
            "conferma i dati bancari", "verifica i dati bancari", "aggiorna i dati bancari", "tramite il link",
            "al link seguente", "link sottostante", "link qui sotto", "accedi per evitare",
            "ha condiviso un documento", "hai ricevuto un documento", "documento condiviso",
            "pacco in giacenza", "diritto a un rimborso", "rimborso disponibile", "account sarà sospeso",
            "conto sarà sospeso", "casella sarà sospesa", "accesso sarà sospeso" ] },
          { "language": "pt", "words": [
            "confirme as credenciais", "portal de verificação", "verifique os seus dados",
            "verifique a sua conta", "verifique sua conta", "verifica a tua conta", "verificar a sua conta",
            "verificar sua conta", "confirme a sua identidade", "confirme sua identidade",
            "confirma a tua identidade", "verifique a sua identidade", "verifique sua identidade",
            "confirme a sua conta", "confirme sua conta", "valide a sua conta", "valide sua conta",
            "caixa de correio cheia", "caixa postal cheia", "caixa de entrada cheia",
            "limite de armazenamento", "quota de armazenamento", "cota de armazenamento", "conta suspensa",
            "conta foi suspensa", "conta será encerrada", "temporariamente restrita",
            "temporariamente suspensa", "conta restrita", "atualize os seus dados", "atualize seus dados",
            "actualize os seus dados", "atualiza os teus dados", "atualizar dados de pagamento", "clique aqui",
            "clica aqui", "carregue aqui", "clique no link", "através do link abaixo", "no link abaixo",
            "pelo link abaixo", "no link a seguir", "através da ligação abaixo", "na ligação abaixo",
            "ação necessária", "acção necessária", "ação obrigatória", "nas próximas 24 horas", "reativar",
            "reative", "desbloquear a sua conta", "desbloqueie a sua conta", "desbloquear sua conta",
            "desbloqueie sua conta", "confirme as suas credenciais", "confirme suas credenciais",
            "confirme seus dados bancários", "confirmar dados bancários", "confirme a sua senha",
            "confirme sua senha", "documento partilhado consigo", "partilhou um documento",
            "compartilhou um documento", "recebeu um documento", "documento irá expirar",
            "documento vai expirar", "evitar a suspensão", "evitar o bloqueio", "evite o bloqueio",
            "confirme os dados bancários", "atualize os dados bancários", "confirme a palavra passe",
            "conta será suspensa", "acesso será suspenso", "conta será desativada" ] }
        ],
        "gift_card": [
          { "language": "en", "words": [
            "gift card", "gift cards", "giftcard", "itunes card", "apple card", "google play card",
            "steam card", "amazon card", "send me the codes", "send the codes", "card codes" ] },
          { "language": "de", "words": [
            "gutscheine", "gutscheinkarten", "geschenkkarte", "geschenkkarten", "apple-gutscheine",
            "amazon-gutscheine", "itunes-karten", "die codes" ] },
          { "language": "fr", "words": [
            "carte cadeau", "cartes cadeaux", "bons d'achat", "les codes", "cartes itunes" ] },
          { "language": "es", "words": [
            "tarjeta regalo", "tarjetas regalo", "tarjetas de regalo", "tarjeta de regalo", "los codigos",
            "tarjetas itunes" ] },
          { "language": "it", "words": [
            "carta regalo", "carte regalo", "buono regalo", "buoni regalo", "buono amazon", "buoni amazon",
            "carta amazon", "carte amazon", "carte itunes", "carta itunes", "carte apple", "carte google play",
            "paysafecard", "i codici", "mandami i codici", "inviami i codici", "gratta il retro",
            "foto dei codici" ] },
          { "language": "pt", "words": [
            "cartão presente", "cartões presente", "cartão de presente", "cartões de presente",
            "vale presente", "vales presente", "cartão oferta", "cartões oferta", "cartão de oferta",
            "cartão prenda", "vale de oferta", "cartão itunes", "cartões itunes", "cartão google play",
            "cartão amazon", "cartão steam", "raspar o verso", "raspe o verso", "envie os códigos",
            "envia os códigos", "manda os códigos", "me envie os códigos", "os códigos" ] }
        ],
        "payment_ask": [
          { "language": "en", "words": [
            "wire", "wire transfer", "bank transfer", "process a payment", "make a payment",
            "new bank details", "changed bank details", "updated bank details", "new supplier",
            "new account number", "transfer funds" ] },
          { "language": "de", "words": [
            "uberweisung", "uberweisen", "uberweise", "zahlung veranlassen", "veranlasse", "veranlassen",
            "neue bankverbindung", "geanderte bankverbindung", "neue iban", "auslandsuberweisung" ] },
          { "language": "fr", "words": [
            "virement", "virements", "effectuer un paiement", "nouvelles coordonnees bancaires", "nouveau rib",
            "nouvel iban" ] },
          { "language": "es", "words": [
            "transferencia", "transferencias", "hacer un pago", "realizar un pago", "nuevos datos bancarios",
            "nueva cuenta bancaria", "nuevo iban" ] },
          { "language": "it", "words": [
            "bonifico", "bonifici", "bonifico urgente", "fare un bonifico", "effettuare un bonifico",
            "disporre un bonifico", "effettuare un pagamento", "fare un pagamento", "procedere al pagamento",
            "eseguire il pagamento", "disporre il pagamento", "nuove coordinate bancarie", "nuovo iban",
            "nuovo fornitore", "trasferire fondi", "trasferimento fondi", "pagamento urgente" ] },
          { "language": "pt", "words": [
            "transferência bancária", "fazer uma transferência", "faça uma transferência",
            "faz uma transferência", "fazer um pagamento", "efetuar um pagamento", "efetuar o pagamento",
            "efectuar o pagamento", "realizar um pagamento", "processar um pagamento", "fazer um pix",
            "faz um pix", "faça um pix", "manda um pix", "novos dados bancários", "nova conta bancária",
            "novo iban", "novo nib", "novo fornecedor", "por mb way", "mbway", "fazer um depósito",
            "transferir o valor", "transfira o valor", "transferir o montante", "transfira o montante",
            "transferir a quantia" ] }
        ],
        "secrecy": [
          { "language": "en", "words": [
            "confidential", "keep it between us", "keep this between us", "between us", "don't tell",
            "discreet", "sensitive", "can't talk", "cannot talk", "can't call", "in a meeting",
            "stuck in a meeting", "i'll explain later", "are you available", "are you at your desk",
            "quick favour", "quick favor" ] },
          { "language": "de", "words": [
            "vertraulich", "vertrauliche", "unter uns", "niemandem", "diskret", "kann nicht telefonieren",
            "nicht telefonieren", "sitze im meeting", "im meeting", "erklare ich spater", "bist du am platz",
            "kurze bitte" ] },
          { "language": "fr", "words": [
            "confidentiel", "confidentielle", "entre nous", "discret", "discrete", "je ne peux pas parler",
            "en reunion", "je t'expliquerai", "je vous expliquerai", "es-tu disponible",
            "etes-vous disponible", "petit service" ] },
          { "language": "es", "words": [
            "confidencial", "entre nosotros", "discrecion", "discreto", "no puedo hablar", "no puedo llamar",
            "en una reunion", "te explico luego", "te lo explico luego", "estas disponible", "esta disponible",
            "un favor" ] },
          { "language": "it", "words": [
            "riservato", "riservata", "riservatezza", "confidenziale", "strettamente riservato", "tra noi",
            "fra noi", "tra di noi", "resti tra noi", "non dirlo", "non dire niente", "non ne parlare",
            "non parlarne", "discreta", "discrezione", "massima discrezione", "riserbo", "massimo riserbo",
            "non posso parlare", "non posso chiamare", "sono in riunione", "in riunione", "ti spiego dopo",
            "ti spiego più tardi", "le spiego dopo", "ti spiegherò", "le spiegherò", "sei disponibile",
            "sei in ufficio", "sei alla scrivania", "è in ufficio", "un favore", "piccolo favore",
            "favore veloce" ] },
          { "language": "pt", "words": [
            "estritamente confidencial", "sigiloso", "sigilosa", "sigilo", "em sigilo", "entre nós",
            "fica entre nós", "não comente", "não comentes", "não diga a ninguém", "não digas a ninguém",
            "não conte a ninguém", "não contes a ninguém", "discrição", "com discrição", "não posso falar",
            "não posso ligar", "não consigo falar", "estou em reunião", "numa reunião", "em uma reunião",
            "explico depois", "explico te depois", "depois explico", "estás disponível",
            "você está disponível", "está disponível agora", "estás no escritório", "está no escritório",
            "um favor", "favor rápido", "um pequeno favor" ] }
        ],
        "health": [
          { "language": "en", "words": [
            "stomach ache", "tummy ache",
            "fever", "hospital", "emergency room", "a&e", "ambulance", "paramedics", "fell",
            "had a fall", "injured", "injury", "accident", "broke his", "broke her", "broken arm",
            "broken leg", "allergic reaction", "seizure", "unconscious", "vomiting", "threw up", "stroke",
            "heart attack", "bleeding", "stitches", "concussion", "sent home sick", "is sick", "feels sick",
            "not well", "nurse's office", "school nurse", "in the er", "at the er", "to the er", "chest pain",
            "can't breathe", "passed out", "fainted", "collapsed", "temp is", "high temperature", "been sick",
            "being sick", "throwing up", "is hurt", "got hurt", "swelling" ] },
          { "language": "de", "words": [
            "bauchschmerzen", "kopfschmerzen", "erhöhte temperatur",
            "fieber", "krankenhaus", "klinik", "klinikum", "notaufnahme", "rettungswagen", "notarzt",
            "krankenwagen", "gesturzt", "sturz", "hingefallen", "verletzt", "verletzung", "unfall",
            "gebrochen", "allergische reaktion", "bewusstlos", "erbrochen", "ubergeben", "schlaganfall",
            "herzinfarkt", "blutet", "genaht", "gehirnerschutterung", "brustschmerzen", "zusammengebrochen",
            "ohnmachtig", "kollabiert", "hat sich übergeben" ] },
          { "language": "fr", "words": [
            "mal au ventre", "fébrile", "douleur à la poitrine",
           
            "fievre", "de la fievre", "hopital", "urgences", "aux urgences", "samu", "pompiers", "chute",
            "blesse", "blessee", "blessure", "fracture", "reaction allergique", "malaise", "inconscient",
            "vomi", "vomissements", "avc", "crise cardiaque", "saigne", "points de suture", "infirmerie",
            "est tombee", "est tombe dans", "a chute", "douleur thoracique", "douleurs thoraciques",
            "s'est evanoui", "s'est evanouie", "a vomi", "vomit", "est tombé" ] },
          { "language": "es", "words": [
            "dolor de tripa", "febrícula",
            "fiebre", "urgencias", "ambulancia", "se cayo", "herido", "herida", "accidente", "fractura",
            "reaccion alergica", "desmayo", "se ha desmayado", "inconsciente", "vomitado", "vomitando",
            "ictus", "infarto", "sangra", "enfermeria", "ha tenido una caida", "se ha roto", "se cayo por",
            "dolor en el pecho", "desmayada", "desmayado", "ha vomitado", "se desmayó", "se ha caído" ] },
          { "language": "it", "words": [
            "mal di pancia", "linee di febbre", "febbricola", "temperatura rilevata",
            "dolore al torace", "dolore forte",
            "febbre", "febbre alta", "ospedale", "in ospedale", "pronto soccorso", "ambulanza", "il 118",
            "al 118", "guardia medica", "codice rosso", "è caduto", "è caduta", "brutta caduta",
            "si è fatto male", "si è fatta male", "battuto la testa", "ferito", "ferita", "feriti",
            "infortunio", "infortunato", "infortunata", "incidente", "incidente stradale", "frattura",
            "fratturato", "fratturata", "rotto il braccio", "rotto la gamba", "rotta la gamba",
            "rotto il polso", "reazione allergica", "shock anafilattico", "crisi epilettica", "convulsioni",
            "svenuto", "svenuta", "perso i sensi", "privo di sensi", "priva di sensi", "incosciente", "vomito",
            "ha vomitato", "vomita", "attacco cardiaco", "sanguina", "perde sangue", "punti di sutura",
            "trauma cranico", "commozione cerebrale", "malore", "ha avuto un malore", "sta male",
            "si sente male", "non sta bene", "dolore al petto", "dolori al petto", "non respira",
            "fatica a respirare", "crisi d'asma", "attacco d'asma", "ricoverato", "ricoverata", "ricovero",
            "terapia intensiva", "rianimazione", "sala operatoria", "operato d'urgenza", "operata d'urgenza",
            "è mancato", "è mancata", "venuto a mancare", "venuta a mancare", "è morto", "è morta", "deceduto",
            "deceduta", "decesso", "ci ha lasciati", "infermeria", "sta vomitando", "è svenuto", "è svenuta" ] },
          { "language": "pt", "words": [
            "dor de barriga", "febrícula", "temperatura medida",
           
            "febre", "com febre", "tem febre", "febre alta", "temperatura de", "no hospital", "nas urgências",
            "na urgência", "às urgências", "pronto socorro", "pronto atendimento", "upa", "inem", "bombeiros",
            "paramédicos", "caiu da", "caiu de", "teve uma queda", "levou uma queda", "sofreu uma queda",
            "ferido", "ferida", "feridos", "ferimento", "magoou se", "se machucou", "machucou", "machucado",
            "machucada", "acidente", "teve um acidente", "sofreu um acidente", "fratura", "partiu o braço",
            "partiu a perna", "quebrou o braço", "quebrou a perna", "braço partido", "perna partida",
            "braço quebrado", "perna quebrada", "reação alérgica", "reacção alérgica", "convulsão",
            "convulsões", "ataque epilético", "desmaiou", "desmaiado", "desmaiada", "perdeu os sentidos",
            "a vomitar", "vomitou", "ataque cardíaco", "enfarte", "a sangrar", "sangrando", "hemorragia",
            "levou pontos", "levar pontos", "concussão", "traumatismo craniano", "está doente", "ficou doente",
            "não se sente bem", "mal disposto", "maldisposto", "enfermaria", "enfermeira da escola",
            "dor no peito", "dores no peito", "não consegue respirar", "falta de ar", "faleceu", "falecimento",
            "morreu", "óbito", "em cirurgia", "cirurgia de urgência", "operado de urgência", "internado",
            "internada", "foi internado", "foi internada", "cuidados intensivos", "uti", "na emergência",
            "está a vomitar", "está vomitando", "caiu e" ] }
        ],
        "school_closure": [
          { "language": "en", "words": [
            "school will be closed", "school is closed", "school closed", "school closure",
            "school will close", "school is closing", "nursery will be closed", "nursery is closed",
            "nursery closed", "daycare is closed", "daycare will be closed", "daycare closed",
            "childcare is closed", "classes are cancelled", "classes are canceled", "snow day",
            "send your child home", "collect your child" ] },
          { "language": "de", "words": [
            "schule bleibt geschlossen", "schule ist geschlossen", "schule geschlossen", "schulschliessung",
            "kita bleibt geschlossen", "kita ist geschlossen", "kita geschlossen",
            "kindergarten bleibt geschlossen", "kindergarten ist geschlossen", "unterricht fallt aus",
            "schulausfall", "notbetreuung", "ihr kind abholen" ] },
          { "language": "fr", "words": [
            "l'ecole sera fermee", "l'ecole est fermee", "ecole fermee", "fermeture de l'ecole",
            "la creche sera fermee", "la creche est fermee", "creche fermee", "les cours sont annules",
            "pas de classe", "pas d'ecole", "venir chercher votre enfant" ] },
          { "language": "es", "words": [
            "el colegio estara cerrado", "el colegio esta cerrado", "colegio cerrado",
            "la escuela estara cerrada", "la escuela esta cerrada", "escuela cerrada", "cierre del colegio",
            "guarderia cerrada", "se suspenden las clases", "suspension de clases", "no habra clases",
            "recoger a su hijo", "recoger a su hija" ] },
          { "language": "it", "words": [
            "scuola chiusa", "scuole chiuse", "scuola resterà chiusa", "scuola rimarrà chiusa",
            "scuole resteranno chiuse", "scuole rimarranno chiuse", "chiusura della scuola",
            "chiusura delle scuole", "chiusura scuole", "chiusura scuola", "ordinanza di chiusura",
            "asilo chiuso", "nido chiuso", "materna chiusa", "infanzia chiusa", "plesso chiuso",
            "lezioni sospese", "sospensione delle lezioni", "lezioni annullate", "attività didattica sospesa",
            "attività didattiche sospese", "didattica sospesa", "niente scuola", "sciopero scuola",
            "sciopero della scuola", "sciopero comparto scuola", "sciopero del personale",
            "svolgimento delle lezioni", "uscita anticipata", "entrata posticipata", "allerta meteo",
            "allerta rossa", "mensa sospesa" ] },
          { "language": "pt", "words": [
            "escola fechada", "escola estará fechada", "escola vai estar fechada", "escola vai fechar",
            "a escola está fechada", "escola encerrada", "escola vai encerrar", "encerramento da escola",
            "fecho da escola", "creche fechada", "creche encerrada", "jardim de infância fechado",
            "jardim de infância encerrado", "infantário fechado", "colégio fechado", "greve dos professores",
            "greve de professores", "pessoal não docente", "greve na escola", "sem aulas", "não haverá aulas",
            "não vai haver aulas", "aulas canceladas", "aulas suspensas", "suspensão das aulas",
            "suspensão de aulas", "atividades letivas suspensas", "buscar seu filho", "buscar sua filha",
            "buscar o seu filho", "buscar a sua filha", "buscar o seu educando", "recolher o seu educando" ] }
        ],
        "pickup": [
          { "language": "en", "words": [
            "pick him up", "pick her up", "pick them up", "pick up", "pickup", "collect him", "collect her",
            "come get", "come and get", "come pick", "can you get him", "can you get her", "fetch him",
            "fetch her", "collected", "come and get her", "come and get him", "come and collect" ] },
          { "language": "de", "words": [
            "abholen", "abzuholen", "holst du", "ihn holen", "sie holen", "holen", "abgeholt", "abgeholt werden" ] },
          { "language": "fr", "words": [
            "venir le chercher", "venir la chercher", "venir les chercher", "le recuperer", "la recuperer",
            "les recuperer", "recuperer", "aller le chercher", "aller la chercher", "passer le prendre",
            "passer la prendre" ] },
          { "language": "es", "words": [
            "recogerlo", "recogerla", "recogerlos", "recoger", "a buscarlo", "a buscarla", "pasar a por",
            "venir a por", "ir a por", "venir a buscarla", "venir a buscarlo" ] },
          { "language": "it", "words": [
            "venire a prendere", "venirlo a prendere", "venirla a prendere", "venirli a prendere",
            "venire a prenderlo", "venire a prenderla", "venire a prenderli", "andare a prendere",
            "andarlo a prendere", "andarla a prendere", "andarli a prendere", "passare a prendere",
            "passi a prendere", "passa a prendere", "passare a prenderlo", "passare a prenderla", "prenderlo",
            "prenderla", "prenderli", "prenderle", "lo prendi tu", "la prendi tu", "li prendi tu",
            "lo prende lei", "la prende lei", "recuperarlo", "recuperarla", "prendere il bambino",
            "prendere la bambina", "prendere i bambini", "prendere i ragazzi", "prendere tuo figlio",
            "prendere tua figlia", "prendere suo figlio", "prendere sua figlia" ] },
          { "language": "pt", "words": [
            "ir buscá lo", "ir buscá la", "buscá lo", "buscá la", "buscá los", "buscá las", "ir buscar",
            "vir buscar", "vens buscar", "pode vir buscar", "podes ir buscar", "passar a buscar",
            "passar para buscar", "apanhá lo", "apanhá la", "apanhá los", "buscar ele", "buscar ela",
            "buscar eles", "pegar ele", "pegar ela", "pegar eles", "pegar as crianças", "buscar as crianças",
            "buscar os miúdos", "buscar o miúdo", "buscar a miúda", "buscar o menino", "buscar a menina",
            "buscar na escola", "buscar à escola", "pegar na escola", "apanhar na escola", "vir buscá la",
            "vir buscá lo", "buscar a" ] }
        ],
        "travel_transport": [
          { "language": "en", "words": [
            "flight", "your flight", "train", "gate", "boarding", "departure", "connection", "ferry", "bus",
            "rail", "terminal", "platform", "booking", "trip", "trains", "flights", "buses", "shuttle" ] },
          { "language": "de", "words": [
            "flug", "ihr flug", "zug", "ice", "gleis", "abflug", "abfahrt", "anschluss", "fahrt", "reise",
            "verbindung", "ruckfahrt", "ruckflug", "bahn", "s-bahn", "zuge", "fluge", "flieger", "maschine" ] },
          { "language": "fr", "words": [
            "vol", "votre vol", "tgv", "porte", "embarquement", "depart", "correspondance", "voyage", "trajet",
            "quai", "voie", "ouigo", "vols", "navette" ] },
          { "language": "es", "words": [
            "vuelo", "su vuelo", "tu vuelo", "tren", "puerta", "embarque", "salida", "conexion", "viaje",
            "trayecto", "anden", "trenes", "vuelos", "autobus" ] },
          { "language": "it", "words": [
            "volo", "voli", "il tuo volo", "il suo volo", "aereo", "aeroporto", "imbarco", "carta d'imbarco",
            "partenza", "partenze", "coincidenza", "coincidenze", "treno", "treni", "frecciarossa", "italo",
            "intercity", "trenitalia", "stazione", "binario", "traghetto", "traghetti", "aliscafo", "pullman",
            "navetta", "taxi", "metro", "metropolitana", "viaggio", "tratta", "prenotazione", "hotel",
            "albergo", "check-in" ] },
          { "language": "pt", "words": [
            "voo", "voos", "o seu voo", "seu voo", "teu voo", "comboio", "comboios", "trem", "trens",
            "porta de embarque", "portão de embarque", "cartão de embarque", "partida", "voo de ligação",
            "voo de conexão", "conexão", "balsa", "barco", "autocarro", "autocarros", "ônibus", "avião",
            "a sua reserva", "sua reserva", "viagem", "viagens", "trajeto", "uber", "bilhete", "bilhetes",
            "passagem", "passagens", "transfer", "vaivém" ] }
        ],
        "travel_problem": [
          { "language": "en", "words": [
            "cancelled", "canceled", "cancellation", "delayed", "delay", "gate change", "gate changed",
            "new gate", "rebook", "rebooked", "rebooking", "strike", "diverted", "missed connection",
            "overbooked", "disruption", "schedule change", "will not run", "not running", "suspended" ] },
          { "language": "de", "words": [
            "fallt aus", "ausfall", "gestrichen", "annulliert", "verspatung", "verspatet", "gleiswechsel",
            "gatewechsel", "gate geandert", "umbuchen", "umbuchung", "umgebucht", "streik", "fahrt nicht",
            "storung", "anschluss verpasst", "ersatzverkehr", "uberbucht" ] },
          { "language": "fr", "words": [
            "annule", "annulee", "annulation", "supprime", "supprimee", "retard", "retarde", "retardee",
            "changement de porte", "nouvelle porte", "changement de quai", "changement de voie", "greve",
            "perturbation", "perturbe", "correspondance manquee", "surbooking", "reprogramme" ] },
          { "language": "es", "words": [
            "cancelado", "cancelada", "cancelacion", "retrasado", "retrasada", "retraso", "cambio de puerta",
            "nueva puerta", "cambio de anden", "huelga", "reubicado", "reprogramado", "perdido la conexion",
            "overbooking", "incidencia" ] },
          { "language": "it", "words": [
            "cancellato", "cancellata", "cancellati", "cancellate", "cancellazione", "annullato", "annullata",
            "annullati", "annullate", "soppresso", "soppressa", "soppressi", "soppresse", "in ritardo",
            "ritardo", "ritardi", "ritardato", "ritardata", "cambio gate", "cambio di gate", "nuovo gate",
            "cambio binario", "cambio di binario", "variazione di binario", "sciopero", "scioperi",
            "dirottato", "dirottata", "coincidenza persa", "perso la coincidenza", "persa la coincidenza",
            "riprotetto", "riprotetta", "riprotezione", "riprenotato", "riprenotata", "disagi",
            "circolazione sospesa", "circolazione interrotta", "linea interrotta", "variazione di orario",
            "cambio di orario", "limitato a", "limitata a", "sospeso", "sospesi" ] },
          { "language": "pt", "words": [
            "cancelados", "canceladas", "cancelamento", "atrasado", "atrasada", "atrasados", "atrasadas",
            "atraso", "atrasos", "mudança de porta", "alteração de porta", "nova porta", "mudança de portão",
            "novo portão", "remarcado", "remarcada", "remarcação", "realocado", "reacomodado", "reacomodação",
            "greves", "desviado", "desviada", "perdeu a ligação", "perdi a ligação", "perdeu a conexão",
            "perdi a conexão", "sobrelotado", "perturbação", "perturbações", "supressão", "suprimido",
            "suprimidos", "circulação interrompida", "circulação suspensa", "não vai circular", "não circula",
            "alteração de horário", "mudança de horário", "suspenso", "suspensa", "suspensos" ] }
        ],
        "meeting_change": [
          { "language": "en", "words": [
            "moved up to today", "brought forward to today", "today instead of",
            "moved to", "moved up", "moved it to", "rescheduled to", "rescheduled for", "pushed to",
            "brought forward", "pulled forward", "now at", "now starts", "new time", "changed to",
            "instead of", "has been moved", "is now today", "today instead" ] },
          { "language": "de", "words": [
            "auf heute vorgezogen",
            "vorgezogen", "verschoben auf", "verlegt auf", "verlegt", "jetzt um", "neuer termin",
            "neue uhrzeit", "statt", "anstatt", "stattdessen", "geandert", "vorverlegt", "heute statt" ] },
          { "language": "fr", "words": [
            "avancé à aujourd'hui", "avancée à aujourd'hui", "aujourd'hui et non",
            "avance", "avancee", "deplace a", "deplacee a", "decale a", "decalee a", "reporte a",
            "maintenant a", "nouvel horaire", "nouvelle heure", "au lieu de", "modifie", "modifiee" ] },
          { "language": "es", "words": [
            "adelantado a hoy", "adelantada a hoy", "hoy y no",
            "adelantado", "adelantada", "adelantamos", "movido a", "movida a", "cambiado a", "cambiada a",
            "trasladado", "trasladada", "ahora a las", "nuevo horario", "nueva hora", "en lugar de",
            "en vez de", "modificado" ] },
          { "language": "it", "words": [
            "ha spostato tutto", "lo fa oggi", "la fa oggi", "anticipato a oggi", "anticipata a oggi",
            "anticipato ad oggi", "viene anticipato", "viene anticipata", "oggi e non",
            "spostato a", "spostata a", "spostati a", "spostate a", "spostato alle", "spostata alle",
            "spostiamo a", "spostiamo alle", "stato spostato", "stata spostata", "anticipato", "anticipata",
            "anticipati", "anticipiamo", "posticipato", "posticipata", "posticipiamo", "rimandato",
            "rimandata", "rimandiamo", "rinviato", "rinviata", "rinviamo", "riprogrammato", "riprogrammata",
            "slitta", "slittato", "slittata", "nuovo orario", "nuova ora", "nuova data", "ora alle",
            "adesso alle", "invece di", "invece che", "al posto di", "oggi invece", "orario modificato",
            "orario cambiato", "cambio di programma" ] },
          { "language": "pt", "words": [
            "antecipado para hoje", "antecipada para hoje", "hoje e não",
            "passou para", "passa para", "mudou para", "muda para", "mudado para", "mudada para",
            "alterado para", "alterada para", "remarcado para", "remarcada para", "reagendado para",
            "reagendada para", "adiado para", "adiada para", "transferido para", "transferida para",
            "antecipado", "antecipada", "antecipamos", "adiado", "adiada", "adiamos", "reagendado",
            "reagendada", "reagendamos", "remarcado", "remarcada", "remarcamos", "agora às", "agora é às",
            "passa a ser às", "novo horário", "nova hora", "nova data", "novo local", "em vez de",
            "ao invés de", "em lugar de", "foi alterada", "foi alterado", "foi antecipada", "foi antecipado",
            "foi adiada", "foi adiado", "afinal é hoje", "passou para hoje", "passa para hoje",
            "fica para hoje", "hoje em vez de" ] }
        ],
        "meeting_word": [
          { "language": "en", "words": [
            "meeting", "call", "sync", "standup", "stand-up", "review", "interview", "session", "appointment",
            "presentation", "demo", "workshop", "board", "1:1", "check-in", "briefing", "invitation", "event",
            "game", "match", "practice", "rehearsal", "class", "lesson", "hearing" ] },
          { "language": "de", "words": [
            "termin", "besprechung", "sitzung", "vorbesprechung", "gesprach", "runde", "jour fixe", "telko",
            "telefonkonferenz", "prasentation", "einladung", "veranstaltung", "vorstellung", "spiel",
            "training", "probe", "unterricht", "verhandlung" ] },
          { "language": "fr", "words": [
            "reunion", "rendez-vous", "rdv", "point", "appel", "entretien", "seance", "conseil", "visio",
            "atelier", "evenement", "entraînement", "répétition", "cours", "audience" ] },
          { "language": "es", "words": [
            "cita", "llamada", "videollamada", "sesion", "comite", "presentacion", "entrevista", "taller",
            "invitacion", "evento", "consejo", "partido", "entrenamiento", "ensayo", "clase", "vista" ] },
          { "language": "it", "words": [
            "riunione", "riunioni", "incontro", "videochiamata", "videocall", "chiamata", "conference call",
            "appuntamento", "colloquio", "colloqui", "sessione", "seduta", "presentazione",
            "consiglio comunale", "consiglio direttivo", "cda", "consiglio di amministrazione", "assemblea",
            "udienza", "visita", "revisione", "invito", "conferenza", "sopralluogo", "audit", "ispezione",
            "collegio docenti", "consiglio di classe", "ricevimento", "partita", "allenamento", "prove",
            "lezione" ] },
          { "language": "pt", "words": [
            "reunião", "reuniões", "chamada", "videochamada", "videoconferência", "teleconferência", "sessão",
            "consulta", "marcação", "apresentação", "demonstração", "formação", "treinamento",
            "conselho de administração", "convite", "audiência", "julgamento", "alinhamento", "revisão",
            "assembleia", "assembleia geral", "daily", "reunião do conselho", "jogo", "treino", "ensaio", "aula" ] }
        ],
        "waiting_for_you": [
          { "language": "en", "words": [
            "we're waiting", "we are waiting", "waiting for you", "everyone is waiting", "where are you",
            "starting now", "started without you", "already started", "we're all in", "we are all in",
            "dial in now", "asking for you", "asking where you are" ] },
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
            "pregunta por ti" ] },
          { "language": "it", "words": [
            "ti stiamo aspettando", "la stiamo aspettando", "vi stiamo aspettando", "ti aspettiamo",
            "la aspettiamo", "ti stanno aspettando", "la stanno aspettando", "ti aspettano", "la aspettano",
            "siamo tutti qui", "siamo tutti in sala", "siamo tutti collegati", "già collegati", "dove sei",
            "dove sei finito", "dove sei finita", "ci sei", "stiamo iniziando", "iniziamo senza di te",
            "abbiamo già iniziato", "è già iniziata", "già iniziata", "è in reception", "alla reception",
            "ti cercano", "la cercano", "ti sta cercando", "la sta cercando", "chiede di te", "chiede di lei",
            "in linea per te", "in linea per lei", "collegati ora", "ti colleghi", "si collega" ] },
          { "language": "pt", "words": [
            "estamos à espera", "estamos à tua espera", "estamos à sua espera", "estamos todos à espera",
            "à sua espera", "à tua espera", "estamos esperando", "estamos te esperando",
            "estamos esperando você", "esperando por você", "estamos a aguardar", "estamos aguardando",
            "aguardamos por si", "todos à espera", "todos esperando", "todo mundo esperando", "onde estás",
            "onde você está", "cadê você", "já começou", "já começámos", "começamos sem você",
            "começámos sem ti", "vamos começar sem", "está a começar", "está começando", "começa agora",
            "já estamos todos", "estão na receção", "está na receção", "está na recepção", "estão na recepção",
            "está em linha", "estão em linha", "está na linha", "perguntam por si", "pergunta por si",
            "pergunta por ti", "perguntando por você", "estão perguntando por", "entra na chamada",
            "entre na chamada", "junta te a nós", "estão todos à espera", "está tudo à espera" ] }
        ],
        "today": [
          { "language": "en", "words": [
            "today", "today's", "this morning" ] },
          { "language": "de", "words": [
            "heute", "heute fruh", "heute vormittag", "heute morgen" ] },
          { "language": "fr", "words": [
            "aujourd'hui", "ce matin", "ce jour" ] },
          { "language": "es", "words": [
            "hoy", "esta manana" ] },
          { "language": "it", "words": [
            "oggi", "odierno", "odierna", "in data odierna", "stamattina", "stamani", "stamane",
            "questa mattina" ] },
          { "language": "pt", "words": [
            "hoje", "de hoje", "hj", "esta manhã", "hoje de manhã" ] }
        ],
        "tomorrow": [
          { "language": "en", "words": [
            "tomorrow", "tmrw", "tomorrow's" ] },
          { "language": "de", "words": [
            "morgen", "morgig", "morgigen" ] },
          { "language": "fr", "words": [
            "demain" ] },
          { "language": "es", "words": [
            "manana" ] },
          { "language": "it", "words": [
            "domani", "domattina" ] },
          { "language": "pt", "words": [
            "amanhã", "de amanhã" ] }
        ],
        "day_after_tomorrow": [
          { "language": "en", "words": [
            "day after tomorrow" ] },
          { "language": "de", "words": [
            "ubermorgen" ] },
          { "language": "fr", "words": [
            "apres-demain" ] },
          { "language": "es", "words": [
            "pasado manana" ] },
          { "language": "it", "words": [
            "dopodomani", "dopo domani" ] },
          { "language": "pt", "words": [
            "depois de amanhã" ] }
        ],
        "yesterday": [
          { "language": "en", "words": [
            "yesterday", "last night" ] },
          { "language": "de", "words": [
            "gestern", "gestern abend" ] },
          { "language": "fr", "words": [
            "hier", "hier soir" ] },
          { "language": "es", "words": [
            "ayer", "anoche" ] },
          { "language": "it", "words": [
            "ieri", "ieri sera", "ieri notte", "l'altro ieri", "altroieri" ] },
          { "language": "pt", "words": [
            "ontem", "ontem à noite", "ontem de noite" ] }
        ],
        "today_deadline": [
          { "language": "en", "words": [
            "by today", "due today", "later today", "today still", "by end of today", "before end of today",
            "still today", "today please", "same day", "sometime today", "no later than today" ] },
          { "language": "de", "words": [
            "noch heute", "heute noch", "bis heute", "heute bitte", "im laufe des tages", "im lauf des tages",
            "heute fallig", "endet heute", "lauft heute ab", "spatestens heute" ] },
          { "language": "fr", "words": [
            "aujourd'hui meme", "d'ici ce soir", "avant ce soir", "dans la journee",
            "aujourd'hui au plus tard", "pour aujourd'hui", "avant la fin de la journee", "des aujourd'hui" ] },
          { "language": "es", "words": [
            "hoy mismo", "antes de que acabe el dia", "a lo largo del dia", "durante el dia", "para hoy",
            "hoy sin falta", "antes de esta noche", "como tarde hoy" ] },
          { "language": "it", "words": [
            "entro oggi", "oggi stesso", "in giornata", "entro la giornata", "entro la giornata odierna",
            "nel corso della giornata", "entro stasera", "entro questa sera", "prima di stasera", "per oggi",
            "oggi al più tardi", "non oltre oggi", "scade oggi", "in scadenza oggi", "stesso giorno",
            "oggi entro", "oggi senza fallo" ] },
          { "language": "pt", "words": [
            "hoje mesmo", "ainda hoje", "para hoje", "hoje sem falta", "o mais tardar hoje", "no mesmo dia",
            "no próprio dia", "durante o dia", "ao longo do dia", "ainda durante o dia", "vence hoje",
            "prazo é hoje", "hoje mais tarde", "mais tarde hoje", "mais logo", "logo mais" ] }
        ],
        "tonight": [
          { "language": "en", "words": [
            "tonight", "this evening" ] },
          { "language": "de", "words": [
            "heute abend", "heute nacht", "abends" ] },
          { "language": "fr", "words": [
            "ce soir", "cette nuit", "ce soir-la" ] },
          { "language": "es", "words": [
            "esta noche", "esta tarde-noche" ] },
          { "language": "it", "words": [
            "stasera", "stanotte", "questa sera", "questa notte", "in serata" ] },
          { "language": "pt", "words": [
            "esta noite", "hoje à noite", "hoje de noite", "logo à noite", "nesta noite" ] }
        ],
        "afternoon": [
          { "language": "en", "words": [
            "this afternoon", "afternoon" ] },
          { "language": "de", "words": [
            "heute nachmittag", "nachmittag", "nachmittags" ] },
          { "language": "fr", "words": [
            "cet apres-midi", "apres-midi" ] },
          { "language": "es", "words": [
            "esta tarde", "por la tarde" ] },
          { "language": "it", "words": [
            "pomeriggio", "questo pomeriggio", "oggi pomeriggio", "nel pomeriggio" ] },
          { "language": "pt", "words": [
            "nesta tarde", "hoje à tarde", "à tarde", "de tarde", "pela tarde", "durante a tarde",
            "período da tarde" ] }
        ],
        "morning": [
          { "language": "en", "words": [
            "morning" ] },
          { "language": "de", "words": [
            "vormittag", "vormittags", "fruh" ] },
          { "language": "fr", "words": [
            "matin", "matinee" ] },
          { "language": "es", "words": [
            "por la manana", "a primera hora" ] },
          { "language": "it", "words": [
            "mattina", "mattino", "mattinata", "in mattinata" ] },
          { "language": "pt", "words": [
            "manhã", "de manhã", "pela manhã", "logo de manhã", "logo pela manhã", "na parte da manhã",
            "primeira hora", "logo cedo", "madrugada" ] }
        ],
        "noon": [
          { "language": "en", "words": [
            "noon", "midday", "lunchtime", "lunch time" ] },
          { "language": "de", "words": [
            "mittag", "mittags", "mittagszeit" ] },
          { "language": "fr", "words": [
            "midi" ] },
          { "language": "es", "words": [
            "mediodia" ] },
          { "language": "it", "words": [
            "mezzogiorno", "mezzodì", "ora di pranzo", "pausa pranzo" ] },
          { "language": "pt", "words": [
            "meio dia", "meiodia", "hora do almoço", "hora de almoço", "ao almoço" ] }
        ],
        "midnight": [
          { "language": "en", "words": [
            "midnight" ] },
          { "language": "de", "words": [
            "mitternacht" ] },
          { "language": "fr", "words": [
            "minuit" ] },
          { "language": "es", "words": [
            "medianoche" ] },
          { "language": "it", "words": [
            "mezzanotte" ] },
          { "language": "pt", "words": [
            "meia noite", "meianoite" ] }
        ],
        "end_of_day": [
          { "language": "en", "words": [
            "eod", "end of day", "end of the day", "end of business", "cob", "close of business", "eob",
            "end of play", "eop" ] },
          { "language": "de", "words": [
            "feierabend", "dienstschluss", "tagesende", "ende des tages", "bis ende des tages",
            "geschaftsschluss", "buroschluss" ] },
          { "language": "fr", "words": [
            "fin de journee", "fin de la journee", "avant la fermeture" ] },
          { "language": "es", "words": [
            "final del dia", "fin del dia", "fin de la jornada", "cierre" ] },
          { "language": "it", "words": [
            "fine giornata", "fine della giornata", "entro fine giornata", "a fine giornata",
            "fine giornata lavorativa", "chiusura ufficio", "chiusura uffici", "orario di chiusura",
            "prima della chiusura", "entro la chiusura", "fine turno" ] },
          { "language": "pt", "words": [
            "fim do dia", "final do dia", "ao fim do dia", "ao final do dia", "fim do expediente",
            "final do expediente", "fim de expediente", "fecho do dia", "fim do dia útil",
            "encerramento do expediente" ] }
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
            "dans l'heure", "d'ici une heure", "dans une heure", "dans la prochaine heure",
            "dans une demi-heure", "d'ici une demi-heure" ] },
          { "language": "es", "words": [
            "en una hora", "en la proxima hora", "en menos de una hora", "dentro de una hora", "en media hora",
            "antes de una hora" ] },
          { "language": "it", "words": [
            "entro un'ora", "entro l'ora", "tra un'ora", "fra un'ora", "nella prossima ora",
            "entro la prossima ora", "meno di un'ora", "entro mezz'ora", "tra mezz'ora", "fra mezz'ora",
            "entro mezzora", "tra mezzora", "fra mezzora", "nei prossimi 30 minuti", "entro 30 minuti",
            "tra un'oretta", "entro un'oretta" ] },
          { "language": "pt", "words": [
            "dentro de uma hora", "numa hora", "em uma hora", "na próxima hora", "dentro da próxima hora",
            "daqui a uma hora", "em até uma hora", "na próxima meia hora", "dentro de meia hora",
            "em meia hora", "numa meia hora", "daqui a meia hora", "nos próximos 30 minutos",
            "menos de uma hora" ] }
        ],
        "later": [
          { "language": "en", "words": [
            "next week", "next month", "next year", "end of the week", "end of week", "later this week",
            "this week", "in two weeks", "in a couple of weeks", "after the holidays", "in january",
            "in december", "next quarter", "early next week", "by the end of the month", "end of month" ] },
          { "language": "de", "words": [
            "nachste woche", "nachsten woche", "kommende woche", "kommenden woche", "nachsten monat",
            "ende der woche", "diese woche", "im laufe der woche", "in zwei wochen", "nach den feiertagen",
            "im januar", "im dezember", "nachstes jahr", "ende des monats", "monatsende",
            "anfang nachster woche" ] },
          { "language": "fr", "words": [
            "la semaine prochaine", "semaine prochaine", "le mois prochain", "fin de semaine", "cette semaine",
            "dans deux semaines", "en janvier", "en decembre", "l'annee prochaine", "fin du mois",
            "apres les vacances", "debut de semaine prochaine" ] },
          { "language": "es", "words": [
            "la semana que viene", "la proxima semana", "proxima semana", "el mes que viene", "el proximo mes",
            "final de semana", "esta semana", "en dos semanas", "en enero", "en diciembre", "el ano que viene",
            "fin de mes", "despues de las fiestas" ] },
          { "language": "it", "words": [
            "la prossima settimana", "prossima settimana", "settimana prossima", "il prossimo mese",
            "prossimo mese", "mese prossimo", "anno prossimo", "prossimo anno", "fine settimana",
            "entro fine settimana", "in settimana", "questa settimana", "tra due settimane",
            "fra due settimane", "tra qualche settimana", "fra qualche settimana", "tra 15 giorni",
            "fra 15 giorni", "tra quindici giorni", "nei prossimi giorni", "nei prossimi mesi", "più avanti",
            "dopo le feste", "dopo le vacanze", "dopo le ferie", "dopo l'estate", "dopo natale", "dopo pasqua",
            "a settembre", "a gennaio", "a dicembre", "prossimo trimestre", "inizio settimana prossima",
            "inizio della prossima settimana", "fine mese", "entro fine mese", "fine del mese" ] },
          { "language": "pt", "words": [
            "na próxima semana", "semana que vem", "na semana que vem", "para a semana", "próximo mês",
            "no próximo mês", "mês que vem", "no mês que vem", "próximo ano", "ano que vem", "no ano que vem",
            "fim da semana", "final da semana", "nesta semana", "ainda esta semana", "em duas semanas",
            "daqui a duas semanas", "dentro de duas semanas", "daqui a quinze dias", "em quinze dias",
            "próxima quinzena", "depois das férias", "depois das festas", "depois do natal",
            "depois da páscoa", "em janeiro", "em dezembro", "próximo trimestre", "início da próxima semana",
            "início do próximo mês", "fim do mês", "final do mês" ] }
        ],
        "deadline_cue": [
          { "language": "en", "words": [
            "by", "before", "until", "till", "due", "due by", "no later than", "deadline", "cutoff", "cut-off",
            "latest", "submission" ] },
          { "language": "de", "words": [
            "bis", "spatestens", "vor", "bis spatestens", "frist", "fallig", "abgabe", "abgabetermin" ] },
          { "language": "fr", "words": [
            "avant", "d'ici", "au plus tard", "jusqu'a", "date limite", "delai", "pour", "rendu", "echeance" ] },
          { "language": "es", "words": [
            "antes de", "antes de las", "hasta", "a mas tardar", "como tarde", "plazo", "para", "entrega",
            "vencimiento" ] },
          { "language": "it", "words": [
            "entro", "entro le", "entro il", "entro e non oltre", "non oltre", "prima di", "prima delle",
            "al più tardi", "fino a", "fino al", "fino alle", "scadenza", "termine", "termine ultimo", "scade",
            "tassativamente" ] },
          { "language": "pt", "words": [
            "até", "até às", "até ao", "até o", "até dia", "até ao dia", "até o dia", "antes das", "antes do",
            "antes da", "o mais tardar", "no máximo até", "prazo", "prazo até", "data limite", "limite",
            "vence", "vencimento", "no prazo de", "impreterivelmente", "sem falta" ] }
        ],
        "since": [
          { "language": "en", "words": [
            "since", "as of" ] },
          { "language": "de", "words": [
            "seit" ] },
          { "language": "fr", "words": [
            "depuis" ] },
          { "language": "es", "words": [
            "desde" ] },
          { "language": "it", "words": [
            "da", "dal", "dalle", "dall'", "a partire da", "a partire dalle", "da quando" ] },
          { "language": "pt", "words": [
            "desde as", "a partir de" ] }
        ],
        "ago": [
          { "language": "en", "words": [
            "ago" ] },
          { "language": "de", "words": [
            "vor" ] },
          { "language": "fr", "words": [
            "il y a" ] },
          { "language": "es", "words": [
            "hace" ] },
          { "language": "it", "words": [
            "fa" ] },
          { "language": "pt", "words": [
            "há", "atrás" ] }
        ],
        "within": [
          { "language": "en", "words": [
            "in", "within", "in the next", "within the next", "in about", "in less than" ] },
          { "language": "de", "words": [
            "innerhalb", "innerhalb von", "binnen", "in den nachsten", "in etwa", "in ca" ] },
          { "language": "fr", "words": [
            "dans", "d'ici", "sous", "dans les", "d'ici les" ] },
          { "language": "es", "words": [
            "en", "dentro de", "en los proximos", "en unos", "en menos de" ] },
          { "language": "it", "words": [
            "tra", "fra", "entro", "nei prossimi", "nelle prossime", "entro i prossimi", "entro le prossime",
            "in meno di", "tra circa", "fra circa", "in circa" ] },
          { "language": "pt", "words": [
            "em", "nos próximos", "nas próximas", "dentro dos próximos", "dentro das próximas", "daqui a",
            "em cerca de", "em menos de", "em até", "no prazo de" ] }
        ],
        "minutes": [
          { "language": "en", "words": [
            "minutes", "minute", "mins", "min" ] },
          { "language": "de", "words": [
            "minuten" ] },
          { "language": "fr", "words": [
            "mn" ] },
          { "language": "es", "words": [
            "minutos", "minuto" ] },
          { "language": "it", "words": [
            "minuti" ] }
        ],
        "hours": [
          { "language": "en", "words": [
            "hours", "hour", "hrs", "hr" ] },
          { "language": "de", "words": [
            "stunden", "stunde", "std" ] },
          { "language": "fr", "words": [
            "heures", "heure" ] },
          { "language": "es", "words": [
            "horas", "hora" ] },
          { "language": "it", "words": [
            "ore", "ora" ] }
        ],
        "user_time": [
          { "language": "en", "words": [
            "your time", "your local time", "berlin time", "paris time", "madrid time", "rome time",
            "lisbon time", "london time", "uk time", "new york time", "italian time", "portuguese time",
            "brasilia time" ] },
          { "language": "de", "words": [
            "deiner zeit", "ihrer zeit", "eurer zeit", "deutscher zeit" ] },
          { "language": "fr", "words": [
            "ton heure", "votre heure", "heure de paris", "heure francaise", "heure locale" ] },
          { "language": "es", "words": [
            "tu hora", "su hora", "hora de madrid", "hora peninsular", "hora espanola", "hora local" ] },
          { "language": "it", "words": [
            "ora italiana", "orario italiano", "ora locale", "orario locale", "ora di roma", "tua ora",
            "sua ora", "tuo orario", "suo orario", "vostro orario" ] },
          { "language": "pt", "words": [
            "sua hora", "tua hora", "seu horário", "teu horário", "horário local", "hora de lisboa",
            "hora de portugal", "hora portuguesa", "hora continental", "hora de portugal continental",
            "hora de brasília", "horário de brasília", "hora de são paulo" ] }
        ],
        "monday": [
          { "language": "en", "words": [
            "monday", "mon" ] },
          { "language": "de", "words": [
            "montag" ] },
          { "language": "fr", "words": [
            "lundi" ] },
          { "language": "es", "words": [
            "lunes" ] },
          { "language": "it", "words": [
            "lunedì", "lun" ] },
          { "language": "pt", "words": [
            "segunda feira", "segunda", "seg", "2ª feira", "2a feira" ] }
        ],
        "tuesday": [
          { "language": "en", "words": [
            "tuesday", "tue", "tues" ] },
          { "language": "de", "words": [
            "dienstag" ] },
          { "language": "fr", "words": [
            "mardi" ] },
          { "language": "es", "words": [
            "martes" ] },
          { "language": "it", "words": [
            "martedì" ] },
          { "language": "pt", "words": [
            "terça feira", "terça", "3ª feira", "3a feira" ] }
        ],
        "wednesday": [
          { "language": "en", "words": [
            "wednesday", "wed" ] },
          { "language": "de", "words": [
            "mittwoch" ] },
          { "language": "fr", "words": [
            "mercredi" ] },
          { "language": "es", "words": [
            "miercoles" ] },
          { "language": "it", "words": [
            "mercoledì", "mer" ] },
          { "language": "pt", "words": [
            "quarta feira", "quarta", "qua", "4ª feira", "4a feira" ] }
        ],
        "thursday": [
          { "language": "en", "words": [
            "thursday", "thu", "thurs" ] },
          { "language": "de", "words": [
            "donnerstag" ] },
          { "language": "fr", "words": [
            "jeudi" ] },
          { "language": "es", "words": [
            "jueves" ] },
          { "language": "it", "words": [
            "giovedì", "gio" ] },
          { "language": "pt", "words": [
            "quinta feira", "quinta", "qui", "5ª feira", "5a feira" ] }
        ],
        "friday": [
          { "language": "en", "words": [
            "friday", "fri" ] },
          { "language": "de", "words": [
            "freitag" ] },
          { "language": "fr", "words": [
            "vendredi" ] },
          { "language": "es", "words": [
            "viernes" ] },
          { "language": "it", "words": [
            "venerdì", "ven" ] },
          { "language": "pt", "words": [
            "sexta feira", "sexta", "sex", "6ª feira", "6a feira" ] }
        ],
        "saturday": [
          { "language": "en", "words": [
            "saturday" ] },
          { "language": "de", "words": [
            "samstag", "sonnabend" ] },
          { "language": "fr", "words": [
            "samedi" ] },
          { "language": "es", "words": [
            "sabado" ] },
          { "language": "it", "words": [
            "sabato", "sab" ] }
        ],
        "sunday": [
          { "language": "en", "words": [
            "sunday" ] },
          { "language": "de", "words": [
            "sonntag" ] },
          { "language": "fr", "words": [
            "dimanche" ] },
          { "language": "es", "words": [
            "domingo" ] },
          { "language": "it", "words": [
            "domenica", "dom" ] }
        ],
        "january": [
          { "language": "en", "words": [
            "january", "jan" ] },
          { "language": "de", "words": [
            "januar", "janner" ] },
          { "language": "fr", "words": [
            "janvier", "janv" ] },
          { "language": "es", "words": [
            "enero", "ene" ] },
          { "language": "it", "words": [
            "gennaio", "gen" ] },
          { "language": "pt", "words": [
            "janeiro" ] }
        ],
        "february": [
          { "language": "en", "words": [
            "february", "feb" ] },
          { "language": "de", "words": [
            "februar" ] },
          { "language": "fr", "words": [
            "fevrier", "fevr" ] },
          { "language": "es", "words": [
            "febrero" ] },
          { "language": "it", "words": [
            "febbraio", "febbr" ] },
          { "language": "pt", "words": [
            "fevereiro", "fev" ] }
        ],
        "march": [
          { "language": "en", "words": [
            "march" ] },
          { "language": "de", "words": [
            "marz" ] },
          { "language": "fr", "words": [
            "mars" ] },
          { "language": "es", "words": [
            "marzo" ] },
          { "language": "pt", "words": [
            "março" ] }
        ],
        "april": [
          { "language": "en", "words": [
            "april", "apr" ] },
          { "language": "fr", "words": [
            "avril", "avr" ] },
          { "language": "es", "words": [
            "abril", "abr" ] },
          { "language": "it", "words": [
            "aprile" ] }
        ],
        "may": [
          { "language": "de", "words": [
            "mai" ] },
          { "language": "es", "words": [
            "mayo" ] },
          { "language": "it", "words": [
            "maggio", "mag" ] },
          { "language": "pt", "words": [
            "maio" ] }
        ],
        "june": [
          { "language": "en", "words": [
            "june", "jun" ] },
          { "language": "de", "words": [
            "juni" ] },
          { "language": "fr", "words": [
            "juin" ] },
          { "language": "es", "words": [
            "junio" ] },
          { "language": "it", "words": [
            "giugno", "giu" ] },
          { "language": "pt", "words": [
            "junho" ] }
        ],
        "july": [
          { "language": "en", "words": [
            "july", "jul" ] },
          { "language": "de", "words": [
            "juli" ] },
          { "language": "fr", "words": [
            "juillet", "juil" ] },
          { "language": "es", "words": [
            "julio" ] },
          { "language": "it", "words": [
            "luglio", "lug" ] },
          { "language": "pt", "words": [
            "julho" ] }
        ],
        "august": [
          { "language": "en", "words": [
            "august", "aug" ] },
          { "language": "fr", "words": [
            "aout" ] },
          { "language": "es", "words": [
            "agosto", "ago" ] }
        ],
        "september": [
          { "language": "en", "words": [
            "september", "sep", "sept" ] },
          { "language": "fr", "words": [
            "septembre" ] },
          { "language": "es", "words": [
            "septiembre", "setiembre" ] },
          { "language": "it", "words": [
            "settembre", "set", "sett" ] },
          { "language": "pt", "words": [
            "setembro" ] }
        ],
        "october": [
          { "language": "en", "words": [
            "october", "oct" ] },
          { "language": "de", "words": [
            "oktober", "okt" ] },
          { "language": "fr", "words": [
            "octobre" ] },
          { "language": "es", "words": [
            "octubre" ] },
          { "language": "it", "words": [
            "ottobre", "ott" ] },
          { "language": "pt", "words": [
            "outubro" ] }
        ],
        "november": [
          { "language": "en", "words": [
            "november", "nov" ] },
          { "language": "fr", "words": [
            "novembre" ] },
          { "language": "es", "words": [
            "noviembre" ] },
          { "language": "pt", "words": [
            "novembro" ] }
        ],
        "december": [
          { "language": "en", "words": [
            "december", "dec" ] },
          { "language": "de", "words": [
            "dezember", "dez" ] },
          { "language": "fr", "words": [
            "decembre" ] },
          { "language": "es", "words": [
            "diciembre", "dic" ] },
          { "language": "it", "words": [
            "dicembre" ] },
          { "language": "pt", "words": [
            "dezembro" ] }
        ],
        "bank_change": [
          { "language": "en", "words": [
            "new bank details", "changed bank details", "updated bank details",
            "our bank details have changed", "new account details", "new account number", "changed our bank",
            "new iban" ] },
          { "language": "de", "words": [
            "neue bankverbindung", "geanderte bankverbindung", "kontoverbindung geandert",
            "neue kontoverbindung", "neues konto", "neue iban", "bankverbindung hat sich geandert" ] },
          { "language": "fr", "words": [
            "nouvelles coordonnees bancaires", "nouveau rib", "nouvel iban", "changement de rib",
            "coordonnees bancaires ont change", "nouveau compte" ] },
          { "language": "es", "words": [
            "nuevos datos bancarios", "nueva cuenta bancaria", "nuevo iban", "cambio de cuenta",
            "nueva cuenta", "datos bancarios han cambiado" ] },
          { "language": "it", "words": [
            "nuove coordinate bancarie", "coordinate bancarie aggiornate", "variazione coordinate bancarie",
            "variazione delle coordinate bancarie", "cambio coordinate bancarie",
            "modifica coordinate bancarie", "coordinate bancarie modificate",
            "coordinate bancarie sono cambiate", "nuovo iban", "iban aggiornato", "cambio iban",
            "cambio di iban", "variazione iban", "modifica iban", "nuovo conto corrente",
            "variazione conto corrente", "nuovi estremi bancari", "estremi bancari aggiornati",
            "nuovi dati bancari", "dati bancari aggiornati", "cambiato banca" ] },
          { "language": "pt", "words": [
            "novos dados bancários", "dados bancários alterados", "alteração de dados bancários",
            "alteração dos dados bancários", "mudança de dados bancários", "os nossos dados bancários",
            "nossos dados bancários", "nova conta bancária", "novo iban", "novo nib", "nova conta",
            "mudámos de banco", "alteração de iban", "alteração do iban", "mudança de conta" ] }
        ],
        "work_stopped": [
          { "language": "en", "words": [
            "has stopped", "have stopped", "is stopped", "are stopped", "was stopped", "stopped working",
            "stopped running", "line stopped", "production stopped", "machine stopped", "work stopped",
            "everything stopped", "standing still", "stands still", "at a standstill", "standstill",
            "ground to a halt", "grinding to a halt", "came to a halt", "halted", "has halted", "is halted",
            "idle", "idling", "line down", "line is down", "lines down", "stoppage", "line stoppage",
            "production halted", "production is down", "plant down", "machine down", "machines down",
            "unplanned downtime", "downtime", "can't ship", "cant ship", "cannot ship", "unable to ship",
            "can't deliver", "cannot deliver", "can't load", "cannot load", "can't proceed", "cannot proceed",
            "unable to proceed", "can't continue", "cannot continue", "can't move forward", "can't go ahead",
            "can't start", "cannot start", "can't run", "can't build", "on hold", "put on hold", "held up",
            "waiting on approval", "waiting for approval", "awaiting approval", "pending approval",
            "waiting for sign-off", "waiting on sign-off", "waiting for parts", "waiting on parts",
            "waiting for the part", "stuck", "is stuck", "are stuck", "got stuck", "stuck at customs",
            "stuck in customs", "held at customs", "held in customs", "customs hold", "not released",
            "stranded", "paralysed", "paralyzed", "nothing is moving", "nothing moving", "not moving",
            "dead in the water", "shut down", "has shut down", "not working", "no longer working",
            "keeps failing", "will stop", "going to stop", "hasn't opened", "isn't open", "didn't open",
            "never opened", "no-show", "isn't picking up", "not picking up", "isn't answering", "not answering" ] },
          { "language": "de", "words": [
            "steht still", "stehen still", "stand still", "standen still", "stillstand", "stillstehen",
            "stillgelegt", "liegt still", "liegen still", "lahmgelegt", "liegt lahm", "gestoppt",
            "wurde gestoppt", "produktion steht", "band steht", "bänder stehen", "linie steht", "anlage steht",
            "anlagen stehen", "maschine steht", "maschinen stehen", "alles steht", "produktionsstopp",
            "bandstillstand", "anlagenstillstand", "maschinenstillstand", "linienstillstand",
            "produktionsausfall", "lieferstopp", "versandstopp", "ausfallzeit", "ausfallzeiten",
            "nichts geht mehr", "geht nichts mehr", "kommen nicht weiter", "komme nicht weiter",
            "kommt nicht weiter", "nicht weiterarbeiten", "können nicht weiter", "koennen nicht weiter",
            "können nicht liefern", "können nicht ausliefern", "können nicht versenden",
            "können nicht produzieren", "koennen nicht liefern", "nicht versenden", "nicht ausliefern",
            "nicht verladen", "geht nicht raus", "kann nicht raus", "wartet auf freigabe",
            "warten auf freigabe", "warten auf genehmigung", "wartet auf genehmigung", "ohne freigabe",
            "freigabe fehlt", "auf eis", "auf eis gelegt", "pausiert", "hängt fest", "hängen fest",
            "haengt fest", "sitzt fest", "sitzen fest", "steckt fest", "stecken fest", "festgefahren",
            "hängt beim zoll", "hängt im zoll", "beim zoll", "im zoll", "zollstopp", "gestrandet",
            "im leerlauf", "steht rum", "warten auf teile", "wartet auf teile", "fehlteil", "fehlteile",
            "teile fehlen", "produktion angehalten", "band angehalten", "linie angehalten",
            "vom zoll festgehalten", "zoll festgehalten", "geht nicht mehr", "gehen nicht mehr",
            "geht gar nicht", "gehen gar nicht", "funktioniert nicht mehr", "funktionieren nicht mehr",
            "nicht geöffnet", "nicht aufgemacht", "geht nicht ran", "nicht erreichbar" ] },
          { "language": "fr", "words": [
            "à l'arrêt", "est à l'arrêt", "sont à l'arrêt", "ligne à l'arrêt", "usine à l'arrêt", "arrêtée",
            "arrêtés", "arrêtées", "tout est arrêté", "ligne arrêtée", "chaîne arrêtée", "production arrêtée",
            "machine arrêtée", "arrêt de production", "arrêt de la production", "arrêt de ligne",
            "arrêt machine", "arrêt de chaîne", "arrêt total", "arrêt complet", "coincé", "coincée", "coincés",
            "coincées", "immobilisé", "immobilisée", "immobilisés", "immobilisées", "paralysé", "paralysée",
            "paralysés", "paralysées", "en suspens", "suspendu", "suspendue", "suspendus", "suspendues",
            "stoppé", "stoppée", "stoppés", "stoppées", "interrompu", "interrompue", "production interrompue",
            "en attente de validation", "en attente d'accord", "en attente d'approbation",
            "en attente de pièces", "attend votre validation", "sans validation", "sans votre accord",
            "impossible d'expédier", "impossible de livrer", "impossible de charger",
            "impossible de continuer", "impossible d'avancer", "impossible de produire",
            "impossible de démarrer", "ne pouvons pas expédier", "ne pouvons pas livrer",
            "ne pouvons pas avancer", "ne pouvons pas continuer", "peut pas expédier", "peut pas partir",
            "peut pas avancer", "rien ne bouge", "plus rien ne bouge", "plus rien ne sort", "n'avance plus",
            "n'avance pas", "ne démarre pas", "ne redémarre pas", "retenu en douane", "retenue en douane",
            "retenus en douane", "bloqué en douane", "bloquée en douane", "bloqué à la douane",
            "retenue à la douane", "en rade", "en défaut", "s'arrêtent", "s'arrête", "vont s'arrêter",
            "va s'arrêter", "ne fonctionne plus", "ne fonctionnent plus", "pas ouvert", "n'a pas ouvert",
            "ne répond pas", "injoignable" ] },
          { "language": "es", "words": [
            "parado", "parada", "parados", "paradas", "está parado", "está parada", "están parados",
            "estamos parados", "línea parada", "producción parada", "máquina parada", "máquinas paradas",
            "planta parada", "fábrica parada", "todo parado", "paralizado", "paralizada", "paralizados",
            "paralizadas", "paro de línea", "paro de producción", "parón", "detenido", "detenida", "detenidos",
            "detenidas", "producción detenida", "línea detenida", "se paró", "se ha parado", "se detuvo",
            "se ha detenido", "no arranca", "atascado", "atascada", "atascados", "atascadas", "atorado",
            "atorada", "trabado", "trabada", "en pausa", "en suspenso", "pendiente de aprobación",
            "pendiente de autorización", "pendiente de tu aprobación", "pendiente de su aprobación",
            "esperando aprobación", "esperando autorización", "esperando el visto bueno",
            "en espera de aprobación", "sin autorización", "sin aprobación", "sin el visto bueno",
            "no podemos enviar", "no podemos despachar", "no podemos cargar", "no podemos entregar",
            "no podemos seguir", "no podemos continuar", "no podemos avanzar", "no podemos producir",
            "no podemos arrancar", "no se puede enviar", "no puede salir", "sin poder avanzar",
            "retenido en aduana", "retenida en aduana", "retenido en la aduana", "retenida en la aduana",
            "parado en aduana", "varado", "varada", "varados", "sin producción", "retenido en destino",
            "no funciona", "no funcionan", "dejó de funcionar", "se han parado", "no ha abierto", "no abrió",
            "no contesta", "no coge el teléfono", "ilocalizable" ] },
          { "language": "it", "words": [
            "fermo", "ferma", "fermi", "ferme", "è fermo", "è ferma", "sono fermi", "sono ferme",
            "siamo fermi", "siamo ferme", "tutto fermo", "linea ferma", "linee ferme", "produzione ferma",
            "macchina ferma", "macchine ferme", "impianto fermo", "impianti fermi", "reparto fermo",
            "stabilimento fermo", "fermo macchina", "fermo linea", "fermo produzione", "fermo impianto",
            "fermato", "fermati", "si è fermato", "si è fermata", "si sono fermati", "tutto bloccato",
            "siamo bloccati", "linea bloccata", "produzione bloccata", "paralizzato", "paralizzata",
            "paralizzati", "paralizzate", "in attesa di approvazione", "in attesa di autorizzazione",
            "in attesa del benestare", "in attesa dei pezzi", "senza approvazione", "senza autorizzazione",
            "senza benestare", "senza via libera", "sospeso", "sospesa", "sospesi", "sospese", "in sospeso",
            "in stand-by", "in standby", "non possiamo spedire", "non possiamo consegnare",
            "non possiamo caricare", "non possiamo procedere", "non possiamo proseguire",
            "non possiamo andare avanti", "non possiamo produrre", "non possiamo partire",
            "impossibile spedire", "impossibile procedere", "impossibile proseguire", "non si può procedere",
            "non riparte", "non si muove", "non si muove nulla", "bloccato in dogana", "bloccata in dogana",
            "fermo in dogana", "ferma in dogana", "trattenuto in dogana", "trattenuta in dogana", "incastrato",
            "incastrata", "non funziona", "non funzionano", "ha smesso di funzionare", "non va", "non va più",
            "non parte", "non si avvia", "non ha aperto", "non è aperto", "non risponde", "irraggiungibile" ] },
          { "language": "pt", "words": [
            "estão parados", "linha parada", "produção parada", "tudo parado", "parou", "parou tudo",
            "a linha parou", "parada de linha", "parada de produção", "paragem", "paragem de linha",
            "paragem de produção", "paralisado", "paralisada", "paralisados", "paralisadas", "paralisação",
            "produção paralisada", "travado", "travada", "travados", "travadas", "tudo travado", "preso",
            "presa", "presos", "presas", "encalhado", "encalhada", "retido na alfândega",
            "retida na alfândega", "preso na alfândega", "parado na alfândega", "retido na receita",
            "em pausa", "suspenso", "suspensa", "suspensos", "suspensas", "em suspenso",
            "aguardando aprovação", "aguardando autorização", "aguardando liberação", "à espera de aprovação",
            "à espera de autorização", "à espera da aprovação", "pendente de aprovação",
            "pendente de autorização", "sem aprovação", "sem autorização", "sem liberação",
            "não conseguimos enviar", "não conseguimos expedir", "não conseguimos carregar",
            "não conseguimos entregar", "não conseguimos avançar", "não conseguimos continuar",
            "não conseguimos produzir", "não podemos enviar", "não podemos expedir", "não podemos avançar",
            "não podemos continuar", "não podemos prosseguir", "impossível avançar", "impossível continuar",
            "não arranca", "sem produção", "não funciona", "não funcionam", "parou de funcionar",
            "deixou de funcionar", "pararam", "não abriu", "não está aberto", "não atende", "não responde",
            "incontactável" ] }
        ],
        "people_idle": [
          { "language": "en", "words": [
            "people idle", "workers idle", "staff idle", "crew idle", "operators idle", "drivers idle",
            "team idle", "standing around", "sitting around", "sitting idle", "people standing around",
            "workers standing", "workers waiting", "crew waiting", "crew is waiting", "crews waiting",
            "operators waiting", "drivers waiting", "driver waiting", "driver is waiting",
            "drivers are waiting", "truck waiting", "trucks waiting", "truck is waiting", "lorry waiting",
            "technicians waiting", "engineers waiting", "fitters waiting", "installers waiting",
            "contractors waiting", "builders waiting", "team blocked", "team is blocked", "whole team blocked",
            "everyone is blocked", "everyone blocked", "everybody is waiting", "people waiting",
            "patients waiting", "patient waiting", "patients are waiting", "customers waiting",
            "customers are waiting", "guests waiting", "guests are waiting", "passengers waiting",
            "students waiting", "kids waiting", "customers can't", "customers cannot", "customers unable",
            "clients can't", "clients cannot", "users can't", "users cannot", "users unable", "staff can't",
            "staff cannot", "nurses can't", "doctors can't", "nobody can", "no one can", "noone can",
            "none of us can", "can't work", "cannot work", "unable to work", "can't do anything",
            "paid to wait", "sitting on their hands", "whole shift", "entire shift", "shift is waiting",
            "queue of customers", "customers queuing", "people queuing", "long queue", "line of customers",
            "waiting room full" ] },
          { "language": "de", "words": [
            "leute stehen", "leute stehen rum", "stehen rum", "stehen herum", "mitarbeiter stehen",
            "mitarbeiter warten", "mitarbeitende warten", "leute warten", "kollegen warten", "ganze schicht",
            "schicht steht", "schicht wartet", "monteure warten", "monteur wartet", "techniker wartet",
            "techniker warten", "handwerker warten", "handwerker wartet", "fahrer wartet", "fahrer warten",
            "lkw wartet", "lkw steht", "lkws warten", "lkws stehen", "team blockiert", "team ist blockiert",
            "alle warten", "alle stehen", "patienten warten", "patient wartet", "kunden warten",
            "kunde wartet", "gäste warten", "fahrgäste warten", "niemand kann", "keiner kann",
            "kunden können nicht", "nutzer können nicht", "benutzer können nicht", "anwender können nicht",
            "mitarbeiter können nicht", "kollegen können nicht", "können nicht arbeiten",
            "kann nicht arbeiten", "nicht arbeiten", "untätig", "nichts zu tun", "däumchen drehen",
            "drehen däumchen", "warteschlange", "lange schlange", "wartezimmer voll", "volles wartezimmer",
            "leerlauf", "leerlaufzeiten" ] },
          { "language": "fr", "words": [
            "personnel à l'arrêt", "équipes à l'arrêt", "équipe à l'arrêt", "opérateurs à l'arrêt",
            "ouvriers à l'arrêt", "ouvriers attendent", "opérateurs attendent", "les gars attendent",
            "équipe attend", "l'équipe attend", "l'équipe est bloquée", "équipe bloquée", "équipes bloquées",
            "tout le monde attend", "chauffeur attend", "le chauffeur attend", "chauffeurs attendent",
            "le camion attend", "camion attend", "camions attendent", "technicien attend",
            "techniciens attendent", "patients attendent", "patient attend", "les patients attendent",
            "clients attendent", "les clients attendent", "client attend", "invités attendent",
            "élèves attendent", "personne ne peut", "plus personne ne peut", "personne ne peut travailler",
            "clients ne peuvent pas", "clients ne peuvent plus", "utilisateurs ne peuvent pas",
            "utilisateurs ne peuvent plus", "usagers ne peuvent pas", "agents ne peuvent pas",
            "salariés ne peuvent pas", "ne peuvent pas travailler", "ne peut pas travailler",
            "impossible de travailler", "les bras croisés", "bras croisés", "se tournent les pouces",
            "désœuvrés", "desoeuvres", "inoccupés", "chômage technique", "salle d'attente pleine",
            "payés à attendre" ] },
          { "language": "es", "words": [
            "gente parada", "personal parado", "operarios parados", "trabajadores parados", "obreros parados",
            "operarios esperando", "trabajadores esperando", "personal esperando", "gente esperando",
            "cuadrilla esperando", "equipo esperando", "equipo bloqueado", "todos esperando",
            "todo el mundo esperando", "chófer esperando", "conductor esperando", "camión esperando",
            "camiones esperando", "transportista esperando", "técnicos esperando", "técnico esperando",
            "pacientes esperando", "paciente esperando", "clientes esperando", "cliente esperando",
            "invitados esperando", "alumnos esperando", "nadie puede", "nadie puede trabajar",
            "nadie puede entrar", "los clientes no pueden", "clientes no pueden", "usuarios no pueden",
            "los usuarios no pueden", "el personal no puede", "no pueden trabajar", "no podemos trabajar",
            "sin poder trabajar", "sin hacer nada", "de brazos cruzados", "mano sobre mano",
            "cobrando sin trabajar", "turno parado", "todo el turno", "el turno entero", "cola de clientes",
            "hay cola", "sala de espera llena", "ociosos" ] },
          { "language": "it", "words": [
            "gente ferma", "personale fermo", "operai fermi", "operatori fermi", "dipendenti fermi",
            "addetti fermi", "squadra ferma", "la squadra aspetta", "squadra in attesa", "operai in attesa",
            "operai che aspettano", "gente che aspetta", "operatori in attesa", "tecnici in attesa",
            "tecnico in attesa", "il tecnico aspetta", "autista in attesa", "l'autista aspetta",
            "autista aspetta", "il camion aspetta", "camion in attesa", "camion fermo", "camion fermi",
            "team bloccato", "il team è bloccato", "tutti fermi", "tutti aspettano", "tutti in attesa",
            "stanno aspettando", "pazienti in attesa", "i pazienti aspettano", "paziente in attesa",
            "clienti in attesa", "i clienti aspettano", "clienti che aspettano", "ospiti in attesa",
            "nessuno può", "nessuno riesce", "i clienti non possono", "clienti non riescono",
            "gli utenti non possono", "utenti non riescono", "utenti non possono", "il personale non può",
            "non possono lavorare", "non riescono a lavorare", "non possiamo lavorare", "impossibile lavorare",
            "senza fare niente", "senza far nulla", "girano i pollici", "coda di clienti",
            "sala d'attesa piena", "turno fermo", "tutto il turno", "inoperosi", "pagati per aspettare",
            "mani in mano" ] },
          { "language": "pt", "words": [
            "pessoal parado", "funcionários parados", "operadores parados", "trabalhadores parados",
            "colaboradores parados", "equipe parada", "equipa parada", "equipe travada", "equipe bloqueada",
            "equipa bloqueada", "equipe esperando", "equipe aguardando", "equipa à espera", "pessoal à espera",
            "pessoal esperando", "pessoal aguardando", "gente à espera", "todos à espera", "todos parados",
            "todo mundo esperando", "todo mundo parado", "motorista esperando", "motorista aguardando",
            "motorista à espera", "caminhão esperando", "caminhão parado", "camião à espera", "camião parado",
            "técnico à espera", "técnicos aguardando", "pacientes aguardando", "pacientes à espera",
            "paciente à espera", "paciente aguardando", "clientes aguardando", "clientes à espera",
            "ninguém consegue", "ninguém pode", "ninguém trabalha", "os clientes não conseguem",
            "clientes não conseguem", "clientes não podem", "usuários não conseguem",
            "utilizadores não conseguem", "usuários não podem", "utilizadores não podem",
            "não conseguem trabalhar", "não conseguimos trabalhar", "não dá para trabalhar",
            "não dá pra trabalhar", "sem poder trabalhar", "de braços cruzados", "sem fazer nada",
            "fila de clientes", "fila enorme", "sala de espera cheia", "o turno todo", "turno inteiro",
            "ociosas", "ociosidade" ] }
        ],
        "customer_impact": [
          { "language": "en", "words": [
            "customers affected", "customer affected", "clients affected", "client affected", "users affected",
            "patients affected", "affecting customers", "impacting customers", "customer impact",
            "customer-impacting", "client is down", "customer is down", "client down", "customer down",
            "client's system", "customer's system", "presenting to their board", "board presentation",
            "in front of customers", "live demo", "during the demo", "escalated by the customer",
            "escalated by the client", "customer escalation", "client escalation", "formal complaint",
            "customer complaint", "client complaint", "angry customer", "angry client", "furious",
            "very unhappy", "threatening to cancel", "threatening to leave", "threatening legal",
            "legal action", "terminate the contract", "cancel the contract", "losing the account",
            "biggest client", "biggest customer", "top client", "vip customer", "service down for",
            "down for all", "down for everyone", "sla breach", "breach of sla", "breaching the sla",
            "sla at risk", "customers reporting", "users reporting", "complaints coming in",
            "customers calling", "clients calling", "front of their board", "front of the board",
            "front of their client", "front of the client", "their go-live" ] },
          { "language": "de", "words": [
            "kunden betroffen", "kunde betroffen", "alle kunden", "betroffene kunden", "nutzer betroffen",
            "anwender betroffen", "patienten betroffen", "kundenauswirkung", "auswirkung auf kunden",
            "kundenrelevant", "kundensystem", "system des kunden", "kunde steht", "kunde ist down",
            "vor dem vorstand", "vor ihrem vorstand", "vor seinem vorstand", "vor dem aufsichtsrat",
            "vor der geschäftsführung", "vor dem kunden", "vor kunden", "livedemo", "eskaliert",
            "hat eskaliert", "kundeneskalation", "eskalation vom kunden", "beschwerde", "kundenbeschwerde",
            "reklamation", "kundenreklamation", "verärgert", "sehr verärgert", "stinksauer", "droht mit",
            "droht mit kündigung", "kündigung angedroht", "schlüsselkunde", "großkunde", "wichtigster kunde",
            "a-kunde", "sla verletzt", "sla-verletzung", "sla gefährdet", "ausfall beim kunden",
            "kunden beschweren sich", "kunden rufen an", "für alle kunden" ] },
          { "language": "fr", "words": [
            "clients impactés", "client impacté", "clients touchés", "clients affectés",
            "utilisateurs impactés", "utilisateurs touchés", "patients impactés", "tous les clients",
            "tous nos clients", "impact client", "impact clients", "impact sur les clients", "chez le client",
            "le client est bloqué", "client bloqué", "client en panne", "système du client",
            "devant son conseil", "devant leur conseil", "devant le conseil", "devant le codir",
            "devant le comex", "devant la direction", "devant le client", "devant ses clients", "démo client",
            "démo en direct", "escalade client", "escaladé par le client", "le client a escaladé",
            "réclamation", "réclamation client", "plainte", "plainte client", "client mécontent",
            "client furieux", "très mécontent", "furieux", "menace de résilier", "menace de partir",
            "résilier le contrat", "rupture de contrat", "client stratégique", "grand compte", "gros client",
            "notre plus gros client", "client clé", "client vip", "non-respect du sla", "violation du sla",
            "les clients appellent", "les clients se plaignent", "hors service pour", "devant le comité" ] },
          { "language": "es", "words": [
            "clientes afectados", "cliente afectado", "usuarios afectados", "pacientes afectados",
            "todos los clientes", "impacto en clientes", "impacto al cliente", "afecta a clientes",
            "afectando a clientes", "el cliente está caído", "cliente caído", "cliente parado",
            "cliente bloqueado", "sistema del cliente", "delante del consejo", "ante el consejo",
            "ante su consejo", "ante la dirección", "ante el directorio", "frente al directorio",
            "delante del cliente", "frente al cliente", "demo en vivo", "demo con el cliente",
            "escalado por el cliente", "el cliente ha escalado", "escalación del cliente", "escalamiento",
            "reclamación", "reclamo", "queja", "queja formal", "cliente enfadado", "cliente molesto",
            "cliente furioso", "muy molesto", "amenaza con cancelar", "amenaza con irse",
            "rescindir el contrato", "cliente clave", "cuenta clave", "gran cliente", "nuestro mayor cliente",
            "cliente vip", "incumplimiento del sla", "incumplimiento de sla", "los clientes llaman",
            "los clientes se quejan", "sin servicio para", "ante el comité" ] },
          { "language": "it", "words": [
            "clienti impattati", "cliente impattato", "clienti coinvolti", "clienti colpiti",
            "utenti impattati", "utenti coinvolti", "pazienti coinvolti", "tutti i clienti",
            "impatto sui clienti", "impatto cliente", "disservizio", "disservizi", "il cliente è fermo",
            "cliente fermo", "cliente bloccato", "davanti al cda", "davanti al consiglio", "davanti al board",
            "davanti alla direzione", "davanti al cliente", "demo dal vivo", "demo al cliente",
            "escalation del cliente", "escalation cliente", "escalato dal cliente", "reclami",
            "reclamo formale", "cliente arrabbiato", "cliente infuriato", "molto arrabbiato",
            "minaccia di disdire", "minaccia di andarsene", "recedere dal contratto", "disdetta del contratto",
            "cliente strategico", "cliente chiave", "grande cliente", "il nostro cliente principale",
            "violazione sla", "violazione dello sla", "sla violato", "i clienti chiamano",
            "i clienti si lamentano", "segnalazioni dai clienti" ] },
          { "language": "pt", "words": [
            "clientes afetados", "cliente afetado", "clientes impactados", "cliente impactado",
            "usuários afetados", "utilizadores afetados", "utilizadores afectados", "pacientes afetados",
            "todos os clientes", "impacto nos clientes", "impacto no cliente", "afetando clientes",
            "afetando os clientes", "o cliente está parado", "cliente fora do ar", "sistema do cliente",
            "serviço em baixo", "sistema em baixo", "diante do conselho", "perante o conselho",
            "na frente do conselho", "frente ao conselho", "na frente da diretoria", "perante a direção",
            "apresentação à diretoria", "na frente do cliente", "diante do cliente", "demo ao vivo",
            "demonstração ao vivo", "escalado pelo cliente", "o cliente escalou", "escalação", "reclamação",
            "reclamações", "reclamação formal", "queixa", "queixas", "cliente irritado", "cliente chateado",
            "muito chateado", "ameaça cancelar", "ameaçou cancelar", "ameaça rescindir",
            "rescindir o contrato", "cliente estratégico", "cliente chave", "nosso maior cliente",
            "violação de sla", "quebra de sla", "descumprimento do sla", "clientes ligando",
            "clientes reclamando", "os clientes estão ligando" ] }
        ],
        "someone_here": [
          { "language": "en", "words": [
            "at your warehouse", "at your depot", "gate is closed", "door is locked",
            "the driver is here",
            "at reception", "in reception", "at the reception", "in the lobby", "at the front desk",
            "at front desk", "at the gate", "at the gatehouse", "at the barrier", "downstairs",
            "waiting downstairs", "at the door", "at your door", "at the front door", "at the entrance",
            "at the main entrance", "at the loading dock", "at the dock", "at the security desk",
            "in the car park", "in the parking lot", "here to see you", "is here to see", "waiting outside",
            "waiting in the lobby", "waiting at reception", "outside your office", "outside the house",
            "outside the building", "visitor for you", "your visitor", "your guest", "a visitor",
            "someone here for", "someone to see you", "asking for you at", "courier is here", "driver is here",
            "technician is here", "engineer is here", "plumber is here", "electrician is here", "is on site",
            "ringing the bell", "ringing the doorbell", "knocking", "let him in", "let her in", "let them in",
            "sign for it", "at the counter", "in the waiting room", "on the ward" ] },
          { "language": "de", "words": [
            "vor ihrem lager", "tor geschlossen", "an der klingel",
            "der kurier ist da", "der fahrer ist da", "der techniker ist da",
            "am empfang", "im empfang", "an der rezeption", "an der anmeldung", "am eingang",
            "am haupteingang", "am hintereingang", "im foyer", "in der lobby", "in der eingangshalle",
            "an der pforte", "am tor", "am werkstor", "an der schranke", "an der tür", "vor der tür",
            "an der haustür", "vor dem haus", "vor dem gebäude", "an der laderampe", "an der rampe",
            "auf dem parkplatz", "steht unten", "wartet unten", "ist unten", "sitzt unten", "ist jetzt hier",
            "ist jetzt da", "ist schon da", "sind schon da", "besuch für dich", "besuch für sie",
            "dein besuch", "besucher für", "ein besucher", "ihr gast", "wartet am empfang", "wartet draußen",
            "warten draußen", "wartet vor", "steht vor der tür", "hat geklingelt", "klingelt", "kurier ist da",
            "fahrer ist da", "techniker ist da", "handwerker ist da", "monteur ist da", "möchte zu ihnen",
            "will zu ihnen", "will zu dir", "reinlassen", "lass ihn rein", "lass sie rein", "an der theke",
            "am tresen", "an der kasse", "im wartezimmer", "im wartebereich", "auf station" ] },
          { "language": "fr", "words": [
            "devant votre entrepôt", "portail fermé", "à l'interphone",
            "au comptoir",
            "à l'accueil", "à la réception", "dans le hall", "dans l'entrée", "à l'entrée", "à la porte",
            "devant la porte", "devant l'entrée", "à la barrière", "au portail", "à la grille",
            "au poste de garde", "au poste de sécurité", "au quai", "au quai de chargement", "sur le parking",
            "est en bas", "attend en bas", "vous attend en bas", "t'attend en bas", "est là pour vous",
            "est là pour toi", "est sur place", "attend à l'accueil", "attend dehors", "attend devant",
            "un visiteur", "une visiteuse", "votre visiteur", "votre invité", "visite pour vous",
            "visite pour toi", "quelqu'un pour vous", "quelqu'un pour toi", "quelqu'un vous demande",
            "quelqu'un te demande", "le coursier est là", "le livreur est là", "le technicien est là",
            "le plombier est là", "a sonné", "sonne à la porte", "devant chez toi", "devant chez vous",
            "devant la maison", "devant l'immeuble", "le faire entrer", "la faire entrer", "les faire entrer",
            "ouvrir la porte", "en salle d'attente", "dans la salle d'attente", "à l'entrée principale",
            "dans le service" ] },
          { "language": "es", "words": [
            "en vuestro almacén", "en su almacén", "portón cerrado", "puerta cerrada",
            "en el mostrador", "está aquí el mensajero", "está aquí el técnico",
            "en recepción", "en la recepción", "en el vestíbulo", "en el hall", "en la entrada",
            "en la puerta", "en portería", "en la portería", "en conserjería", "en la garita", "en la barrera",
            "en el muelle", "en el parking", "en el estacionamiento", "está abajo", "te espera abajo",
            "le espera abajo", "esperando abajo", "ya está aquí", "está en la puerta", "esperando fuera",
            "esperando afuera", "tienes visita", "tiene visita", "visita para ti", "visita para usted",
            "un visitante", "alguien pregunta por", "alguien para ti", "alguien para usted",
            "el mensajero está", "el repartidor está", "el técnico está", "el fontanero está",
            "el plomero está", "llama a la puerta", "tocando el timbre", "tocando la puerta",
            "delante de casa", "frente a la casa", "abrir la puerta", "dejarle pasar", "dejarlo entrar",
            "dejarla entrar", "hacerle pasar", "muelle de carga", "en la sala de espera",
            "en la entrada principal", "en planta" ] },
          { "language": "it", "words": [
            "presso il vostro deposito", "presso il vostro magazzino", "presso la vostra sede",
            "davanti alla baia", "davanti al portone", "davanti al cancello", "portone chiuso",
            "cancello chiuso", "il campanello non funziona", "al citofono",
            "in accettazione", "all'accettazione", "allo sportello", "al bancone", "al piano terra",
            "c'è il corriere", "c'è un corriere", "c'è il fattorino", "c'è il tecnico", "c'è un tecnico",
            "c'è l'autista", "c'è un autista", "c'è il fornitore", "c'è l'ispettore", "c'è un ispettore",
            "c'è un signore", "c'è una signora", "ci sono i vigili", "c'è la polizia",
            "ci sono i carabinieri", "c'è la guardia di finanza", "ci sono i nas",
            "alla reception", "all'ingresso", "all'entrata", "in portineria", "alla portineria", "nella hall",
            "nell'atrio", "in atrio", "al cancello", "alla sbarra", "alla guardiola", "in guardiola",
            "alla porta", "davanti alla porta", "al portone", "alla baia di carico", "in parcheggio",
            "nel parcheggio", "ti aspetta giù", "la aspetta giù", "aspetta giù", "è di sotto",
            "ti aspetta di sotto", "aspetta di sotto", "è qui per te", "è qui per lei", "ti sta aspettando",
            "la sta aspettando", "vi sta aspettando", "aspetta fuori", "aspetta all'ingresso",
            "aspetta in reception", "un visitatore", "visita per te", "visita per lei", "qualcuno per lei",
            "qualcuno ti cerca", "il corriere è qui", "il tecnico è qui", "il tecnico è arrivato",
            "l'idraulico è qui", "suona il campanello", "ha suonato", "davanti a casa", "sotto casa",
            "sotto l'ufficio", "fuori dall'ufficio", "farlo entrare", "farla entrare", "farli entrare",
            "aprire il cancello", "qualcuno per te", "in sala d'attesa", "nella sala d'attesa", "sul posto",
            "fatti accomodare", "fatto accomodare", "fatta accomodare", "in reparto", "in corsia",
            "all'ingresso principale" ] },
          { "language": "pt", "words": [
            "no vosso armazém", "no vosso depósito", "portão fechado", "à campainha",
            "no balcão", "no atendimento", "está cá o", "está cá a", "está aqui o estafeta",
            "o estafeta está", "o entregador está", "o motoboy está", "o motorista está", "tem um entregador",
            "tem um técnico", "está aqui a polícia", "está cá a polícia", "está aqui a fiscalização",
            "a fiscalização está",
            "na receção", "na recepção", "na portaria", "no lobby", "no hall", "no átrio", "na entrada",
            "à entrada", "na porta", "à porta", "no portão", "na cancela", "na guarita", "no cais", "na doca",
            "no estacionamento", "lá embaixo", "lá em baixo", "está embaixo", "está lá embaixo",
            "está lá em baixo", "já está aqui", "está aqui para", "está à porta", "está na porta",
            "está lá fora", "esperando lá fora", "à espera lá fora", "aguardando na recepção",
            "à espera na receção", "uma visita para", "visita para você", "visita para si", "tem visita",
            "tens visita", "um visitante", "alguém para você", "alguém para si", "alguém procura",
            "o técnico está", "o técnico chegou", "tocou a campainha", "tocando a campainha",
            "em frente de casa", "na frente de casa", "em frente ao prédio", "na frente do prédio",
            "deixar entrar", "abrir o portão", "liberar a entrada", "na sala de espera",
            "na entrada principal", "no serviço", "na enfermaria" ] }
        ],
        "money_consequence": [
          { "language": "en", "words": [
            "was not executed", "no funds",
            "will bounce", "bounced", "cheque bounced", "check bounced", "payment bounced", "returned unpaid",
            "returned payment", "direct debit returned", "overdraft", "overdrawn", "overdraft fee", "late fee",
            "late fees", "late payment fee", "late charge", "penalty", "penalties", "penalty interest",
            "default interest", "contractual penalty", "liquidated damages", "will be cut off", "disconnected",
            "disconnection", "payroll", "salaries", "wages", "won't go through", "didn't go through",
            "insufficient funds", "not sufficient funds", "nsf", "will be rejected", "payment rejected",
            "rejected payment", "payment failed", "card declined", "repossession", "repossessed", "eviction",
            "evicted", "foreclosure", "debt collector", "sent to collections", "collections agency", "bailiff",
            "bailiffs", "final demand", "credit hold", "on credit hold", "over the limit", "credit limit",
            "lose the deposit", "lose our deposit", "forfeit", "forfeited", "demurrage", "storage charges",
            "can't pay", "cannot pay", "won't be paid", "unpaid", "payment declined", "payment was declined",
            "payment was rejected", "debit failed", "held your payment", "payment held", "payment on hold",
            "payment is on hold" ] },
          { "language": "de", "words": [
            "nicht ausgeführt",
            "platzt", "wird platzen", "geplatzt", "rücklastschrift", "lastschrift zurück", "zurückgebucht",
            "rückbuchung", "nicht eingelöst", "mangels deckung", "keine deckung", "ungedeckt", "nicht gedeckt",
            "konto überzogen", "überziehung", "dispokredit", "überziehungszinsen", "mahngebühr",
            "mahngebühren", "säumniszuschlag", "verzugszinsen", "zahlungsverzug", "vertragsstrafe",
            "konventionalstrafe", "pönale", "strafzahlung", "bußgeld", "wird gesperrt", "strom abgestellt",
            "wird abgestellt", "abgeklemmt", "gas abgestellt", "liefersperre", "gehälter", "löhne",
            "lohnzahlung", "gehaltszahlung", "lohnlauf", "gehaltslauf", "geht nicht durch", "wird abgelehnt",
            "zahlung abgelehnt", "karte abgelehnt", "inkasso", "inkassobüro", "gerichtsvollzieher", "pfändung",
            "zwangsvollstreckung", "fristlose kündigung", "räumungsklage", "mahnbescheid", "letzte mahnung",
            "anzahlung verfällt", "stornogebühr", "stornogebühren", "lagergeld", "standgeld", "liegegeld",
            "kreditlimit", "limit überschritten", "kreditsperre", "nicht bezahlt", "dispokredit überzogen",
            "zahlung fehlgeschlagen", "lastschrift zurückgegeben", "lastschrift geplatzt",
            "zahlung angehalten", "zahlung zurückgehalten" ] },
          { "language": "fr", "words": [
            "n'a pas été exécuté", "défaut de provision",
            "rejeté", "rejetée", "prélèvement rejeté", "chèque rejeté", "chèque impayé", "impayé", "impayés",
            "impayée", "rejet de prélèvement", "sans provision", "chèque sans provision",
            "provision insuffisante", "solde insuffisant", "fonds insuffisants", "à découvert", "agios",
            "frais de rejet", "frais bancaires", "pénalité", "pénalités", "pénalités de retard",
            "intérêts de retard", "majoration", "frais de retard", "indemnité forfaitaire", "sera coupé",
            "sera coupée", "couper le courant", "coupure d'électricité", "coupure de courant", "sera suspendu",
            "résiliation", "mise en demeure", "huissier", "recouvrement", "contentieux", "expulsion",
            "dernière relance", "paie", "la paie", "salaires", "les salaires", "virement des salaires",
            "ne passera pas", "paiement refusé", "carte refusée", "encours dépassé", "plafond dépassé",
            "compte bloqué", "acompte perdu", "perdre l'acompte", "surestaries", "frais de magasinage",
            "frais d'immobilisation", "découvert bancaire", "autorisation de découvert", "saisie sur salaire",
            "saisie conservatoire", "paiement rejeté", "virement rejeté", "paiement bloqué", "paiement suspendu" ] },
          { "language": "es", "words": [
            "no se ha ejecutado", "falta de fondos", "pendiente de pago",
            "rebotado", "rebotada", "rebotará", "va a rebotar", "recibo devuelto", "cargo devuelto",
            "domiciliación devuelta", "cheque sin fondos", "sin fondos", "fondos insuficientes",
            "saldo insuficiente", "en descubierto", "números rojos", "sobregiro", "recargo", "recargos",
            "recargo por mora", "intereses de demora", "mora", "penalización", "penalizaciones", "multa",
            "multas", "sanción", "nos cortan", "van a cortar", "cortarán", "corte de luz",
            "corte de suministro", "suspensión del servicio", "desconectado", "la nómina", "nómina", "nóminas",
            "pago de nóminas", "salarios", "sueldos", "no pasará", "no va a pasar", "será rechazado",
            "será rechazada", "pago rechazado", "tarjeta rechazada", "embargado", "desahucio", "desalojo",
            "cobro judicial", "agencia de cobro", "requerimiento de pago", "perder la fianza",
            "perder el depósito", "gastos de almacenaje", "sobrestadía", "sobreestadía", "límite de crédito",
            "límite superado", "orden de embargo", "embargo de cuentas", "pago denegado", "recibo rechazado",
            "pago devuelto", "transferencia rechazada", "pago retenido", "pago bloqueado" ] },
          { "language": "it", "words": [
            "non è stato eseguito", "addebito non eseguito", "mancata copertura", "ancora insoluta",
            "insoluta", "non ha copertura",
            "respinto", "respinta", "respinti", "rid insoluto", "rid respinto", "assegno scoperto",
            "assegno protestato", "protestato", "protesto", "insoluto", "insoluti", "conto scoperto",
            "sconfinamento", "fondi insufficienti", "saldo insufficiente", "disponibilità insufficiente",
            "interessi di mora", "penali", "penalità", "sanzione", "sanzioni", "maggiorazione",
            "ultimo sollecito", "diffida", "messa in mora", "decreto ingiuntivo", "pignoramento", "sfratto",
            "recupero crediti", "ufficiale giudiziario", "ci staccano", "staccheranno",
            "sospensione della fornitura", "sospensione fornitura", "interruzione della fornitura", "stipendi",
            "gli stipendi", "non passerà", "pagamento rifiutato", "carta rifiutata", "fido superato",
            "superato il fido", "blocco fornitura", "blocco consegne", "fermo amministrativo",
            "perdiamo la caparra", "caparra", "controstallie", "costi di magazzinaggio", "conto in rosso",
            "allo scoperto", "la penale", "penale contrattuale", "distacco della fornitura", "distacco utenza",
            "bonifico non è passato", "bonifico respinto", "pagamento respinto",
            "pagamento non andato a buon fine", "addebito respinto", "pagamento bloccato", "pagamento sospeso" ] },
          { "language": "pt", "words": [
            "não foi executado", "falta de provisão", "sem provisão", "por liquidar",
            "cheque voltou", "cheque devolvido", "cheque sem fundos", "sem fundos", "sem saldo",
            "fundos insuficientes", "débito devolvido", "boleto vencido", "em atraso", "juros de mora",
            "coima", "coimas", "penalização", "penalidade", "multa contratual", "cheque especial",
            "a descoberto", "conta a descoberto", "negativado", "nome sujo", "protestado", "vai ser cortado",
            "vai ser cortada", "corte de energia", "corte de água", "suspensão do fornecimento", "desligado",
            "desligada", "folha de pagamento", "ordenados", "os ordenados", "pagamento dos salários",
            "não vai passar", "pagamento recusado", "cartão recusado", "pagamento rejeitado", "penhora",
            "despejo", "cobrança judicial", "execução fiscal", "aviso de corte", "perder o sinal",
            "sobre-estadia", "limite estourado", "estourou o limite", "bloqueio de crédito",
            "cheque vai voltar", "débito recusado", "custos de armazenagem", "taxa de armazenagem",
            "pagamento foi recusado", "pagamento devolvido", "débito não realizado", "transferência recusada",
            "pagamento retido", "pagamento bloqueado" ] }
        ],
        "consequence_cue": [
          { "language": "en", "words": [
            "otherwise", "or else", "if not", "if we don't", "if we do not", "unless", "we will lose",
            "we'll lose", "we lose", "we would lose", "we'd lose", "we'll miss", "we will miss",
            "before we lose", "we lose the slot", "lose the slot", "lose our slot", "miss the truck",
            "misses the truck", "missed the truck", "miss the cut-off", "miss the cutoff", "miss the deadline",
            "miss the window", "miss the boat", "miss the collection", "miss the pickup", "miss the vessel",
            "miss the sailing", "the truck leaves", "truck leaves", "last collection", "last pickup",
            "before the truck", "too late", "will be too late", "we risk", "risk losing", "in jeopardy",
            "jeopardize", "jeopardise", "will have to cancel", "have to cancel", "will be cancelled",
            "will be canceled", "will expire", "will lapse", "next available slot", "next slot",
            "won't make it", "won't arrive", "not make it", "lose the order", "lose the client",
            "lose the customer", "lose the deal", "lose the booking", "or we'll", "or we will",
            "failing which", "failing that", "in which case" ] },
          { "language": "de", "words": [
            "sonst", "ansonsten", "andernfalls", "widrigenfalls", "falls nicht", "wenn nicht",
            "wenn wir nicht", "es sei denn", "verlieren wir", "wir verlieren", "würden wir verlieren",
            "verpassen wir", "wir verpassen", "slot verlieren", "verlieren den slot", "zeitfenster verpassen",
            "verpassen das zeitfenster", "lkw fährt", "der lkw fährt", "fährt ohne", "verpassen den lkw",
            "abholung verpassen", "letzte abholung", "annahmeschluss verpassen", "cut-off verpassen",
            "schiff verpassen", "bevor es zu spät", "zu spät", "ist es zu spät", "wir riskieren", "riskieren",
            "es droht", "droht", "drohen", "gefährdet", "in gefahr", "verfällt", "verfallen", "läuft ab",
            "wird storniert", "müssen stornieren", "müssen absagen", "wird abgesagt", "erst nächste woche",
            "nächster slot", "nächstes zeitfenster", "schaffen es nicht", "schaffen wir nicht",
            "geht verloren", "auftrag verlieren", "verlieren den auftrag", "kunden verlieren",
            "verlieren den kunden" ] },
          { "language": "fr", "words": [
            "sinon", "faute de quoi", "à défaut", "sans quoi", "si on ne", "si nous ne", "sauf si",
            "à moins que", "on va perdre", "nous allons perdre", "on perd", "nous perdrons",
            "on risque de perdre", "perdre le créneau", "on perd le créneau", "perdre notre créneau",
            "rater le camion", "louper le camion", "le camion part", "camion part", "rater l'enlèvement",
            "rater le cut-off", "manquer le cut-off", "rater la date limite", "manquer l'échéance",
            "rater le bateau", "rater le départ", "trop tard", "il sera trop tard", "ce sera trop tard",
            "nous risquons", "on risque", "au risque de", "en péril", "sera annulé", "sera annulée",
            "devrons annuler", "va expirer", "prochain créneau", "ne partira pas", "n'arrivera pas",
            "ne sera pas livré", "perdre la commande", "perdre le client", "perdre le marché",
            "perdre la réservation", "est compromis", "est compromise" ] },
          { "language": "es", "words": [
            "si no", "de lo contrario", "de otro modo", "en caso contrario", "a menos que", "salvo que",
            "vamos a perder", "perderemos", "perdemos", "perderíamos", "podemos perder", "se pierde",
            "se nos pierde", "perder el turno", "perder el hueco", "perdemos el hueco", "perdemos la ventana",
            "perder la ventana", "perdemos el camión", "perder el camión", "el camión sale", "sale el camión",
            "se va el camión", "perder la recogida", "perder el corte", "perder el cut-off", "perder el barco",
            "se nos va", "se nos pasa", "demasiado tarde", "será tarde", "corremos el riesgo", "arriesgamos",
            "en riesgo", "en peligro", "peligra", "se cancelará", "tendremos que cancelar",
            "habrá que cancelar", "caduca", "vencerá", "siguiente hueco", "próximo hueco", "no llegará",
            "no saldrá", "no sale hoy", "perder el pedido", "perder el cliente", "perder la reserva",
            "antes que sea tarde" ] },
          { "language": "it", "words": [
            "altrimenti", "in caso contrario", "diversamente", "se no", "sennò", "a pena di", "a meno che",
            "salvo che", "perdiamo", "perderemo", "perderemmo", "rischiamo di perdere", "perdere lo slot",
            "perdiamo lo slot", "perdiamo la finestra", "perdere il camion", "perdiamo il camion",
            "il camion parte", "parte il camion", "perdere il ritiro", "saltare il ritiro", "salta il ritiro",
            "salta la consegna", "salta tutto", "perdere il cut-off", "perdere la nave", "perdere l'imbarco",
            "prima che sia tardi", "troppo tardi", "sarà troppo tardi", "rischiamo", "si rischia", "a rischio",
            "in pericolo", "verrà annullato", "verrà annullata", "dovremo annullare", "scade", "scadrà",
            "prossimo slot", "non partirà", "non arriverà", "perdere l'ordine", "perdere il cliente",
            "perdere la commessa", "perdere la prenotazione", "è compromesso", "è compromessa" ] },
          { "language": "pt", "words": [
            "senão", "caso contrário", "do contrário", "se não", "a não ser que", "salvo se", "vamos perder",
            "corremos o risco", "arriscamos", "perder o slot", "perdemos o slot", "perder a janela",
            "perdemos a janela", "perder o caminhão", "perdemos o caminhão", "perder o camião",
            "o caminhão sai", "o camião sai", "perder a coleta", "perder a recolha", "perder o corte",
            "perder o cut-off", "perder o navio", "perder o embarque", "antes que seja tarde", "tarde demais",
            "em risco", "em perigo", "vai ser cancelado", "vai ser cancelada", "será cancelado",
            "teremos que cancelar", "teremos de cancelar", "vai expirar", "próxima janela", "não vai sair",
            "não sai hoje", "não vai chegar", "perder o pedido", "perder o cliente", "perder a encomenda",
            "perder a reserva", "está comprometido", "fica comprometido" ] }
        ],
        "arrival": [
          { "language": "en", "words": [
            "is outside", "is at the gate", "is standing at",
            "courier is here", "the driver is here", "technician is here",
            "waiting", "is waiting", "are waiting", "has arrived", "have arrived", "arrived", "just arrived",
            "is here", "are here", "showed up", "turned up", "standing", "is standing", "are standing",
            "came in", "walked in", "is at", "are at", "is on site", "are on site", "here",
            "wants to speak to you", "want to speak to you", "asking for you", "won't let me in",
            "can't get in", "let me in" ] },
          { "language": "de", "words": [
            "steht vor", "befindet sich",
            "der kurier ist da", "der fahrer ist da", "der techniker ist da",
            "wartet", "warten", "ist da", "sind da", "ist hier", "sind hier", "angekommen", "eingetroffen",
            "steht", "stehen", "ist gekommen", "sind gekommen", "ist vor ort", "sind vor ort", "hier",
            "will dich sprechen", "wollen dich sprechen", "fragt nach dir", "komme nicht rein" ] },
          { "language": "fr", "words": [
            "est devant", "se trouve à",
            "le livreur est là", "le coursier est là", "le technicien est là",
            "attend", "attendent", "vous attend", "t attend", "est arrivé", "est arrivée", "sont arrivés",
            "sont arrivées", "arrivé", "arrivée", "est là", "sont là", "est ici", "sont ici", "patiente",
            "patientent", "sont sur place", "est sur place", "ici", "veut te parler", "veulent vous parler",
            "demande à vous voir", "me laisse pas entrer" ] },
          { "language": "es", "words": [
            "está delante", "se encuentra en",
            "está aquí el mensajero", "el mensajero está", "el repartidor está", "está aquí el técnico",
            "espera", "esperan", "esperando", "está esperando", "ha llegado", "han llegado", "llegó",
            "llegaron", "está aquí", "están aquí", "está abajo", "ha venido", "han venido", "está en",
            "están en", "en el local", "aquí", "quiere hablar contigo", "quieren hablar con usted",
            "pregunta por ti", "no me dejan entrar" ] },
          { "language": "it", "words": [
            "è davanti", "sono davanti", "è presso", "si trova presso", "è al cancello", "è alla baia",
            "è fuori dal",
            "c'è il corriere", "c'è un corriere", "c'è il fattorino", "c'è il tecnico", "c'è un tecnico",
            "c'è l'autista", "c'è un autista", "c'è il fornitore", "c'è l'ispettore", "c'è un ispettore",
            "c'è un signore", "c'è una signora", "ci sono i vigili", "c'è la polizia",
            "ci sono i carabinieri", "c'è la guardia di finanza", "ci sono i nas",
            "aspetta", "aspettano", "aspettando", "sta aspettando", "stanno aspettando", "in attesa",
            "è arrivato", "è arrivata", "sono arrivati", "sono arrivate", "arrivato", "arrivata", "è qui",
            "sono qui", "è giù", "sono giù", "è sul posto", "fatto accomodare", "fatta accomodare",
            "sono sul posto", "qui", "è al", "sono al", "vogliono parlare con te", "vuole parlare con te",
            "vogliono parlarti", "chiede di te", "chiedono di te" ] },
          { "language": "pt", "words": [
            "está à frente", "está junto ao", "encontra-se no", "encontra-se na",
            "está cá o", "está cá a", "está aqui o estafeta", "o estafeta está", "o entregador está",
            "o motoboy está", "o motorista está", "tem um entregador", "tem um técnico",
            "está aqui a polícia", "está cá a polícia", "está aqui a fiscalização", "a fiscalização está",
            "esperam", "à espera", "aguarda", "aguardam", "aguardando", "chegou", "chegaram", "estão aqui",
            "já chegou", "está lá embaixo", "está lá em baixo", "estão no local", "está no local", "está na",
            "estão na", "quer falar contigo", "querem falar com você", "pergunta por si", "não me deixam entrar" ] }
        ],
        "people": [
          { "language": "en", "words": [
            "patients", "customers", "clients", "guests", "driver", "drivers", "crew", "workers", "operators",
            "passengers", "visitors", "everyone", "the team", "the whole team", "police", "officer",
            "officers", "inspector", "inspectors", "fire marshal", "bailiff", "bailiffs",
            "enforcement officers", "auditor", "auditors" ] },
          { "language": "de", "words": [
            "patienten", "kunden", "gäste", "fahrer", "mitarbeiter", "arbeiter", "passagiere", "besucher",
            "das team", "alle leute", "polizei", "inspektor", "prüfer", "gerichtsvollzieher", "feuerwehr",
            "kontrolleure" ] },
          { "language": "fr", "words": [
            "invités", "chauffeur", "chauffeurs", "ouvriers", "opérateurs", "passagers", "visiteurs",
            "tout le monde", "l'équipe", "gendarmes", "inspecteur", "inspecteurs", "huissier", "huissiers",
            "pompiers", "contrôleurs" ] },
          { "language": "es", "words": [
            "pacientes", "clientes", "invitados", "conductor", "camionero", "operarios", "trabajadores",
            "pasajeros", "visitantes", "todo el mundo", "el equipo", "policía", "inspectores", "inspección",
            "bomberos", "agentes" ] },
          { "language": "it", "words": [
            "pazienti", "clienti", "ospiti", "autista", "autisti", "operai", "operatori", "passeggeri",
            "visitatori", "la squadra", "il personale", "polizia", "carabinieri", "ispettore", "ispettori",
            "ufficiale giudiziario", "vigili del fuoco", "i nas" ] },
          { "language": "pt", "words": [
            "convidados", "motorista", "motoristas", "operadores", "funcionários", "passageiros", "a equipa",
            "a equipe", "fiscal", "fiscais", "inspetor", "inspetores", "oficial de justiça", "bombeiros" ] }
        ]
      },
      "automated_senders": [
        "noreply", "donotreply", "mailerdaemon", "postmaster", "notification", "notify", "newsletter",
        "bounce", "mailer"
      ]
    }
    """#
}
