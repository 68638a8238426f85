import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// The course editor as a list: each row says its value; the row being changed shows
    /// the value between arrows, so it is plain that the knob now turns the number.
    func paint(_ editor: Screen.CourseEditor) {
        let draft = editor.draft
        let items = editor.rows.enumerated().map { index, row -> ListItem in
            let changing = editor.adjusting && index == editor.cursor
            func number(_ value: Int) -> String { changing ? "\u{25C2} \(value) \u{25B8}" : "\(value)" }
            switch row {
            case .name: return ListItem(title: draft.name.isEmpty ? "Name" : draft.name, detail: "name")
            case .holes: return ListItem(title: "Holes", detail: number(draft.holeCount))
            case .par: return ListItem(title: "Par of every hole", detail: number(draft.defaultPar))
            case .save: return ListItem(title: editor.isNew ? "Save course" : "Save changes", isAction: true)
            case .delete: return ListItem(title: "Delete course", isAction: true)
            case .hole(let hole):
                return ListItem(title: "Hole \(hole)", detail: "par " + number(draft.par(of: hole)))
            }
        }
        let hints =
            editor.adjusting
            ? "Turn to change · Press to set · Hold to leave without saving"
            : "Turn to choose · Press to change · Hold to leave without saving"
        paintList(
            title: draft.name.isEmpty ? "New course" : draft.name,
            subtitle: (editor.isNew ? "New course · " : "") + "\(draft.holeCount) holes · par \(draft.pars.reduce(0, +))",
            items: items, cursor: editor.cursor, hints: hints)
    }
}
