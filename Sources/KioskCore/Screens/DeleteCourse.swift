import Foundation
import HyzerKit

extension Screen {
    /// "Delete Maple Hill?" (issue 14 item 3): says what goes (the course, from every
    /// device's lists) and what stays (its rounds, with their scores and pars). The cursor
    /// starts on keeping it, so a stray press deletes nothing.
    public struct DeleteCourse: Sendable, Equatable {
        public var editor: CourseEditor
        /// 0 = delete, 1 = keep.
        public var cursor: Int

        public init(editor: CourseEditor, cursor: Int = 1) {
            self.editor = editor
            self.cursor = cursor
        }

        public static let choices = ["Delete course", "Keep it"]

        /// What the question says, from the course as it is stored (not the unsaved draft).
        public func lines(in data: KioskData) -> (title: String, detail: String, lines: [String]) {
            let course = data.courses.first { $0.id == editor.draft.id }
            let name = course?.name ?? editor.draft.name
            return (
                "Delete \(name)?", course.map { "\($0.holeCount) holes, par \($0.totalPar)" } ?? "",
                [
                    "It leaves the course list on every device.",
                    "Rounds played on it stay in history, with their scores and pars.",
                ]
            )
        }
    }
}

extension Screen.DeleteCourse: ScreenBehavior {
    var name: String { "delete-course" }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        state.moveCursor(cursor, by: steps, count: 2) { .deleteCourse(Screen.DeleteCourse(editor: editor, cursor: $0)) }
    }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        guard cursor == 0 else {
            state.screen = .courseEditor(editor)
            return []
        }
        state.screen = .courseList(cursor: 0)
        return [.buzz(.confirm), .deleteCourse(editor.draft.id)]
    }

    /// Back to the editor, nothing deleted.
    func back(in state: inout KioskState) { state.screen = .courseEditor(editor) }

    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        state.touchChoices(layout, x: x, y: y, count: 2, now: now) {
            .deleteCourse(Screen.DeleteCourse(editor: editor, cursor: $0))
        }
    }

    /// Deleted on another device meanwhile: nothing left to ask.
    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        guard !state.data.courses.contains(where: { $0.id == editor.draft.id }) else { return }
        state.screen = .courseList(cursor: 0)
    }
}
