import Foundation
import GRDB
import HyzerKit

// League nights (issue 36): an event row and its cards. The cards are ordinary rounds,
// made and started here together; everything the night shows (standings, skins, aces) is
// computed from them by HyzerKit's `EventResults`.

struct LeagueEventRow: StoreRecord {
    static let databaseTableName = "league_events"
    var id: UUID
    var name: String
    var courseID: UUID
    var day: String
    /// The cards' round ids, card A first, as a JSON array.
    var rounds: String
    var skins: String
    /// `[LeagueEvent.ClosestToPin]` as JSON.
    var closestToPin: String
    /// `LeagueEvent.AcePotEntry` as JSON; nil when the night has no ace pot.
    var acePot: String?
    var createdAt: Double
    var updatedAt: Double
    var discardedAt: Double?
    /// Ranked by net (v11).
    var net: Bool
}

struct LeagueEventCardRow: StoreRecord {
    static let databaseTableName = "league_event_cards"
    var roundID: UUID
    var eventID: UUID
    var card: Int
}

extension Rows {
    static func leagueEvent(_ row: LeagueEventRow) throws -> LeagueEvent {
        let decoder = JSONDecoder()
        do {
            let rounds = try decoder.decode([UUID].self, from: Data(row.rounds.utf8))
            let ctp = try decoder.decode([LeagueEvent.ClosestToPin].self, from: Data(row.closestToPin.utf8))
            let pot = try row.acePot.map { try decoder.decode(LeagueEvent.AcePotEntry.self, from: Data($0.utf8)) }
            guard let skins = LeagueEvent.SkinsGame(rawValue: row.skins) else {
                throw StoreError.corruptRecord("league night \(row.id) has unknown skins game \(row.skins)")
            }
            return try LeagueEvent(
                id: row.id, name: row.name, courseID: row.courseID, day: row.day, rounds: rounds, skins: skins,
                closestToPin: ctp, acePot: pot, createdAt: Date(timeIntervalSince1970: row.createdAt),
                discarded: row.discardedAt != nil, net: row.net)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.corruptRecord("league night \(row.id): \(error)")
        }
    }

    static func leagueEvent(id: UUID, _ db: Database) throws -> LeagueEvent? {
        try LeagueEventRow.fetchOne(db, key: id).map(leagueEvent)
    }

    /// Writes `event` as it is (a new night, a change, or one from elsewhere with its own
    /// time), and its cards. A round already a card of another night is refused.
    static func save(_ event: LeagueEvent, at updatedAt: Double, _ db: Database) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        func json<T: Encodable>(_ value: T) throws -> String { String(decoding: try encoder.encode(value), as: UTF8.self) }
        let row = LeagueEventRow(
            id: event.id, name: event.name, courseID: event.courseID, day: event.day, rounds: try json(event.rounds),
            skins: event.skins.rawValue, closestToPin: try json(event.closestToPin), acePot: try event.acePot.map(json),
            createdAt: seconds(event.createdAt), updatedAt: updatedAt,
            discardedAt: event.discarded
                ? (try LeagueEventRow.fetchOne(db, key: event.id)?.discardedAt ?? updatedAt) : nil, net: event.net)
        try row.save(db)
        let cards = LeagueEventCardRow.filter(LeagueEventCardRow.Columns.eventID == event.id)
        let known = try cards.fetchAll(db)
        if known.map(\.roundID) != event.rounds || known.map(\.card) != Array(event.rounds.indices) {
            try cards.deleteAll(db)
            for (index, round) in event.rounds.enumerated() {
                if let other = try LeagueEventCardRow.fetchOne(db, key: round), other.eventID != event.id {
                    throw StoreError.refused("round \(round) is already a card of another league night")
                }
                try LeagueEventCardRow(roundID: round, eventID: event.id, card: index).insert(db)
            }
        }
    }

    /// The night with the cards this device has. `known`: snapshots already read in this
    /// transaction (the rounds in play), used instead of reading them again.
    static func leagueNight(
        _ event: LeagueEvent, _ db: Database, known: [UUID: RoundSnapshot] = [:]
    ) throws -> LeagueNightSnapshot {
        var cards: [RoundSnapshot] = []
        for id in event.rounds {
            if let snapshot = known[id] {
                cards.append(snapshot)
            } else if try RoundRow.exists(db, key: id) {
                cards.append(try HyzerDatabase.snapshot(id, db))
            }
        }
        return LeagueNightSnapshot(event: event, cards: cards)
    }

    /// The night any of `rounds` is a card of, not discarded; the first such round's.
    static func leagueNight(of rounds: [RoundSnapshot], _ db: Database) throws -> LeagueNightSnapshot? {
        guard !rounds.isEmpty else { return nil }
        let ids = rounds.map(\.round.id)
        let cards = try LeagueEventCardRow.filter(ids.contains(LeagueEventCardRow.Columns.roundID)).fetchAll(db)
        let byRound = Dictionary(cards.map { ($0.roundID, $0.eventID) }, uniquingKeysWith: { a, _ in a })
        let known = Dictionary(rounds.map { ($0.round.id, $0) }, uniquingKeysWith: { a, _ in a })
        for id in ids {
            guard let eventID = byRound[id], let event = try leagueEvent(id: eventID, db), !event.discarded else { continue }
            return try leagueNight(event, db, known: known)
        }
        return nil
    }
}

