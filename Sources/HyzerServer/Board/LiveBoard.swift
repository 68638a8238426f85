import Foundation
import HyzerKit
import HyzerSyncProtocol

/// What the live board page shows: a group's rounds in play (or, when none is, its last
/// finished round), each with standings computed by the same HyzerKit rules every device
/// uses (`Scorecard`, `StandingsEngine`, `ScoreFormat`), so a TV on the clubhouse wall and
/// the kiosk at the first tee can never disagree on a position, a tie or a DNF.
///
/// The page only lays this out: every label ("T2", "+3", "thru 7", "DNF") is decided here.
public struct LiveBoard: Codable, Sendable, Hashable {
    public struct Group: Codable, Sendable, Hashable {
        public var id: String
        public var name: String
    }

    public struct Row: Codable, Sendable, Hashable {
        /// "1", "T2", or "–" for DNF.
        public var position: String
        public var name: String
        public var guest: Bool
        /// "E", "+3", "-2" (DNF rows keep the to-par of the holes they played). On a night
        /// ranked by net, the net to a tenth ("+1.5") for a player with a handicap.
        public var toPar: String
        /// The sign alone, for the page's colour (never colour alone: the text says it too).
        public var toParValue: Int
        /// "thru 7", "F" or "DNF".
        public var progress: String
        public var strokes: Int
        /// On a league night's board (issue 36): the player's card, "A". Absent otherwise.
        public var card: String?
        /// On a night ranked by net (issue 37): the gross to par ("+3") beside the net one,
        /// and the handicap given ("+1.5"); absent for a player ranked gross, and elsewhere.
        public var gross: String?
        public var handicap: String?
        /// On a night ranked by net: true for a player ranked gross (no handicap yet).
        public var rankedGross: Bool?
    }

    /// A league night (issue 36): every card's players ranked together, and the side games.
    public struct Night: Codable, Sendable, Hashable {
        public struct Card: Codable, Sendable, Hashable {
            public var letter: String
            public var startHole: Int
            /// "thru 4", "all in" or "final".
            public var progress: String
        }

        public var id: UUID
        public var name: String
        public var day: String
        public var course: String
        public var holes: Int
        public var par: Int
        /// "live" while a card is played, else "final".
        public var status: String
        /// Ranked by net (issue 37): the page says "net" in its header. Absent when gross.
        public var net: Bool?
        public var cards: [Card]
        public var rows: [Row]
        /// One line a skins game: "Skins: Bo 2, Ann 1 · hole 4 is worth 2".
        public var skins: [String]
        /// "Closest to the pin, hole 7: Gus" (or "not entered yet").
        public var closestToPin: [String]
        /// "Bo on hole 3".
        public var aces: [String]
    }

    public struct Round: Codable, Sendable, Hashable {
        public var id: UUID
        public var course: String
        public var holes: Int
        public var par: Int
        /// "active", "awaitingFinalization" or "completed".
        public var status: String
        public var startedAt: Double?
        public var completedAt: Double?
        /// Cells where devices disagree, not yet resolved (the kiosk's "N to check" badge).
        public var discrepancies: Int
        public var rows: [Row]
    }

    public var group: Group
    /// The group's feed head this board was computed at: the page ignores an older board
    /// arriving after a newer one.
    public var head: Int64
    /// Newest first. Empty for a group that has never finished or started a round. A
    /// league night's cards are not here but in `nights`.
    public var rounds: [Round]
    /// League nights being played (or the one that finished last), newest first. Absent
    /// (not an empty list) when there is none, so a board without one is the same bytes as
    /// before league nights.
    public var nights: [Night]?
    /// The season today falls in (issue 37), while nothing is being played; absent otherwise
    /// and for a group without seasons.
    public var season: SeasonTable?

    public init(group: Group, head: Int64, rounds: [Round], nights: [Night]? = nil, season: SeasonTable? = nil) {
        self.group = group
        self.head = head
        self.rounds = rounds
        self.nights = nights
        self.season = season
    }
}

/// The current records a board is computed from, as the storage read them in one
/// transaction. Records that fail the domain's validation are left out, never guessed at.
public struct LiveBoardSource: Sendable {
    public var group: GroupInfo
    public var head: Int64
    /// The rounds to show, in any order.
    public var rounds: [RoundRecord]
    public var courses: [UUID: CourseRecord]
    /// Every score event of those rounds, by round id, in any order.
    public var events: [UUID: [ScoreEvent]]
    /// League nights whose cards are among `rounds` (all their cards are then in `rounds`).
    public var nights: [EventRecord]
    /// A night ranked by net: its players' handicaps, by night (`NightHandicapCache`).
    public var handicaps: [UUID: [UUID: Double]] = [:]

    public init(
        group: GroupInfo, head: Int64, rounds: [RoundRecord], courses: [UUID: CourseRecord], events: [UUID: [ScoreEvent]],
        nights: [EventRecord] = []
    ) {
        self.group = group
        self.head = head
        self.rounds = rounds
        self.courses = courses
        self.events = events
        self.nights = nights
    }

    /// How many of a group's newest league nights a board looks at for the rounds it shows.
    static let nightsLookedAt = 20

    /// Of `nights` (current records, any order), those not discarded with a card among
    /// `rounds`, newest first: the nights a board with these rounds shows.
    static func nights(showing rounds: Set<UUID>, among nights: [EventRecord]) -> [EventRecord] {
        nights.filter { $0.discarded != true && $0.rounds.contains(where: rounds.contains) }
            .sorted { ($0.day, $0.createdAt, $0.id.uuidString) > ($1.day, $1.createdAt, $1.id.uuidString) }
    }
}

