import Foundation

/// What a message's text says about time, read against "now" in the user's zone.
///
/// Relative words ("today", "tomorrow", "Friday") are resolved on the writer's calendar day (the
/// `Date` header's offset, or the user's zone when that offset is the user's own at that instant,
/// which keeps a "3pm" written before a DST switch right), so "bis morgen 12 Uhr" sent yesterday
/// evening is due today. Clock times take the writer's zone unless they name one ("9am ET", "3pm
/// your time"). The verdict is the most pressing reading: a time still ahead today or within a few
/// hours (`soon`), else a bare "today" (`today`), else something days away (`later`), else a
/// deadline already gone (`passed`). A clock time that has passed counts only when a deadline word
/// leads into it ("by 3pm", "bis 17 Uhr", "avant 16h"): "the toast at 7:30", "[10:00 PM] kev: …" or
/// "down since 02:41" say when something happens or happened, not what was due.
struct TimeReading: Sendable, Equatable {
    enum Verdict: Sendable, Equatable { case none, passed, later, today, soon }
    var verdict: Verdict = .none
    /// The instant behind `soon`, `later` or `passed`, when a clock time or duration gave one.
    var instant: Date?
    /// Days from the user's today to the day named, for `later`/`passed` readings without a clock time.
    var dayDistance: Int?
}

struct TimeReader: Sendable {
    /// How far ahead a deadline on another calendar day still counts as "within hours".
    static let soonWindow: TimeInterval = 6 * 3600
    /// In the evening (from this hour, the user's time) the next morning is "soon" too: a 7:10 flight
    /// or a 9:00 filing tomorrow has to be dealt with tonight, before the user sleeps.
    static let eveningHour = 18
    /// ...up to this hour of the next day.
    static let nextMorningUntilHour = 12

    struct Context {
        var tokens: [Token]
        var matches: [PhraseIndex.Match]
        var french: Bool
        var english: Bool
        var sent: Date
        var writerZone: TimeZone
        var userZone: TimeZone
        var now: Date
    }

    private enum DayRef { case offset(Int), weekday(Int), date(month: Int, day: Int), later }
    private struct Clock {
        var index: Int; var hour: Int; var minute: Int; var zone: TimeZone?; var ownDay: Int?
        /// Said as a deadline: a deadline word leads into it, or the phrase is one ("due today", "EOD").
        var cued = false
    }
    /// A resolved time: `cued` as for `Clock`; durations ("in 20 minutes") are always ahead.
    private struct Instant { var date: Date; var cued: Bool }

    static let weekdays: [PhraseFamily: Int] = [.sunday: 1, .monday: 2, .tuesday: 3, .wednesday: 4, .thursday: 5, .friday: 6, .saturday: 7]
    static let months: [PhraseFamily: Int] = [
        .january: 1, .february: 2, .march: 3, .april: 4, .may: 5, .june: 6, .july: 7, .august: 8, .september: 9,
        .october: 10, .november: 11, .december: 12,
    ]
    static let timeFamilies: Set<PhraseFamily> = Set(weekdays.keys).union(months.keys).union([
        .today, .tomorrow, .yesterday, .dayAfterTomorrow, .todayDeadline, .tonight, .afternoon, .morning, .noon, .midnight,
        .endOfDay, .withinHour, .later,
    ])
    /// Words that, first in a day-part phrase, pin it to today ("this afternoon", "heute Nachmittag", "esta tarde").
    static let thisWords: Set<Substring> = ["this", "heute", "cet", "cette", "ce", "esta", "este"]
    static let zones: [Substring: String] = [
        "et": "America/New_York", "est": "America/New_York", "edt": "America/New_York", "eastern": "America/New_York",
        "ct": "America/Chicago", "cst": "America/Chicago", "cdt": "America/Chicago",
        "pt": "America/Los_Angeles", "pst": "America/Los_Angeles", "pdt": "America/Los_Angeles", "pacific": "America/Los_Angeles",
        "cet": "Europe/Berlin", "cest": "Europe/Berlin", "mez": "Europe/Berlin", "mesz": "Europe/Berlin",
        "gmt": "Europe/London", "bst": "Europe/London", "uk": "Europe/London", "london": "Europe/London", "utc": "UTC",
    ]

