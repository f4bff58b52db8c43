extension RuleID {
    public static let incident = RuleID("incident")
    public static let securityEvent = RuleID("security_event")
    public static let travelDisruption = RuleID("travel_disruption")
    public static let healthEmergency = RuleID("health_event")
    public static let childPickup = RuleID("child_pickup")
    public static let meetingMoved = RuleID("meeting_moved")
    public static let waitingForYou = RuleID("waiting_for_you")
    public static let workStopped = RuleID("work_stopped")
    public static let peopleAffected = RuleID("people_affected")
    public static let someoneHere = RuleID("someone_here")
    public static let moneyAtRisk = RuleID("money_at_risk")
}

/// Things happening to the user or their work: incidents, security events, travel trouble, health
/// and family emergencies, meetings moved to now, people waiting.
enum EventRules {
    static let all: [Rule] = [
        .phrase(.incident, .events, .incident, role: .strongEvent, says: "live incident or page"),
        // Account-scare phishing names credentials and blocked accounts as bait: no security event then.
        Rule(.securityEvent, .events, "a security event", role: .strongEvent) { message in
            guard message.found(.phishing, negatable: false) == nil, let match = message.found(.security) else { return nil }
            return Evidence(match.language, why: message.why("security event (\(match.language), \(message.place(match)))"))
        },
        // A transport and a problem with it, unless the day is days away.
        Rule(.travelDisruption, .events, "same-day travel disruption", role: .strongEvent) { message in
            guard let transport = message.found(.travelTransport), let problem = message.found(.travelProblem),
                  message.reading.verdict != .later else { return nil }
            return Evidence(problem.language, why: message.why("travel disruption (\(transport.language)/\(problem.language)), not days away"))
        },
        // A health emergency, or a school or childcare closed today.
        Rule(.healthEmergency, .events, "a health or family emergency", role: .strongEvent) { message in
            if let match = message.found(.health) {
                return Evidence(match.language, why: message.why("health or family emergency (\(match.language), \(message.place(match)))"))
            }
            guard message.timely, let match = message.found(.schoolClosure) else { return nil }
            return Evidence(match.language, why: message.why("school or childcare closed today (\(match.language), \(message.place(match)))"))
        },
        .phrase(.childPickup, .events, .pickup, says: "asks to pick someone up"),
        // A change of a meeting (or an invitation) whose time is today.
        Rule(.meetingMoved, .events, "a meeting moved to today") { message in
            guard message.timely, let change = message.found(.meetingChange),
                  message.found(.meetingWord) != nil || message.invitation != .none else { return nil }
            return Evidence(change.language, why: message.why("a meeting moved, and the time is today"))
        },
        // People waiting, now: today, already late, or for a meeting; not days ahead.
        Rule(.waitingForYou, .events, "people are waiting for the user") { message in
            guard let match = message.found(.waitingForYou), message.reading.verdict != .later,
                  message.timely || message.reading.verdict == .passed || message.found(.meetingWord) != nil else { return nil }
            return Evidence(match.language, why: message.why("people are waiting for the user (\(match.language))"))
        },
        // Urgent without an urgency word: what is happening says it.
        .phrase(.workStopped, .events, .workStopped, says: "work or operations have stopped"),
        // People idle, customers affected, or people and a word that they are waiting ("os pacientes
        // estão à espera", "the drivers are waiting").
        Rule(.peopleAffected, .events, "people or customers are affected now") { message in
            (message.found(.peopleIdle) ?? message.found(.customerImpact)
                ?? message.found(.people, near: .arrival, within: 5)).map { match in
                Evidence(match.language, why: message.why("people or customers are affected now (\(match.language), \(message.place(match)))"))
            }
        },
        // A place and someone arriving or waiting there: "steht an der Theke", "è arrivato … in portineria".
        Rule(.someoneHere, .events, "someone is waiting in person") { message in
            guard let place = message.found(.someoneHere), message.found(.arrival) != nil else { return nil }
            return Evidence(place.language, why: message.why("someone is waiting in person (\(place.language), \(message.place(place)))"))
        },
        .phrase(.moneyAtRisk, .events, .moneyConsequence, says: "a payment or service is about to fail"),
    ]
}
