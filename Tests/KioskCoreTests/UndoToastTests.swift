import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 35's "Undo" toast: for a few seconds after a score is saved at the hole card, or a
/// player or a guest is added in round setup, a long press (or a tap on the toast) undoes it.
@Suite struct UndoToastTests {
    /// Saves `strokes` for row `row` of the first hole's card, from the board.
    func saveOnHoleOne(_ h: inout Harness, row: Int, strokes: Int) {
        if h.state.screen == .board { h.send(.pressed) }
        let par = h.course.par(of: 1)!
        h.score(row: row, delta: strokes - par)
    }

    func value(_ h: Harness, row: Int, hole: Int = 1) -> Int? {
        h.snapshot?.scorecard.value(participant: h.id(row), hole: hole)
    }

    @Test func aLongPressSoonAfterASaveUndoesItAndTheCellIsEmptyAgain() throws {
        var h = try Harness()
        saveOnHoleOne(&h, row: 1, strokes: 4)
        #expect(value(h, row: 1) == 4)
        let toast = try #require(h.state.undoToast(at: h.now))
        #expect(toast.text == "Mike 4 on hole 1")
        #expect(toast.action == .score(roundID: h.round!.id, participantID: h.id(1), hole: 1, strokes: 4))
        // Turning to look keeps it; the machine wakes when it is due to go.
        h.send(.turned(1))
        #expect(h.state.undoToast(at: h.now) != nil)
        #expect(h.state.nextWakeUp(after: h.now)! <= toast.expiresAt)
        h.now += MotionTokens.undoToastLifetime - 100
        let effects = h.send(.longPressed)
        #expect(effects == [.buzz(.confirm), .undoScore(roundID: h.round!.id, participantID: h.id(1), hole: 1, strokes: 4)])
        #expect(value(h, row: 1) == nil)
        // Back on that hole, on that row: the right score is one press away.
        #expect(h.state.screen == .holeCard(hole: 1, cursor: 1))
        #expect(h.state.notice?.text == "Undone: Mike 4 on hole 1")
        #expect(h.state.undoToast == nil)
        // Control: the next long press is "back" again.
        h.send(.longPressed)
        #expect(h.state.screen == .board)
    }

    @Test func afterAFewSecondsALongPressIsBackAsBefore() throws {
        var h = try Harness()
        saveOnHoleOne(&h, row: 0, strokes: 3)
        h.advance(MotionTokens.undoToastLifetime)
        #expect(h.state.undoToast == nil)
        let effects = h.send(.longPressed)
        #expect(!effects.contains { if case .undoScore = $0 { true } else { false } })
        #expect(h.state.screen == .board)
        #expect(value(h, row: 0) == 3)
    }

    @Test func undoingAChangeBringsBackThePreviousScore() throws {
        var h = try Harness()
        saveOnHoleOne(&h, row: 0, strokes: 3)
        h.advance(MotionTokens.undoToastLifetime)
        // Changed to 6 by mistake, then undone: 3 again.
        saveOnHoleOne(&h, row: 0, strokes: 6)
        #expect(value(h, row: 0) == 6)
        h.send(.longPressed)
        #expect(value(h, row: 0) == 3)
    }

    @Test func aTapOnTheToastUndoesAndATapElsewhereDoesWhatItDidBefore() throws {
        var h = try Harness()
        saveOnHoleOne(&h, row: 0, strokes: 4)
        let toast = try #require(h.state.undoToast(at: h.now))
        let boxes = Layout(viewport: h.state.viewport).undoToastBoxes(toast.text)
        // A tap on a row above it scores that row, as always: the toast goes with the screen.
        let row = Layout(viewport: h.state.viewport).holeCard(rows: 3).row(2, top: 0)
        h.send(.touch(x: row.midX, y: row.midY))
        #expect(h.state.screen.name == "entry-hole-1")
        #expect(h.state.undoToast == nil)
        h.send(.longPressed)
        saveOnHoleOne(&h, row: 1, strokes: 5)
        let effects = h.send(.touch(x: boxes.button.midX, y: boxes.button.midY))
        #expect(effects.contains(.undoScore(roundID: h.round!.id, participantID: h.id(1), hole: 1, strokes: 5)))
        #expect(value(h, row: 1) == nil)
    }

