import Foundation

/// A season (issue 37 item 1): a date range and a scoring rule. Its table is computed from
/// the events played in the range (a league night, or an ordinary round as an event of one),
/// never kept as a total that could drift. docs/requirements.md, "Seasons", has the rules.
public struct Season: Sendable, Hashable, Codable {
    public enum Rule: Sendable, Hashable, Codable {
        /// Points by place in each event, from `table` (1st, 2nd, …; past its end, none).
        /// Tied players share the points of the places they cover, evenly.
        case pointsByPlace([Int])
        /// The sum of each player's best `count` rounds' to-par; fewer rounds: not ranked.
        case bestRounds(Int)
        /// Each player's average to-par over their finished rounds; fewer than
        /// `minimumRounds`: not ranked.
        case averageToPar(minimumRounds: Int)

        /// The group's usual points table.
        public static let defaultPoints = [10, 8, 6, 5, 4, 3, 2, 1]

        /// The rule from its three optional spellings (a scenario's `rule`, a season record's
        /// fields, the CLI's options): exactly one of them is given.
        public init(points: [Int]?, bestRounds: Int?, averageToPar: Int?) throws(SeasonError) {
            switch (points, bestRounds, averageToPar) {
            case (let table?, nil, nil): self = .pointsByPlace(table)
            case (nil, let count?, nil): self = .bestRounds(count)
            case (nil, nil, let minimum?): self = .averageToPar(minimumRounds: minimum)
            default: throw .badRule("exactly one of points, bestRounds and averageToPar")
            }
        }

        /// The rule's three optional spellings, the inverse of `init(points:bestRounds:averageToPar:)`.
        public var points: [Int]? { if case .pointsByPlace(let table) = self { table } else { nil } }
        public var bestRounds: Int? { if case .bestRounds(let count) = self { count } else { nil } }
        public var averageToPar: Int? { if case .averageToPar(let minimum) = self { minimum } else { nil } }

        /// "points by place (10-8-6-5-4-3-2-1)", "best 8 rounds", "average to par (5 rounds at least)".
        public var description: String {
            switch self {
            case .pointsByPlace(let table): "points by place (\(table.map(String.init).joined(separator: "-")))"
            case .bestRounds(let count): "best \(count) round\(count == 1 ? "" : "s")"
            case .averageToPar(let minimum): "average to par (\(minimum) round\(minimum == 1 ? "" : "s") at least)"
            }
        }
    }

    /// A season set at the kiosk or the CLI is a synced record (protocol 4) under this id.
    public var id: UUID
    public var name: String
    /// The first and last days, "2026-04-01", both in the season.
    public var from: String
    public var to: String
    public var rule: Rule
    /// Ranked by net to par (issue 37 item 2): each round less the player's handicap on its
    /// course as it stood before it; a player without one counts gross, marked so.
    public var net: Bool

    /// "points by place (10-8-6-5-4-3-2-1), net".
    public var ruleDescription: String { rule.description + (net ? ", net" : "") }

    /// Longer names are refused: a name is the season page's title.
    public static let maxNameLength = 60

    public init(
        id: UUID = UUID(), name: String, from: String, to: String, rule: Rule, net: Bool = false
    ) throws(SeasonError) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .emptyName }
        guard trimmed.count <= Self.maxNameLength else { throw .longName(trimmed.count) }
        guard LeagueEvent.isDay(from), LeagueEvent.isDay(to) else { throw .badDay(LeagueEvent.isDay(from) ? to : from) }
        guard from <= to else { throw .backwards(from: from, to: to) }
        switch rule {
        case .pointsByPlace(let table):
            guard (1...Self.maxPlaces).contains(table.count), table.allSatisfy({ (0...1000).contains($0) }) else {
                throw .badRule("a points table of 1 to \(Self.maxPlaces) places, each 0 to 1000")
            }
        case .bestRounds(let count):
            guard (1...Self.maxRounds).contains(count) else { throw .badRule("best rounds between 1 and \(Self.maxRounds)") }
        case .averageToPar(let minimum):
            guard (1...Self.maxRounds).contains(minimum) else {
                throw .badRule("an average of at least 1 and at most \(Self.maxRounds) rounds")
            }
        }
        self.id = id
        self.name = trimmed
        self.from = from
        self.to = to
        self.rule = rule
        self.net = net
    }

    /// Bounds that keep a record from elsewhere sane: no season has more places worth
    /// points than a league night has players, or more rounds than a decade of weeks.
    public static let maxPlaces = 100
    public static let maxRounds = 520

    public func contains(day: String) -> Bool { day >= from && day <= to }

    /// Of `seasons`, the one `day` falls in: the latest starting (a short season set inside
    /// a long one is the one the group means), then the latest ending, then by id.
    public static func current(_ seasons: [Season], on day: String) -> Season? {
        seasons.filter { $0.contains(day: day) }.max { ($0.from, $0.to, $0.id.uuidString) < ($1.from, $1.to, $1.id.uuidString) }
    }
}

