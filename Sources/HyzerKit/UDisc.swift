import Foundation

/// UDisc's scorecard export (issue 37 item 4): one CSV row a player a round, the round's
/// pars in a row whose PlayerName is "Par", in either header form seen in the wild:
///
/// - older: `PlayerName, CourseName, LayoutName, Date, Total, +/-, Hole1…HoleN`;
/// - newer: `PlayerName, CourseName, LayoutName, StartDate, EndDate, Total, +/-, RoundRating, Hole1…HoleN`.
///
/// Columns are found by name, so their order and any extra column do not matter; holes run
/// as far as the header's `HoleN` go (past 18 too). Reading is a stream: `CSVReader` turns
/// bytes into records as they come, and `UDiscReader` turns records into rounds, a round
/// given out as soon as a row of another one starts, so a file of any length is read in
/// one pass with one round in memory. A row that cannot be read refuses its whole round,
/// with the row's line number; the other rounds are read on. Pure: the store writes.
public enum UDisc {
    /// What a round is called in the export: the Par row's player name.
    public static let parRow = "Par"
    /// The device id imported scores carry (issue 37 item 5): where a score came from is
    /// said as "imported from UDisc".
    public static let importDeviceID = "udisc-import"

    /// One round as read: its course and layout as written, when it was played, the pars,
    /// and each player's strokes by hole (nil: not entered).
    public struct Round: Sendable, Equatable {
        /// The line of its first row (the Par row, usually).
        public var line: Int
        public var course: String
        public var layout: String
        public var start: Date
        public var end: Date?
        /// The date as written: with the course, layout and players, the round's identity.
        public var dateText: String
        public var pars: [Int]
        public var players: [Player]

        public struct Player: Sendable, Equatable {
            public var line: Int
            public var name: String
            public var strokes: [Int?]
        }

        /// What makes two imports of the same round one round: the course, layout and
        /// date as written and the players' names, case and order aside.
        public var key: String {
            (["udisc", course, layout, dateText] + players.map(\.name).sorted()).map { $0.lowercased() }
                .joined(separator: "\u{1F}")
        }

        /// The round's id, the same for the same round on every import on every device,
        /// so a second import (or a device that imports a file another already did) adds
        /// nothing.
        public var roundID: UUID { StableID.uuid(key) }

        /// A score's id: the same on every import.
        public func eventID(player: String, hole: Int) -> UUID {
            StableID.uuid(key + "\u{1F}" + player.lowercased() + "\u{1F}\(hole)")
        }

        /// The name its course is kept under: "Course · Layout" (the course alone when
        /// the layout is empty), at most `Course.maxNameLength` characters.
        public var courseName: String {
            let name = layout.isEmpty ? course : "\(course)\(UDisc.layoutSeparator)\(layout)"
            return String(name.prefix(Course.maxNameLength)).trimmingCharacters(in: .whitespaces)
        }
    }

    /// Between a course's name and its layout in a name made by an import.
    public static let layoutSeparator = " · "