    /// Places and nationalities in a zone phrase ("heure de Paris", "Berlin time", "ora italiana",
    /// "horário de Brasília"): the phrase means that place's zone, not the user's. A `user_time`
    /// phrase naming none of these ("your time", "ora locale") means the user's zone.
    static let placeZones: [Substring: String] = [
        "berlin": "Europe/Berlin", "deutscher": "Europe/Berlin", "deutschen": "Europe/Berlin",
        "paris": "Europe/Paris", "francaise": "Europe/Paris", "france": "Europe/Paris",
        "madrid": "Europe/Madrid", "peninsular": "Europe/Madrid", "espanola": "Europe/Madrid", "espana": "Europe/Madrid",
        "roma": "Europe/Rome", "rome": "Europe/Rome", "milano": "Europe/Rome", "milan": "Europe/Rome", "italiana": "Europe/Rome",
        "italiano": "Europe/Rome", "italia": "Europe/Rome", "italy": "Europe/Rome",
        "lisboa": "Europe/Lisbon", "lisbon": "Europe/Lisbon", "portugal": "Europe/Lisbon", "portuguesa": "Europe/Lisbon",
        "continental": "Europe/Lisbon",
        "brasilia": "America/Sao_Paulo", "paulo": "America/Sao_Paulo", "brasil": "America/Sao_Paulo", "brazil": "America/Sao_Paulo",
        "london": "Europe/London", "londres": "Europe/London", "londra": "Europe/London",
        "york": "America/New_York",
    ]

    /// One-word members of the families the reader checks next to a number, each word with the
    /// families it belongs to as bits (`bit(of:)`): one lookup a token.
    let single: WordTable<UInt8>
    static let singleFamilies: [PhraseFamily] = [.since, .ago, .within, .minutes, .hours]

    /// Each of `singleFamilies`' bit in `single`; 0 for any other family.
    private static func bit(of family: PhraseFamily) -> UInt8 {
        switch family {
        case .since: 1
        case .ago: 2
        case .within: 4
        case .minutes: 8
        case .hours: 16
        default: 0
        }
    }

    init(ruleSet: RuleSet) {
        var single: [WordKey: UInt8] = [:]
        for family in Self.singleFamilies {
            for list in ruleSet.phrases[family] ?? [] {
                for phrase in list.words {
                    let tokens = Text.tokenList(phrase)
                    if tokens.count == 1 { single[WordKey(tokens[0]), default: 0] |= Self.bit(of: family) }
                }
            }
        }
        self.single = WordTable(single.map { ($0.key, $0.value) })
    }

    private func isIn(_ family: PhraseFamily, _ token: Token) -> Bool {
        guard let bits = single[token.key] else { return false }
        return bits & Self.bit(of: family) != 0
    }

