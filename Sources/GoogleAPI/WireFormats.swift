import Foundation

/// The date formats Google sends and expects, parsed by hand: small, allocation-free, and the same on
/// every platform (no formatter locale or thread-safety surprises).
enum WireDate {
    /// A date-time as written, before a zone is applied.
    struct Fields: Equatable {
        var year, month, day, hour, minute, second: Int
        var fraction: Double
        /// Seconds east of UTC; nil when the text had no offset (Calendar then sends a `timeZone`).
        var offset: Int?

        /// The instant, when the text carried its own offset (or one is supplied).
        func date(offset: Int? = nil) -> Date? {
            guard let offset = self.offset ?? offset else { return nil }
            let days = WireDate.daysFromCivil(year: year, month: month, day: day)
            let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset
            return Date(timeIntervalSince1970: Double(seconds) + fraction)
        }

        /// The instant of this local wall time in `zone` (a gap in the zone moves forward, as Foundation does).
        func date(in zone: TimeZone) -> Date? {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
            return calendar.date(from: components).map { $0.addingTimeInterval(fraction) }
        }
    }

    /// RFC 3339 (`2026-03-02T09:30:00Z`, `2026-03-02T10:30:00.123+01:00`); the offset may be missing.
    static func parseDateTime(_ text: String) -> Fields? {
        var scanner = ByteScanner(text)
        guard let year = scanner.digits(4), scanner.skip("-"), let month = scanner.digits(2), scanner.skip("-"),
              let day = scanner.digits(2), scanner.skip(anyOf: "Tt "), let hour = scanner.digits(2), scanner.skip(":"),
              let minute = scanner.digits(2), scanner.skip(":"), let second = scanner.digits(2)
        else { return nil }
        var fraction = 0.0
        if scanner.skip(".") {
            var scale = 0.1
            var any = false
            while let digit = scanner.digit() {
                fraction += Double(digit) * scale
                scale /= 10
                any = true
            }
            guard any else { return nil }
        }
        var offset: Int?
        if scanner.skip(anyOf: "Zz") {
            offset = 0
        } else if let sign = scanner.sign() {
            guard let hours = scanner.digits(2), scanner.skip(":"), let minutes = scanner.digits(2),
                  hours < 24, minutes < 60
            else { return nil }
            offset = sign * (hours * 3_600 + minutes * 60)
        }
        guard scanner.atEnd, isValid(year: year, month: month, day: day), hour < 24, minute < 60, second <= 60
        else { return nil }
        return Fields(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                      fraction: fraction, offset: offset)
    }

    /// `yyyy-mm-dd`.
    static func parseDay(_ text: String) -> (year: Int, month: Int, day: Int)? {
        var scanner = ByteScanner(text)
        guard let year = scanner.digits(4), scanner.skip("-"), let month = scanner.digits(2), scanner.skip("-"),
              let day = scanner.digits(2), scanner.atEnd, isValid(year: year, month: month, day: day)
        else { return nil }
        return (year, month, day)
    }

    /// RFC 3339 in UTC, whole seconds (`2026-03-02T09:30:00Z`): what `timeMin`/`timeMax` get. Google
    /// ignores sub-second precision there anyway.
    static func format(_ date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let secondsOfDay = total - days * 86_400
        let (year, month, day) = civilFromDays(days)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", year, month, day,
                      secondsOfDay / 3_600, secondsOfDay % 3_600 / 60, secondsOfDay % 60)
    }

    /// IMF-fixdate, the HTTP-date form servers send today (`Sun, 06 Nov 1994 08:49:37 GMT`).
    static func parseHTTPDate(_ text: String) -> Date? {
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 6, parts[0].hasSuffix(","), parts[5] == "GMT" || parts[5] == "UTC",
              let day = Int(parts[1]), let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]),
              isValid(year: year, month: month + 1, day: day), hour < 24, minute < 60, second <= 60
        else { return nil }
        return Fields(year: year, month: month + 1, day: day, hour: hour, minute: minute, second: second,
                      fraction: 0, offset: 0).date()
    }

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func isValid(year: Int, month: Int, day: Int) -> Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// `Retry-After` (RFC 9110 §10.2.3): delay-seconds or an HTTP-date. A date is measured against the
/// response's own `Date` header when there is one, so our clock's skew does not matter.
enum RetryAfter {
    static func parse(_ value: String?, responseDate: String?, now: Date) -> Duration? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value) { return seconds >= 0 ? .seconds(seconds) : nil }
        guard let until = WireDate.parseHTTPDate(value) else { return nil }
        let reference = responseDate.flatMap(WireDate.parseHTTPDate) ?? now
        return .milliseconds(Int64((max(0, until.timeIntervalSince(reference)) * 1_000).rounded(.up)))
    }
}

/// A value Google documents as a string-encoded int64 but that sometimes arrives as a JSON number
/// (Gmail `historyId` in push data); read both, keep the string.
struct LenientString: Decodable, Sendable {
    let value: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let string = try? container.decode(String.self) {
            value = string
        } else if let number = try? container.decode(UInt64.self) {
            value = String(number)
        } else {
            value = String(try container.decode(Int64.self))
        }
    }
}

/// Decodes a field without letting a wrong type sink the whole object: Google asks clients to parse
/// tolerantly, and one odd attendee must not cost a reminder.
extension KeyedDecodingContainer {
    func lenient<T: Decodable>(_ type: T.Type, _ key: Key) -> T? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }
}

/// An array whose undecodable elements are skipped rather than failing the page.
struct LenientArray<Element: Decodable>: Decodable {
    var elements: [Element] = []
    var skipped = 0

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        while !container.isAtEnd {
            if let element = try? container.decode(Element.self) {
                elements.append(element)
            } else {
                skipped += 1
                // A failed decode does not advance the container; consume the element as anything.
                _ = try? container.decode(Skip.self)
            }
        }
    }

    private struct Skip: Decodable {
        init(from decoder: any Decoder) throws {}
    }
}

/// A cursor over ASCII bytes for the hand-written parsers above.
private struct ByteScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var atEnd: Bool { index == bytes.count }

    mutating func digit() -> Int? {
        guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
        defer { index += 1 }
        return Int(bytes[index] - UInt8(ascii: "0"))
    }

    mutating func digits(_ count: Int) -> Int? {
        var value = 0
        for _ in 0..<count {
            guard let digit = digit() else { return nil }
            value = value * 10 + digit
        }
        return value
    }

    mutating func skip(_ character: Unicode.Scalar) -> Bool { skip(anyOf: String(character)) }

    mutating func skip(anyOf characters: String) -> Bool {
        guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
        index += 1
        return true
    }

    mutating func sign() -> Int? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}
