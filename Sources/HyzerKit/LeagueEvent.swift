import Foundation

/// A league night (issue 36 item 1): a named set of rounds (its cards) on one course on one
/// day, with the night's side games. Each card is an ordinary round, scored and synced as
/// today, with its own start hole (`Round.startHole`); the event only groups them and
/// says which side games are on. A single card outside any event stays what it was.
///
/// What the side games pay is never stored: skins and the ace pot are computed from the
/// cards' scores (`Skins`, `AcePot`), so they cannot disagree with the scorecards. Only
/// what no score says is kept: the closest-to-the-pin winners, entered after the round.
public struct LeagueEvent: Sendable, Hashable, Identifiable {
    /// Whose scores a skins game compares: the whole field, or each card on its own.
    public enum SkinsGame: String, Sendable, Hashable, Codable, CaseIterable {
        case off, field, card
    }

    /// A closest-to-the-pin hole and, once the organizer entered it, who won it (a
    /// participant of one of the cards). Nobody (`nil`) until then, or when nobody hit
    /// the green.
    public struct ClosestToPin: Sendable, Hashable, Codable {
        public var hole: Int
        public var winner: UUID?

        public init(hole: Int, winner: UUID? = nil) {
            self.hole = hole
            self.winner = winner
        }
    }

    /// The night's ace-pot entry: what each player who opted in adds (in the group's
    /// units; the kiosk shows numbers, never money) and who opted in.
    public struct AcePotEntry: Sendable, Hashable, Codable {
        public var buyIn: Int
        public var players: [UUID]

        public init(buyIn: Int, players: [UUID]) {
            self.buyIn = buyIn
            self.players = players
        }
    }

    public var id: UUID
    public var name: String
    public var courseID: UUID
    /// The local calendar day it is played on, "2026-11-29": the ace pot's order, and
    /// what "same as last week" looks back from.
    public var day: String
    /// The cards' rounds, card A first. A card's letter is its place (`CardDraw.letter`).
    public var rounds: [UUID]
    public var skins: SkinsGame
    /// In hole order, each hole once.
    public var closestToPin: [ClosestToPin]
    public var acePot: AcePotEntry?
    public var createdAt: Date
    /// Discarded by the organizer: off every list and board; its rounds stay rounds.
    public var discarded: Bool
    /// Ranked by net (issue 37 item 2): each player's to par less their handicap on the
    /// course before tonight; a player without one is ranked gross and marked so.
    public var net: Bool

    public static let maxNameLength = 60
    /// A card's letter is one of A–Z.
    public static let maxCards = 26
    public static let maxBuyIn = 10_000

    public init(
        id: UUID = UUID(), name: String, courseID: UUID, day: String, rounds: [UUID], skins: SkinsGame = .off,
        closestToPin: [ClosestToPin] = [], acePot: AcePotEntry? = nil, createdAt: Date, discarded: Bool = false,
        net: Bool = false
    ) throws(LeagueEventError) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= Self.maxNameLength else { throw .badName }
        guard Self.isDay(day) else { throw .badDay(day) }
        guard (1...Self.maxCards).contains(rounds.count) else { throw .cardCount(rounds.count) }
        guard Set(rounds).count == rounds.count else { throw .roundListedTwice }
        let holes = closestToPin.map(\.hole)
        guard holes.allSatisfy(Course.allowedHoleCounts.contains), Set(holes).count == holes.count else {
            throw .badClosestToPinHoles(holes)
        }
        if let acePot {
            guard (0...Self.maxBuyIn).contains(acePot.buyIn) else { throw .badBuyIn(acePot.buyIn) }
            guard Set(acePot.players).count == acePot.players.count else { throw .acePotPlayerListedTwice }
        }
        self.id = id
        self.name = trimmed
        self.courseID = courseID
        self.day = day
        self.rounds = rounds
        self.skins = skins
        self.closestToPin = closestToPin.sorted { $0.hole < $1.hole }
        self.acePot = acePot
        self.createdAt = createdAt
        self.discarded = discarded
        self.net = net
    }

    /// The order nights were played in: by day, then as made; the id settles a tie the
    /// same way on every device (the ace pot's order, what came before a night).
    public var playOrder: (String, Date, String) { (day, createdAt, id.uuidString) }

    /// The letter of the card whose round this is, if it is one of this event's.
    public func letter(of round: UUID) -> String? {
        rounds.firstIndex(of: round).map(CardDraw.letter)
    }

    /// The organizer enters who won a CTP hole (or nobody). Who may win is checked by
    /// the caller, which knows the cards' participants.
    public mutating func setClosestToPin(hole: Int, winner: UUID?) throws(LeagueEventError) {
        guard let index = closestToPin.firstIndex(where: { $0.hole == hole }) else { throw .notAClosestToPinHole(hole) }
        closestToPin[index].winner = winner
    }

    /// "2026-11-29": four digits, two, two, a real date.
    public static func isDay(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]), (1...12).contains(m), d >= 1
        else { return false }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        guard let first = calendar.date(from: DateComponents(year: y, month: m, day: 1)),
            let days = calendar.range(of: .day, in: .month, for: first)
        else { return false }
        return days.contains(d)
    }

    /// The local calendar day of `date` in `timeZone`, as `day` holds it.
    public static func day(of date: Date, in timeZone: TimeZone = .current) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year ?? 1970, c.month ?? 1, c.day ?? 1)
    }
}

