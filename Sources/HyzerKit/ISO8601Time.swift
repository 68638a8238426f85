import Foundation

/// The one reader and writer of ISO 8601 / RFC 3339 times in the project (scenario files,
/// `sync-server.json`, anything a person or another program hands us).
///
/// It accepts what real producers write: `2026-11-21T14:45:06Z`, any number of fractional
/// digits (`.464Z` from JavaScript's `toISOString()`, `.464437Z` from Python), and numeric
/// offsets (`+02:00`, `-0530`) as well as `Z`. `ISO8601DateFormatter()` with its default
/// options refuses the fractional forms, and `Foundation`'s format styles need to be told in
/// advance whether a fraction is present; a small parser of our own takes both, behaves the
/// same on every platform, and can say what is wrong with a bad time.
public enum ISO8601Time {
    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The refused text, as given.
        public var text: String
        /// What is wrong with it, for a person.
        public var reason: String

        public var description: String { "\"\(text)\" is not an ISO 8601 time (\(reason))" }
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM|±HHMM)`; `T` may be `t` or a space and `Z`
    /// may be `z`, as RFC 3339 allows. A time without a zone is refused: it names no instant.
    public static func date(from text: String) throws(ParseError) -> Date {
        var scanner = Scanner(Array(text.utf8))
        func fail(_ reason: String) -> ParseError { ParseError(text: text, reason: reason) }

        guard let year = scanner.digits(4) else { throw fail("expected a 4-digit year") }
        guard scanner.take(UInt8(ascii: "-")), let month = scanner.digits(2) else { throw fail("expected -MM after the year") }
        guard scanner.take(UInt8(ascii: "-")), let day = scanner.digits(2) else { throw fail("expected -DD after the month") }
        guard (1...12).contains(month) else { throw fail("month \(month) is not 1-12") }
        guard (1...daysIn(month: month, year: year)).contains(day) else { throw fail("day \(day) is not in that month") }
        guard let separator = scanner.next(), [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(separator)
        else { throw fail("expected T and a time of day after the date") }
        guard let hour = scanner.digits(2), scanner.take(UInt8(ascii: ":")), let minute = scanner.digits(2),
            scanner.take(UInt8(ascii: ":")), let second = scanner.digits(2)
        else { throw fail("expected HH:MM:SS") }
        // 60 is a leap second; it counts as the first instant of the next minute.
        guard hour < 24, minute < 60, second <= 60 else { throw fail("time of day out of range") }

        var fraction = 0.0
        if scanner.take(UInt8(ascii: ".")) || scanner.take(UInt8(ascii: ",")) {
            var scale = 0.1
            var count = 0
            while let digit = scanner.digit() {
                fraction += Double(digit) * scale
                scale /= 10
                count += 1
            }
            guard count > 0 else { throw fail("expected digits after the decimal point") }
        }

        let offsetSeconds: Int
        switch scanner.next() {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            offsetSeconds = 0
        case let sign? where sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"):
            guard let hours = scanner.digits(2) else { throw fail("expected HH:MM after the offset's sign") }
            _ = scanner.take(UInt8(ascii: ":"))
            guard let minutes = scanner.digits(2) else { throw fail("expected HH:MM after the offset's sign") }
            guard hours < 24, minutes < 60 else { throw fail("offset out of range") }
            offsetSeconds = (sign == UInt8(ascii: "+") ? 1 : -1) * (hours * 3600 + minutes * 60)
        case nil:
            throw fail("no time zone: add Z or an offset such as +02:00")
        default:
            throw fail("expected Z or an offset such as +02:00 after the time")
        }
        guard scanner.atEnd else { throw fail("unexpected text after the time zone") }

        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + fraction)
    }

    /// `2026-11-21T14:45:06Z`, or with milliseconds (`2026-11-21T14:45:06.464Z`), in UTC: the
    /// form every reader of ours (and every other RFC 3339 reader) accepts.
    public static func string(from date: Date, fractionalSeconds: Bool = false) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: fractionalSeconds, timeZone: .gmt))
    }

    // MARK: Calendar arithmetic (proleptic Gregorian, as ISO 8601 specifies)

    static func isLeap(_ year: Int) -> Bool { (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to the given civil date (H. Hinnant's `days_from_civil`).
    static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Reads ASCII bytes one at a time.
    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var atEnd: Bool { index == bytes.count }

        mutating func next() -> UInt8? {
            guard index < bytes.count else { return nil }
            defer { index += 1 }
            return bytes[index]
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        mutating func digit() -> Int? {
            guard index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) else { return nil }
            defer { index += 1 }
            return Int(bytes[index] - UInt8(ascii: "0"))
        }

        /// Exactly `count` digits as a number, or nil (and nothing consumed past the first non-digit).
        mutating func digits(_ count: Int) -> Int? {
            var value = 0
            for _ in 0..<count {
                guard let d = digit() else { return nil }
                value = value * 10 + d
            }
            return value
        }
    }
}

extension JSONDecoder.DateDecodingStrategy {
    /// ISO 8601 times as `ISO8601Time.date(from:)` reads them (fractional seconds, offsets).
    public static var hyzerISO8601: Self {
        .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            do {
                return try ISO8601Time.date(from: text)
            } catch {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(error)")
            }
        }
    }
}

extension JSONEncoder.DateEncodingStrategy {
    /// Times as `ISO8601Time.string(from:)` writes them (`2026-11-21T14:45:06Z`).
    public static var hyzerISO8601: Self {
        .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(ISO8601Time.string(from: date))
        }
    }
}