// MARK: Writes

/// One card of a night being made: who plays on it, and the hole it starts on.
public struct LeagueNightCard: Sendable, Hashable {
    public var participants: [Participant]
    public var startHole: Int

    public init(participants: [Participant], startHole: Int) {
        self.participants = participants
        self.startHole = startHole
    }
}

extension StoreWrite where Value == LeagueEvent {
    /// A league night on `courseID`: one round in setup per card, with its players and
    /// start hole, and the event that groups them, in one transaction. `day` defaults to
    /// the local day of the write. A player on two cards is refused.
    public static func createLeagueNight(
        name: String, courseID: UUID, organizerID: UUID, cards: [LeagueNightCard], skins: LeagueEvent.SkinsGame,
        closestToPin: [Int] = [], acePot: LeagueEvent.AcePotEntry? = nil, net: Bool = false, day: String? = nil,
        at date: Date? = nil
    ) -> Self {
        StoreWrite { db, context in
            let date = date ?? context.now
            let everyone = cards.flatMap { $0.participants.map(\.id) }
            guard Set(everyone).count == everyone.count else {
                throw StoreError.refused("a player is on two cards")
            }
            if let pot = acePot, let outsider = pot.players.first(where: { !everyone.contains($0) }) {
                throw StoreError.refused("ace-pot player \(outsider) plays on none of the cards")
            }
            let course = try Rows.courseInUse(id: courseID, db)
            if let hole = closestToPin.first(where: { $0 > course.holeCount }) {
                throw StoreError.refused("\(course.name) has no hole \(hole) for closest to the pin")
            }
            var rounds: [UUID] = []
            for card in cards {
                let round = try StoreWrite<Round>.createRound(
                    courseID: courseID, organizerID: organizerID, participants: card.participants,
                    startHole: card.startHole, at: date
                ).body(db, context)
                rounds.append(round.id)
            }
            let event: LeagueEvent
            do throws(LeagueEventError) {
                event = try LeagueEvent(
                    name: name, courseID: courseID, day: day ?? LeagueEvent.day(of: date), rounds: rounds, skins: skins,
                    closestToPin: closestToPin.map { LeagueEvent.ClosestToPin(hole: $0) }, acePot: acePot,
                    createdAt: date, net: net)
            } catch { throw StoreError.leagueNight(error) }
            try Rows.save(event, at: Rows.seconds(date), db)
            return event
        }
    }

    /// Starts every card still in setup: the night begins.
    public static func startLeagueNight(_ id: UUID, at date: Date? = nil) -> Self {
        StoreWrite { db, context in
            let event = try Rows.existingLeagueEvent(id, db)
            for round in event.rounds {
                guard let status = try RoundRow.fetchOne(db, key: round)?.status, status == RoundStatus.setup.rawValue
                else { continue }
                _ = try StoreWrite<Round>.startRound(round, at: date).body(db, context)
            }
            return event
        }
    }

