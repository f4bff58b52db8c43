#!/usr/bin/env python3
"""Writes the labelled urgency fixture set: messages.jsonl, labels.json, preferences.json.

Deterministic (fixed seed, no clock): running it twice gives byte-identical files. Run from anywhere:
    python3 Tests/UrgencyTests/Fixtures/generate.py

One fictional user, Mara Lindqvist: a backend lead at "Northwind" living in Amsterdam, German mother,
two children (Lio, Noor) at a Dutch school, clients in France, Italy, Spain and Portugal. Every
address is at example.com/.org/.net or .invalid. Each record is what Gmail's
`users.messages.get?format=metadata` returns: ids, labels, historyId/internalDate as strings, and the
headers the worker asks for.

The label of each record (`urgent=`) is the answer of a careful human assistant to one question,
"should this interrupt Mara now?", decided from what the mail is - never from what the rules
would say. Hard cases are in on purpose (routine VIP mail, urgent words in bulk mail, urgent mail
with no urgent words, alerts from machines that do matter); the evaluation reports how the rules
do on them and the rules are not tuned to get all of them right.
"""
import json
import os
import random
from datetime import datetime, timedelta, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
RNG = random.Random(20261121)

NOW = datetime(2026, 11, 21, 8, 40, 0, tzinfo=timezone.utc)  # 09:40 in Amsterdam, Saturday
CET = timezone(timedelta(hours=1))

ME_WORK = "mara.lindqvist@northwind.example.com"
ME_HOME = "mara@lindqvist.example.net"
MARA_WORK = f"Mara Lindqvist <{ME_WORK}>"
MARA_HOME = f"Mara Lindqvist <{ME_HOME}>"

# People (fictional).
BOSS = '"Vos, Henrik" <henrik.vos@northwind.example.com>'
JONAS = "Jonas Lindqvist <jonas@lindqvist.example.net>"
MOTHER = "Ingrid Lindqvist <ingrid.lindqvist@example.org>"
SCHOOL = "Basisschool De Regenboog <administratie@regenboog-school.example.org>"
SCHOOL_TEACHER = "Juf Sanne <s.bakker@regenboog-school.example.org>"
DOCTOR = "Huisartsenpraktijk Oost <assistentie@huisartsen-oost.example.org>"
PRIYA = "Priya Raman <priya.raman@northwind.example.com>"
STEFAN = "Stefan Keller <stefan.keller@northwind.example.com>"
TOM = "Tom Okafor <tom.okafor@northwind.example.com>"
LENA = "Lena Hoffmann <lena.hoffmann@northwind.example.com>"
FINANCE = "Joost van Dam <joost.vandam@northwind.example.com>"
ONCALL = "Ravi Menon <ravi.menon@northwind.example.com>"
IT_CLIENT = "Giulia Ferraro <g.ferraro@ferraro-logistica.example.it.invalid>"
FR_CLIENT = "Camille Durand <camille.durand@atelier-durand.example.fr.invalid>"
ES_CLIENT = "Javier Morales <javier@morales-envios.example.net>"
PT_CLIENT = "Beatriz Santos <beatriz.santos@santos-advogados.example.org>"
LAWYER = "Eva Brandt <e.brandt@brandt-law.example.com>"
AGENT = "Makelaardij Zuid <bezichtigingen@makelaardij-zuid.example.nl.invalid>"
LANDLORD = "Pieter de Groot <pieter.degroot@example.net>"
ACCOUNTANT = "Fenna Visser <fenna@visser-administratie.example.org>"
BROTHER = "Erik Lindqvist <erik.lindqvist@example.org>"
FRIEND = "Anouk de Vries <anouk.devries@example.net>"
FRIEND2 = "Sam Whitfield <sam.whitfield@example.com>"
BABYSITTER = "Lotte Jansen <lotte.jansen@example.net>"
NEIGHBOUR = "Claire Martin <claire.martin@example.org>"
KITCHEN = "Küchenstudio Weber <angebote@kuechen-weber.example.de.invalid>"

OWN_THREADS = {}  # name -> thread id, filled by thread()
OWN_MESSAGE_IDS = []


def hexid():
    return f"19{RNG.getrandbits(56):014x}"


def thread(name):
    if name not in OWN_THREADS:
        OWN_THREADS[name] = hexid()
    return OWN_THREADS[name]


def domain_of(address):
    return address.rsplit("@", 1)[1].rstrip(">").strip()


RECORDS = []
LABELS = {}


def msg(urgent, frm, subject, *, to=MARA_WORK, cc=None, labels=("INBOX", "UNREAD", "CATEGORY_PERSONAL"),
        thread_id=None, headers=None, mime="multipart/alternative", minutes_ago=None, in_reply_to=None,
        note=""):
    """One metadata record. `note` says why it has its label; it stays in this script only."""
    mid = hexid()
    if minutes_ago is None:
        minutes_ago = RNG.randint(2, 30 * 60)
    received = NOW - timedelta(minutes=minutes_ago, seconds=RNG.randint(0, 59))
    sender_domain = domain_of(frm) if "@" in frm else "mail.example.com"
    hs = [("From", frm), ("To", to)]
    if cc:
        hs.append(("Cc", cc))
    hs.append(("Subject", subject))
    hs.append(("Date", received.astimezone(CET).strftime("%a, %d %b %Y %H:%M:%S +0100")))
    message_id = f"<{RNG.getrandbits(64):016x}.{RNG.getrandbits(20):05x}@{sender_domain}>"
    hs.append(("Message-ID", message_id))
    if in_reply_to:
        hs.append(("In-Reply-To", in_reply_to))
        hs.append(("References", in_reply_to))
    for name, value in (headers or []):
        hs.append((name, value))
    record = {
        "id": mid,
        "threadId": thread_id or mid,
        "labelIds": list(labels),
        "snippet": "",
        "historyId": "",  # assigned in time order by main()
        "internalDate": str(int(received.timestamp() * 1000)),
        "sizeEstimate": RNG.randint(2500, 90000),
        "payload": {
            "partId": "",
            "mimeType": mime,
            "filename": "",
            "headers": [{"name": n, "value": v} for n, v in hs],
            "body": {"size": 0},
        },
    }
    RECORDS.append((received, record, message_id))
    LABELS[mid] = bool(urgent)
    return message_id


def sent(subject, to, thread_name, minutes_ago, frm=MARA_WORK):
    """A message Mara sent (SENT label): its thread and Message-ID become 'own'."""
    message_id = msg(False, frm, subject, to=to, labels=("SENT",), thread_id=thread(thread_name),
                     minutes_ago=minutes_ago, mime="multipart/alternative", note="own mail: never urgent")
    OWN_MESSAGE_IDS.append(message_id)
    return message_id


def unsub(domain):
    token = f"{RNG.getrandbits(48):012x}"
    return [("List-Unsubscribe", f"<https://{domain}/unsubscribe/{token}>, <mailto:unsubscribe-{token}@{domain}>"),
            ("List-Unsubscribe-Post", "List-Unsubscribe=One-Click")]


def bulk(domain, list_id=None, precedence="bulk"):
    hs = unsub(domain)
    if list_id:
        hs.append(("List-Id", list_id))
    if precedence:
        hs.append(("Precedence", precedence))
    return hs


def github(repo):
    return [("List-Id", f"{repo} <{repo.split('/')[1]}.{repo.split('/')[0]}.github.example.com>"),
            ("List-Unsubscribe", f"<mailto:unsub+{RNG.getrandbits(40):010x}@reply.github.example.com>"),
            ("Precedence", "list"), ("X-GitHub-Reason", "review_requested")]


def invite_headers():
    return [("Content-Type", "multipart/mixed; boundary=\"000000000000a1b2c3\""),
            ("Sender", "Google Calendar <calendar-notification@google.example.com>")]


PRIMARY = ("INBOX", "UNREAD", "IMPORTANT", "CATEGORY_PERSONAL")
PRIMARY_NI = ("INBOX", "UNREAD", "CATEGORY_PERSONAL")
UPDATES = ("INBOX", "UNREAD", "CATEGORY_UPDATES")
PROMO = ("INBOX", "UNREAD", "CATEGORY_PROMOTIONS")
SOCIAL = ("INBOX", "UNREAD", "CATEGORY_SOCIAL")
FORUMS = ("INBOX", "UNREAD", "CATEGORY_FORUMS")

