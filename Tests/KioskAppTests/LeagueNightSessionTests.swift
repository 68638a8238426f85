import Foundation
import HyzerKit
import HyzerStore
import Testing

@testable import KioskApp
@testable import KioskCore

/// Issue 36 at the kiosk through the real store: check-in, the draw by recent form (read
/// from the store's history), "Start the night" making the night and starting its cards,
/// the board ranking them together, and a closest-to-the-pin winner entered on the side
/// games screen. The ace pot carries last week's total in.
@Suite struct LeagueNightSessionTests {
    static let names = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou", "Max"]

    @Test func aNightFromCheckInToTheSideGames() throws {
        let store = try HyzerDatabase.inMemory()
        let course = try Course(name: "Session Nine", holeCount: 9)
        try store.write(.saveCourse(course))
        let players = try Self.names.map { try Player(displayName: $0) }
        for p in players { try store.write(.savePlayer(p)) }
        // Last week: Max and Lou played a round (Max −2, Lou +4), and a night of one card
        // whose ace pot (2 each, 3 players, no ace) carries 6 in.
        let old = try store.write(
            .createRound(
                courseID: course.id, organizerID: players[12].id,
                participants: [players[12], players[11]].map(Participant.registered)))
        _ = try store.write(.startRound(old.id))
        for hole in 1...9 {
            for (p, strokes) in [(players[12], hole <= 2 ? 2 : 3), (players[11], hole <= 4 ? 4 : 3)] {
                _ = try store.write(
                    .recordScore(
                        ScoreEntry(roundID: old.id, participantID: p.id, hole: hole, strokes: strokes, reportedBy: p.id)))
            }
        }
        _ = try store.write(.finishRound(old.id))
        let lastWeek = try store.write(
            .createLeagueNight(
                name: "Last week", courseID: course.id, organizerID: players[0].id,
                cards: [LeagueNightCard(participants: players[0..<3].map(Participant.registered), startHole: 1)],
                skins: .off, acePot: .init(buyIn: 2, players: players[0..<3].map(\.id)), day: "2026-11-19"))
        _ = try store.write(.discardLeagueNight(lastWeek.id))  // a discarded night adds nothing…
        let counted = try store.write(
            .createLeagueNight(
                name: "Last week", courseID: course.id, organizerID: players[0].id,
                cards: [LeagueNightCard(participants: players[3..<6].map(Participant.registered), startHole: 1)],
                skins: .off, acePot: .init(buyIn: 2, players: players[3..<6].map(\.id)), day: "2026-11-20"))
        _ = counted  // …this one adds 6

        let knob = try Knob(store)
        let session = knob.session
        func send(_ event: KioskEvent) { knob.send(event) }
        knob.open(.leagueNight)
        #expect(session.state.screen.name == "check-in")
        // "Same as last week" is the latest night's players: Dee, Eve, Fay.
        guard case .checkIn(let first) = session.state.screen,
            case .sameAsLastWeek(let same) = first.rows(in: session.state.data).first
        else {
            Issue.record("no same-as-last-week row")
            return
        }
        #expect(same == players[3..<6].map(\.id))
        // Everyone in, one by one (the first row is "Same as last week").
        send(.turned(1))
        for _ in players {
            send(.pressed)
            send(.turned(1))
        }
        // On Draw now: the form comes from the store at once.
        send(.pressed)
        guard case .drawCards(let draw) = session.state.screen, let cards = draw.cards else {
            Issue.record("no draw: \(session.state.screen)")
            return
        }
        // Ranked by form: Max (−2) first, Lou (+4) last, everyone without a round counting as
        // the middle of the field, in check-in order; dealt in a snake, A B C C B A A B C C B A A.
        let ranked = [players[12]] + players[0..<11] + [players[11]]
        let snake = [0, 1, 2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0]
        let expected = (0..<3).map { card in ranked.indices.filter { snake[$0] == card }.map { ranked[$0].displayName } }
        #expect(cards.map { $0.map(\.name) } == expected)

        // Start the night: three rounds started on holes 1, 4 and 7, and the night.
        send(.pressed)
        let night = try #require(session.state.data.leagueNight)
        #expect(night.cards.map(\.round.status) == [.active, .active, .active])
        #expect(night.cards.map(\.round.startHole) == [1, 4, 7])
        #expect(night.event.acePot?.players.count == 13)
        #expect(session.state.leaderboard.cards.count == 13)
        // The pot: 6 carried in from the counted night, 13 more tonight.
        #expect(session.state.data.acePotCarriedIn == 6)
        #expect(session.state.data.acePot?.total == 6 + 13)
        // The board's panel says it; the idle board's foot does not repeat it.
        #expect(session.state.boardSideGamesLines.last == .init("Ace pot", "19", kind: .acePot))
        #expect(session.state.data.idleAcePot == nil)

        // No CTP hole was set at check-in: the side games list has none to enter.
        send(.longPressed)
        send(.turned(50))
        send(.turned(-1))
        send(.pressed)
        #expect(session.state.screen.name == "side-games")
        #expect(!Screen.SideGames.rows(in: session.state.data).contains { if case .closestToPin = $0 { true } else { false } })
        // Discarded (from the command line, say): its unscored cards go with it, and the
        // board is an ordinary day's again.
        _ = try store.write(.discardLeagueNight(night.event.id))
        session.reload(.external, now: knob.now)
        #expect(session.state.data.leagueNight == nil)
        #expect(session.state.leaderboard.cards.isEmpty)
        // With no night on the board, its foot keeps the group's pot in view: last week's 6
        // (tonight's discarded buy-ins are gone with it).
        #expect(session.state.data.idleAcePot == 6)
        #expect(session.state.boardSideGamesLines.isEmpty)
    }

