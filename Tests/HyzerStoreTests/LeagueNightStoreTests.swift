import Foundation
import GRDB
import HyzerTestSupport
import Testing

@testable import HyzerKit
@testable import HyzerStore

/// Issue 36's league nights in the store: a night and its cards are made in one
/// transaction, and everything its board says comes from the cards' scores.
@Suite struct LeagueNightStoreTests {
    static let names = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou", "Max"]

    struct Night {
        let store: TempStore
        let course: Course
        let players: [Participant]
        let event: LeagueEvent
        func rounds() throws -> [Round] { try event.rounds.map { try #require(try store.db.read(.round(id: $0))) } }
        func score(_ name: String, hole: Int, _ strokes: Int) throws {
            let round = try rounds().first { $0.participants.contains { $0.name == name } }
            let r = try #require(round)
            let p = try #require(r.participants.first { $0.name == name })
            _ = try store.db.write(
                .recordScore(
                    ScoreEntry(roundID: r.id, participantID: p.id, hole: hole, strokes: strokes, reportedBy: r.participants[0].id)
                ))
        }
        func id(_ name: String) -> UUID { players.first { $0.name == name }!.id }
    }

    /// 13 players dealt 5, 4, 4 as given, on holes 1, 4 and 7 of a par-3 nine.
    func night(_ s: TempStore = try! TempStore(), skins: LeagueEvent.SkinsGame = .field, buyIn: Int? = 2) throws -> Night {
        let course = try Course(name: "Test Nine", holeCount: 9)
        try s.db.write(.saveCourse(course))
        let players = try Self.names.map { Participant.registered(try Player(displayName: $0)) }
        let cards = [Array(players[0..<5]), Array(players[5..<9]), Array(players[9..<13])].enumerated().map {
            LeagueNightCard(participants: $0.element, startHole: [1, 4, 7][$0.offset])
        }
        let event = try s.db.write(
            .createLeagueNight(
                name: "Thursday league", courseID: course.id, organizerID: players[0].id, cards: cards, skins: skins,
                closestToPin: [3], acePot: buyIn.map { .init(buyIn: $0, players: players.map(\.id)) }, day: "2026-11-26"))
        return Night(store: s, course: course, players: players, event: event)
    }

    @Test func aNightIsItsCardsRoundsMadeTogetherAndStartedTogether() throws {
        let n = try night()
        let rounds = try n.rounds()
        #expect(rounds.map(\.participants.count) == [5, 4, 4])
        #expect(rounds.map(\.startHole) == [1, 4, 7])
        #expect(rounds.allSatisfy { $0.status == .setup })
        #expect(n.event.closestToPin == [.init(hole: 3)])
        // One pending record for the night itself, beside its rounds'.
        let pending = try n.store.db.read(.changeLedger { try $0.pendingChanges(limit: 100) })
        #expect(pending.filter { if case .event = $0 { true } else { false } }.count == 1)
        _ = try n.store.db.write(.startLeagueNight(n.event.id))
        #expect(try n.rounds().allSatisfy { $0.status == .active })
        let night = try #require(try n.store.db.read(.leagueNight(ofRound: rounds[2].id)))
        #expect(night.event.id == n.event.id && night.event.rounds == n.event.rounds)
        #expect(night.card(of: n.id("Max"))?.letter == "C")
        #expect(try n.store.db.read(.leagueNights()).map(\.id) == [n.event.id])
    }

    /// Negative control for the one transaction: a player on two cards refuses the whole
    /// night, and no round of it is left behind.
    @Test func aPlayerOnTwoCardsRefusesTheNightAndLeavesNothing() throws {
        let s = try TempStore()
        let course = try Course(name: "Test Nine", holeCount: 9)
        try s.db.write(.saveCourse(course))
        let ann = Participant.registered(try Player(displayName: "Ann"))
        let bo = Participant.registered(try Player(displayName: "Bo"))
        #expect(throws: StoreError.refused("a player is on two cards")) {
            try s.db.write(
                .createLeagueNight(
                    name: "Oops", courseID: course.id, organizerID: ann.id,
                    cards: [.init(participants: [ann, bo], startHole: 1), .init(participants: [bo], startHole: 5)],
                    skins: .off))
        }
        #expect(throws: StoreError.self) {
            try s.db.write(
                .createLeagueNight(
                    name: "Oops", courseID: course.id, organizerID: ann.id,
                    cards: [.init(participants: [ann], startHole: 1), .init(participants: [bo], startHole: 12)],
                    skins: .off))
        }
        let rounds = try s.db.domain.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM rounds") }
        #expect(rounds == 0)
        #expect(try s.db.read(.leagueNights()).isEmpty)
    }

    /// The board, skins, aces and pot, computed from scores as every device would.
    /// By hand: hole 1 (field game) needs all 13; with only cards A and B scoring it stays
    /// open. Bo aces hole 5; the pot had 13 × 2 = 26 and pays it all to Bo.
    @Test func theNightsBoardAndSideGamesComeFromItsScores() throws {
        let n = try night()
        _ = try n.store.db.write(.startLeagueNight(n.event.id))
        try n.score("Ann", hole: 1, 2)
        try n.score("Fay", hole: 4, 4)
        try n.score("Bo", hole: 5, 1)
        try n.score("Jo", hole: 7, 3)
        let board = try #require(try n.store.db.read(.leagueNight(id: n.event.id)))
        let rows = board.results.standings.standings.rows
        #expect(rows.prefix(2).map(\.name) == ["Bo", "Ann"])
        #expect(rows.first?.toPar == -2)
        #expect(board.results.standings.card[n.id("Bo")] == 0)
        #expect(board.results.standings.card[n.id("Fay")] == 1)
        #expect(board.results.aces == [.init(participantID: n.id("Bo"), hole: 5)])
        #expect(board.results.skins.count == 1)
        #expect(board.results.skins[0].holes[0].outcome == .open)
        let pot = try n.store.db.read(.acePot)
        #expect(pot.payouts.map(\.player) == [n.id("Bo")])
        #expect(pot.payouts.map(\.amount) == [26])
        #expect(pot.total == 0)
        // A second night, nobody aces: the pot starts again from its buy-ins.
        _ = try night(n.store, buyIn: 3)
        #expect(try n.store.db.read(.acePot).total == 39)
    }

