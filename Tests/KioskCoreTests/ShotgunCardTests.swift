import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 36 item 3 at the hole card: a card that starts on hole 7 opens on 7, moves on to
/// 8, 9, then 1 by itself, and its free navigation ends on hole 6, its last.
@Suite struct ShotgunCardTests {
    func scoreWholeHole(_ h: inout Harness) {
        guard case .holeCard(let card) = h.state.screen else { return }
        for row in 0..<h.players.count { h.score(row: row, delta: 0) }
        #expect(h.snapshot!.scorecard.isHoleComplete(card.hole))
        h.advance(MotionTokens.autoAdvanceDelay)
    }

    @Test func aCardStartingOnSevenPlaysSevenToNineThenOne() throws {
        var h = try Harness(players: 2, startHole: 7)
        h.send(.pressed)
        #expect(h.state.screen == .holeCard(hole: 7, cursor: 0))
        scoreWholeHole(&h)
        #expect(h.state.screen == .holeCard(hole: 8, cursor: 0))
        scoreWholeHole(&h)
        scoreWholeHole(&h)
        // Past the last hole of the course: on from hole 1, not back to the board.
        #expect(h.state.screen == .holeCard(hole: 1, cursor: 0))
        // Back to the board and in again: the card resumes where it is, hole 1.
        h.advance(MotionTokens.undoToastLifetime)
        h.send(.longPressed)
        h.send(.pressed)
        #expect(h.state.screen == .holeCard(hole: 1, cursor: 0))
        // Turning back from hole 1 goes to 9; before 7 there is nothing (the card's first).
        h.send(.turned(-1))
        #expect(h.state.screen == .holeCard(hole: 9, cursor: 1))
        h.send(.turned(-5))  // rows: 9/0, 8/1, 8/0, 7/1, 7/0
        #expect(h.state.screen == .holeCard(hole: 7, cursor: 0))
        #expect(h.send(.turned(-1)) == [.buzz(.limit)])
        #expect(h.state.screen == .holeCard(hole: 7, cursor: 0))
    }

    @Test func theCardsLastHoleIsTheOneBeforeItsStart() throws {
        var h = try Harness(players: 1, startHole: 4)
        h.send(.pressed)
        #expect(h.state.screen == .holeCard(hole: 4, cursor: 0))
        // Forward through 5–9 and 1–3: 3 is the end.
        h.send(.turned(8))
        #expect(h.state.screen == .holeCard(hole: 3, cursor: 0))
        #expect(h.send(.turned(1)) == [.buzz(.limit)])
        // Control: a round in course order ends on 9.
        var plain = try Harness(players: 1)
        plain.send(.pressed)
        plain.send(.turned(20))
        #expect(plain.state.screen == .holeCard(hole: 9, cursor: 0))
    }

    /// The card before the start sets a shotgun start: a press on "First hole", six turns,
    /// a press; Start starts the round there and opens its card on hole 7. The turns stop at
    /// the course's last hole, felt; a long press while setting keeps the hole.
    @Test func theFirstHoleIsSetBeforeTheStart() throws {
        var h = try Harness(players: 2, startRound: false)
        h.send(.pressed)  // start a round
        h.send(.pressed)  // the course
        h.send(.pressed)  // Nate
        h.send(.turned(1))
        h.send(.pressed)  // Mike
        h.send(.turned(1))  // Start round
        h.send(.pressed)
        guard case .confirmRound(let card) = h.state.screen else { throw CancellationError() }
        #expect(card.choices == ["Start round", "First hole: 1", "Change players"])
        h.send(.turned(1))
        h.send(.pressed)
        h.send(.turned(6))
        guard case .confirmRound(let setting) = h.state.screen else { throw CancellationError() }
        #expect(setting.choices[1] == "Turn: hole 7")
        #expect(h.send(.turned(10)) == [.buzz(.limit)])  // hole 9 is the last
        h.send(.turned(-2))
        h.send(.longPressed)  // keeps 7, stops setting
        guard case .confirmRound(let kept) = h.state.screen else { throw CancellationError() }
        #expect(kept.choices[1] == "First hole: 7")
        h.send(.turned(-1))
        let effects = h.send(.pressed)
        #expect(
            effects.contains(
                .startRound(courseID: h.course.id, participants: h.players.map(Participant.registered), startHole: 7)))
        #expect(h.round?.startHole == 7)
        #expect(h.state.screen == .holeCard(hole: 7, cursor: 0))
    }
}