    @Test func theOrganizerEntersTheClosestToThePinWinnerAtTheKiosk() throws {
        let store = try HyzerDatabase.inMemory()
        let course = try Course(name: "Session Nine", holeCount: 9)
        try store.write(.saveCourse(course))
        let players = try ["Ann", "Bo", "Cy"].map { try Player(displayName: $0) }
        for p in players { try store.write(.savePlayer(p)) }
        let made = try store.write(
            .createLeagueNight(
                name: "League night", courseID: course.id, organizerID: players[0].id,
                cards: [LeagueNightCard(participants: players.map(Participant.registered), startHole: 1)], skins: .field,
                closestToPin: [3]))
        _ = try store.write(.startLeagueNight(made.id))
        let knob = try Knob(store)
        let session = knob.session
        func send(_ event: KioskEvent) { knob.send(event) }
        knob.open(.sideGames)
        let rows = Screen.SideGames.rows(in: session.state.data)
        let ctp = try #require(rows.firstIndex(of: .closestToPin(hole: 3, winner: nil)))
        send(.turned(ctp))
        send(.pressed)
        #expect(session.state.screen.name == "side-games-ctp")
        send(.turned(2))  // Nobody, Ann, Bo
        send(.pressed)
        #expect(try store.read(.leagueNight(id: made.id))?.event.closestToPin == [.init(hole: 3, winner: players[1].id)])
        #expect(Screen.SideGames.rows(in: session.state.data).contains(.closestToPin(hole: 3, winner: "Bo")))
    }
}

/// A kiosk session on 800×480 whose clock moves 100 ms an input.
final class Knob {
    let session: KioskSession
    private(set) var now: Millis = 1_000

    init(_ store: HyzerDatabase) throws {
        session = try KioskSession(store: store, viewport: Viewport(width: 800, height: 480), now: 0)
    }

    func send(_ event: KioskEvent) {
        now += 100
        session.send(event, now: now)
    }

    /// From the board into a menu entry: the menu, turned to it, pressed.
    func open(_ item: MenuItem) {
        send(.longPressed)
        send(.turned(session.state.menuItems.firstIndex(of: item)!))
        send(.pressed)
    }
}