    @Test func twoPlayersSwapCardsOnlyBeforeTheStart() throws {
        let n = try night()
        _ = try n.store.db.write(.swapPlayers(n.id("Ann"), n.id("Max"), in: n.event.id))
        let rounds = try n.rounds()
        #expect(rounds[0].participants.map(\.name) == ["Max", "Bo", "Cy", "Dee", "Eve"])
        #expect(rounds[2].participants.map(\.name) == ["Jo", "Kim", "Lou", "Ann"])
        #expect(throws: StoreError.refused("both players are on the same card")) {
            try n.store.db.write(.swapPlayers(n.id("Bo"), n.id("Cy"), in: n.event.id))
        }
        _ = try n.store.db.write(.startLeagueNight(n.event.id))
        #expect(throws: StoreError.refused("players can be swapped only before the cards start")) {
            try n.store.db.write(.swapPlayers(n.id("Bo"), n.id("Jo"), in: n.event.id))
        }
    }

    @Test func theOrganizerEntersAClosestToThePinWinnerWhoPlaysTonight() throws {
        let n = try night()
        let set = try n.store.db.write(.setClosestToPin(n.event.id, hole: 3, winner: n.id("Gus")))
        #expect(set.closestToPin == [.init(hole: 3, winner: n.id("Gus"))])
        #expect(try n.store.db.read(.leagueNight(id: n.event.id))?.event.closestToPin.first?.winner == n.id("Gus"))
        #expect(throws: StoreError.leagueNight(.notAClosestToPinHole(4))) {
            try n.store.db.write(.setClosestToPin(n.event.id, hole: 4, winner: n.id("Gus")))
        }
        #expect(throws: StoreError.refused("the winner must play on one of the night's cards")) {
            try n.store.db.write(.setClosestToPin(n.event.id, hole: 3, winner: UUID()))
        }
        _ = try n.store.db.write(.setClosestToPin(n.event.id, hole: 3, winner: nil))
        #expect(try n.store.db.read(.leagueNight(id: n.event.id))?.event.closestToPin.first?.winner == nil)
    }

    @Test func aDiscardedNightLeavesTheListsAndTakesItsUnscoredCards() throws {
        let n = try night()
        _ = try n.store.db.write(.startLeagueNight(n.event.id))
        try n.score("Ann", hole: 1, 3)
        _ = try n.store.db.write(.discardLeagueNight(n.event.id))
        #expect(try n.store.db.read(.leagueNights()).isEmpty)
        #expect(try n.store.db.read(.leagueNight(ofRound: n.event.rounds[0])) == nil)
        let rounds = try n.rounds()
        #expect(rounds[0].status == .active)  // it has a score: a round of its own now
        #expect(rounds[1].status == .completed && rounds[2].status == .completed)
        #expect(throws: StoreError.notFound("league night \(n.event.id)")) {
            try n.store.db.write(.startLeagueNight(n.event.id))
        }
        // A night never started: its cards are discarded too (started and finished empty).
        let unstarted = try night(n.store)
        _ = try n.store.db.write(.discardLeagueNight(unstarted.event.id))
        #expect(try unstarted.rounds().allSatisfy { $0.status == .completed })
    }

    /// "By form": the average to par of each player's recent completed rounds.
    @Test func recentFormIsTheAverageToParOfRecentRounds() throws {
        let s = try TempStore()
        let course = try Course(name: "Test Nine", holeCount: 9)
        try s.db.write(.saveCourse(course))
        let ann = try Player(displayName: "Ann")
        let bo = try Player(displayName: "Bo")
        for (a, b) in [(27, 30), (25, 33)] {
            var round = try s.db.write(
                .createRound(
                    courseID: course.id, organizerID: ann.id, participants: [.registered(ann), .registered(bo)]))
            round = try s.db.write(.startRound(round.id))
            for (player, total) in [(ann, a), (bo, b)] {
                for hole in 1...9 {
                    let strokes = hole == 1 ? total - 24 : 3
                    _ = try s.db.write(
                        .recordScore(
                            ScoreEntry(
                                roundID: round.id, participantID: player.id, hole: hole, strokes: strokes, reportedBy: ann.id)))
                }
            }
            _ = try s.db.write(.finishRound(round.id))
        }
        let form = try s.db.read(.recentForm(of: [ann.id, bo.id, UUID()]))
        #expect(form[ann.id] == -1)  // 0 and −2
        #expect(form[bo.id] == 4.5)  // +3 and +6
        #expect(form.count == 2)
    }

    @Test func sameAsLastWeekIsTheLatestNightsRegisteredPlayers() throws {
        let s = try TempStore()
        #expect(try s.db.read(.lastLeagueNightPlayers).isEmpty)
        let n = try night(s)
        #expect(try s.db.read(.lastLeagueNightPlayers) == n.players.map(\.id))
    }
}