public enum SeasonError: Error, Sendable, Equatable, CustomStringConvertible {
    case emptyName
    case longName(Int)
    case badDay(String)
    case backwards(from: String, to: String)
    case badRule(String)

    public var description: String {
        switch self {
        case .emptyName: "a season needs a name"
        case .longName(let n): "a season's name has at most \(Season.maxNameLength) characters, not \(n)"
        case .badDay(let day): "\"\(day)\" is not a day (2026-04-01, say)"
        case .backwards(let from, let to): "the season ends (\(to)) before it starts (\(from))"
        case .badRule(let why): "a season's rule needs \(why)"
        }
    }
}

/// One event of a season as its table needs it: the day, and each registered player's
/// place and to-par (guests play, but a season is the group's).
public struct SeasonEvent: Sendable, Hashable {
    public struct Result: Sendable, Hashable {
        public var player: UUID
        public var name: String
        /// Competition rank in the event; nil for a DNF.
        public var position: Int?
        public var toPar: Int
        public var finished: Bool
        /// The player's handicap on the event's course before it (`SeasonEvent.handicapped`).
        public var handicap: Double?
        public init(player: UUID, name: String, position: Int?, toPar: Int, finished: Bool, handicap: Double? = nil) {
            self.player = player
            self.name = name
            self.position = position
            self.toPar = toPar
            self.finished = finished
            self.handicap = handicap
        }

        /// Net to par: less the handicap; gross without one.
        public var netToPar: Double { handicap.map { Handicap.net(toPar: toPar, handicap: $0) } ?? Double(toPar) }
    }

    public var id: UUID
    public var day: String

    /// `date`'s day in `timeZone`, as seasons and events write days ("2026-04-01").
    public static func day(of date: Date, timeZone: TimeZone = .current) -> String {
        LeagueEvent.day(of: date, in: timeZone)
    }