    /// The organizer swaps two players on different cards before the start (issue 36
    /// item 2): each takes the other's place on the other's card.
    public static func swapPlayers(_ a: UUID, _ b: UUID, in id: UUID) -> Self {
        StoreWrite { db, context in
            let event = try Rows.existingLeagueEvent(id, db)
            let rows = try ParticipantRow.filter(
                event.rounds.contains(ParticipantRow.Columns.roundID)
                    && [a, b].contains(ParticipantRow.Columns.participantID)
            ).fetchAll(db)
            guard let first = rows.first(where: { $0.participantID == a }),
                let second = rows.first(where: { $0.participantID == b })
            else { throw StoreError.notFound("one of the two players on this night's cards") }
            guard first.roundID != second.roundID else { throw StoreError.refused("both players are on the same card") }
            for round in [first.roundID, second.roundID] {
                guard try RoundRow.fetchOne(db, key: round)?.status == RoundStatus.setup.rawValue else {
                    throw StoreError.refused("players can be swapped only before the cards start")
                }
            }
            try first.delete(db)
            try second.delete(db)
            try ParticipantRow(
                roundID: second.roundID, participantID: first.participantID, ordinal: second.ordinal, name: first.name,
                kind: first.kind
            ).insert(db)
            try ParticipantRow(
                roundID: first.roundID, participantID: second.participantID, ordinal: first.ordinal, name: second.name,
                kind: second.kind
            ).insert(db)
            let now = Rows.seconds(context.now)
            try RoundRow.filter([first.roundID, second.roundID].contains(RoundRow.Columns.id))
                .updateAll(db, RoundRow.Columns.updatedAt.set(to: now))
            return event
        }
    }

    /// After the round the organizer enters who won a closest-to-the-pin hole, or nobody.
    public static func setClosestToPin(_ id: UUID, hole: Int, winner: UUID?) -> Self {
        StoreWrite { db, context in
            var event = try Rows.existingLeagueEvent(id, db)
            if let winner {
                let plays = try ParticipantRow.filter(
                    event.rounds.contains(ParticipantRow.Columns.roundID) && ParticipantRow.Columns.participantID == winner
                ).fetchCount(db)
                guard plays > 0 else { throw StoreError.refused("the winner must play on one of the night's cards") }
            }
            do throws(LeagueEventError) { try event.setClosestToPin(hole: hole, winner: winner) } catch {
                throw StoreError.leagueNight(error)
            }
            try Rows.save(event, at: Rows.seconds(context.now), db)
            return event
        }
    }

    /// A night made by mistake: off every list and board, everywhere (a discard outranks
    /// every other version). Its unfinished cards without scores are discarded with it; a
    /// card with scores stays a round of its own, to finish or keep.
    public static func discardLeagueNight(_ id: UUID, by who: ActionContext? = nil) -> Self {
        StoreWrite { db, context in
            var event = try Rows.existingLeagueEvent(id, db)
            for roundID in event.rounds {
                guard let round = try Rows.round(id: roundID, db), round.status != .completed,
                    try !Rows.hasScores(round: round, db)
                else { continue }
                // A card never started is started and discarded: a discard is a finish with
                // no score, the one shape every device and server already reads as one.
                if round.status == .setup { _ = try StoreWrite<Round>.startRound(roundID).body(db, context) }
                _ = try StoreWrite<Round>.discardRound(roundID, by: who).body(db, context)
            }
            event.discarded = true
            try Rows.save(event, at: Rows.seconds(context.now), db)
            return event
        }
    }
}

extension Rows {
    static func existingLeagueEvent(_ id: UUID, _ db: Database) throws -> LeagueEvent {
        guard let event = try leagueEvent(id: id, db), !event.discarded else { throw StoreError.notFound("league night \(id)") }
        return event
    }
}

// MARK: Reads

extension StoreRead where Value == LeagueNightSnapshot? {
    public static func leagueNight(id: UUID) -> Self {
        StoreRead { db in try Rows.leagueEvent(id: id, db).map { try Rows.leagueNight($0, db) } }
    }

    /// The night a round is a card of, if any (discarded nights are none).
    public static func leagueNight(ofRound round: UUID) -> Self {
        StoreRead { db in
            guard let card = try LeagueEventCardRow.fetchOne(db, key: round),
                let event = try Rows.leagueEvent(id: card.eventID, db), !event.discarded
            else { return nil }
            return try Rows.leagueNight(event, db)
        }
    }
}