extension LiveBoard {
    /// Pure: the same source always gives the same board.
    public init(_ source: LiveBoardSource) {
        let nights = source.nights.compactMap { Self.night($0, source) }
        let cards = Set(nights.isEmpty ? [] : source.nights.flatMap(\.rounds))
        var rounds = source.rounds.filter { !cards.contains($0.id) }.compactMap { Self.round($0, source) }
        // Newest first: the round started last is the one a glance is most likely after.
        let started = Dictionary(source.rounds.map { ($0.id, $0.startedAt ?? $0.createdAt) }, uniquingKeysWith: max)
        rounds.sort { a, b in
            let (sa, sb) = (started[a.id] ?? 0, started[b.id] ?? 0)
            return sa != sb ? sa > sb : a.id.precedes(b.id)
        }
        self.init(
            group: Group(id: source.group.id, name: source.group.name), head: source.head, rounds: rounds,
            nights: nights.isEmpty ? nil : nights)
    }

    /// One round as the board shows it; nil when its course cannot be read.
    static func round(_ record: RoundRecord, _ source: LiveBoardSource) -> Round? {
        guard let course = record.playedCourse(source.courses[record.courseID]) else { return nil }
        let round = record.round
        let scorecard = Scorecard(course: course, round: round, events: source.events[round.id] ?? [])
        let standings = StandingsEngine.standings(
            scorecard: scorecard, participants: round.participants, finished: round.status == .completed)
        let guests = Set(round.participants.filter { $0.kind == .guest }.map(\.id))
        return Round(
            id: round.id, course: course.name, holes: course.pars.count, par: course.pars.reduce(0, +),
            status: round.status.rawValue, startedAt: record.startedAt, completedAt: record.completedAt,
            discrepancies: scorecard.discrepancies.count,
            rows: standings.rows.map { Self.row($0, guest: guests.contains($0.participantID)) })
    }

    /// `net`: on a night ranked by net (`netNight`), the player's handicap, if they have one.
    static func row(
        _ row: Standing, guest: Bool, card: String? = nil, net handicap: Double? = nil, netNight: Bool = false
    )
        -> Row
    {
        let netted = row.netTenths != nil
        return Row(
            position: row.positionLabel, name: row.name, guest: guest, toPar: row.scoreText(),
            toParValue: netted ? row.scoreSign : row.toPar, progress: ScoreFormat.progress(row), strokes: row.strokes, card: card,
            gross: netted ? ScoreFormat.toPar(row.toPar) : nil, handicap: netted ? handicap.map(Handicap.text) : nil,
            rankedGross: row.rankedGross(net: netNight) ? true : nil)
    }

    /// One line a skins game; per card, only the cards where something was won or carried,
    /// or one line saying none has been yet (eight cards of "none won yet" tell nobody anything).
    static func skinsLines(_ results: EventResults, name: (UUID) -> String) -> [String] {
        let games = results.skinsGames.map { card, game in
            (
                line: (card.map { "Skins, card \($0)" } ?? "Skins") + ": " + game.summary(name: name),
                quiet: game.won.isEmpty && game.riding == nil && game.unclaimed == 0
            )
        }
        guard games.count > 1 else { return games.map(\.line) }
        let told = games.filter { !$0.quiet }.map(\.line)
        return told.isEmpty ? ["Skins, each card: none won yet"] : told
    }

    /// A night as the board shows it, from the cards the source has; nil when it has none.
    static func night(_ record: EventRecord, _ source: LiveBoardSource) -> Night? {
        guard let event = try? record.event() else { return nil }
        var cards: [RoundSnapshot] = []
        for id in event.rounds {
            guard let card = source.rounds.first(where: { $0.id == id }),
                let course = card.playedCourse(source.courses[card.courseID])
            else { continue }
            cards.append(RoundSnapshot(round: card.round, course: course, events: source.events[id] ?? []))
        }
        guard let course = cards.first?.course else { return nil }
        let night = LeagueNightSnapshot(event: event, cards: cards, handicaps: source.handicaps[event.id] ?? [:])
        let names = night.names
        let guests = Set(night.participants.filter(\.isGuest).map(\.id))
        let results = night.results
        return Night(
            id: event.id, name: event.name, day: event.day, course: course.name, holes: course.holeCount,
            par: course.totalPar, status: night.inPlay ? "live" : "final", net: event.net ? true : nil,
            cards: cards.map { card in
                let status = card.round.status
                return Night.Card(
                    letter: event.letter(of: card.round.id) ?? "?", startHole: card.round.startHole,
                    progress: status == .completed ? "final" : status == .awaitingFinalization ? "all in" : "thru \(card.thru)")
            },
            rows: results.standings.standings.rows.map { row in
                Self.row(
                    row, guest: guests.contains(row.participantID),
                    card: results.standings.card[row.participantID].map(CardDraw.letter),
                    net: event.net ? night.handicaps[row.participantID] : nil, netNight: event.net)
            },
            skins: Self.skinsLines(results) { names[$0] ?? "?" },
            closestToPin: event.closestToPin.map { ctp in
                "Closest to the pin, hole \(ctp.hole): " + (ctp.winner.map { names[$0] ?? "?" } ?? "not entered yet")
            },
            aces: results.aces.map { "\(names[$0.participantID] ?? "?") on hole \($0.hole)" })
    }
}