    /// `writer` and `user` are Gregorian calendars in the writer's and the user's zone (made once by
    /// the caller: building a Calendar costs more than reading a message).
    func read(_ context: Context, writer: Calendar, user: Calendar) -> TimeReading {
        let tokens = context.tokens
        let anchor = writer.dateComponents([.year, .month, .day, .weekday], from: context.sent)

        // Day references and day parts, longest phrase first at each position.
        var dayRefs: [(index: Int, ref: DayRef)] = []
        var clocks: [Clock] = []
        var coveredUntil = -1
        var extra: [Date] = []
        var evenings: [Range<Int>] = []
        let timeMatches = context.matches.filter { $0.family.map(Self.timeFamilies.contains) ?? false }.enumerated()
            .sorted { ($0.element.start, -$0.element.length, $0.offset) < ($1.element.start, -$1.element.length, $1.offset) }
            .map(\.element)
        for match in timeMatches where match.start > coveredUntil {
            guard let family = match.family else { continue }
            let first = tokens[match.start].text
            var used = true
            switch family {
            case .today: dayRefs.append((match.start, .offset(0)))
            case .tomorrow:
                // German "Morgen" also greets ("Morgen Miriam", "Guten Morgen"): only a tomorrow when
                // something time-like follows or it does not open a sentence.
                if first == "morgen" {
                    let previous = match.start > 0 ? tokens[match.start - 1].text : ""
                    let next = match.start + 1 < tokens.count ? tokens[match.start + 1] : nil
                    let timeLike = next.map { $0.isNumber || ["um", "fruh", "mittag", "abend", "vormittag", "nachmittag", "bis", "frueh"].contains($0.text) } ?? false
                    if previous == "guten" || (tokens[match.start].newSentence && !timeLike) { used = false; break }
                }
                // Spanish "mañana" after "la"/"esta" is the morning, not tomorrow.
                if first == "manana", match.start > 0, ["la", "esta", "de"].contains(tokens[match.start - 1].text) { used = false; break }
                dayRefs.append((match.start, .offset(1)))
            case .dayAfterTomorrow: dayRefs.append((match.start, .offset(2)))
            case .yesterday:
                // "hier" is yesterday in French only (German and English "hier"/"here" are not).
                if first == "hier", !context.french { used = false; break }
                dayRefs.append((match.start, .offset(-1)))
            case .later: dayRefs.append((match.start, .later))
            case .todayDeadline: clocks.append(Clock(index: match.start, hour: 23, minute: 59, zone: nil, ownDay: 0, cued: true))
            // "Tonight" as a deadline lasts until the night ends: "sign tonight" written at 23:00 is still open.
            case .tonight:
                clocks.append(Clock(index: match.start, hour: 23, minute: 59, zone: nil, ownDay: 0))
                evenings.append(match.start ..< match.start + match.length)
            case .afternoon, .morning:
                let hour = family == .afternoon ? 17 : 12
                clocks.append(Clock(index: match.start, hour: hour, minute: 0, zone: nil,
                                    ownDay: match.length > 1 && Self.thisWords.contains(first) ? 0 : nil))
            case .noon: clocks.append(Clock(index: match.start, hour: 12, minute: 0, zone: nil, ownDay: nil))
            case .midnight: clocks.append(Clock(index: match.start, hour: 23, minute: 59, zone: nil, ownDay: nil))
            case .endOfDay: clocks.append(Clock(index: match.start, hour: 18, minute: 0, zone: nil, ownDay: nil, cued: true))
            case .withinHour: extra.append(context.sent.addingTimeInterval(3600))
            default:
                if let weekday = Self.weekdays[family] { dayRefs.append((match.start, .weekday(weekday))) }
                else if let month = Self.months[family], let day = dayNumber(around: match.start, length: match.length, tokens) {
                    dayRefs.append((match.start, .date(month: month, day: day)))
                } else { used = false }
            }
            if used { coveredUntil = match.start + match.length - 1 }
        }
        return readRest(context, dayRefs: dayRefs, clocks: clocks, instants: extra, evenings: evenings, anchor: anchor,
                        writer: writer, user: user)
    }