# ---------------------------------------------------------------------------------------------
# Mara's own sent mail (earlier), so replies can be recognised as replies in her threads.
# ---------------------------------------------------------------------------------------------
q4 = sent("Q4 forecast", BOSS, "q4", 1500)
vendor = sent("Vendor contract", BOSS, "vendor", 1400)
flat = sent("Bezichtiging zaterdag", AGENT, "flat", 2000, frm=MARA_HOME)
contract = sent("Contract draft v3", LAWYER, "contract", 1700)
kitchen = sent("Angebot Küchenmontage", KITCHEN, "kitchen", 2400, frm=MARA_HOME)
brunch = sent("Sunday brunch?", FRIEND, "brunch", 1300, frm=MARA_HOME)
invoice = sent("Invoice 2026-114", ACCOUNTANT, "invoice", 2200)
laptop = sent("Laptop replacement", "IT Helpdesk <helpdesk@northwind.example.com>", "laptop", 2600)
handover = sent("Handover notes for the weekend", ONCALL, "handover", 1100)
sent("Re: Dinner Saturday", JONAS, "dinner", 900, frm=MARA_HOME)
sent("Lunch next week?", FRIEND2, "lunch", 2800, frm=MARA_HOME)
sent("Schoolreisje Lio", SCHOOL_TEACHER, "schooltrip", 3000, frm=MARA_HOME)
sent("Offerte badkamer", "Badkamers Noord <info@badkamers-noord.example.nl.invalid>", "bathroom", 2900, frm=MARA_HOME)
sent("Pricing page copy", LENA, "pricing", 1600)

# Drafts, trash and spam: hard suppressions, urgent words or not.
msg(False, MARA_WORK, "URGENT: reply to Acme before Monday", to=PRIYA, labels=("DRAFT",), note="draft")
msg(False, MARA_HOME, "Dringend: Termin beim Notar", to=MOTHER, labels=("DRAFT",), note="draft")
msg(False, "Security Team <security@mailbox-verify.example.net>", "URGENT ACTION REQUIRED: verify your mailbox within 24 hours",
    to="undisclosed-recipients:;", labels=("SPAM", "UNREAD", "CATEGORY_UPDATES"), note="phishing in spam")
msg(False, "Konto-Service <service@sparkasse-sicherheit.example.net>", "Dringend: Ihr Konto wird gesperrt - sofort bestätigen",
    to=MARA_HOME, labels=("SPAM", "UNREAD"), note="phishing in spam")
msg(False, "Prince Adewale <adewale@inheritance-office.example.com>", "URGENT BUSINESS PROPOSAL - CONFIDENTIAL",
    to=MARA_HOME, labels=("SPAM",), note="spam")
msg(False, PRIYA, "Urgent: standup moved", labels=("TRASH",), note="already deleted")
msg(False, "Deals Daily <deals@dealsdaily.example.com>", "Urgente: offerta lampo solo oggi", to=MARA_HOME,
    labels=("TRASH", "CATEGORY_PROMOTIONS"), headers=bulk("dealsdaily.example.com"), note="deleted promo")

# ---------------------------------------------------------------------------------------------
# The boss (VIP): urgent and routine.
# ---------------------------------------------------------------------------------------------
msg(True, BOSS, "URGENT: numbers in the board deck are wrong", labels=PRIMARY, minutes_ago=14,
    note="VIP + urgent word: fix before the board sees it")
msg(True, BOSS, "Can you join the Acme call at 10:30? ASAP please", labels=PRIMARY, minutes_ago=6,
    note="VIP asks for something within the hour")
msg(True, BOSS, "Re: Q4 forecast", labels=PRIMARY, thread_id=thread("q4"), in_reply_to=q4, minutes_ago=22,
    note="VIP replies in her thread asking for final figures before 11")
msg(True, BOSS, "Call me when you see this", labels=PRIMARY, minutes_ago=3, note="explicit call request")
msg(True, BOSS, "Re: Vendor contract", labels=PRIMARY, thread_id=thread("vendor"), in_reply_to=vendor,
    cc="Legal <legal@northwind.example.com>", minutes_ago=41, note="reply: legal says sign today")
msg(False, BOSS, "Weekly numbers", labels=PRIMARY, minutes_ago=300, note="routine VIP")
msg(False, BOSS, "FYI: interesting piece on usage-based pricing", labels=PRIMARY_NI, minutes_ago=700, note="routine VIP")
msg(False, BOSS, "Team lunch next Friday", to=f"Backend Team <backend@northwind.example.com>", labels=PRIMARY_NI,
    minutes_ago=1000, note="routine VIP to a team alias")
msg(False, BOSS, "Fwd: Conference tickets for March", labels=PRIMARY, minutes_ago=1200, note="routine VIP")
msg(False, BOSS, "Thanks for yesterday", labels=PRIMARY_NI, minutes_ago=800, note="routine VIP")
msg(False, BOSS, "Offsite agenda (draft)", to=LENA, cc=f"{MARA_WORK}, {TOM}", labels=PRIMARY, minutes_ago=650,
    note="VIP, Cc only, routine")
msg(False, BOSS, "Re: Hiring plan 2027", labels=PRIMARY, minutes_ago=1400, note="routine VIP, not her thread")
msg(False, BOSS, "Invitation: Prep for Monday board @ Mon Nov 23, 2026 9am - 9:30am (CET) (mara.lindqvist@northwind.example.com)",
    labels=PRIMARY, headers=invite_headers(), mime="multipart/mixed", minutes_ago=95,
    note="VIP invitation for Monday: answer later")

# ---------------------------------------------------------------------------------------------
# Family (mother and partner are VIPs).
# ---------------------------------------------------------------------------------------------
msg(True, MOTHER, "Dringend: Papa ist im Krankenhaus", to=MARA_HOME, labels=PRIMARY, minutes_ago=9,
    note="family emergency")
msg(True, MOTHER, "Bitte ruf mich an, wenn du kannst", to=MARA_HOME, labels=PRIMARY, minutes_ago=35,
    note="mother asks for a call")
msg(False, MOTHER, "Fotos vom Wochenende", to=MARA_HOME, labels=PRIMARY, minutes_ago=900, note="routine family")
msg(False, MOTHER, "Weihnachten bei uns?", to=MARA_HOME, labels=PRIMARY, minutes_ago=1300, note="routine family")
msg(False, MOTHER, "Rezept für Zimtschnecken", to=f"{MARA_HOME}, {BROTHER}", labels=PRIMARY_NI, minutes_ago=1700,
    note="routine family, two recipients")
msg(True, JONAS, "Lio has a fever - can you pick him up from school?", to=MARA_HOME, labels=PRIMARY, minutes_ago=12,
    note="child sick, needs pick-up")
msg(True, JONAS, "Noor forgot her gym bag, can you bring it by 10?", to=MARA_HOME, labels=PRIMARY, minutes_ago=18,
    note="time-bound family errand")
msg(True, JONAS, "Locked out - are you home?", to=MARA_HOME, labels=PRIMARY, minutes_ago=4,
    note="urgent without urgent words (hard)")
msg(False, JONAS, "Groceries for tonight", to=MARA_HOME, labels=PRIMARY, minutes_ago=200, note="routine partner")
msg(False, JONAS, "Weekend plans", to=MARA_HOME, labels=PRIMARY, minutes_ago=1500, note="routine partner")
msg(False, JONAS, "Re: Dinner Saturday", to=MARA_HOME, labels=PRIMARY, thread_id=thread("dinner"), minutes_ago=600,
    note="partner replies 'booked for 8, see you there': routine (hard: own thread + VIP)")
msg(True, BROTHER, "Dringend: Auto von Mama - bitte ruf mich an", to=MARA_HOME, labels=PRIMARY, minutes_ago=50,
    note="brother, family car problem, call request")
msg(False, BROTHER, "Bilder vom Geburtstag", to=f"{MARA_HOME}, {MOTHER}", labels=PRIMARY_NI, minutes_ago=2000,
    note="routine family")
msg(True, BABYSITTER, "Noor has a fever, 38.9 - what should I do?", to=MARA_HOME, labels=PRIMARY_NI, minutes_ago=7,
    note="babysitter, sick child (keyword)")
msg(False, BABYSITTER, "Invoice for November babysitting", to=MARA_HOME, labels=PRIMARY_NI, minutes_ago=2500,
    note="routine")