    /// The instant `day` ("2026-04-01") begins in `timeZone`; nil for no such day.
    public static func start(of day: String, timeZone: TimeZone) -> Date? {
        guard LeagueEvent.isDay(day) else { return nil }
        let parts = day.split(separator: "-").compactMap { Int($0) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2]))
    }

    /// The course's identity, for handicaps (a round's course, a night's).
    public var course: String
    public var results: [Result]

    public init(id: UUID, day: String, course: String = "", results: [Result]) {
        self.id = id
        self.day = day
        self.course = course
        self.results = results
    }

    /// `events` (any order, those before a season too: they make the handicaps) with each
    /// finished player's handicap on the event's course as it stood before the event, from
    /// their finished rounds there, newest first (`Handicap.value`). In day order.
    public static func handicapped(_ events: [SeasonEvent]) -> [SeasonEvent] {
        struct Key: Hashable {
            var course: String
            var player: UUID
        }
        var history: [Key: [Int]] = [:]
        var out: [SeasonEvent] = []
        for var event in inPlayOrder(events) {
            event.results = event.results.map { result in
                var result = result
                result.handicap = Handicap.value(
                    toPar: (history[Key(course: event.course, player: result.player)] ?? []).reversed())
                return result
            }
            for result in event.results where result.finished {
                history[Key(course: event.course, player: result.player), default: []].append(result.toPar)
            }
            out.append(event)
        }
        return out
    }

    /// Each of `players`' handicap on `course` before `day`, from their finished rounds there
    /// on earlier days in `history` (counted: merges applied), newest first; a player with
    /// too few has none. What a league night ranked by net gives its players (issue 37).
    public static func handicaps(
        of players: Set<UUID>, course: String, before day: String, history: [SeasonEvent]
    )
        -> [UUID: Double]
    {
        var rounds: [UUID: [Int]] = [:]
        for event in inPlayOrder(history) where event.course == course && event.day < day {
            for result in event.results where result.finished && players.contains(result.player) {
                rounds[result.player, default: []].append(result.toPar)
            }
        }
        return rounds.compactMapValues { Handicap.value(toPar: $0.reversed()) }
    }

    /// A league night's handicaps (issue 37), by participant: each registered player's on
    /// the night's course before its day, a merged player's rounds counted as whom they
    /// became (`history` counted with the same `merges`); a guest has none. The kiosk's
    /// store and the server's board both ask this.
    public static func handicaps(
        of night: LeagueEvent, players: [Participant], merges: PlayerMerges, history: [SeasonEvent]
    ) -> [UUID: Double] {
        let members = players.filter { !$0.isGuest }.map(\.id)
        let handicaps = Self.handicaps(
            of: Set(members.map(merges.canonical)), course: night.courseID.uuidString, before: night.day,
            history: history)
        var out: [UUID: Double] = [:]
        for player in members { out[player] = handicaps[merges.canonical(player)] }
        return out
    }

    /// By day, then by id (the same order on every device); no id is made a string.
    static func inPlayOrder(_ events: [SeasonEvent]) -> [SeasonEvent] {
        events.sorted { $0.day != $1.day ? $0.day < $1.day : $0.id.precedes($1.id) }
    }

    /// An event from its standings: registered players only, ranked again among themselves
    /// (`guests` left out: a guest who wins a night takes no member's place in the season),
    /// by gross: a night ranked by net counts in a season as the season's rule says.
    public init(id: UUID, day: String, course: String = "", standings: [Standing], guests: Set<UUID>) {
        let members = standings.filter { !guests.contains($0.participantID) }.map { row in
            var row = row
            row.netTenths = nil
            return row
        }
        self.init(
            id: id, day: day, course: course,
            results: StandingsEngine.rank(members).rows.map {
                Result(
                    player: $0.participantID, name: $0.name, position: $0.position, toPar: $0.toPar,
                    finished: $0.status != .dnf)
            })
    }

    /// A round that is no league night's card: an event of one, on the day it started in
    /// `timeZone`. A device's store and the group server's board make them alike.
    public init(round snapshot: RoundSnapshot, timeZone: TimeZone) {
        let round = snapshot.round
        self.init(
            id: round.id, day: Self.day(of: round.startedAt ?? round.createdAt, timeZone: timeZone),
            course: round.courseID.uuidString, standings: snapshot.standings.rows,
            guests: Set(round.participants.filter(\.isGuest).map(\.id)))
    }

    /// A league night: one event, every card's players ranked together, on the night's day.
    public init(night: LeagueNightSnapshot) {
        self.init(
            id: night.event.id, day: night.event.day, course: night.event.courseID.uuidString,
            standings: night.results.standings.standings.rows, guests: Set(night.participants.filter(\.isGuest).map(\.id)))
    }

    /// `events` as the group counts them: a merged player's results are the player they were
    /// merged into (as history counts them), under that player's name now (`names`).
    public static func counted(_ events: [SeasonEvent], merges: PlayerMerges, names: [UUID: String]) -> [SeasonEvent] {
        events.map { event in
            var event = event
            event.results = event.results.map { result in
                var result = result
                result.player = merges.canonical(result.player)
                result.name = names[result.player] ?? result.name
                return result
            }
            return event
        }
    }
}

/// A season's table: every player who played an event in it, ranked by its rule.
public struct SeasonTable: Sendable, Hashable {
    public struct Row: Sendable, Hashable {
        public var player: UUID
        public var name: String
        /// Competition rank; nil when the rule does not rank them yet (too few rounds).
        public var position: Int?
        public var tied: Bool
        /// Points, a to-par sum, or an average to-par.
        public var value: Double
        /// The value as shown: "24", "+3", "−1.4" ("-1.4" here; the screens use their minus).
        public var valueText: String
        /// Events played in the season (a DNF counts: they came).
        public var attended: Int
        /// Rounds the rule counted.
        public var counted: Int
        /// Ranked by net, but some of the player's rounds counted gross (no handicap yet).
        public var gross: Bool

        public var positionLabel: String { Standing.positionLabel(position, tied: tied) }
    }

    public var season: Season
    public var rows: [Row]
    /// Events in the season.
    public var events: Int

