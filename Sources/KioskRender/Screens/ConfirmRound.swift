import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// The card before the start: the course, its holes and par, who plays; Start / Change.
    func paint(_ confirm: Screen.ConfirmRound) {
        let (title, course, players) = confirm.card(in: state.data)
        let boxes = layout.questionBoxes(
            title: title, subtitle: course, subtitleColor: Palette.accent, lines: players, more: { "… and \($0) more" })
        draw(boxes.title)
        draw(boxes.subtitle)
        for line in boxes.lines { draw(line) }
        paintChoices(Screen.ConfirmRound.choices, cursor: confirm.cursor)
        paintFooter("Turn to choose · Press to confirm · Hold to go back")
    }
}