# ---------------------------------------------------------------------------------------------
# School and doctor (VIP domains).
# ---------------------------------------------------------------------------------------------
msg(True, SCHOOL_TEACHER, "Lio is ziek - graag z.s.m. ophalen", to=f"{MARA_HOME}, {JONAS}", labels=PRIMARY,
    minutes_ago=16, note="school: pick up sick child")
msg(True, SCHOOL, "Spoed: school vandaag om 12:00 dicht i.v.m. stormwaarschuwing", to="Ouders groep 3 <ouders-groep3@regenboog-school.example.org>",
    labels=PRIMARY, minutes_ago=28, note="school closes early today (sent to parents list)")
msg(False, SCHOOL, "Nieuwsbrief november", to="Ouders <ouders@regenboog-school.example.org>", labels=UPDATES,
    headers=bulk("regenboog-school.example.org", "Nieuwsbrief <nieuws.regenboog-school.example.org>"), minutes_ago=1900,
    note="school newsletter")
msg(False, SCHOOL, "Ouderavond 3 december", to="Ouders groep 5 <ouders-groep5@regenboog-school.example.org>",
    labels=PRIMARY_NI, minutes_ago=1600, note="parents' evening in two weeks")
msg(False, SCHOOL_TEACHER, "Luizencontrole: luizen gevonden in de klas van Noor", to="Ouders groep 5 <ouders-groep5@regenboog-school.example.org>",
    labels=PRIMARY_NI, minutes_ago=500, note="lice found in class: check at home tonight, not an interruption (hard)")
msg(False, SCHOOL_TEACHER, "Re: Schoolreisje Lio", to=MARA_HOME, labels=PRIMARY, thread_id=thread("schooltrip"),
    minutes_ago=1100, note="teacher answers about a trip in spring (hard: own thread + VIP)")
msg(True, DOCTOR, "Uitslag bloedonderzoek: graag vandaag terugbellen", to=MARA_HOME, labels=PRIMARY, minutes_ago=55,
    note="doctor asks to call back today (no urgent word: hard)")
msg(False, "Huisartsenpraktijk Oost <noreply@huisartsen-oost.example.org>", "Herinnering: uw afspraak op 2 december om 08:50",
    to=MARA_HOME, labels=UPDATES, headers=[("Auto-Submitted", "auto-generated")], minutes_ago=1300,
    note="appointment reminder, automated")

# ---------------------------------------------------------------------------------------------
# Colleagues and clients writing urgently, in several languages.
# ---------------------------------------------------------------------------------------------
msg(True, PRIYA, "URGENT: customer export job failing for Acme", labels=PRIMARY, minutes_ago=11, note="work urgent")
msg(True, STEFAN, "Dringend: Freigabe der Rechnung bis 12 Uhr", labels=PRIMARY, minutes_ago=33, note="de urgent")
msg(True, STEFAN, "EILT: Server-Zertifikat läuft heute ab", labels=PRIMARY, minutes_ago=47, note="de urgent")
msg(True, IT_CLIENT, "Urgente: contratto da firmare entro oggi", labels=PRIMARY, minutes_ago=60, note="it urgent")
msg(True, IT_CLIENT, "Mi chiami appena puoi? Problema con la consegna", labels=PRIMARY_NI, minutes_ago=20, note="it call")
msg(True, IT_CLIENT, "Al più presto: conferma ordine n. 4471", labels=PRIMARY, minutes_ago=75, note="it asap")
msg(True, FR_CLIENT, "Demande urgente : validation du devis avant midi", labels=PRIMARY, minutes_ago=44, note="fr urgent")
msg(True, FR_CLIENT, "À traiter IMMÉDIATEMENT : accès bloqué pour l'équipe", labels=PRIMARY, minutes_ago=26, note="fr caps")
msg(True, FR_CLIENT, "Rappelez-moi dès que possible svp", labels=PRIMARY_NI, minutes_ago=38, note="fr call back")
msg(True, ES_CLIENT, "URGENTE: necesitamos tu confirmación para el envío", labels=PRIMARY, minutes_ago=57, note="es")
msg(True, ES_CLIENT, "Llámame cuando puedas, es importante", labels=PRIMARY_NI, minutes_ago=31, note="es call")
msg(True, ES_CLIENT, "Necesito la firma de inmediato", labels=PRIMARY, minutes_ago=85, note="es")
msg(True, PT_CLIENT, "Aprovação do orçamento - com urgência", labels=PRIMARY, minutes_ago=66, note="pt")
msg(True, PT_CLIENT, "URGENTE - documentos para o cartório", labels=PRIMARY, minutes_ago=90, note="pt")
msg(True, PT_CLIENT, "Preciso que me ligue o quanto antes", labels=PRIMARY_NI, minutes_ago=15, note="pt call")
msg(True, LANDLORD, "Lekkage: loodgieter komt vandaag om 11:00, graag z.s.m. reageren", to=MARA_HOME, labels=PRIMARY,
    minutes_ago=24, note="landlord, leak")
msg(True, LANDLORD, "Spoed: handtekening nodig voor huurcontract", to=MARA_HOME, labels=PRIMARY_NI, minutes_ago=130,
    note="nl spoed")
msg(True, FRIEND, "Kun je me zsm bellen?", to=MARA_HOME, labels=PRIMARY, minutes_ago=19, note="nl call")
msg(True, FRIEND, "Dringend: sleutel kwijt, ben jij thuis?", to=MARA_HOME, labels=PRIMARY, minutes_ago=13, note="nl")
msg(True, FRIEND2, "Emergency - can you take the dog tonight?", to=MARA_HOME, labels=PRIMARY_NI, minutes_ago=40,
    note="friend emergency")
msg(True, NEIGHBOUR, "Urgence : fuite d'eau chez vous ?", to=MARA_HOME, labels=PRIMARY_NI, minutes_ago=8,
    note="neighbour, water leak, fr")
msg(True, NEIGHBOUR, "Your keys are still in the front door - call me", to=MARA_HOME, labels=PRIMARY_NI, minutes_ago=5,
    note="neighbour")
msg(True, FINANCE, "Time sensitive: wire transfer approval needed by noon", labels=PRIMARY, minutes_ago=52,
    note="finance approval")
msg(True, TOM, "Need your sign-off asap on the rollback plan", labels=PRIMARY, minutes_ago=29, note="asap")
msg(True, TOM, "Production deploy blocked - need your approval right away", labels=PRIMARY, minutes_ago=17,
    note="right away")
msg(True, LENA, "Kindly review immediately: press release goes out at 11", labels=PRIMARY, minutes_ago=36,
    note="immediately")
msg(True, LENA, "Notfall im Büro - bitte sofort kommen", labels=PRIMARY, minutes_ago=10, note="de emergency")
msg(True, ONCALL, "SEV1: checkout latency in eu-west", labels=PRIMARY, minutes_ago=7, note="keyword SEV1")
msg(True, ONCALL, "Re: Handover notes for the weekend", labels=PRIMARY, thread_id=thread("handover"),
    in_reply_to=handover, minutes_ago=21, note="on-call asks where the runbook for the failing job is")
msg(True, PRIYA, "Outage in the EU payments cluster - joining the bridge?", labels=PRIMARY, minutes_ago=2,
    note="keyword outage")
msg(True, TOM, "URGENT: Acme escalation - looping in Mara", to=PRIYA, cc=MARA_WORK, labels=PRIMARY, minutes_ago=23,
    note="Cc'd but explicitly looped into an urgent escalation (hard)")
msg(True, "Ops Status <status@status.northwind.example.com>", "Outage: payments API returning 500s (investigating)",
    to="All engineering <eng-all@northwind.example.com>", labels=UPDATES,
    headers=bulk("status.northwind.example.com", "Status updates <status.northwind.example.com>"), minutes_ago=3,
    note="status page outage notice: she leads backend (hard: bulk)")

# More of the same kind, so the set has a realistic share (about 3 in 10) of mail that matters.
msg(True, BOSS, "Need the Acme numbers before 11 - urgent", labels=PRIMARY, minutes_ago=26, note="VIP + urgent")
msg(True, BOSS, "Spoed: klant belt om 10:15, kun jij aansluiten?", labels=PRIMARY, minutes_ago=9, note="VIP, nl spoed")
msg(True, JONAS, "Noor van de fiets gevallen, we zijn bij de SEH", to=MARA_HOME, labels=PRIMARY, minutes_ago=6,
    note="child at the emergency room")