    public init(season: Season, events all: [SeasonEvent]) {
        self.season = season
        let events = all.filter { season.contains(day: $0.day) }
        self.events = events.count
        var names: [UUID: String] = [:]
        var attended: [UUID: Int] = [:]
        var rounds: [UUID: [Double]] = [:]
        var points: [UUID: Double] = [:]
        var gross: Set<UUID> = []
        for event in SeasonEvent.inPlayOrder(events) {
            var results = event.results
            if season.net {
                // Each event ranked again by net to par (a DNF stays unranked).
                // Competition rank: 1 + how many finished ahead (the order needs no sort).
                let finished = results.filter(\.finished)
                results = results.map { result in
                    var result = result
                    result.position = result.finished ? 1 + finished.filter { $0.netToPar < result.netToPar - 1e-9 }.count : nil
                    return result
                }
            }
            for result in results {
                names[result.player] = result.name
                attended[result.player, default: 0] += 1
                if result.finished {
                    rounds[result.player, default: []].append(season.net ? result.netToPar : Double(result.toPar))
                }
                if season.net, result.handicap == nil { gross.insert(result.player) }
            }
            if case .pointsByPlace(let table) = season.rule {
                for (player, share) in Self.points(results, table: table) { points[player, default: 0] += share }
            }
        }
        var rows: [Row] = []
        for (player, name) in names {
            let played = rounds[player] ?? []
            let value: Double?
            let counted: Int
            switch season.rule {
            case .pointsByPlace:
                value = points[player] ?? 0
                counted = played.count
            case .bestRounds(let count):
                counted = min(count, played.count)
                value = played.count >= count ? played.sorted().prefix(count).reduce(0, +) : nil
            case .averageToPar(let minimum):
                counted = played.count
                value = played.count >= minimum ? played.reduce(0, +) / Double(played.count) : nil
            }
            rows.append(
                Row(
                    player: player, name: name, position: value == nil ? nil : 0, tied: false, value: value ?? 0,
                    valueText: value.map { Self.text($0, rule: season.rule, net: season.net) }
                        ?? "\(counted) of \(Self.needed(season.rule))",
                    attended: attended[player] ?? 0, counted: counted, gross: gross.contains(player)))
        }
        // Points: the most first; to par: the least first. Then by name, as the board does.
        let higherIsBetter = if case .pointsByPlace = season.rule { true } else { false }
        func better(_ a: Row, _ b: Row) -> Bool {
            if (a.position == nil) != (b.position == nil) { return a.position != nil }
            if a.position != nil, a.value != b.value { return higherIsBetter ? a.value > b.value : a.value < b.value }
            if a.position == nil, a.counted != b.counted { return a.counted > b.counted }
            return a.name.localizedCaseInsensitiveCompare(b.name) == .orderedAscending
        }
        rows.sort(by: better)
        var index = 0
        while index < rows.count, rows[index].position != nil {
            var end = index + 1
            while end < rows.count, rows[end].position != nil, abs(rows[end].value - rows[index].value) < 1e-9 { end += 1 }
            for i in index..<end {
                rows[i].position = index + 1
                rows[i].tied = end - index > 1
            }
            index = end
        }
        self.rows = rows
    }

    /// One event's points: each place's from the table; players tied over places p…q
    /// share those places' points evenly; a DNF none.
    static func points(_ results: [SeasonEvent.Result], table: [Int]) -> [UUID: Double] {
        var byPosition: [Int: [UUID]] = [:]
        for result in results { if let position = result.position { byPosition[position, default: []].append(result.player) } }
        var out: [UUID: Double] = [:]
        for (position, players) in byPosition {
            let places = (position - 1)..<(position - 1 + players.count)
            let total = places.map { $0 < table.count ? table[$0] : 0 }.reduce(0, +)
            for player in players { out[player] = Double(total) / Double(players.count) }
        }
        return out
    }

    static func needed(_ rule: Season.Rule) -> Int {
        switch rule {
        case .pointsByPlace: 0
        case .bestRounds(let count): count
        case .averageToPar(let minimum): minimum
        }
    }

    /// Points without needless decimals ("24", "7.5"); to par signed ("+3", "E", "-1.4").
    static func text(_ value: Double, rule: Season.Rule, net: Bool = false) -> String {
        switch rule {
        case .pointsByPlace:
            return value == value.rounded() ? "\(Int(value))" : String(format: "%.1f", value)
        case .bestRounds where !net: return ScoreFormat.toPar(Int(value.rounded()))
        case .bestRounds, .averageToPar: return ScoreFormat.toPar(tenths: value)
        }
    }
}