extension StoreRead where Value == [LeagueEvent] {
    /// Nights not discarded, the latest day first.
    public static func leagueNights(limit: Int = 50) -> Self {
        StoreRead { db in
            try LeagueEventRow.filter(LeagueEventRow.Columns.discardedAt == nil)
                .order(LeagueEventRow.Columns.day.desc, LeagueEventRow.Columns.createdAt.desc)
                .limit(limit).fetchAll(db).map(Rows.leagueEvent)
        }
    }
}

extension StoreRead where Value == Int {
    /// What the group's ace pot held before `event` (the nights before it in day order):
    /// the kiosk adds tonight's buy-ins and aces to it as they come.
    public static func acePotCarriedIn(before event: LeagueEvent) -> Self {
        StoreRead { db in
            try Rows.acePot(db, nightsWith: LeagueEventRow.Columns.day <= event.day) {
                $0.playOrder < event.playOrder
            }.total
        }
    }
}

extension StoreRead where Value == AcePot {
    /// The group's ace pot after every night this device has, in day order.
    public static var acePot: Self { StoreRead { db in try Rows.acePot(db, nightsWith: true) { _ in true } } }
}

extension Rows {
    /// The pot over the nights with an ace pot that match `filter` (SQL) and `keep`, each
    /// night's aces from its cards' scores.
    static func acePot(
        _ db: Database, nightsWith filter: some SQLExpressible, keep: (LeagueEvent) -> Bool
    ) throws -> AcePot {
        let nights = try LeagueEventRow.filter(
            LeagueEventRow.Columns.discardedAt == nil && LeagueEventRow.Columns.acePot != nil && filter
        ).fetchAll(db).map(leagueEvent).filter(keep)
        var aces: [UUID: [UUID]] = [:]
        for night in nights { aces[night.id] = try leagueNight(night, db).results.aces.map(\.participantID) }
        return AcePot(events: nights, aces: { aces[$0.id] ?? [] })
    }
}

extension StoreRead where Value == [UUID: Double] {
    /// Each player's recent form for a balanced draw (issue 36 item 2): the average to par
    /// of their last `rounds` completed rounds, newest first, holes they played only (a
    /// DNF counts what was played). A player without a completed round is absent.
    public static func recentForm(of players: [UUID], rounds: Int = 5, scanning limit: Int = 400) -> Self {
        StoreRead { db in
            let wanted = Set(players)
            var totals: [UUID: [Int]] = [:]
            let keys = try Row.fetchAll(db, History.page(after: nil, limit: limit))
            for key in keys {
                guard totals.count < wanted.count || totals.values.contains(where: { $0.count < rounds }) else { break }
                let id: UUID = key["id"]
                guard let round = try Rows.round(id: id, db),
                    round.participants.contains(where: { wanted.contains($0.id) }),
                    let course = try Rows.course(of: round, db)
                else { continue }
                let scorecard = Scorecard(course: course, round: round, events: try Rows.events(round: id, db))
                let standings = StandingsEngine.standings(scorecard: scorecard, participants: round.participants, finished: true)
                for row in standings.rows where wanted.contains(row.participantID) && row.thru > 0 {
                    if totals[row.participantID, default: []].count < rounds {
                        totals[row.participantID, default: []].append(row.toPar)
                    }
                }
            }
            return totals.mapValues { Double($0.reduce(0, +)) / Double($0.count) }
        }
    }
}

extension StoreRead where Value == [UUID] {
    /// The registered players of the latest league night, card order: check-in's "same as
    /// last week" (issue 36 item 2). Empty when there was none.
    /// Read with every reload of the kiosk's screens: the latest night, then its cards'
    /// registered players in one query, not a round read a card.
    public static var lastLeagueNightPlayers: Self {
        let latest = StoreRead<[LeagueEvent]>.leagueNights(limit: 1).body
        return StoreRead { db in
            guard let night = try latest(db).first else { return [] }
            let card = Dictionary(night.rounds.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            return try ParticipantRow.filter(
                night.rounds.contains(ParticipantRow.Columns.roundID)
                    && ParticipantRow.Columns.kind == Participant.Kind.registered.rawValue
            ).fetchAll(db)
                .sorted { (card[$0.roundID] ?? 0, $0.ordinal) < (card[$1.roundID] ?? 0, $1.ordinal) }
                .map(\.participantID)
        }
    }
}