public enum LeagueEventError: Error, Equatable, Sendable, CustomStringConvertible {
    case badName
    case badDay(String)
    case cardCount(Int)
    case roundListedTwice
    case badClosestToPinHoles([Int])
    case notAClosestToPinHole(Int)
    case badBuyIn(Int)
    case acePotPlayerListedTwice

    public var description: String {
        switch self {
        case .badName: "an event needs a name of 1–\(LeagueEvent.maxNameLength) characters"
        case .badDay(let day): "an event's day is a date such as 2026-11-29, not \"\(day)\""
        case .cardCount(let n): "an event has 1 to \(LeagueEvent.maxCards) cards, not \(n)"
        case .roundListedTwice: "a round is listed twice in the event's cards"
        case .badClosestToPinHoles(let holes):
            "closest-to-the-pin holes must be different holes of the course, not \(holes.map(String.init).joined(separator: ", "))"
        case .notAClosestToPinHole(let hole): "hole \(hole) is not one of the event's closest-to-the-pin holes"
        case .badBuyIn(let n): "an ace-pot buy-in is 0 to \(LeagueEvent.maxBuyIn), not \(n)"
        case .acePotPlayerListedTwice: "a player is listed twice in the ace pot"
        }
    }
}

/// What a league night's scores say (issue 36 items 4 and 5): every card ranked together,
/// the skins, the closest-to-the-pin winners and the aces. Computed, never stored, from the
/// cards the device has; a card not arrived yet is simply not in it.
public struct EventResults: Sendable, Hashable {
    public struct Ace: Sendable, Hashable {
        public var participantID: UUID
        public var hole: Int

        public init(participantID: UUID, hole: Int) {
            self.participantID = participantID
            self.hole = hole
        }
    }

    /// Every card's players ranked together; `standings.card` is an index into `event.rounds`.
    public var standings: EventStandings
    /// One game across the field, or one per card (in card order); none when skins are off.
    public var skins: [Skins]
    /// The card (index into `event.rounds`) each skins game is; nil for the field's game.
    public var skinsCards: [Int?]
    /// Every 1 scored on a hole, in card and then hole order.
    public var aces: [Ace]
    /// Every card's round is completed.
    public var finished: Bool

    /// `cards`: the event's rounds this device has, each with its scorecard. `handicaps`:
    /// on a night ranked by net, the players' handicaps on its course before tonight
    /// (`SeasonEvent.handicaps`); a player without one is ranked gross.
    public init(event: LeagueEvent, cards: [(round: Round, scorecard: Scorecard)], handicaps: [UUID: Double] = [:]) {
        let byRound = Dictionary(cards.map { ($0.round.id, $0) }, uniquingKeysWith: { a, _ in a })
        var perCard: [Standings] = []
        var cardOf: [UUID: Int] = [:]
        var players: [[UUID]] = []
        var cardIndices: [Int] = []
        var aces: [Ace] = []
        for (index, roundID) in event.rounds.enumerated() {
            guard let card = byRound[roundID] else { continue }
            var standings = StandingsEngine.standings(
                scorecard: card.scorecard, participants: card.round.participants, finished: card.round.status == .completed)
            if event.net {
                for (row, standing) in standings.rows.enumerated() where standing.status != .dnf {
                    guard let handicap = handicaps[standing.participantID] else { continue }
                    standings.rows[row].netTenths = Handicap.netTenths(
                        toPar: standing.toPar, handicap: handicap, thru: standing.thru, holes: card.scorecard.holeCount,
                        playing: standing.status == .playing)
                }
            }
            perCard.append(standings)
            cardIndices.append(index)
            players.append(card.round.participants.map(\.id))
            for p in card.round.participants {
                cardOf[p.id] = index
                for hole in 1...max(1, card.scorecard.holeCount) where card.scorecard.value(participant: p.id, hole: hole) == 1 {
                    aces.append(Ace(participantID: p.id, hole: hole))
                }
            }
        }
        var ranked = EventStandings(cards: perCard)
        ranked.card = cardOf
        standings = ranked
        self.aces = aces
        finished = cards.count == event.rounds.count && cards.allSatisfy { $0.round.status == .completed }

        let holeCount = cards.map(\.scorecard.holeCount).max() ?? 0
        let value: (UUID, Int) -> Int? = { player, hole in
            guard let index = cardOf[player], let card = byRound[event.rounds[index]] else { return nil }
            return card.scorecard.value(participant: player, hole: hole)
        }
        let done: ([UUID]) -> Bool = { game in
            game.allSatisfy { player in cardOf[player].flatMap { byRound[event.rounds[$0]] }?.round.status == .completed }
        }
        switch event.skins {
        case .off:
            skins = []
            skinsCards = []
        case .field:
            let field = players.flatMap { $0 }
            skins = [Skins(players: field, holeCount: holeCount, finished: done(field), value: value)]
            skinsCards = [nil]
        case .card:
            skins = players.map { Skins(players: $0, holeCount: holeCount, finished: done($0), value: value) }
            skinsCards = cardIndices.map { $0 }
        }
    }

