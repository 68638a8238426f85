import Foundation
import Testing

@testable import HyzerKit

/// Issue 36's rules, each against a hand-computed expectation (docs/requirements.md,
/// "League night").
@Suite struct LeagueNightTests {
    static func ids(_ count: Int) -> [UUID] {
        (0..<count).map { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012X", $0))! }
    }

    @Test func cardsHoldThreeToFivePlayersNearFourEach() {
        #expect(CardDraw.sizes(players: 13) == [5, 4, 4])
        #expect(CardDraw.sizes(players: 30) == [4, 4, 4, 4, 4, 4, 3, 3])
        #expect(CardDraw.sizes(players: 12) == [4, 4, 4])
        #expect(CardDraw.sizes(players: 7) == [4, 3])
        #expect(CardDraw.sizes(players: 6) == [3, 3])
        #expect(CardDraw.sizes(players: 5) == [5])
        #expect(CardDraw.sizes(players: 2) == [2])
        #expect(CardDraw.sizes(players: 0) == [])
        for count in 6...120 {
            let sizes = CardDraw.sizes(players: count)
            #expect(sizes.reduce(0, +) == count, "\(count)")
            #expect(sizes.allSatisfy(CardDraw.cardSizes.contains), "\(count): \(sizes)")
            #expect(sizes.max()! - sizes.min()! <= 1, "\(count): \(sizes)")
        }
    }

    @Test func aBalancedDrawSnakesTheFieldFromBestToWorst() {
        let players = Self.ids(13)
        // Player i averages i over par: 0 is the best.
        let form = Dictionary(uniqueKeysWithValues: players.enumerated().map { ($1, Double($0)) })
        let cards = CardDraw.balanced(players.reversed(), form: form)
        // A B C C B A A B C C B A A: by hand.
        let index = { (card: [UUID]) in card.map { players.firstIndex(of: $0)! } }
        #expect(cards.map(index) == [[0, 5, 6, 11, 12], [1, 4, 7, 10], [2, 3, 8, 9]])
        // Someone with no rounds yet counts as the middle of the field (the median is 6).
        var newcomer = form
        newcomer[players[12]] = nil
        let withNewcomer = CardDraw.balanced(players, form: newcomer)
        // 12 ranks with 6, after them in the order given: 0 1 2 3 4 5 6 12 7 8 9 10 11.
        #expect(withNewcomer.map(index) == [[0, 5, 6, 10, 11], [1, 4, 12, 9], [2, 3, 7, 8]])
    }

    @Test func aRandomDrawPlacesEveryoneOnceAndIsTheSameForTheSameSeed() {
        let players = Self.ids(30)
        var a = SeededGenerator(seed: 36)
        var b = SeededGenerator(seed: 36)
        var c = SeededGenerator(seed: 37)
        let first = CardDraw.random(players, using: &a)
        #expect(first == CardDraw.random(players, using: &b))
        #expect(first != CardDraw.random(players, using: &c))
        #expect(first.map(\.count) == CardDraw.sizes(players: 30))
        #expect(Set(first.flatMap { $0 }) == Set(players))
        #expect(first.flatMap { $0 }.count == 30)
    }

    @Test func shotgunStartsSpreadAroundTheCourse() {
        #expect((0..<3).map { CardDraw.startHole(card: $0, of: 3, holes: 9) } == [1, 4, 7])
        #expect((0..<8).map { CardDraw.startHole(card: $0, of: 8, holes: 18) } == [1, 3, 5, 7, 10, 12, 14, 16])
        #expect((0..<4).map { CardDraw.startHole(card: $0, of: 4, holes: 3) } == [1, 1, 2, 3])
        #expect([0, 1, 25, 26, 27, 51, 52].map(CardDraw.letter) == ["A", "B", "Z", "AA", "AB", "AZ", "BA"])
    }

    @Test func aCardStartingOnHoleSevenPlaysRoundTheCourse() {
        let order = HoleOrder(start: 7, holeCount: 9)
        #expect(order.holes == [7, 8, 9, 1, 2, 3, 4, 5, 6])
        #expect(order.after(9) == 1)
        #expect(order.after(5) == 6)
        #expect(order.after(6) == nil)
        let played: Set = [7, 8, 9, 1]
        #expect(order.firstUnscored(played.contains) == 2)
        #expect(order.firstUnscored { _ in true } == nil)
        #expect(HoleOrder(start: 1, holeCount: 9).holes == Array(1...9))
        // A start that is not on the course is hole 1's.
        #expect(HoleOrder(start: 12, holeCount: 9).start == 1)
    }

    /// Three players, four holes (by hand):
    ///   hole 1: 3 3 4, a tie: its skin carries; hole 2: 2 3 3, A wins 2;
    ///   hole 3: 3 3 3, carries; hole 4: 4 3 5, B wins 2.
    @Test func skinsCarryOverTiesToTheNextHole() {
        let (a, b, c) = (UUID(), UUID(), UUID())
        let card: [UUID: [Int?]] = [a: [3, 2, 3, 4], b: [3, 3, 3, 3], c: [4, 3, 3, 5]]
        let skins = Skins(players: [a, b, c], holeCount: 4, finished: false) { card[$0]![$1 - 1] }
        #expect(skins.holes.map(\.skins) == [1, 2, 1, 2])
        #expect(skins.holes.map(\.outcome) == [.carried, .won(a, strokes: 2), .carried, .won(b, strokes: 3)])
        #expect(skins.won == [a: 2, b: 2])
        #expect(skins.unclaimed == 0)
        // A tie on the last hole: its skins and the carried one stay unclaimed.
        var tiedLast = card
        tiedLast[c] = [4, 3, 3, 3]
        let unclaimed = Skins(players: [a, b, c], holeCount: 4, finished: true) { tiedLast[$0]![$1 - 1] }
        #expect(unclaimed.unclaimed == 2)
        #expect(unclaimed.won == [a: 2])
    }

    @Test func aHoleNotPlayedByEveryoneHoldsBackTheHolesAfterIt() {
        let (a, b, c) = (UUID(), UUID(), UUID())
        // C has not played hole 2 (a shotgun card elsewhere on the course).
        let card: [UUID: [Int?]] = [a: [3, 2, 3, 4], b: [3, 3, 3, 3], c: [4, nil, 3, 5]]
        let live = Skins(players: [a, b, c], holeCount: 4, finished: false) { card[$0]![$1 - 1] }
        #expect(live.holes.map(\.outcome) == [.carried, .open, .waiting, .waiting])
        #expect(live.won.isEmpty)
        // Finished without it, C does not hold the hole and cannot win it.
        let done = Skins(players: [a, b, c], holeCount: 4, finished: true) { card[$0]![$1 - 1] }
        #expect(done.holes.map(\.outcome) == [.carried, .won(a, strokes: 2), .carried, .won(b, strokes: 3)])
        // Per card, each card is its own game; across the field, one.
        #expect(Skins.games([[a, b], [c]], perCard: true) == [[a, b], [c]])
        #expect(Skins.games([[a, b], [c]], perCard: false) == [[a, b, c]])
    }

    /// At 2 a player: 3 in (6), 2 in (10), 3 in and two aces (16, 8 each: 0 left), one in
    /// and an ace by someone not in (2, nobody paid), then 3 in and three aces (8: 2 each,
    /// 2 stay in the pot).
    @Test func theAcePotGrowsPaysItsAcesEvenlyAndStartsAgain() {
        let (a, b, c) = (UUID(), UUID(), UUID())
        let pot = AcePot(
            nights: [
                .init(optedIn: [a, b, c], aces: [], buyIn: 2),
                .init(optedIn: [a, b], aces: [], buyIn: 2),
                .init(optedIn: [a, b, c], aces: [b, c], buyIn: 2),
                .init(optedIn: [a], aces: [c], buyIn: 2),
                .init(optedIn: [a, b, c], aces: [a, b, c], buyIn: 2),
            ])
        #expect(pot.payouts.map(\.amount) == [8, 8, 2, 2, 2])
        #expect(pot.payouts.map(\.player) == [b, c, a, b, c])
        #expect(pot.payouts.map(\.night) == [2, 2, 4, 4, 4])
        #expect(pot.total == 2)
        #expect(AcePot(nights: [.init(optedIn: [a], aces: [], buyIn: 5)]).total == 5)
    }

    @Test func everyCardsPlayersAreRankedTogether() {
        func row(_ id: UUID, _ name: String, _ toPar: Int, thru: Int, _ status: StandingStatus = .playing) -> Standing {
            Standing(
                participantID: id, name: name, position: nil, tied: false, toPar: toPar, strokes: 0, thru: thru,
                status: status)
        }
        let (nate, mike, jake, sarah, ana) = (UUID(), UUID(), UUID(), UUID(), UUID())
        let cardA = StandingsEngine.rank([row(nate, "Nate", -1, thru: 3), row(mike, "Mike", 0, thru: 3)])
        let cardB = StandingsEngine.rank([
            row(jake, "Jake", -1, thru: 2), row(sarah, "Sarah", 2, thru: 9, .finished), row(ana, "Ana", -4, thru: 5, .dnf),
        ])
        let night = EventStandings(cards: [cardA, cardB])
        #expect(night.standings.rows.map(\.name) == ["Nate", "Jake", "Mike", "Sarah", "Ana"])
        #expect(night.standings.rows.map(\.positionLabel) == ["T1", "T1", "3", "4", "–"])
        #expect(night.card == [nate: 0, mike: 0, jake: 1, sarah: 1, ana: 1])
    }

    /// A round's card that starts on hole 7 of 9 (issue 36): its current hole is the first
    /// in its own order that someone lacks; the start hole is set in setup only.
    @Test func aShotgunRoundResumesInItsOwnOrder() throws {
        let f = try Fixture(names: ["Nate", "Mike"])
        var round = Round(courseID: f.course.id, organizerID: f.ids[0], createdAt: Fixture.start)
        for p in f.round.participants { try round.add(p) }
        try round.takePars(of: f.course)
        #expect(throws: RoundError.noSuchStartHole(10, holeCount: 9)) { try round.startOn(hole: 10) }
        try round.startOn(hole: 7)
        try round.start(at: Fixture.start)
        #expect(throws: RoundError.startHoleLocked(.active)) { try round.startOn(hole: 1) }
        var events: [ScoreEvent] = []
        func score(_ p: Int, _ hole: Int) {
            events.append(
                ScoreEvent(
                    roundID: round.id, participantID: round.participants[p].id, hole: hole, strokes: 3, reportedBy: f.ids[0],
                    deviceID: "A", createdAt: Fixture.start))
        }
        #expect(RoundSnapshot(round: round, course: f.course, events: events).currentHole == 7)
        for hole in [7, 8, 9] {
            score(0, hole)
            score(1, hole)
        }
        #expect(RoundSnapshot(round: round, course: f.course, events: events).currentHole == 1)
        for hole in 1...6 {
            score(0, hole)
            score(1, hole)
        }
        // Every hole in: the card's last hole, 6.
        #expect(RoundSnapshot(round: round, course: f.course, events: events).currentHole == 6)
        let order = HoleOrder(start: 7, holeCount: 9)
        #expect(order.before(7) == nil)
        #expect(order.before(1) == 9)
        #expect(order.before(8) == 7)
    }

    @Test func anEventRefusesAShapeNoNightHas() throws {
        let round = UUID()
        func make(
            name: String = "League", day: String = "2026-11-26", rounds: [UUID]? = nil, ctp: [Int] = [],
            pot: LeagueEvent.AcePotEntry? = nil
        ) throws(LeagueEventError) -> LeagueEvent {
            try LeagueEvent(
                name: name, courseID: UUID(), day: day, rounds: rounds ?? [round],
                closestToPin: ctp.map { .init(hole: $0) }, acePot: pot, createdAt: Date())
        }
        #expect(try make(ctp: [7, 3]).closestToPin.map(\.hole) == [3, 7])
        #expect(throws: LeagueEventError.badName) { try make(name: "  ") }
        #expect(throws: LeagueEventError.badDay("2026-02-30")) { try make(day: "2026-02-30") }
        #expect(throws: LeagueEventError.badDay("26/11/2026")) { try make(day: "26/11/2026") }
        #expect(try make(day: "2028-02-29").day == "2028-02-29")
        #expect(throws: LeagueEventError.cardCount(0)) { try make(rounds: []) }
        #expect(throws: LeagueEventError.cardCount(27)) { try make(rounds: Self.ids(27)) }
        #expect(throws: LeagueEventError.roundListedTwice) { try make(rounds: [round, round]) }
        #expect(throws: LeagueEventError.badClosestToPinHoles([3, 3])) { try make(ctp: [3, 3]) }
        #expect(throws: LeagueEventError.badBuyIn(-1)) { try make(pot: .init(buyIn: -1, players: [])) }
        let p = UUID()
        #expect(throws: LeagueEventError.acePotPlayerListedTwice) { try make(pot: .init(buyIn: 1, players: [p, p])) }
        var event = try make(ctp: [3])
        #expect(throws: LeagueEventError.notAClosestToPinHole(4)) { try event.setClosestToPin(hole: 4, winner: p) }
        try event.setClosestToPin(hole: 3, winner: p)
        #expect(event.closestToPin == [.init(hole: 3, winner: p)])
        #expect(event.letter(of: round) == "A" && event.letter(of: p) == nil)
    }

    /// Two cards of two on a par-3 three-hole course, skins per card. By hand:
    /// card A (a, b): hole 1 3/3 carries, hole 2 a 2 wins 2, hole 3 4/3 b wins 1;
    /// card B (c, d) has played hole 1 only (c 1, an ace; d 3): c wins 1, holes 2-3 open.
    /// Field: c −2 thru 1; a (3 2 4), b (3 3 3) and d (3 thru 1) all at E, tied second, a
    /// and b first inside the tie (more holes), then by name; the night is not finished.
    @Test func theNightRanksEveryCardTogetherAndPlaysSkinsPerCard() throws {
        let (a, b, c, d) = (UUID(), UUID(), UUID(), UUID())
        let course = UUID()
        func card(_ players: [(UUID, String)], _ scores: [(UUID, Int, Int)], done: Bool) -> (Round, Scorecard) {
            NetNightTests.card(players, scores, done: done, course: course, kind: .guest)
        }
        let cardA = card(
            [(a, "A1"), (b, "B1")], [(a, 1, 3), (b, 1, 3), (a, 2, 2), (b, 2, 3), (a, 3, 4), (b, 3, 3)], done: true)
        let cardB = card([(c, "C1"), (d, "D1")], [(c, 1, 1), (d, 1, 3)], done: false)
        let event = try LeagueEvent(
            name: "League", courseID: course, day: "2026-11-26", rounds: [cardA.0.id, cardB.0.id], skins: .card,
            createdAt: Date())
        let results = EventResults(event: event, cards: [(cardA.0, cardA.1), (cardB.0, cardB.1)])
        #expect(results.standings.standings.rows.map(\.participantID) == [c, a, b, d])
        #expect(results.standings.standings.rows.map(\.positionLabel) == ["1", "T2", "T2", "T2"])
        #expect(results.standings.card == [a: 0, b: 0, c: 1, d: 1])
        #expect(results.skinsCards == [0, 1])
        #expect(results.skins[0].won == [a: 2, b: 1])
        #expect(results.skins[1].won == [c: 1])
        #expect(results.skinsWon == [a: 2, b: 1, c: 1])
        #expect(results.aces == [.init(participantID: c, hole: 1)])
        #expect(!results.finished)
        // As one field game: all four have hole 1 (c's ace wins it); c and d have played
        // neither hole 2 nor hole 3, so both are open.
        var field = event
        field.skins = .field
        let one = EventResults(event: field, cards: [(cardA.0, cardA.1), (cardB.0, cardB.1)])
        #expect(one.skinsCards == [nil])
        #expect(one.skins[0].holes.map(\.outcome) == [.won(c, strokes: 1), .open, .open])
        // A card not arrived yet is simply not in it.
        let partial = EventResults(event: event, cards: [(cardB.0, cardB.1)])
        #expect(partial.standings.standings.rows.map(\.participantID) == [c, d])
        #expect(partial.standings.card[c] == 1)
    }
}