msg(True, JONAS, "Call me - car broke down on the A10", to=MARA_HOME, labels=PRIMARY, minutes_ago=11, note="call request")
msg(True, MOTHER, "Notfall: Oma ist gestürzt", to=MARA_HOME, labels=PRIMARY, minutes_ago=32, note="family emergency")
msg(True, SCHOOL_TEACHER, "Lio: ongelukje op het schoolplein, graag even bellen", to=MARA_HOME, labels=PRIMARY,
    minutes_ago=14, note="school, child hurt (keyword)")
msg(True, LENA, "Emergency: customer data exposed in the export?", labels=PRIMARY, minutes_ago=4, note="possible incident")
msg(True, PRIYA, "Urgent - prod DB failover in 15 min, need a go", labels=PRIMARY, minutes_ago=3, note="go/no-go")
msg(True, ONCALL, "Can you take over the pager? I'm sick - asap", labels=PRIMARY_NI, minutes_ago=19, note="asap")
msg(True, STEFAN, "Sofort: Kundentermin um 11 verschoben, bitte bestätigen", labels=PRIMARY, minutes_ago=21, note="de")
msg(True, "Daan Smit <daan.smit@northwind.example.com>", "Migration halted - need a decision immediately",
    labels=PRIMARY, minutes_ago=8, note="immediately")
msg(True, "Carmen Ruiz <carmen.ruiz@example.net>", "¡Urgente! ¿Puedes recoger a Noor a las 12?", to=MARA_HOME,
    labels=PRIMARY_NI, minutes_ago=27, note="friend, es, keyword")
msg(True, "Henk Mulder <henk@mulder-groothandel.example.nl.invalid>", "Onmiddellijk actie nodig: leverancier stopt levering",
    labels=PRIMARY, minutes_ago=42, note="client, nl")
msg(True, FR_CLIENT, "Appelez-moi, problème de livraison ce matin", labels=PRIMARY_NI, minutes_ago=16, note="fr call")
msg(True, IT_CLIENT, "Subito: bonifico bloccato dalla banca", labels=PRIMARY, minutes_ago=49, note="it")
msg(True, PT_CLIENT, "Emergência: servidor do portal fora do ar", labels=PRIMARY, minutes_ago=12, note="pt")
msg(True, "Loodgieter Bakker <info@loodgieter-bakker.example.nl.invalid>", "Ik sta voor de deur - bent u thuis?",
    to=MARA_HOME, labels=PRIMARY_NI, minutes_ago=2, note="plumber at the door, no urgent word (hard)")
msg(True, PRIYA, "Invitation: Emergency bridge: payments @ Sat Nov 21, 2026 10am - 11am (CET) (mara.lindqvist@northwind.example.com)",
    labels=PRIMARY, headers=invite_headers(), mime="multipart/mixed", minutes_ago=4, note="bridge starting now")
msg(True, ES_CLIENT, "Invitación: Llamada con Javier @ sáb 21 nov 2026 12:00 - 12:30 (CET) (mara.lindqvist@northwind.example.com)",
    labels=PRIMARY_NI, headers=invite_headers(), mime="multipart/mixed", minutes_ago=39, note="today, es")

# ---------------------------------------------------------------------------------------------
# Replies in Mara's own threads.
# ---------------------------------------------------------------------------------------------
msg(True, AGENT, "Re: Bezichtiging zaterdag", to=MARA_HOME, labels=PRIMARY, thread_id=thread("flat"),
    in_reply_to=flat, minutes_ago=25, note="agent: can you confirm 11:00 today")
msg(True, LAWYER, "Re: Contract draft v3", labels=PRIMARY, thread_id=hexid(), in_reply_to=contract, minutes_ago=48,
    note="lawyer's reply found via In-Reply-To (new thread id): needs signature today")
msg(False, KITCHEN, "AW: Angebot Küchenmontage", to=MARA_HOME, labels=PRIMARY, thread_id=thread("kitchen"),
    in_reply_to=kitchen, minutes_ago=1250, note="quote reply, routine (hard: own thread)")
msg(False, FRIEND, "Re: Sunday brunch?", to=MARA_HOME, labels=PRIMARY, thread_id=thread("brunch"), in_reply_to=brunch,
    minutes_ago=280, note="friend says 'sure, 11?': routine (hard: own thread)")
msg(True, ACCOUNTANT, "RE: Invoice 2026-114", labels=PRIMARY, thread_id=thread("invoice"), in_reply_to=invoice,
    minutes_ago=58, note="payment bounced, resend today")
msg(False, "IT Helpdesk <helpdesk@northwind.example.com>", "Re: Laptop replacement [#HD-30418]", labels=UPDATES,
    thread_id=thread("laptop"), headers=[("Auto-Submitted", "auto-generated"), ("Precedence", "bulk")],
    minutes_ago=1900, note="ticket system update")
msg(False, "Colleen Park <colleen.park@example.com>", "Automatic reply: Contract draft v3", labels=PRIMARY_NI,
    thread_id=thread("contract"), headers=[("Auto-Submitted", "auto-replied")], minutes_ago=1690,
    note="out of office")
msg(False, "Badkamers Noord <info@badkamers-noord.example.nl.invalid>", "Re: Offerte badkamer", to=MARA_HOME,
    labels=PRIMARY_NI, thread_id=thread("bathroom"), minutes_ago=1000,
    note="quote follow-up, routine (hard: own thread)")
msg(False, FRIEND2, "Re: Lunch next week?", to=MARA_HOME, labels=PRIMARY_NI, thread_id=thread("lunch"),
    minutes_ago=2100, note="routine")
msg(True, LENA, "Re: Pricing page copy", labels=PRIMARY, thread_id=thread("pricing"), minutes_ago=30,
    note="copy must go to the printer at 11, asks for a yes/no")
msg(False, "GitHub <notifications@github.example.com>", "Re: [northwind/api] Fix retry budget (PR #4312)",
    to="northwind/api <api@noreply.github.example.com>", cc=f"Comment <comment@noreply.github.example.com>, {MARA_WORK}",
    labels=UPDATES, thread_id=thread("pr4312"), headers=github("northwind/api"), minutes_ago=400,
    note="PR comment in a thread she commented on")

# ---------------------------------------------------------------------------------------------
# Calendar.
# ---------------------------------------------------------------------------------------------
msg(True, PRIYA, "Invitation: Incident review @ Sat Nov 21, 2026 11am - 11:30am (CET) (mara.lindqvist@northwind.example.com)",
    labels=PRIMARY, headers=invite_headers(), mime="multipart/mixed", minutes_ago=27, note="today's meeting")
msg(True, TOM, "Updated invitation: Acme call @ Sat Nov 21, 2026 2pm - 3pm (CET) (mara.lindqvist@northwind.example.com)",
    labels=PRIMARY, headers=invite_headers(), mime="multipart/mixed", minutes_ago=34, note="moved to today")
msg(True, "Erik Lindqvist <erik.lindqvist@example.org>", "Einladung: Übergabe Wohnung @ Sa. 21. Nov. 2026 13:00 - 13:30 (MEZ) (mara@lindqvist.example.net)",
    to=MARA_HOME, labels=PRIMARY, headers=invite_headers(), mime="multipart/mixed", minutes_ago=62,
    note="today, German invitation")
msg(True, FRIEND2, "Canceled event: Coffee with Sam @ Sat Nov 21, 2026 10:30am - 11am (CET) (mara@lindqvist.example.net)",
    to=MARA_HOME, labels=PRIMARY_NI, headers=invite_headers(), mime="multipart/mixed", minutes_ago=5,
    note="today's coffee cancelled: she need not leave")
msg(True, SCHOOL_TEACHER, "Uitnodiging: Oudergesprek Lio @ za 21 nov. 2026 15:00 - 15:15 (CET) (mara@lindqvist.example.net)",
    to=MARA_HOME, labels=PRIMARY, headers=invite_headers(), mime="multipart/mixed", minutes_ago=70,
    note="today, Dutch")
msg(True, LENA, "Invitation: Team dinner @ Sat Nov 21, 2026 7pm - 10pm (CET) (mara.lindqvist@northwind.example.com)",
    labels=PRIMARY_NI, headers=invite_headers(), mime="multipart/mixed", minutes_ago=100, note="tonight")
