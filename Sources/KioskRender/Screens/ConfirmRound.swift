import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// The card before the start: the course, its holes and par, who plays; Start / the
    /// first hole / Change.
    func paint(_ confirm: Screen.ConfirmRound) {
        let (title, course, players) = confirm.card(in: state.data)
        let setting = "Turn to the first hole (a shotgun start) · Press to keep it"
        paintQuestion(
            title: title, subtitle: course, color: Palette.accent, lines: players, choices: confirm.choices,
            cursor: confirm.cursor,
            hint: confirm.settingStart ? setting : "Turn to choose · Press to confirm · Hold to go back")
    }
}
