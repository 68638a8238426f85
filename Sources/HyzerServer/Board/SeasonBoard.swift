import Foundation
import HyzerKit
import HyzerSyncProtocol

/// What the web board's season table (issue 37) is computed from, read in one transaction:
/// the season today falls in, the group's finished rounds that can be in it (with their
/// courses, events and the league nights they are cards of) and its players (for merges
/// and today's names). Without a season: the group's whole history, which a league night
/// ranked by net takes its players' handicaps from.
public struct SeasonBoardSource: Sendable {
    public var season: Season?
    /// Finished rounds (every one for a net season: handicaps need the rounds before it).
    public var board: LiveBoardSource
    public var players: [PlayerRecord]
}

extension LiveBoard {
    /// The season's table as the web board shows it: the kiosk's numbers, worded alike.
    public struct SeasonTable: Codable, Sendable, Hashable {
        public struct Row: Codable, Sendable, Hashable {
            public var position: String
            public var name: String
            /// Points, or to par ("+3", "-1.4"); "–" for a player the rule does not rank yet.
            public var value: String
            public var attended: Int
            /// "2 of 5 rounds" for an unranked player; "gross" for one without a handicap
            /// in a net season; empty otherwise.
            public var note: String
        }
        public var name: String
        public var from: String
        public var to: String
        /// "points by place (10-8-6-5-4-3-2-1)", with ", net" when it ranks by net.
        public var rule: String
        public var net: Bool
        public var events: Int
        public var rows: [Row]
    }
}

extension SeasonBoardSource {
    /// The season's events from the records, as a device reads them from its store
    /// (`StoreRead.seasonEvents`): each league night one event of all its cards, each other
    /// finished round with scores an event of one, on the day it started in `timeZone`;
    /// guests left out; a merged player counted as whom they were merged into.
    public func events(timeZone: TimeZone) -> [SeasonEvent] {
        let source = board
        func snapshot(_ id: UUID) -> RoundSnapshot? {
            guard let record = source.rounds.first(where: { $0.id == id }),
                let course = record.playedCourse(source.courses[record.courseID])
            else { return nil }
            return RoundSnapshot(round: record.round, course: course, events: source.events[id] ?? [])
        }
        let cardsOfNights = Set(source.nights.flatMap(\.rounds))
        var events: [SeasonEvent] = []
        for record in source.rounds where record.status == .completed && !cardsOfNights.contains(record.id) {
            guard let round = snapshot(record.id), round.hasScores else { continue }
            events.append(SeasonEvent(round: round, timeZone: timeZone))
        }
        for record in source.nights {
            guard let event = try? record.event(), !event.discarded else { continue }
            let cards = event.rounds.compactMap(snapshot)
            // A night is in a season once one of its cards is finished with scores, all its
            // cards ranked together, as a device counts it (`StoreRead.seasonEvents`).
            guard cards.contains(where: { $0.round.status == .completed && $0.hasScores }) else { continue }
            events.append(SeasonEvent(night: LeagueNightSnapshot(event: event, cards: cards)))
        }
        let names = Dictionary(players.map { ($0.id, $0.displayName) }, uniquingKeysWith: { a, _ in a })
        return SeasonEvent.counted(events, merges: merges, names: names)
    }

    /// Who each merged player was merged into, from the players' records.
    var merges: PlayerMerges {
        PlayerMerges(
            Dictionary(players.compactMap { p in p.mergedInto.map { (p.id, $0) } }, uniquingKeysWith: { a, _ in a }))
    }

    /// The table, computed now; nil without a season.
    public func table(timeZone: TimeZone) -> LiveBoard.SeasonTable? {
        guard let season else { return nil }
        let all = events(timeZone: timeZone)
        let table = HyzerKit.SeasonTable(season: season, events: season.net ? SeasonEvent.handicapped(all) : all)
        return LiveBoard.SeasonTable(
            name: season.name, from: season.from, to: season.to, rule: season.ruleDescription, net: season.net,
            events: table.events,
            rows: table.rows.map { row in
                LiveBoard.SeasonTable.Row(
                    position: row.positionLabel, name: row.name, value: row.position == nil ? "–" : row.valueText,
                    attended: row.attended,
                    note: row.position == nil ? row.valueText + " rounds" : row.gross ? "gross" : "")
            })
    }
}

extension SeasonBoardSource {
    /// A league night's handicaps (issue 37), as a device works them out
    /// (`StoreRead.nightHandicaps`): each registered player's on its course from their
    /// finished rounds there on earlier days, a merged player's counted as theirs. This
    /// source is the group's whole history (no season).
    public func handicaps(for night: LeagueEvent, players: [Participant], timeZone: TimeZone) -> [UUID: Double] {
        SeasonEvent.handicaps(of: night, players: players, merges: merges, history: events(timeZone: timeZone))
    }

    /// The seasons' records, the one `day` falls in (nil: none, and nothing more to read),
    /// and the earliest update a finished round in it can have: none for a net season
    /// (every round makes the handicaps), else two days before its first (time zones).
    static func current(_ records: [SeasonRecord], on day: String) -> (season: Season, since: Double?)? {
        let seasons = records.filter { $0.deleted != true }.compactMap { try? $0.season() }
        guard let season = Season.current(seasons, on: day) else { return nil }
        guard !season.net else { return (season, nil) }
        guard let first = SeasonEvent.start(of: season.from, timeZone: TimeZone(identifier: "UTC")!) else {
            return (season, nil)
        }
        return (season, first.timeIntervalSince1970 - 2 * 86_400)
    }
}