    /// A row or round that cannot be read: the line, and why.
    public struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        public var line: Int
        public var reason: String
        public init(line: Int, reason: String) {
            self.line = line
            self.reason = reason
        }
        public var description: String { "line \(line): \(reason)" }
    }

    /// Where the columns are.
    public struct Header: Sendable, Equatable {
        var player, course, layout, date: Int
        var end: Int?
        var total: Int?
        /// The hole columns, hole 1 first.
        var holes: [Int]

        /// The header of a UDisc export, or why it is not one.
        public static func read(_ fields: [String]) throws(Problem) -> Header {
            let names = fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            func column(_ name: String) -> Int? { names.firstIndex(of: name) }
            guard let player = column("playername"), let course = column("coursename"), let layout = column("layoutname")
            else {
                throw Problem(line: 1, reason: "not a UDisc export: the header has no PlayerName, CourseName and LayoutName")
            }
            guard let date = column("startdate") ?? column("date") else {
                throw Problem(line: 1, reason: "not a UDisc export: the header has neither Date nor StartDate")
            }
            var holes: [Int: Int] = [:]
            for (index, name) in names.enumerated() where name.hasPrefix("hole") {
                guard let hole = Int(name.dropFirst(4)), hole >= 1 else { continue }
                holes[hole] = index
            }
            guard !holes.isEmpty, holes.count == holes.keys.max() else {
                throw Problem(line: 1, reason: "the header's hole columns must run Hole1, Hole2, … without a gap")
            }
            guard holes.count <= Course.allowedHoleCounts.upperBound else {
                throw Problem(
                    line: 1, reason: "\(holes.count) holes: Hyzer keeps courses of up to \(Course.allowedHoleCounts.upperBound)")
            }
            return Header(
                player: player, course: course, layout: layout, date: date, end: column("enddate"), total: column("total"),
                holes: (1...holes.count).map { holes[$0]! })
        }
    }

    /// Reads an export's dates: "2024-05-14 1724" (UDisc's own), with a colon, with seconds,
    /// ISO 8601's "T", or a day alone, in `calendar`'s time zone (the export says none).
    /// By hand, with a calendar made once, not with a `DateFormatter` (one made for each
    /// row, trying six formats, took a second for ten years of rows).
    static func date(_ text: String, calendar: Calendar) -> Date? {
        let u = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= u.count else { return nil }
            var value = 0
            for i in range {
                guard (48...57).contains(u[i]) else { return nil }
                value = value * 10 + Int(u[i] - 48)
            }
            return value
        }
        let dash: UInt8 = 45
        let colon: UInt8 = 58
        guard u.count >= 10, let year = number(0..<4), u[4] == dash, let month = number(5..<7), u[7] == dash,
            let day = number(8..<10)
        else { return nil }
        var (hour, minute, second) = (0, 0, 0)
        if u.count > 10 {
            // A space or ISO's "T", then HHmm, HH:mm or HH:mm:ss.
            guard u[10] == 32 || u[10] == 84 else { return nil }
            switch u.count - 11 {
            case 4:
                guard let h = number(11..<13), let m = number(13..<15) else { return nil }
                (hour, minute) = (h, m)
            case 5:
                guard let h = number(11..<13), u[13] == colon, let m = number(14..<16) else { return nil }
                (hour, minute) = (h, m)
            case 8:
                guard let h = number(11..<13), u[13] == colon, let m = number(14..<16), u[16] == colon,
                    let sec = number(17..<19)
                else { return nil }
                (hour, minute, second) = (h, m, sec)
            default: return nil
            }
        }
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
            (0...59).contains(second),
            let date = calendar.date(
                from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)),
            calendar.component(.day, from: date) == day
        else { return nil }
        return date
    }

    /// A date as the export writes it: "2024-05-14 1724".
    public static func dateText(_ date: Date, in timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HHmm"
        return formatter.string(from: date)
    }

    /// The newer header, for `hyzer export csv`.
    public static func header(holes: Int) -> [String] {
        ["PlayerName", "CourseName", "LayoutName", "StartDate", "EndDate", "Total", "+/-", "RoundRating"]
            + (1...max(1, holes)).map { "Hole\($0)" }
    }

    /// One round as export rows: the Par row, then each player's; `holes` columns wide.
    public static func rows(
        course: String, layout: String, start: Date, end: Date?, pars: [Int], players: [(name: String, strokes: [Int?])],
        holes: Int, timeZone: TimeZone
    ) -> [[String]] {
        // Once a round: every row of it says the same dates.
        let startText = dateText(start, in: timeZone)
        let endText = end.map { dateText($0, in: timeZone) } ?? ""
        func row(_ name: String, _ values: [Int?]) -> [String] {
            let played = values.compactMap { $0 }
            let total = played.reduce(0, +)
            let parPlayed = zip(values, pars).filter { $0.0 != nil }.map(\.1).reduce(0, +)
            let plus = total - parPlayed
            return [
                name, course, layout, startText, endText,
                "\(total)", name == parRow ? "" : plus == 0 ? "0" : plus > 0 ? "+\(plus)" : "\(plus)", "",
            ] + (0..<holes).map { $0 < values.count ? values[$0].map(String.init) ?? "" : "" }
        }
        return [row(parRow, pars.map { $0 })] + players.map { row($0.name, $0.strokes) }
    }

    /// A field as CSV writes it: quoted when it holds a comma, a quote or a line break.
    public static func csvField(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

/// Rounds from an export's records, in file order (`UDisc` has the format). Give it each
/// record with its line; it gives back each round once its last row has been read, or the
/// problem that refuses it.
public struct UDiscReader: Sendable {
    public enum Outcome: Sendable, Equatable {
        case round(UDisc.Round)
        /// A round not read, with the first problem found in it; its other rows are skipped.
        case refused(UDisc.Problem)
    }

    public private(set) var header: UDisc.Header?
    /// The header was not a UDisc export's: nothing after it is read.
    private var failed = false
    let calendar: Calendar
    /// The round being read: its identity columns and rows so far, or its first problem.
    private var current: (identity: [String], round: UDisc.Round?, problem: UDisc.Problem?)?

    public init(timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// One record (a CSV row's fields) and its line number (the first line of the row).
    public mutating func add(_ fields: [String], line: Int) -> [Outcome] {
        guard !failed else { return [] }
        guard let header else {
            do throws(UDisc.Problem) {
                header = try UDisc.Header.read(fields)
                return []
            } catch {
                var refusal = error
                refusal.line = line
                failed = true
                return [.refused(refusal)]
            }
        }
        // A blank line (a trailing one, say) is nothing.
        if fields.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { return [] }
        func field(_ index: Int?) -> String {
            guard let index, index < fields.count else { return "" }
            return fields[index].trimmingCharacters(in: .whitespaces)
        }
        let identity = [field(header.course), field(header.layout), field(header.date)].map { $0.lowercased() }
        var out: [Outcome] = []
        if let current, current.identity != identity { out += finishCurrent() }
        if current == nil { current = (identity, nil, nil) }
        guard current?.problem == nil else { return out }
        do throws(UDisc.Problem) {
            try read(fields, line: line, header: header, field: field)
        } catch {
            current?.problem = error
            current?.round = nil
        }
        return out
    }

    /// The end of the file: the last round.
    public mutating func finish() -> [Outcome] {
        guard !failed else { return [] }
        guard header != nil else { return [.refused(UDisc.Problem(line: 1, reason: "the file is empty"))] }
        return finishCurrent()
    }

    private mutating func finishCurrent() -> [Outcome] {
        guard let ended = current else { return [] }
        current = nil
        if let problem = ended.problem { return [.refused(problem)] }
        guard let round = ended.round else { return [] }
        guard !round.pars.isEmpty else {
            return [.refused(UDisc.Problem(line: round.line, reason: "this round has no \"Par\" row: its pars are unknown"))]
        }
        guard !round.players.isEmpty else {
            return [.refused(UDisc.Problem(line: round.line, reason: "this round has a Par row but no player"))]
        }
        var checked = round
        for player in round.players {
            // A player's scores past the round's last hole, or a round whose Par row came late.
            if player.strokes.count > round.pars.count,
                player.strokes[round.pars.count...].contains(where: { $0 != nil })
            {
                return [
                    .refused(
                        UDisc.Problem(
                            line: player.line, reason: "\(player.name) has a score past the round's \(round.pars.count) holes"))
                ]
            }
        }
        checked.players = round.players.map { player in
            var player = player
            player.strokes = Array(player.strokes.prefix(round.pars.count))
            return player
        }
        return [.round(checked)]
    }

    private mutating func read(
        _ fields: [String], line: Int, header: UDisc.Header, field: (Int?) -> String
    ) throws(UDisc.Problem) {
        let name = field(header.player)
        guard !name.isEmpty else { throw UDisc.Problem(line: line, reason: "the row has no PlayerName") }
        let courseName = field(header.course)
        guard !courseName.isEmpty else { throw UDisc.Problem(line: line, reason: "the row has no CourseName") }
        // The dates are read once a round (its rows share them: they are part of what
        // makes the round one).
        var round: UDisc.Round
        if let current = current?.round {
            round = current
        } else {
            let dateText = field(header.date)
            guard let start = UDisc.date(dateText, calendar: calendar) else {
                throw UDisc.Problem(line: line, reason: "\"\(dateText)\" is not a date (2024-05-14 1724, say)")
            }
            let endText = field(header.end)
            let end = endText.isEmpty ? nil : UDisc.date(endText, calendar: calendar)
            if !endText.isEmpty, end == nil {
                throw UDisc.Problem(line: line, reason: "\"\(endText)\" is not a date (EndDate)")
            }
            round = UDisc.Round(
                line: line, course: courseName, layout: field(header.layout), start: start, end: end, dateText: dateText,
                pars: [], players: [])
        }
        var values: [Int?] = []
        for (index, column) in header.holes.enumerated() {
            let text = field(column)
            guard !text.isEmpty else {
                values.append(nil)
                continue
            }
            guard let value = Int(text) else {
                throw UDisc.Problem(line: line, reason: "\(name)'s hole \(index + 1) is \"\(text)\", not a number")
            }
            values.append(value)
        }
        while values.last == .some(nil) { values.removeLast() }
        if name.caseInsensitiveCompare(UDisc.parRow) == .orderedSame {
            guard round.pars.isEmpty else { throw UDisc.Problem(line: line, reason: "a second Par row for this round") }
            guard !values.isEmpty, !values.contains(where: { $0 == nil }) else {
                throw UDisc.Problem(line: line, reason: "the Par row must give every hole a par, from hole 1 without a gap")
            }
            let pars = values.compactMap { $0 }
            if let bad = pars.firstIndex(where: { !Course.allowedPars.contains($0) }) {
                throw UDisc.Problem(
                    line: line,
                    reason:
                        "par \(pars[bad]) on hole \(bad + 1): Hyzer keeps pars of \(Course.allowedPars.lowerBound) to \(Course.allowedPars.upperBound)"
                )
            }
            round.pars = pars
        } else {
            guard !round.players.contains(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) else {
                throw UDisc.Problem(line: line, reason: "\(name) has two rows in this round")
            }
            if let bad = values.firstIndex(where: { $0.map { !ScoreEvent.allowedStrokes.contains($0) } ?? false }),
                let strokes = values[bad]
            {
                throw UDisc.Problem(
                    line: line,
                    reason:
                        "\(name) took \(strokes) on hole \(bad + 1): Hyzer keeps \(ScoreEvent.allowedStrokes.lowerBound) to \(ScoreEvent.allowedStrokes.upperBound) strokes a hole"
                )
            }
            guard values.contains(where: { $0 != nil }) else {
                throw UDisc.Problem(line: line, reason: "\(name) has no score on any hole")
            }
            guard round.players.count < Round.maxParticipants else {
                throw UDisc.Problem(line: line, reason: "more than \(Round.maxParticipants) players in one round")
            }
            round.players.append(.init(line: line, name: name, strokes: values))
        }
        current?.round = round
    }
}

/// CSV (RFC 4180: quoted fields, doubled quotes, line breaks inside quotes, CRLF or LF, a
/// UTF-8 byte-order mark) read from bytes as they come: `feed` a chunk, get the records it
/// completed, each with the line it starts on.
public struct CSVReader: Sendable {
    private var field: [UInt8] = []
    private var fields: [String] = []
    private var quoted = false
    /// Just after a closing quote, inside a quoted field (a second quote is a literal one).
    private var quoteSeen = false
    private var atFieldStart = true
    private var line = 1
    private var recordLine = 1
    private var pendingCR = false
    /// The file's first bytes while they may still be a byte-order mark; nil once settled.
    private var head: [UInt8]? = []

    public init() {}

    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [(fields: [String], line: Int)]
    where Bytes.Element == UInt8 {
        var records: [(fields: [String], line: Int)] = []
        for byte in bytes { consume(byte, into: &records) }
        return records
    }

    /// The end of the input: the last record, if it had no line break after it.
    public mutating func finish() -> [(fields: [String], line: Int)] {
        var records: [(fields: [String], line: Int)] = []
        if let kept = head {
            head = nil
            for byte in kept { plain(byte, into: &records) }
        }
        guard !field.isEmpty || !fields.isEmpty || !atFieldStart else { return [] }
        endField()
        records.append((fields, recordLine))
        fields = []
        return records
    }

    private mutating func consume(_ byte: UInt8, into records: inout [(fields: [String], line: Int)]) {
        guard var kept = head else { return plain(byte, into: &records) }
        kept.append(byte)
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        if mark.starts(with: kept) {
            // A byte-order mark so far: dropped once whole.
            head = kept.count == mark.count ? nil : kept
            return
        }
        // Not one after all: what was kept is the file's start.
        head = nil
        for b in kept { plain(b, into: &records) }
    }

    private mutating func plain(_ byte: UInt8, into records: inout [(fields: [String], line: Int)]) {
        let quote: UInt8 = 0x22
        let comma: UInt8 = 0x2C
        let lf: UInt8 = 0x0A
        let cr: UInt8 = 0x0D
        if pendingCR {
            pendingCR = false
            if byte == lf { return }
        }
        if quoted {
            if quoteSeen {
                quoteSeen = false
                if byte == quote {
                    field.append(quote)
                    return
                }
                quoted = false
                // fall through: the byte after a closing quote
            } else if byte == quote {
                quoteSeen = true
                return
            } else {
                if byte == lf { line += 1 }
                field.append(byte)
                return
            }
        }
        switch byte {
        case quote where atFieldStart:
            quoted = true
            atFieldStart = false
        case comma:
            endField()
        case lf, cr:
            endField()
            records.append((fields, recordLine))
            fields = []
            line += 1
            recordLine = line
            if byte == cr { pendingCR = true }
        default:
            atFieldStart = false
            field.append(byte)
        }
    }

    private mutating func endField() {
        fields.append(String(decoding: field, as: UTF8.self))
        field = []
        atFieldStart = true
        quoted = false
        quoteSeen = false
    }
}

/// Ids made from a name: the same name gives the same UUID on every device (FNV-1a, two
/// 64-bit halves with different offsets; marked version 8, "custom", RFC 9562). Not a
/// secret and not for security: only for "the same round imported twice is one round".
public enum StableID {
    public static func uuid(_ name: String) -> UUID {
        func fnv(_ offset: UInt64) -> UInt64 {
            var hash = offset
            for byte in name.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
            return hash
        }
        let high = fnv(0xCBF2_9CE4_8422_2325)
        let low = fnv(0x6C62_272E_07BB_0142)
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in 0..<8 {
            bytes[i] = UInt8(truncatingIfNeeded: high >> (56 - 8 * UInt64(i)))
            bytes[8 + i] = UInt8(truncatingIfNeeded: low >> (56 - 8 * UInt64(i)))
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // the RFC's variant
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }
}
