import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// "Delete Maple Hill?": what goes and what stays, then Delete / Keep it.
    func paint(_ question: Screen.DeleteCourse) {
        let (title, detail, lines) = question.lines(in: state.data)
        paintQuestion(
            title: title, subtitle: detail, color: Palette.overPar, lines: lines, choices: Screen.DeleteCourse.choices,
            cursor: question.cursor)
    }
}
