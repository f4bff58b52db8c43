/// The event date in a Google Calendar invitation subject, e.g.
/// `Invitation: Sync @ Sat Nov 21, 2026 2pm - 3pm (CET) (ada@example.com)` or, in other account
/// languages, `Einladung: Sync @ Sa. 21. Nov. 2026 14:00 - 15:00 (MEZ)`,
/// `Convite: Sync @ sáb. 21 de nov. de 2026 14:00`.
///
/// Google renders that date in the recipient's calendar time zone, so it is compared as a plain
/// calendar day with "today" in the user's zone. Recurring invitations ("@ Weekly from 10am …")
/// have no date and yield nil.
struct InvitationDate: Equatable, Sendable {
    struct Time: Equatable, Sendable { var hour: Int, minute: Int }
    var year: Int, month: Int, day: Int
    /// The start time right after the date ("2pm", "10:30am", "14:00", "14h30"); nil for all-day
    /// events or when it cannot be read.
    var start: Time?

    /// Month-name prefixes in en, de, fr, es, it, pt and nl (folded, so "mär", "févr", "déc" fold to
    /// "mar", "fevr", "dec"). Longer prefixes come first where two months share a start ("juin"/"juil").
    private static let monthPrefixes: [(String, Int)] = [
        ("juin", 6), ("juil", 7), ("janv", 1), ("jan", 1), ("ene", 1), ("gen", 1),
        ("feb", 2), ("fev", 2), ("mar", 3), ("mrt", 3), ("apr", 4), ("avr", 4), ("abr", 4),
        ("may", 5), ("mai", 5), ("mag", 5), ("mei", 5), ("jun", 6), ("giu", 6), ("jul", 7), ("lug", 7),
        ("aug", 8), ("aou", 8), ("ago", 8), ("sep", 9), ("set", 9), ("oct", 10), ("okt", 10), ("ott", 10),
        ("out", 10), ("nov", 11), ("dec", 12), ("dez", 12), ("dic", 12),
    ]

    static func month(_ word: Substring) -> Int? {
        // A month word is its abbreviation or longer ("nov", "november", "novembre"), never a
        // short unrelated word ("out" of "out of office" is only read inside the date part).
        guard word.count >= 3, word.allSatisfy(\.isLetter) else { return nil }
        return monthPrefixes.first { word.hasPrefix($0.0) }?.1
    }

    /// The date after the last " @ " of the subject, if one can be read.
    init?(subject: String) {
        guard let at = subject.range(of: " @ ", options: .backwards) else { return nil }
        let words = Text.words(String(subject[at.upperBound...]))
        // The year anchors the date; the month is the last month word before it, because weekday
        // abbreviations can look like months ("mar" is Tuesday in es/it/fr: "mar 24 nov 2026").
        guard let yearIndex = words.firstIndex(where: { $0.count == 4 && Int($0).map { (1970...2200).contains($0) } == true }),
              let year = Int(words[yearIndex]),
              let monthIndex = words[..<yearIndex].lastIndex(where: { Self.month($0) != nil }),
              let month = Self.month(words[monthIndex]) else { return nil }
        func day(at index: Int) -> Int? {
            guard index >= 0, index < yearIndex, words[index].count <= 2, let value = Int(words[index]),
                  (1...31).contains(value) else { return nil }
            return value
        }
        // English puts the day after the month ("Nov 21"), the others before it ("21. Nov.",
        // "21 de nov."), sometimes with one filler word between.
        guard let day = day(at: monthIndex - 1) ?? day(at: monthIndex - 2) ?? day(at: monthIndex + 1)
                ?? day(at: monthIndex + 2) else { return nil }
        let datePart = subject[at.upperBound...]
        let afterYear = datePart.range(of: String(year)).map { datePart[$0.upperBound...] } ?? ""
        self.init(year: year, month: month, day: day, start: Self.time(at: afterYear))
    }

    init(year: Int, month: Int, day: Int, start: Time? = nil) {
        self.year = year; self.month = month; self.day = day; self.start = start
    }

    /// A clock time at the start of `text` (after commas and spaces): `2pm`, `10:30am`, `14:00`,
    /// `14.00`, `14h30`, `14 Uhr`. A bare number is not a time.
    static func time(at text: Substring) -> Time? {
        var rest = Text.fold(String(text.drop { $0 == "," || $0.isWhitespace }))[...]
        func number() -> Int? {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard (1...2).contains(digits.count) else { return nil }
            rest = rest.dropFirst(digits.count)
            return Int(digits)
        }
        guard var hour = number() else { return nil }
        var minute = 0, marked = false
        if let separator = rest.first, [":", ".", "h"].contains(separator) {
            let saved = rest
            rest = rest.dropFirst()
            if let value = number() { minute = value; marked = true } else { rest = saved }
        }
        rest = rest.drop { $0 == " " }
        if rest.hasPrefix("am") || rest.hasPrefix("a.m.") {
            if hour == 12 { hour = 0 }
            marked = true
        } else if rest.hasPrefix("pm") || rest.hasPrefix("p.m.") {
            if hour < 12 { hour += 12 }
            marked = true
        } else if rest.hasPrefix("h") || rest.hasPrefix("uhr") {
            marked = true
        }
        guard marked, (0...23).contains(hour), (0...59).contains(minute) else { return nil }
        return Time(hour: hour, minute: minute)
    }
}
