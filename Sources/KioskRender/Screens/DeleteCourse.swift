import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// "Delete Maple Hill?": what goes and what stays, then Delete / Keep it.
    func paint(_ question: Screen.DeleteCourse) {
        let (title, detail, lines) = question.lines(in: state.data)
        let boxes = layout.questionBoxes(
            title: title, subtitle: detail, subtitleColor: Palette.overPar, lines: lines, more: { "… and \($0) more" })
        draw(boxes.title)
        draw(boxes.subtitle)
        for line in boxes.lines { draw(line) }
        paintChoices(Screen.DeleteCourse.choices, cursor: question.cursor)
        paintFooter("Turn to choose · Press to confirm · Hold to go back")
    }
}
