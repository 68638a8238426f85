import Foundation
import Testing

@testable import HyzerKit

/// Issue 37 item 2, "any event can rank by net": a league night ranked by each player's to
/// par less their handicap on the course, worked by hand (docs/requirements.md, "A night
/// ranked by net").
@Suite struct NetNightTests {
    /// One card on a par-3 three-hole course; `scores` are (player, hole, strokes). League
    /// night's tests make theirs here too (of guests).
    static func card(
        _ players: [(UUID, String)], _ scores: [(UUID, Int, Int)], done: Bool, course: UUID,
        kind: Participant.Kind = .registered
    )
        -> (Round, Scorecard)
    {
        let round = Round(
            courseID: course, organizerID: players[0].0,
            participants: players.map { Participant(id: $0.0, name: $0.1, kind: kind) },
            status: done ? .completed : .active, createdAt: Date(), pars: [3, 3, 3])
        let events = scores.map {
            ScoreEvent(
                roundID: round.id, participantID: $0.0, hole: $0.1, strokes: $0.2, reportedBy: $0.0, deviceID: "k",
                createdAt: Date())
        }
        return (round, Scorecard(pars: [3, 3, 3], participantIDs: players.map(\.0), events: events))
    }

    /// The handicap in proportion to the holes played, whole at the finish: +9.0 six holes
    /// into 18 is +3.0 (a +4 gross there is net +1.0); −1.5 after 1 of 9 is −0.2 (−0.1666…
    /// to the tenth); finished, the whole handicap.
    @Test func theHandicapCountsInProportionToTheHolesPlayed() {
        #expect(Handicap.netTenths(toPar: 4, handicap: 9.0, thru: 6, holes: 18, playing: true) == 10)
        #expect(Handicap.netTenths(toPar: 0, handicap: -1.5, thru: 1, holes: 9, playing: true) == 2)
        #expect(Handicap.netTenths(toPar: 4, handicap: 9.0, thru: 18, holes: 18, playing: false) == -50)
        #expect(Handicap.netTenths(toPar: 1, handicap: 2.5, thru: 0, holes: 18, playing: true) == 10)
    }

    /// Three players, every hole of par 9 played. Gross: Bo +2 (3 3 5), Cy +3 (4 4 4), Ann +6;
    /// Ann's handicap +4.0 makes her net +2.0, Bo's −1.0 net +3.0, and Cy has none: ranked
    /// gross at +3, tied with Bo. Net board: Ann 1, Bo and Cy T2 (Bo first in the tie by
    /// name). The same night gross: Bo 1, Cy 2, Ann 3.
    @Test func aNightRankedByNetTakesEachHandicapAndRanksTheRestGross() throws {
        let course = UUID()
        let (ann, bo, cy) = (UUID(), UUID(), UUID())
        let card = Self.card(
            [(ann, "Ann"), (bo, "Bo"), (cy, "Cy")],
            [(ann, 1, 5), (ann, 2, 5), (ann, 3, 5), (bo, 1, 3), (bo, 2, 3), (bo, 3, 5), (cy, 1, 4), (cy, 2, 4), (cy, 3, 4)],
            done: true, course: course)
        let handicaps: [UUID: Double] = [ann: 4.0, bo: -1.0]
        let net = try LeagueEvent(
            name: "League", courseID: course, day: "2026-11-26", rounds: [card.0.id], createdAt: Date(), net: true)
        let rows = EventResults(event: net, cards: [card], handicaps: handicaps).standings.standings.rows
        #expect(rows.map(\.name) == ["Ann", "Bo", "Cy"])
        #expect(rows.map(\.positionLabel) == ["1", "T2", "T2"])
        #expect(rows.map(\.netTenths) == [20, 30, nil])
        #expect(rows.map { $0.scoreText() } == ["+2.0", "+3.0", "+3"])

        var gross = net
        gross.net = false
        let grossRows = EventResults(event: gross, cards: [card], handicaps: handicaps).standings.standings.rows
        #expect(grossRows.map(\.name) == ["Bo", "Cy", "Ann"])
        #expect(grossRows.allSatisfy { $0.netTenths == nil })
    }

    /// While the card is out, the handicap counts in proportion: after 1 of 3 holes, Ann (+2
    /// there, +6.0 handicap) is net E and leads Bo (+1 there, no handicap).
    @Test func aCardInPlayIsNettedHoleByHole() throws {
        let course = UUID()
        let (ann, bo) = (UUID(), UUID())
        let card = Self.card([(ann, "Ann"), (bo, "Bo")], [(ann, 1, 5), (bo, 1, 4)], done: false, course: course)
        let night = try LeagueEvent(
            name: "League", courseID: course, day: "2026-11-26", rounds: [card.0.id], createdAt: Date(), net: true)
        let rows = EventResults(event: night, cards: [card], handicaps: [ann: 6.0]).standings.standings.rows
        #expect(rows.map(\.name) == ["Ann", "Bo"])
        #expect(rows.map { $0.scoreText() } == ["E", "+1"])
    }

    /// A night's handicaps come from finished rounds on its course on earlier days only:
    /// Ann's +4, +2 and +6 there make +3.0 (the best 2 of 3); her round on another course,
    /// tonight's and a later one, and a DNF do not count. Bo has two rounds: none.
    @Test func handicapsComeFromEarlierRoundsOnTheCourse() {
        let (ann, bo) = (UUID(), UUID())
        func event(_ day: String, course: String = "pine", _ results: [(UUID, Int, Bool)]) -> SeasonEvent {
            SeasonEvent(
                id: UUID(), day: day, course: course,
                results: results.map {
                    SeasonEvent.Result(player: $0.0, name: "", position: 1, toPar: $0.1, finished: $0.2)
                })
        }
        let history = [
            event("2026-10-01", [(ann, 4, true), (bo, 0, true)]),
            event("2026-10-08", [(ann, 2, true), (bo, 1, true)]),
            event("2026-10-15", [(ann, 6, true), (bo, -3, false)]),
            event("2026-10-22", course: "ridge", [(ann, -9, true)]),
            event("2026-11-26", [(ann, -9, true)]),
            event("2026-12-03", [(ann, -9, true)]),
        ]
        let handicaps = SeasonEvent.handicaps(of: [ann, bo], course: "pine", before: "2026-11-26", history: history)
        #expect(handicaps == [ann: 3.0])
    }

    /// A night ranked by net counts in a season by the season's own rule: the season ranks
    /// its event gross (a net season nets it again itself).
    @Test func aNetNightCountsGrossInAGrossSeason() throws {
        let course = UUID()
        let (ann, bo) = (UUID(), UUID())
        let card = Self.card(
            [(ann, "Ann"), (bo, "Bo")], [(ann, 1, 5), (ann, 2, 3), (ann, 3, 3), (bo, 1, 4), (bo, 2, 3), (bo, 3, 3)],
            done: true, course: course)
        let night = try LeagueEvent(
            name: "League", courseID: course, day: "2026-11-26", rounds: [card.0.id], createdAt: Date(), net: true)
        let rows = EventResults(event: night, cards: [card], handicaps: [ann: 5.0]).standings.standings.rows
        #expect(rows.first?.name == "Ann", "net, Ann leads")
        let event = SeasonEvent(id: night.id, day: night.day, standings: rows, guests: [])
        #expect(event.results.map(\.player) == [bo, ann])
        #expect(event.results.map(\.position) == [1, 2])
    }
}