msg(True, "Marco Bianchi <m.bianchi@ferraro-logistica.example.it.invalid>", "Revisione urgente del contratto",
    labels=PRIMARY, mime="text/calendar", headers=[("Content-Type", "text/calendar; charset=utf-8; method=REQUEST"),
                                                   ("Content-Class", "urn:content-classes:calendarmessage")],
    minutes_ago=45, note="Outlook invite for 10:30 today, urgent word in title")
msg(True, "Daan Smit <daan.smit@northwind.example.com>", "Go/no-go for the migration", labels=PRIMARY,
    mime="text/calendar", headers=[("Content-Type", "text/calendar; method=REQUEST"),
                                   ("Content-Class", "urn:content-classes:calendarmessage")],
    minutes_ago=38, note="Outlook invite for 13:00 today: no date in the subject (hard)")
msg(False, TOM, "Updated invitation with note: Standup @ Sat Nov 21, 2026 8am - 8:15am (CET) (mara.lindqvist@northwind.example.com)",
    labels=PRIMARY_NI, headers=invite_headers(), mime="multipart/mixed", minutes_ago=20,
    note="note on a meeting that is over")
msg(False, PRIYA, "Invitation: Q1 planning @ Tue Dec 1, 2026 10am - 12pm (CET) (mara.lindqvist@northwind.example.com)",
    labels=PRIMARY, headers=invite_headers(), mime="multipart/mixed", minutes_ago=400, note="another day")
msg(False, LENA, "Invitation: 1:1 Mara / Lena @ Weekly from 10am to 10:30am on Monday (CET) (mara.lindqvist@northwind.example.com)",
    labels=PRIMARY_NI, headers=invite_headers(), mime="multipart/mixed", minutes_ago=1500, note="recurring")
msg(False, STEFAN, "Einladung: Jahresgespräch @ Mo. 23. Nov. 2026 10:00 - 11:00 (MEZ) (mara.lindqvist@northwind.example.com)",
    labels=PRIMARY, headers=invite_headers(), mime="multipart/mixed", minutes_ago=800, note="Monday")
msg(False, "Tandartspraktijk Centrum <afspraken@tandarts-centrum.example.nl.invalid>",
    "Invitation: Tandarts @ Mon Nov 23, 2026 8:30am - 9am (CET) (mara@lindqvist.example.net)", to=MARA_HOME,
    labels=PRIMARY_NI, headers=invite_headers(), mime="multipart/mixed", minutes_ago=2300, note="Monday")
msg(False, FRIEND, "Updated invitation: Book club @ Thu Nov 26, 2026 8pm - 10pm (CET) (mara@lindqvist.example.net)",
    to=MARA_HOME, labels=PRIMARY_NI, headers=invite_headers(), mime="multipart/mixed", minutes_ago=1400, note="Thursday")
msg(False, ES_CLIENT, "Invitación: Revisión de contrato @ mar 24 nov 2026 10:00 - 11:00 (CET) (mara.lindqvist@northwind.example.com)",
    labels=PRIMARY, headers=invite_headers(), mime="multipart/mixed", minutes_ago=600, note="Tuesday, es")
msg(False, "Lena Hoffmann <lena.hoffmann@northwind.example.com>", "Uitnodiging: Kerstviering @ vr 18 dec. 2026 16:00 - 20:00 (CET) (mara.lindqvist@northwind.example.com)",
    to="Iedereen <iedereen@northwind.example.com>", labels=PRIMARY_NI, headers=invite_headers(), mime="multipart/mixed",
    minutes_ago=2600, note="December party")
msg(False, PT_CLIENT, "Convite: Assinatura @ qua 2 de dez. de 2026 15:00 - 16:00 (CET) (mara.lindqvist@northwind.example.com)",
    labels=PRIMARY, headers=invite_headers(), mime="multipart/mixed", minutes_ago=900, note="December, pt")
msg(False, PRIYA, "Accepted: Q1 planning @ Tue Dec 1, 2026 10am - 12pm (CET) (mara.lindqvist@northwind.example.com)",
    labels=PRIMARY_NI, headers=invite_headers(), mime="multipart/mixed", minutes_ago=300, note="response")
msg(False, TOM, "Declined: Incident review @ Sat Nov 21, 2026 11am - 11:30am (CET) (mara.lindqvist@northwind.example.com)",
    labels=PRIMARY_NI, headers=invite_headers(), mime="multipart/mixed", minutes_ago=12, note="response")
msg(False, STEFAN, "Abgelehnt: Jahresgespräch @ Mo. 23. Nov. 2026 10:00 - 11:00 (MEZ) (mara.lindqvist@northwind.example.com)",
    labels=PRIMARY_NI, headers=invite_headers(), mime="multipart/mixed", minutes_ago=150, note="response")
msg(False, LENA, "Tentatively accepted: Team dinner @ Sat Nov 21, 2026 7pm - 10pm (CET) (mara.lindqvist@northwind.example.com)",
    labels=PRIMARY_NI, headers=invite_headers(), mime="multipart/mixed", minutes_ago=60, note="response")
msg(False, "Northwind Rooms <rooms@northwind.example.com>", "Room booking: Amstel 3.2 - Mon 23 Nov",
    labels=UPDATES, mime="text/calendar", headers=[("Content-Type", "text/calendar; method=PUBLISH"),
                                                  ("Auto-Submitted", "auto-generated")],
    minutes_ago=1200, note="room booking, automated")

# ---------------------------------------------------------------------------------------------
# Colleagues and friends, routine.
# ---------------------------------------------------------------------------------------------
routine_work = [
    (PRIYA, "Lunch on Monday?"), (TOM, "Slides from Thursday"), (LENA, "Quick question about the API docs"),
    (STEFAN, "Feedback zu deinem Entwurf"), (FINANCE, "Expense report approved"), (ONCALL, "Thanks for the handover"),
    (PRIYA, "Re: Retro notes"), (TOM, "Article: Postgres 19 features"), (LENA, "Happy birthday! 🎂"),
    (STEFAN, "Kurze Frage zum Urlaubsplan"), ("Daan Smit <daan.smit@northwind.example.com>", "Intro: Daan <> Mara"),
    (FR_CLIENT, "Merci pour la réunion de jeudi"), (IT_CLIENT, "Auguri e grazie per la collaborazione"),
    (ES_CLIENT, "Presupuesto actualizado para enero"), (PT_CLIENT, "Minuta do contrato para revisão na próxima semana"),
]
for frm, subject in routine_work:
    msg(False, frm, subject, labels=RNG.choice([PRIMARY, PRIMARY_NI]), note="routine direct mail")

cc_only = [
    (PRIYA, "Minutes: architecture review", LENA), (TOM, "Re: Holiday rota", STEFAN),
    (FINANCE, "Budget 2027 first draft", BOSS), (LENA, "Press kit for the launch", "Marketing <marketing@northwind.example.com>"),
    (STEFAN, "WG: Schulungstermine Dezember", TOM), (FR_CLIENT, "TR: Devis cuisine", "Luc Durand <luc.durand@atelier-durand.example.fr.invalid>"),
    (ES_CLIENT, "RV: Presupuesto reforma", "Ana Morales <ana@morales-envios.example.net>"),
    (IT_CLIENT, "I: Documenti di trasporto ottobre", "Marco Bianchi <m.bianchi@ferraro-logistica.example.it.invalid>"),
]
for frm, subject, to in cc_only:
    msg(False, frm, subject, to=to, cc=MARA_WORK, labels=RNG.choice([PRIMARY, PRIMARY_NI]), note="Cc only, routine")

msg(False, FRIEND, "Foto's van zaterdag", to=MARA_HOME, labels=PRIMARY_NI, note="routine friend")
msg(False, FRIEND2, "That podcast I mentioned", to=MARA_HOME, labels=PRIMARY_NI, note="routine friend")
msg(False, NEIGHBOUR, "Fête des voisins en décembre ?", to=f"{MARA_HOME}, Famille Jansen <jansen@example.net>",
    labels=PRIMARY_NI, note="routine neighbour")
msg(False, ACCOUNTANT, "Maandoverzicht boekhouding oktober", labels=("INBOX", "UNREAD", "STARRED", "CATEGORY_PERSONAL"),
    note="accountant, starred by her filter: routine monthly summary")
