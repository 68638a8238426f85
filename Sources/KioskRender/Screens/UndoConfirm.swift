import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// "Reopen this round?", "Restore Maple Hill?": what the undo does, then do it or keep.
    func paint(_ question: Screen.UndoConfirm) {
        let (title, detail, lines) = question.lines
        paintQuestion(
            title: title, subtitle: detail, color: Palette.accent, lines: lines, choices: question.choices,
            cursor: question.cursor)
    }
}