    /// Each skins game with its card's letter (nil: the whole field's game).
    public var skinsGames: [(card: String?, game: Skins)] {
        zip(skinsCards, skins).map { ($0.map(CardDraw.letter), $1) }
    }

    /// Skins won by each player across the night's games.
    public var skinsWon: [UUID: Int] {
        skins.reduce(into: [:]) { totals, game in totals.merge(game.won, uniquingKeysWith: +) }
    }
}

extension AcePot {
    /// The group's pot after its events, played in day order (then as made); discarded
    /// events add nothing. `aces` gives an event's aces (its `EventResults.aces`).
    public init(events: [LeagueEvent], aces: (LeagueEvent) -> [UUID]) {
        let played = events.filter { !$0.discarded && $0.acePot != nil }
            .sorted { $0.playOrder < $1.playOrder }
        self.init(
            nights: played.map { event in
                AcePot.Night(
                    optedIn: Set(event.acePot?.players ?? []), aces: aces(event), buyIn: event.acePot?.buyIn ?? 0)
            })
    }
}

/// A league night with the cards this device has, card order, each as a round snapshot, and
/// what their scores say (`results`): the kiosk's board and `hyzer event show` read this.
public struct LeagueNightSnapshot: Sendable, Equatable {
    public var event: LeagueEvent
    public var cards: [RoundSnapshot]
    /// On a night ranked by net: each player's handicap on its course before tonight.
    public let handicaps: [UUID: Double]
    public let results: EventResults

    public init(event: LeagueEvent, cards: [RoundSnapshot], handicaps: [UUID: Double] = [:]) {
        self.event = event
        self.cards = cards
        self.handicaps = handicaps
        results = EventResults(event: event, cards: cards.map { ($0.round, $0.scorecard) }, handicaps: handicaps)
    }

    /// The same night given its players' handicaps (a night ranked by net).
    public func handicapped(_ handicaps: [UUID: Double]) -> LeagueNightSnapshot {
        LeagueNightSnapshot(event: event, cards: cards, handicaps: handicaps)
    }

    /// Equal when the stored facts are equal (the results are derived from them).
    public static func == (a: LeagueNightSnapshot, b: LeagueNightSnapshot) -> Bool {
        a.event == b.event && a.cards == b.cards && a.handicaps == b.handicaps
    }

    /// The card's letter and round for a participant, if they play tonight.
    public func card(of participant: UUID) -> (letter: String, round: RoundSnapshot)? {
        guard let index = results.standings.card[participant], index < event.rounds.count else { return nil }
        guard let card = cards.first(where: { $0.round.id == event.rounds[index] }) else { return nil }
        return (CardDraw.letter(index), card)
    }

    /// Everyone playing tonight, card by card.
    public var participants: [Participant] { cards.flatMap(\.round.participants) }

    /// Tonight's players' names, by id.
    public var names: [UUID: String] {
        Dictionary(participants.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
    }

    /// Some card is still being played.
    public var inPlay: Bool { cards.contains { $0.round.status.acceptsScores } }
}

extension Skins {
    /// The first hole not decided yet and the skins it is worth, when ties have carried
    /// skins onto it (nil otherwise: the next hole is worth its own one).
    public var riding: (hole: Int, skins: Int)? {
        var carried = 0
        for hole in holes {
            switch hole.outcome {
            case .won: carried = 0
            case .carried: carried = hole.skins
            case .open, .waiting: return carried > 0 ? (hole.hole, carried + 1) : nil
            }
        }
        return nil
    }

    /// One line for a board or a list: "Bo 2, Ann 1 · hole 4 is worth 2 · 1 unclaimed",
    /// the most skins first, then by name; `name` gives a player's name.
    public func summary(name: (UUID) -> String) -> String {
        let won = won.map { (name: name($0.key), skins: $0.value) }
            .sorted { ($0.skins, $1.name) > ($1.skins, $0.name) }
            .map { "\($0.name) \($0.skins)" }
        var parts = [won.isEmpty ? "none won yet" : won.joined(separator: ", ")]
        if let riding { parts.append("hole \(riding.hole) is worth \(riding.skins)") }
        if unclaimed > 0 { parts.append("\(unclaimed) unclaimed") }
        return parts.joined(separator: " · ")
    }
}