msg(True, ACCOUNTANT, "Aanslag ontvangen: bezwaar moet vóór maandag", labels=("INBOX", "UNREAD", "STARRED", "IMPORTANT", "CATEGORY_PERSONAL"),
    minutes_ago=80, note="starred by filter, deadline Monday, needs her decision this weekend")
msg(False, "Oma Greet <greet.devries@example.org>", "Kaartje voor Noor", to=MARA_HOME, labels=PRIMARY_NI,
    note="grandma sends a card for Noor (hard: keyword)")

# Recruiters: urgent words, never urgent.
msg(False, "Kevin Hart <kevin@talentbridge-recruiting.example.com>", "Urgent hire: Senior Backend Engineer (remote, €€€)",
    labels=PRIMARY_NI, note="recruiter, direct, no bulk headers (hard)")
msg(False, "TalentBridge <jobs@talentbridge-recruiting.example.com>", "URGENT: Staff Engineer role - 48h to apply",
    labels=PROMO, headers=bulk("talentbridge-recruiting.example.com"), note="recruiter blast")
msg(False, "Sabine Roth <s.roth@headhunter-roth.example.de.invalid>", "Dringend gesucht: Lead Developer (m/w/d)",
    labels=UPDATES, note="recruiter, updates tab")
msg(False, "Hiring Team <careers@scaleup.example.io.invalid>", "Quick question, Mara", labels=PRIMARY_NI,
    headers=unsub("scaleup.example.io.invalid"), note="recruiter sequence tool")
msg(False, "Recruiting <recruiting@fintech.example.com>", "Immediate start: Engineering Manager", labels=PROMO,
    headers=bulk("fintech.example.com"), note="recruiter blast")
msg(False, "Marta Gil <marta.gil@reclutamiento.example.es.invalid>", "Oferta urgente: Tech Lead en Madrid",
    labels=UPDATES, headers=unsub("reclutamiento.example.es.invalid"), note="recruiter")

# Phishing-ish and scare mail in the inbox.
msg(False, "Mailbox Admin <admin@mailbox-quota.example.net>", "URGENT action required: your mailbox is full",
    to="undisclosed-recipients:;", labels=UPDATES, headers=unsub("mailbox-quota.example.net"), note="phishing")
msg(False, "Accounts Payable <accounts@billing-dept.example.net>", "URGENT: invoice overdue - pay immediately",
    labels=PRIMARY_NI, note="phishing addressed directly, no bulk headers (hard)")
msg(False, "Parcel Service <noreply@parcel-track.example.net>", "Action required: pay customs fee immediately",
    labels=UPDATES, headers=bulk("parcel-track.example.net"), note="smishing-style")
msg(False, "Security <no-reply@account-alerts.example.com>", "Your account will be suspended - act immediately",
    to=MARA_HOME, labels=UPDATES, headers=unsub("account-alerts.example.com"), note="phishing")
msg(False, "Crypto Gains <vip@crypto-gains.example.net>", "Time sensitive: your bonus expires in 2 hours",
    to=MARA_HOME, labels=PROMO, headers=bulk("crypto-gains.example.net"), note="scam")

# ---------------------------------------------------------------------------------------------
# Newsletters, promotions, receipts, shipping, social.
# ---------------------------------------------------------------------------------------------
newsletters = [
    ("Dispatch Weekly <hello@dispatchweekly.example.com>", "Issue #212: The quiet cost of retries"),
    ("Morning Brief <newsletter@dailybrief.example.org>", "Your Saturday briefing"),
    ("Server Side Swift Digest <digest@sss-digest.example.org>", "This week: Hummingbird 2.28, swift-nio tips"),
    ("Stadsnieuws Amsterdam <nieuwsbrief@stadsnieuws.example.nl.invalid>", "Dit weekend in de stad"),
    ("Die Woche <redaktion@diewoche.example.de.invalid>", "Die Woche: Was Sie wissen müssen"),
    ("La Lettre du samedi <lettre@lalettre.example.fr.invalid>", "La Lettre : sept idées pour l'hiver"),
    ("Boletín Tech <boletin@tech-es.example.net>", "Boletín semanal nº 88"),
    ("Postgres Weekly <weekly@pgweekly.example.com>", "Postgres Weekly #640"),
    ("The Breaking Desk <alerts@breakingdesk.example.com>", "Breaking: emergency summit called in Brussels"),
    ("ZorgVerzekeraar <nieuws@zorgverzekeraar.example.nl.invalid>", "Urgent care clinics: what to know this winter"),
    ("Product Hunt Daily <hello@launches.example.com>", "Top launches today"),
    ("Medium Digest <noreply@digest.example.com>", "Stories for you: 'Why your queue needs leases'"),
    ("Running Club Amstel <leden@runningclub.example.nl.invalid>", "Clubnieuws november"),
    ("Il Post Settimanale <newsletter@settimanale.example.it.invalid>", "Le notizie della settimana"),
    ("Notícias Lisboa <newsletter@noticias.example.pt.invalid>", "Resumo semanal: o que aconteceu"),
    ("SRE Notes <notes@srenotes.example.org>", "Incident reviews that actually work"),
    ("Engineering Blog <blog@northwind.example.com>", "New on the blog: migrating to Postgres 18"),
]
for frm, subject in newsletters:
    domain = domain_of(frm)
    msg(False, frm, subject, to=RNG.choice([MARA_WORK, MARA_HOME]), labels=RNG.choice([UPDATES, PROMO, UPDATES]),
        headers=bulk(domain, f"{subject.split(':')[0][:20]} <list.{domain}>", RNG.choice(["bulk", "list", None])),
        note="newsletter")

promotions = [
    ("Outdoor Store <deals@outdoorstore.example.com>", "50% off everything - ends tonight!"),
    ("ShopMore <news@shopmore.example.com>", "URGENT: your cart is about to expire"),
    ("Modehaus Berg <angebote@modehaus-berg.example.de.invalid>", "Dringend: Nur noch heute 30% Rabatt"),
    ("Viajes Sol <ofertas@viajessol.example.es.invalid>", "¡Última oportunidad! Urgente: la oferta termina hoy"),
    ("Electro World <promo@electroworld.example.com>", "Black Friday starts now"),
    ("Casa Bella <offerte@casabella.example.it.invalid>", "Offerta urgente: -40% solo oggi"),
    ("Bol Winkel <aanbiedingen@bolwinkel.example.nl.invalid>", "Alleen vandaag: met spoed geleverd, gratis!"),
    ("Coffee Roasters <hello@roasters.example.com>", "Your subscription discount expires immediately after Sunday"),
    ("Airline Miles <miles@airline-miles.example.com>", "Act now: double miles this weekend"),
    ("Boutique Paris <bonjour@boutique.example.fr.invalid>", "Soldes privées : dès maintenant"),
    ("Livraria Central <promo@livraria.example.pt.invalid>", "Promoção relâmpago: só hoje"),
    ("Pizza Express <order@pizza.example.com>", "Hungry? 2 for 1 tonight only"),
    ("Smart Home <news@smarthome.example.com>", "Emergency preparedness kits: 25% off"),
]
for frm, subject in promotions:
    domain = domain_of(frm)
    msg(False, frm, subject, to=RNG.choice([MARA_HOME, MARA_HOME, MARA_WORK]), labels=PROMO,
        headers=bulk(domain, None, RNG.choice(["bulk", None])), note="promotion")

