import Foundation
import HyzerKit
import Testing

@testable import KioskCore

@Suite struct ScreenTests {
    /// Scripts (`expect-screen`) and snapshot file names depend on these; docs/kiosk-script-format.md lists them.
    @Test func everyScreenHasItsScriptName() {
        let id = UUID()
        let screens: [(Screen, String)] = [
            (.board, "board"),
            (.menu(cursor: 2), "menu"),
            (.holeCard(hole: 4, cursor: 1), "hole-4"),
            (.entry(.init(hole: 7, participantID: id, cursor: 0, value: 3, previous: nil)), "entry-hole-7"),
            (.finalizePrompt(cursor: 1), "finalize"),
            (.summary(roundID: id), "summary"),
            (.setupCourse(cursor: 0), "setup-course"),
            (.setupPlayers(courseID: id, selected: [id], cursor: 1), "setup-players"),
            (.status(Screen.Status(cursor: 1, refreshAt: 0)), "status"),
            (.resolve(.init(cell: ScoreCell(participantID: id, hole: 2), value: 4, origin: .board)), "resolve"),
            (
                .nameEntry(
                    Screen.NameEntry(.newPlayer(from: .init(courseID: id, selected: [], cursor: 0)), in: KioskState())),
                "name-entry"
            ),
        ]
        for (screen, name) in screens { #expect(screen.name == name) }
    }

    /// Only the board and a round's summary stay up with nobody at the knob.
    @Test func onlyTheBoardAndTheSummaryAreNotTransient() {
        let id = UUID()
        #expect(!Screen.board.isTransient)
        #expect(!Screen.summary(roundID: id).isTransient)
        #expect(Screen.menu(cursor: 0).isTransient)
        #expect(Screen.holeCard(hole: 1, cursor: 0).isTransient)
        #expect(Screen.finalizePrompt(cursor: 0).isTransient)
        #expect(Screen.setupCourse(cursor: 0).isTransient)
        #expect(Screen.setupPlayers(courseID: id, selected: [], cursor: 0).isTransient)
        #expect(Screen.status(Screen.Status(cursor: 0, refreshAt: 0)).isTransient)
        #expect(Screen.resolve(.init(cell: ScoreCell(participantID: id, hole: 1), value: 3, origin: .menu)).isTransient)
    }
}