    @Test func theToastGoesWithItsScreenAndWithAFailedSave() throws {
        var h = try Harness()
        saveOnHoleOne(&h, row: 0, strokes: 4)
        // A press opens the next entry: moving on, the toast is gone.
        h.send(.pressed)
        #expect(h.state.undoToast == nil)
        h.send(.longPressed)
        h.advance(1)
        saveOnHoleOne(&h, row: 1, strokes: 4)
        #expect(h.state.undoToast != nil)
        // The save failed in the shell: there is nothing to undo.
        h.send(.effectFailed("Storage full: not saved"))
        #expect(h.state.undoToast == nil)
    }

    @Test func theScoreThatCompletesTheRoundOffersNoUndo() throws {
        var h = try Harness(players: 1, holes: 3)
        h.send(.pressed)
        for hole in 1...2 {
            h.score(row: 0, delta: 0)
            #expect(h.state.undoToast?.text == "Nate \(h.course.par(of: hole)!) on hole \(hole)")
            h.advance(MotionTokens.autoAdvanceDelay)
        }
        // The last empty cell: the round moves to "all scores recorded", which does not go back.
        h.score(row: 0, delta: 1)
        #expect(h.state.undoToast == nil)
        #expect(h.round?.status == .awaitingFinalization)
        // So a long press there is "back", as before.
        h.send(.longPressed)
        #expect(h.state.screen == .board)
        #expect(value(h, row: 0, hole: 3) == h.course.par(of: 3)! + 1)
    }

    @Test func aPlayerMadeByMistakeInSetupComesOffTheDraftAndTheRoster() throws {
        var h = try Harness(players: 1, startRound: false)
        _ = try NameEntryScreenTests.openNameEntry(&h)
        h.send(.typed(.text("Nathan")))
        h.send(.typed(.done))
        let nathan = try #require(h.players.first { $0.displayName == "Nathan" })
        guard case .setupPlayers(let setup) = h.state.screen else { throw CancellationError() }
        #expect(setup.selected.contains(nathan.id))
        #expect(h.state.undoToast(at: h.now)?.text == "Added Nathan")
        let effects = h.send(.longPressed)
        #expect(effects == [.buzz(.confirm), .undoNewPlayer(nathan.id)])
        guard case .setupPlayers(let after) = h.state.screen else {
            Issue.record("left setup: \(h.state.screen.name)")
            return
        }
        #expect(!after.selected.contains(nathan.id))
        #expect(!h.players.contains { $0.id == nathan.id })
        // Control: a long press now goes back, as in setup it always did.
        h.send(.longPressed)
        #expect(h.state.screen.name == "setup-course")
    }

    @Test func aGuestAddedByMistakeComesOffTheDraft() throws {
        var h = try Harness(players: 2, startRound: false)
        try PhoneNameTests.openGuestEntry(&h)
        h.send(.typed(.text("Sam")))
        h.send(.typed(.done))
        guard case .setupPlayers(let setup) = h.state.screen, let sam = setup.guests.first else {
            Issue.record("no guest: \(h.state.screen.name)")
            return
        }
        #expect(h.state.undoToast(at: h.now)?.text == "Added guest Sam")
        #expect(h.send(.longPressed) == [.buzz(.confirm)])
        guard case .setupPlayers(let after) = h.state.screen else { throw CancellationError() }
        #expect(after.guests.isEmpty)
        #expect(!after.selected.contains(sam.id))
    }

    /// The toast keeps its words and its button whole (or its words ellipsized) at every
    /// panel size the layout check knows, above the footer and inside the screen.
    @Test(arguments: LayoutCheckTests.sizes) func theToastHoldsItsContent(size: (Int, Int)) {
        let layout = Layout(viewport: Viewport(width: size.0, height: size.1))
        for text in ["Mike 4 on hole 1", "Added guest Bartholomew-Alexander Featherstonehaugh", "Sam 10 on hole 36"] {
            let boxes = layout.undoToastBoxes(text)
            #expect(boxes.frame.x >= 0 && boxes.frame.maxX <= layout.width, "\(size) \(text)")
            #expect(boxes.frame.maxY <= layout.footer.y, "\(size) \(text)")
            #expect(boxes.frame.h >= Layout.touchTarget, "\(size) \(text)")
            let button = boxes.texts[1]
            #expect(Layout.textWidth(button.text, size: button.size) <= button.frame.w + 0.5, "\(size)")
            #expect(boxes.texts[0].frame.maxX <= boxes.button.x, "\(size) \(text)")
            #expect(boxes.texts.allSatisfy { $0.size >= layout.minimumTextSize }, "\(size)")
        }
    }
}