receipts = [
    ("Bakkerij Blom <kassa@bakkerijblom.example.nl.invalid>", "Uw bon van Bakkerij Blom"),
    ("ShopMore <orders@shopmore.example.com>", "Order confirmation #NW-22831"),
    ("Modehaus Berg <bestellung@modehaus-berg.example.de.invalid>", "Bestellbestätigung 4471-22"),
    ("Atelier Durand <factures@atelier-durand.example.fr.invalid>", "Votre facture F-2026-1187"),
    ("RideShare <receipts@rideshare.example.com>", "Your Saturday morning trip receipt"),
    ("App Store <no_reply@appstore.example.com>", "Your receipt from App Store"),
    ("Energie Noord <noreply@energienoord.example.nl.invalid>", "Uw jaarafrekening staat klaar"),
    ("Cloud Hosting <billing@cloudhost.example.com>", "Invoice INV-88213 for November"),
    ("Trainticket <tickets@trainticket.example.com>", "Your e-ticket Amsterdam - Köln, 4 Dec"),
    ("Farmacia Centrale <ricevute@farmacia.example.it.invalid>", "La tua ricevuta"),
    ("Bank Noord <noreply@banknoord.example.nl.invalid>", "Uw rekeningoverzicht november staat klaar"),
    ("Energie Noord <noreply@energienoord.example.nl.invalid>", "Betalingsherinnering: factuur 2026-311"),
    ("Gemeente Amsterdam <noreply@gemeente.example.nl.invalid>", "Uw aanvraag parkeervergunning is ontvangen"),
    ("Belastingdienst <noreply@belasting.example.nl.invalid>", "Er staat een nieuw bericht in uw Berichtenbox"),
]
for frm, subject in receipts:
    msg(False, frm, subject, to=RNG.choice([MARA_HOME, MARA_WORK]), labels=RNG.choice([UPDATES, UPDATES, PRIMARY_NI]),
        headers=RNG.choice([[], [("Auto-Submitted", "auto-generated")], unsub(domain_of(frm))]), note="receipt/notice")

shipping = [
    ("Parcel Post <noreply@parcelpost.example.com>", "Your package is out for delivery"),
    ("DHL-like Express <no-reply@express.example.de.invalid>", "Ihr Paket kommt heute zwischen 10:00 und 12:00"),
    ("PostNL-like <noreply@pakket.example.nl.invalid>", "Je pakket wordt vandaag bezorgd"),
    ("ShopMore <shipping@shopmore.example.com>", "Shipment delayed: order #NW-22831"),
    ("Colis Rapide <notification@colisrapide.example.fr.invalid>", "Votre colis a été livré"),
    ("Envíos Ya <avisos@enviosya.example.es.invalid>", "Tu pedido está en camino"),
    ("Parcel Post <noreply@parcelpost.example.com>", "We missed you - redelivery options"),
    ("Bol Winkel <bezorging@bolwinkel.example.nl.invalid>", "Je bestelling is verzonden"),
]
for frm, subject in shipping:
    msg(False, frm, subject, to=MARA_HOME, labels=UPDATES,
        headers=RNG.choice([[("Auto-Submitted", "auto-generated")], unsub(domain_of(frm)), []]), note="shipping")

social = [
    ("Connectly <notifications@connectly.example.com>", "Alex Chen mentioned you in a comment"),
    ("Connectly <invitations@connectly.example.com>", "You have 3 new connection requests"),
    ("PhotoGram <no-reply@photogram.example.com>", "sam.whitfield tagged you in a photo"),
    ("Chirp <notify@chirp.example.com>", "New follower: @queue_nerd"),
    ("Connectly <messages-noreply@connectly.example.com>", "Trending in your network"),
    ("Neighbourly <digest@neighbourly.example.nl.invalid>", "Nieuw in je buurt: gevonden kat, rommelmarkt"),
    ("Chirp <notify@chirp.example.com>", "Urgent: @cityalerts posted about a road closure"),
    ("Meetup-ish <info@meetups.example.com>", "Amsterdam Swift Meetup: new event on 3 Dec"),
    ("Strava-like <no-reply@runs.example.com>", "Jonas gave you kudos"),
    ("FamilyChat <noreply@familychat.example.com>", "Ingrid sent you 4 new messages"),
    ("Connectly <notifications@connectly.example.com>", "Priya Raman endorsed you for PostgreSQL"),
]
for frm, subject in social:
    msg(False, frm, subject, to=RNG.choice([MARA_HOME, MARA_WORK]), labels=SOCIAL,
        headers=unsub(domain_of(frm)) if RNG.random() < 0.8 else [], note="social notification")

# ---------------------------------------------------------------------------------------------
# Engineering notifications: CI, GitHub, Jira, monitoring, mailing lists.
# ---------------------------------------------------------------------------------------------
ci = [
    ("GitHub <notifications@github.example.com>", "[northwind/api] Run failed: CI - main (a1b2c3d)", "northwind/api"),
    ("GitHub <notifications@github.example.com>", "[northwind/web] Run failed: e2e - release/2026.11 (9f8e7d6)", "northwind/web"),
    ("GitHub <notifications@github.example.com>", "[northwind/api] Run failed: URGENT hotfix - hotfix/login (44ab01c)", "northwind/api"),
    ("Jenkins <jenkins@ci.northwind.example.com>", "[Jenkins] FAILURE: nightly-e2e #311", None),
    ("Jenkins <jenkins@ci.northwind.example.com>", "[Jenkins] Back to normal: nightly-e2e #312", None),
    ("Buildkite-ish <builds@ci.northwind.example.com>", "Build #1842 failed: payments-service (main)", None),
    ("GitHub <notifications@github.example.com>", "[northwind/infra] Deploy to staging failed", "northwind/infra"),
    ("Dependabot <notifications@github.example.com>", "[northwind/api] Bump postgres-nio from 1.33.1 to 1.33.2", "northwind/api"),
]
for frm, subject, repo in ci:
    hs = github(repo) if repo else [("Auto-Submitted", "auto-generated"), ("Precedence", "bulk")]
    msg(False, frm, subject, to=(f"{repo} <{repo.split('/')[1]}@noreply.github.example.com>" if repo else MARA_WORK),
        cc=(MARA_WORK if repo else None), labels=UPDATES, headers=hs, note="CI notification")

code_review = [
    ("Tom Okafor <notifications@github.example.com>", "[northwind/api] Review requested: Fix retry budget (PR #4312)"),
    ("Priya Raman <notifications@github.example.com>", "Re: [northwind/web] Checkout page flicker (Issue #881)"),
    ("Lena Hoffmann <notifications@github.example.com>", "[northwind/docs] Update API reference (PR #77)"),
    ("Ravi Menon <notifications@github.example.com>", "Re: [northwind/api] Urgent: connection leak under load (Issue #4320)"),
    ("GitHub <noreply@github.example.com>", "[GitHub] A new public key was added to your account"),
]
for frm, subject in code_review:
    msg(False, frm, subject, to="northwind/api <api@noreply.github.example.com>", cc=MARA_WORK, labels=UPDATES,
        headers=github("northwind/api"), note="code review notification")

jira = [
    "[JIRA] (OPS-2231) Rotate TLS certificates - assigned to you",
    "[JIRA] (SUP-771) URGENT: Acme cannot log in",
    "[JIRA] (BE-1190) Mara Lindqvist mentioned you on 'Queue lease expiry'",
    "[JIRA] (BE-1202) Status changed: In Progress -> Review",
    "[Confluence] Page updated: On-call runbook",
    "You have 4 unread mentions in #backend",
]
for subject in jira:
    sender = "Jira <jira@northwind.atlassian.example.com>" if "JIRA" in subject else (
        "Confluence <confluence@northwind.atlassian.example.com>" if "Confluence" in subject else
        "Chat Digest <no-reply@chat.example.com>")
    msg(False, sender, subject, labels=UPDATES, headers=[("Auto-Submitted", "auto-generated"), ("Precedence", "bulk")] +
        unsub(domain_of(sender)), note="tool notification")

monitoring = [
    ("Grafana Alerts <alerts@grafana.northwind.example.com>", "[FIRING:1] DiskUsageHigh db-replica-2 (85%)"),
    ("Grafana Alerts <alerts@grafana.northwind.example.com>", "[RESOLVED] DiskUsageHigh db-replica-2"),
    ("Cron Daemon <root@batch-01.northwind.example.com>", "Cron <deploy@batch-01> /opt/jobs/cleanup.sh"),
    ("Uptime Checker <noreply@uptime.example.com>", "Monthly uptime report: 99.97%"),
]
for frm, subject in monitoring:
    msg(False, frm, subject, labels=UPDATES, headers=[("Auto-Submitted", "auto-generated")], note="monitoring noise")