    private func readRest(_ context: Context, dayRefs: [(index: Int, ref: DayRef)], clocks phraseClocks: [Clock], instants extra: [Date],
                          evenings: [Range<Int>], anchor: DateComponents, writer: Calendar, user: Calendar) -> TimeReading {
        let tokens = context.tokens
        var dayRefs = dayRefs
        var clocks = phraseClocks
        var instants = extra.map { Instant(date: $0, cued: true) }
        // Numeric dates: "27.11.", "4.12.2026".
        var index = 0
        while index + 1 < tokens.count {
            let a = tokens[index], b = tokens[index + 1]
            if a.isNumber, b.isNumber, a.text.count <= 2, b.text.count <= 2, b.gap == ".",
               index + 2 >= tokens.count || tokens[index + 2].gap.hasPrefix("."),
               let day = Int(a.text), let month = Int(b.text), (1...31).contains(day), (1...12).contains(month),
               index == 0 || !(tokens[index - 1].isNumber && (tokens[index].gap == "." || tokens[index].gap == ",")) {
                dayRefs.append((index, .date(month: month, day: day)))
                index += 2
                continue
            }
            index += 1
        }
        // Clock times and durations.
        index = 0
        while index < tokens.count {
            if tokens[index].isNumber, let (clock, end, duration) = clockOrDuration(at: index, context) {
                if let duration { instants.append(Instant(date: context.sent.addingTimeInterval(duration), cued: true)) }
                if var clock {
                    // "10:45 tonight", "tonight at 8": an evening hour of today.
                    if evenings.contains(where: { $0.lowerBound - 3 <= clock.index && clock.index < $0.upperBound + 3 }) {
                        if (1...11).contains(clock.hour) { clock.hour += 12 }
                        clock.ownDay = 0
                    }
                    clocks.append(clock)
                }
                index = end
                continue
            }
            index += 1
        }
        // "Monday 7 December", "vendredi 4.12.": the date says which Monday; the weekday alone would
        // read as this week's.
        let dated = dayRefs.compactMap { entry -> Int? in if case .date = entry.ref { entry.index } else { nil } }
        dayRefs.removeAll { entry in
            guard case .weekday = entry.ref else { return false }
            return dated.contains { abs($0 - entry.index) <= 3 }
        }
        dayRefs.sort { $0.index < $1.index }

        func resolve(_ ref: DayRef) -> DateComponents? {
            guard let base = writer.date(from: DateComponents(year: anchor.year, month: anchor.month, day: anchor.day, hour: 12)) else { return nil }
            switch ref {
            case .offset(let days): return writer.date(byAdding: .day, value: days, to: base).map { writer.dateComponents([.year, .month, .day], from: $0) }
            case .weekday(let weekday):
                let delta = (weekday - (anchor.weekday ?? weekday) + 7) % 7
                return writer.date(byAdding: .day, value: delta, to: base).map { writer.dateComponents([.year, .month, .day], from: $0) }
            case .date(let month, let day):
                var year = anchor.year ?? 2000
                // A date more than two months before the message is next year's ("5 Jan" written in December).
                if let candidate = writer.date(from: DateComponents(year: year, month: month, day: day, hour: 12)),
                   candidate < base.addingTimeInterval(-60 * 86_400) { year += 1 }
                return DateComponents(year: year, month: month, day: day)
            case .later: return writer.date(byAdding: .day, value: 7, to: base).map { writer.dateComponents([.year, .month, .day], from: $0) }
            }
        }

        var consumed = Set<Int>()
        for clock in clocks {
            var day: DateComponents?
            if let own = clock.ownDay {
                day = resolve(.offset(own))
            } else {
                // The nearest day reference within six tokens, preferring the one before on a tie.
                let nearest = dayRefs.enumerated()
                    .map { ($0.offset, abs($0.element.index - clock.index), $0.element.index > clock.index ? 1 : 0) }
                    .filter { $0.1 <= 6 }
                    .min { ($0.1, $0.2) < ($1.1, $1.2) }
                if let nearest { consumed.insert(nearest.0); day = resolve(dayRefs[nearest.0].ref) } else { day = resolve(.offset(0)) }
            }
            guard let day else { continue }
            var calendar = writer
            if let zone = clock.zone { calendar.timeZone = zone }
            if let instant = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day,
                                                                hour: clock.hour, minute: clock.minute)) {
                instants.append(Instant(date: instant, cued: clock.cued || isCued(clock.index, context)))
            }
        }
        var dayOnly: [DateComponents] = []
        var laterPhrase = false
        for (offset, entry) in dayRefs.enumerated() where !consumed.contains(offset) {
            if case .later = entry.ref { laterPhrase = true; continue }
            if let day = resolve(entry.ref) { dayOnly.append(day) }
        }
        var reading = classify(instants: instants, dayOnly: dayOnly, context: context, user: user)
        if laterPhrase, reading.verdict == .none || reading.verdict == .passed { reading = TimeReading(verdict: .later, dayDistance: 7) }
        return reading
    }

    /// A deadline word ends right before the time, or one word earlier ("by 5pm", "before the 3pm",
    /// "antes de las 5", "bis spätestens 17 Uhr").
    private func isCued(_ index: Int, _ context: Context) -> Bool {
        context.matches.contains { $0.family == .deadlineCue && (index - 2 ... index).contains($0.start + $0.length) }
    }

    private func classify(instants: [Instant], dayOnly: [DateComponents], context: Context, user: Calendar) -> TimeReading {
        var best = TimeReading()
        func consider(_ reading: TimeReading) {
            func order(_ verdict: TimeReading.Verdict) -> Int {
                switch verdict { case .none: 0; case .passed: 1; case .later: 2; case .today: 3; case .soon: 4 }
            }
            let rank = order(reading.verdict), current = order(best.verdict)
            if rank > current { best = reading; return }
            // Among equals, the nearest deadline explains best.
            if rank == current, reading.verdict == .soon, let a = reading.instant, let b = best.instant, a < b { best = reading }
        }
        // Calendar days compared as yyyymmdd keys in the user's zone (one date-components call each).
        func key(_ components: DateComponents) -> Int { (components.year ?? 0) * 10_000 + (components.month ?? 0) * 100 + (components.day ?? 0) }
        let today = user.dateComponents([.year, .month, .day, .hour], from: context.now)
        let todayKey = key(today)
        // The evening's horizon: noon tomorrow, once it is evening for the user.
        let nextMorning: Date? = (today.hour ?? 0) >= Self.eveningHour
            ? user.date(byAdding: .day, value: 1, to: user.date(from: DateComponents(year: today.year, month: today.month, day: today.day,
                                                                                       hour: Self.nextMorningUntilHour)) ?? context.now)
            : nil
        for cuedInstant in instants {
            let instant = cuedInstant.date
            if instant <= context.now {
                if cuedInstant.cued { consider(TimeReading(verdict: .passed, instant: instant)) }
            }
            else if instant.timeIntervalSince(context.now) <= Self.soonWindow || nextMorning.map({ instant <= $0 }) == true
                        || key(user.dateComponents([.year, .month, .day], from: instant)) == todayKey {
                consider(TimeReading(verdict: .soon, instant: instant))
            } else { consider(TimeReading(verdict: .later, instant: instant)) }
        }
        func distance(to day: DateComponents) -> Int? {
            user.dateComponents([.day], from: user.date(from: today) ?? context.now,
                                to: user.date(from: DateComponents(year: day.year, month: day.month, day: day.day)) ?? context.now).day
        }
        for day in dayOnly {
            let dayKey = key(day)
            if dayKey == todayKey { consider(TimeReading(verdict: .today, dayDistance: 0)) }
            else if dayKey < todayKey { consider(TimeReading(verdict: .passed, dayDistance: distance(to: day))) }
            else { consider(TimeReading(verdict: .later, dayDistance: distance(to: day))) }
        }
        return best
    }

    /// A day number next to a month word: "4. Dezember", "15 décembre", "10 de diciembre", "Dec 3".
    private func dayNumber(around start: Int, length: Int, _ tokens: [Token]) -> Int? {
        func day(_ index: Int) -> Int? {
            guard index >= 0, index < tokens.count, tokens[index].isNumber, tokens[index].text.count <= 2,
                  let value = Int(tokens[index].text), (1...31).contains(value) else { return nil }
            return value
        }
        if let value = day(start - 1) { return value }
        if start >= 2, tokens[start - 1].text == "de", let value = day(start - 2) { return value }
        return day(start + length)
    }

    /// A clock time ("15:00", "3pm", "14h30", "17 Uhr", "um 11", "a las 5") or a duration ("in 20
    /// minutes", "dans 2h", "en 30 minutos") starting at `index`; also where reading continues.
    private func clockOrDuration(at index: Int, _ context: Context) -> (Clock?, Int, TimeInterval?)? {
        let tokens = context.tokens
        let token = tokens[index]
        guard token.text.utf8.count <= 3, let value = Int(token.text) else { return nil }
        // Part of a larger number, an amount or a date ("1.284.930", "2,5", "24.11.").
        if index > 0, tokens[index - 1].isNumber, [".", ",", ":", "/", "'"].contains(token.gap) { return nil }
        let previous = index > 0 ? tokens[index - 1] : nil
        let before = index > 1 ? tokens[index - 2] : nil
        // "in", "within", "innerhalb von", "dans", "dentro de" ending right before the number (or one
        // word earlier: "in about 20 minutes", "dans les 30 minutes").
        let afterWithin = context.matches.contains { $0.family == .within && $0.start + $0.length == index }
        let nearWithin = afterWithin || context.matches.contains { $0.family == .within && $0.start + $0.length == index - 1 }

        // Durations: a number of minutes or hours after "in"/"within"/"dans"/"en", never "ago"/"since".
        if index + 1 < tokens.count, !tokens[index + 1].isNumber {
            let unit = tokens[index + 1]
            let past = [previous, before].contains { $0.map { isIn(.ago, $0) || isIn(.since, $0) } ?? false }
                || (index + 2 < tokens.count && isIn(.ago, tokens[index + 2]))
            let leadIn = nearWithin
            if isIn(.minutes, unit), leadIn, !past, value <= 180 { return (nil, index + 2, past ? nil : TimeInterval(value * 60)) }
            if isIn(.hours, unit) || (unit.text == "h" && unit.gap.isEmpty && leadIn) {
                if leadIn, !past, value <= 4, value > 0 { return (nil, index + 2, TimeInterval(value * 3600)) }
                if isIn(.hours, unit), leadIn { return (nil, index + 2, nil) }
            }
        }

        guard token.text.utf8.count <= 2, value <= 24 else { return nil }
        var hour = value, minute = 0, marked = false, next = index + 1, meridiem: Bool?
        func text(_ i: Int) -> Substring? { i < tokens.count ? tokens[i].text : nil }
        if next < tokens.count, tokens[next].isNumber, tokens[next].text.count == 2, tokens[next].gap == ":" {
            minute = Int(tokens[next].text) ?? 99; marked = true; next += 1
        } else if next + 1 < tokens.count, tokens[next].isNumber, tokens[next].text.count == 2, tokens[next].gap == ".",
                  ["uhr", "h", "am", "pm"].contains(tokens[next + 1].text) {
            minute = Int(tokens[next].text) ?? 99; next += 1
        } else if text(next) == "h", tokens[next].gap.isEmpty || tokens[next].gap == " " {
            marked = true; next += 1
            if next < tokens.count, tokens[next].isNumber, tokens[next].text.count == 2, tokens[next].gap.isEmpty {
                minute = Int(tokens[next].text) ?? 99; next += 1
            }
        }
        if let word = text(next), tokens[next].gap.count <= 1 {
            if word == "am" || word == "pm" { meridiem = word == "pm"; marked = true; next += 1 }
            else if (word == "a" || word == "p"), text(next + 1) == "m" { meridiem = word == "p"; marked = true; next += 2 }
            else if word == "uhr" { marked = true; next += 1 }
            else if word == "h", !marked { marked = true; next += 1 }
        }
        if !marked {
            // "um 11", "a las 5", "alle 5", "ore 12", "às 5": a bare hour where only an hour can follow
            // (the Portuguese "às" folds to "as", which in English mail is no time word).
            // Italian "entro le 18", "prima delle 15": the article needs its preposition ("le 18" alone
            // is also a French date).
            let italianArticle = ["le", "delle"].contains(previous?.text ?? "")
                && ["entro", "prima", "dopo", "verso", "fino", "dalle"].contains(before?.text ?? "")
            guard let previous, ["um", "las", "alle", "ore"].contains(previous.text) || (previous.text == "as" && !context.english)
                    || italianArticle
            else { return nil }
            if ["las", "alle", "as"].contains(previous.text) || italianArticle, (1...7).contains(hour) { hour += 12 }
        }
        // "ab 18 Uhr" is when something starts, "seit 9:40" when it began: neither is a deadline; nor is
        // "since 2026-11-24 02:41", with a date between. "[10:00 PM]" stamps a chat log line.
        if (max(0, index - 4) ..< index).reversed().prefix(while: { $0 == index - 1 || tokens[$0 + 1].isNumber })
            .contains(where: { isIn(.since, tokens[$0]) }) { return (nil, next, nil) }
        if token.gap.hasSuffix("[") { return (nil, next, nil) }
        if let meridiem {
            guard (1...12).contains(hour) else { return nil }
            if meridiem, hour < 12 { hour += 12 }
            if !meridiem, hour == 12 { hour = 0 }
        } else if context.english, tokens[index + 1 < tokens.count ? index + 1 : index].gap == ":", (1...6).contains(hour),
                  token.text.count == 1 {
            hour += 12  // "by 5:30" in English mail means the afternoon; "05:30" is a 24-hour time
        }
        if hour == 24, minute == 0 { hour = 23; minute = 59 }
        guard (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        // A zone named right after the time.
        var zone: TimeZone?
        var probe = next
        while probe < min(next + 2, tokens.count) {
            let word = tokens[probe].text
            if word == "et", !context.english, meridiem == nil { break }  // French "et" is "and"
            if let name = Self.zones[word] { zone = TimeZone(identifier: name); break }
            if let named = context.matches.first(where: { $0.start == probe && $0.family == .userTime }) {
                let place = tokens[named.start ..< named.start + named.length].lazy.compactMap { Self.placeZones[$0.text] }.first
                zone = place.flatMap(TimeZone.init(identifier:)) ?? context.userZone
                break
            }
            if ["your", "deiner", "ihrer", "votre", "ton", "tu", "su"].contains(word) { probe += 1; continue }
            break
        }
        return (Clock(index: index, hour: hour, minute: minute, zone: zone, ownDay: nil), next, nil)
    }
}
