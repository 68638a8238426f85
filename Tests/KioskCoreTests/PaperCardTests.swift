import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 35 item 3: "Enter a paper card" types a card scored on paper in, player by player,
/// one press a hole from par, with the running total; a long press goes back a hole.
@Suite struct PaperCardTests {
    static func card(_ h: Harness) -> Screen.PaperCard? {
        if case .paperCard(let card) = h.state.screen { card } else { nil }
    }

    /// Opens the paper card from the board's menu.
    static func open(_ h: inout Harness) throws {
        h.state.screen = .board
        h.send(.longPressed)
        let index = try #require(h.state.menuItems.firstIndex(of: .paperCard))
        h.send(.turned(index))
        h.send(.pressed)
    }

    /// Types `strokes` into the card on screen as a person does: turns from where the knob
    /// starts, then a press. Returns the actions (detents and presses).
    @discardableResult
    static func type(_ strokes: Int, _ h: inout Harness) -> Int {
        guard let card = card(h) else {
            Issue.record("not on the paper card: \(h.state.screen.name)")
            return 0
        }
        if strokes != card.value { h.send(.turned(strokes - card.value)) }
        h.send(.pressed)
        return abs(strokes - card.value) + 1
    }

    @Test func aWholeCardGoesInPlayerByPlayerAPressAHoleFromPar() throws {
        var h = try Harness(players: 3, holes: 9)
        h.state.settings.organizerLock = .set(length: 4)
        try Self.open(&h)
        #expect(h.state.screen == .paperCard(Screen.PaperCard(player: 0, hole: 1, value: 3)), "no code: this is scoring")
        let cards = [
            [3, 4, 3, 3, 5, 2, 3, 4, 3], [4, 3, 3, 3, 4, 3, 3, 3, 3], [3, 3, 2, 4, 4, 3, 5, 3, 3],
        ]
        var actions = 0
        for (p, card) in cards.enumerated() {
            for (i, strokes) in card.enumerated() {
                #expect(Self.card(h)?.player == p && Self.card(h)?.hole == i + 1)
                actions += Self.type(strokes, &h)
            }
        }
        #expect(h.state.screen == .board, "after the last cell, the board")
        let scorecard = try #require(h.snapshot?.scorecard)
        for (p, card) in cards.enumerated() {
            #expect((1...9).map { scorecard.value(participant: h.id(p), hole: $0) } == card)
        }
        #expect(h.round?.status == .awaitingFinalization)
        let pars = (1...9).map { h.course.par(of: $0) ?? 3 }
        let turns = cards.flatMap { zip($0, pars).map { abs($0 - $1) } }.reduce(0, +)
        #expect(actions == 27 + turns, "one press a cell and the turns from par")
    }

    @Test func aScoreAlreadyThereIsWhereTheKnobStartsAndIsNotWrittenAgain() throws {
        var h = try Harness(players: 2, holes: 9)
        h.perform(.saveScore(roundID: h.round!.id, participantID: h.id(0), hole: 2, strokes: 6))
        let before = h.events.count
        try Self.open(&h)
        Self.type(3, &h)  // hole 1 at par
        #expect(Self.card(h)?.value == 6, "hole 2 starts at the score there")
        h.send(.pressed)
        #expect(h.events.count == before + 1, "hole 2 kept as it was: no second statement")
        #expect(Self.card(h)?.hole == 3)
    }

    @Test func aLongPressGoesBackAHoleThenAPlayerThenOut() throws {
        var h = try Harness(players: 2, holes: 9)
        try Self.open(&h)
        for strokes in [4, 5] { Self.type(strokes, &h) }
        #expect(Self.card(h)?.hole == 3)
        h.send(.longPressed)
        #expect(Self.card(h) == Screen.PaperCard(player: 0, hole: 2, value: 5), "back on hole 2 at what was kept")
        h.send(.turned(-1))
        let total = try #require(Self.card(h)).runningTotal(in: try #require(h.snapshot))
        #expect(total.strokes == 4 + 4 && total.toPar == 8 - 6, "\(total)")
        for _ in 0..<8 { Self.type(3, &h) }  // holes 2–9, player 1 done
        #expect(Self.card(h)?.player == 1 && Self.card(h)?.hole == 1)
        h.send(.longPressed)
        #expect(Self.card(h)?.player == 0 && Self.card(h)?.hole == 9, "back to the previous player's last hole")
        for _ in 0..<8 { h.send(.longPressed) }
        #expect(Self.card(h)?.hole == 1)
        h.send(.longPressed)
        #expect(h.state.screen.name == "menu")
        guard case .menu(let menu) = h.state.screen else { throw CancellationError() }
        #expect(h.state.menuItems[menu.cursor] == .paperCard, "on the entry it was opened from")
    }

    @Test func onlyWhileARoundIsBeingPlayed() throws {
        let h = try Harness(players: 2, holes: 9, startRound: false)
        #expect(!h.state.menuItems.contains(.paperCard))
    }
}