mailing_lists = [
    ("Kai Nguyen <kai@example.org>", "[swift-server] Proposal: structured concurrency for lifecycle", "swift-server <swift-server.lists.example.org>"),
    ("Anna Schulz <anna.schulz@example.de.invalid>", "[ops-de] Wartungsfenster am Sonntag", "ops-de <ops-de.lists.example.org>"),
    ("Pat Lee <pat@example.com>", "[pg-users] Vacuum tuning question", "pg-users <pg-users.lists.example.org>"),
    ("Joris Bakker <joris@example.nl.invalid>", "Re: [nl-devs] Meetup december", "nl-devs <nl-devs.lists.example.org>"),
    ("Mo Ahmed <mo@example.net>", "[users] URGENT: is 2.3.1 broken for anyone else?", "users <users.lists.example.org>"),
    ("Lucía Ortega <lucia@example.es.invalid>", "[madrid-rb] Charla urgente: cambio de sala", "madrid-rb <madrid-rb.lists.example.org>"),
    ("Kai Nguyen <kai@example.org>", "Re: [swift-server] Proposal: structured concurrency for lifecycle", "swift-server <swift-server.lists.example.org>"),
    ("Ouders Groep 5 <ouders-groep5@regenboog-school.example.org>", "[Ouders groep 5] Wie kan rijden naar de kinderboerderij?", "ouders-groep5 <ouders-groep5.regenboog-school.example.org>"),
    ("HOA Board <board@vve-keizersgracht.example.nl.invalid>", "[VvE] Notulen vergadering 12 november", "vve <vve.lists.example.org>"),
]
for frm, subject, list_id in mailing_lists:
    domain = list_id.split("<")[1].rstrip(">").split(".", 1)[1]
    msg(False, frm, subject, to=f"{list_id.split(' ')[0]} <{list_id.split('<')[1].rstrip('>').split('.')[0]}@{domain}>",
        labels=FORUMS, headers=[("List-Id", list_id), ("Precedence", "list")] + unsub(domain), note="mailing list")

# Automatic replies, with and without the RFC 3834 header.
msg(False, "Priya Raman <priya.raman@northwind.example.com>", "Automatic reply: URGENT: numbers in the board deck are wrong",
    labels=PRIMARY_NI, headers=[("Auto-Submitted", "auto-replied"), ("X-Auto-Response-Suppress", "All")], note="OOO")
msg(False, "Stefan Keller <stefan.keller@northwind.example.com>", "Abwesenheitsnotiz: Re: Angebot", labels=PRIMARY_NI,
    headers=[("Auto-Submitted", "auto-replied")], note="OOO de")
msg(False, FR_CLIENT, "Réponse automatique : Demande urgente", labels=PRIMARY_NI, note="OOO fr, no header")
msg(False, "Luis Pereira <luis.pereira@example.com>", "Out of Office: back on 30 November", labels=PRIMARY_NI,
    note="OOO en, no header")
msg(False, AGENT, "Re: Bezichtiging zaterdag", to=MARA_HOME, labels=PRIMARY_NI, thread_id=thread("flat"),
    headers=[("Auto-Submitted", "auto-replied")], note="agency autoresponder in her thread: 'we answer within 2 days'")
msg(False, "Mailer Daemon <mailer-daemon@mail.example.com>", "Undelivered Mail Returned to Sender", labels=PRIMARY_NI,
    headers=[("Auto-Submitted", "auto-replied")], note="bounce")

# Security and account notices.
msg(False, "Account Security <no-reply@accounts.example.com>", "New sign-in from Firefox on Linux", to=MARA_HOME,
    labels=UPDATES, note="routine sign-in notice (it was her)")
msg(False, "Bank Noord <noreply@banknoord.example.nl.invalid>", "Uw verificatiecode is 481 223", to=MARA_HOME,
    labels=UPDATES, note="2FA code: she is waiting for it already")
msg(True, "Bank Noord <fraude@banknoord.example.nl.invalid>", "Was dit u? Betaling van €1.240 geweigerd", to=MARA_HOME,
    labels=PRIMARY, headers=[("Auto-Submitted", "auto-generated")],
    note="card fraud check: answer now or the card stays blocked (hard)")
msg(True, "SkyLine Airways <noreply@skyline-air.example.com>", "Your flight SL 1275 today has been cancelled",
    to=MARA_HOME, labels=("INBOX", "UNREAD", "IMPORTANT", "CATEGORY_UPDATES"), headers=[("Auto-Submitted", "auto-generated")],
    note="flight cancelled today (hard: airline system mail)")
msg(False, "SkyLine Airways <noreply@skyline-air.example.com>", "Check in now for your flight on 4 December",
    to=MARA_HOME, labels=UPDATES, headers=unsub("skyline-air.example.com"), note="routine")
msg(True, "Sports Club Zuid <noreply@sportclub-zuid.example.nl.invalid>", "Training Noor vandaag afgelast (veld onbespeelbaar)",
    to=MARA_HOME, labels=UPDATES, headers=bulk("sportclub-zuid.example.nl.invalid", "Leden <leden.sportclub-zuid.example.nl.invalid>"),
    minutes_ago=15, note="practice cancelled today, she would otherwise drive there at 10 (hard: bulk)")

# Archived by her filters (never reached the inbox).
msg(False, "Receipts Bot <noreply@expenses.example.com>", "Receipt captured: Taxi 23.40 EUR", labels=("UNREAD", "Label_2741", "CATEGORY_UPDATES"),
    note="archived by filter")
msg(False, "Grafana Alerts <alerts@grafana.northwind.example.com>", "URGENT: daily batch report", labels=("UNREAD", "Label_3310"),
    headers=[("Auto-Submitted", "auto-generated")], note="archived alert report")
msg(False, PRIYA, "Re: Team offsite photos", labels=("UNREAD", "Label_1180", "CATEGORY_PERSONAL"), note="archived by filter")

# A few headers as odd clients send them: lower-case names, quoted commas, many recipients.
msg(False, '"Durand, Camille (Atelier)" <camille.durand@atelier-durand.example.fr.invalid>', "Planning janvier",
    to=f'"Lindqvist, Mara" <{ME_WORK}>, "Okafor, Tom" <tom.okafor@northwind.example.com>', labels=PRIMARY_NI,
    note="routine, quoted commas")
msg(True, '"Keller, Stefan" <stefan.keller@northwind.example.com>', "dringend: kunde wartet auf rückruf",
    to=f'Tom Okafor <tom.okafor@northwind.example.com>, "Lindqvist, Mara" <{ME_WORK.upper()}>', labels=PRIMARY,
    note="urgent, lower-case subject, upper-case address")
msg(False, "news@weekly-deals.example.com", "URGENT!!! Last hours of our mega sale", to=ME_HOME, labels=PROMO,
    headers=[("list-unsubscribe", "<mailto:u@weekly-deals.example.com>"), ("precedence", "BULK")],
    note="lower-case header names")


def main():
    RECORDS.sort(key=lambda r: (r[0], r[1]["id"]))
    # History ids grow with time (not contiguously), as Gmail's do.
    history = 4811000
    for _, record, _ in RECORDS:
        history += RNG.randint(3, 180)
        record["historyId"] = str(history)
    with open(os.path.join(HERE, "messages.jsonl"), "w", encoding="utf-8") as f:
        for _, record, _ in RECORDS:
            f.write(json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n")
    labels = {record["id"]: LABELS[record["id"]] for _, record, _ in RECORDS}
    with open(os.path.join(HERE, "labels.json"), "w", encoding="utf-8") as f:
        json.dump(labels, f, indent=1)
        f.write("\n")
    # Own threads as her account would know them: most, not all (the rest are learned from SENT
    # mail or found through In-Reply-To).
    known = [OWN_THREADS[name] for name in ("q4", "vendor", "flat", "kitchen", "invoice", "laptop", "pr4312")]
    preferences = {
        "vip_senders": ["henrik.vos@northwind.example.com", "jonas@lindqvist.example.net",
                        "ingrid.lindqvist@example.org", "@regenboog-school.example.org", "@huisartsen-oost.example.org"],
        "keywords": ["Lio", "Noor", "SEV1", "outage"],
        "user_addresses": [ME_WORK, ME_HOME],
        "own_thread_ids": known,
        "own_message_ids": [OWN_MESSAGE_IDS[3]],  # the contract draft, for the In-Reply-To path
        "time_zone": "Europe/Amsterdam",
        "now": "2026-11-21T09:40:00+01:00",
    }
    with open(os.path.join(HERE, "preferences.json"), "w", encoding="utf-8") as f:
        json.dump(preferences, f, indent=2, ensure_ascii=False)
        f.write("\n")
    urgent = sum(labels.values())
    print(f"{len(labels)} records, {urgent} urgent ({urgent / len(labels):.0%})")


if __name__ == "__main__":
    main()
