import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// The card before the start: the course, its holes and par, who plays; Start / Change.
    func paint(_ confirm: Screen.ConfirmRound) {
        let (title, course, players) = confirm.card(in: state.data)
        paintQuestion(
            title: title, subtitle: course, color: Palette.accent, lines: players, choices: Screen.ConfirmRound.choices,
            cursor: confirm.cursor)
    }
}
