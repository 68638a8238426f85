import Foundation
import HyzerKit

extension Screen {
    /// "Reopen this round?" and "Restore Maple Hill?" (issue 35): what the undo does, then
    /// do it or keep things as they are. The cursor starts on keeping them, so a stray press
    /// changes nothing. The organizer code was asked before this screen.
    public struct UndoConfirm: Sendable, Equatable {
        public enum Question: Sendable, Equatable {
            /// The round open in this history screen.
            case reopenRound(History)
            case restoreCourse(DeletedCourse)
        }

        public var question: Question
        /// 0 = do it, 1 = keep.
        public var cursor: Int

        public init(_ question: Question, cursor: Int = 1) {
            self.question = question
            self.cursor = cursor
        }

        public var choices: [String] {
            switch question {
            case .reopenRound: ["Reopen round", "Keep it finished"]
            case .restoreCourse: ["Restore course", "Keep it deleted"]
            }
        }

        /// What the question says.
        public var lines: (title: String, detail: String, lines: [String]) {
            switch question {
            case .reopenRound(let history):
                guard case .round(let opened, _) = history.level else { return ("Reopen this round?", "", []) }
                let snapshot = opened.snapshot
                return (
                    "Reopen this round?",
                    "\(snapshot.course.name) · finished \(Screen.History.date(Screen.History.completed(snapshot)))",
                    [
                        "It can be scored again on every device, then finished again.",
                        "Its players and pars stay as they were.",
                        "Who reopened it is kept with the round.",
                    ]
                )
            case .restoreCourse(let course):
                return (
                    "Restore \(course.name)?", "Deleted \(Screen.History.date(course.deletedAt))",
                    ["It comes back to the course list on every device, with the holes and pars it had."]
                )
            }
        }
    }
}

extension Screen.UndoConfirm: ScreenBehavior {
    var name: String {
        switch question {
        case .reopenRound: "reopen-round"
        case .restoreCourse: "restore-course"
        }
    }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        state.moveCursor(cursor, by: steps, count: 2) { .undoConfirm(Screen.UndoConfirm(question, cursor: $0)) }
    }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        guard cursor == 0 else {
            back(in: &state)
            return []
        }
        switch question {
        case .reopenRound(let history):
            guard case .round(let opened, _) = history.level else { return [] }
            // The reopened round is in play again: the board shows it (a round this kiosk
            // writes comes to the front).
            state.screen = .board
            return [.buzz(.confirm), .reopenRound(opened.snapshot.round.id)]
        case .restoreCourse(let course):
            state.screen = .courseList(Screen.CourseList(cursor: 0, focus: course.id))
            return [.buzz(.confirm), .restoreCourse(course.id)]
        }
    }

    /// Back where it was asked, nothing changed.
    func back(in state: inout KioskState) {
        switch question {
        case .reopenRound(let history): state.screen = .history(history)
        case .restoreCourse(let course): state.screen = .courseList(cursor: state.courseListRow(of: course.id))
        }
    }

    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        state.touchChoices(layout, x: x, y: y, count: 2, now: now) { .undoConfirm(Screen.UndoConfirm(question, cursor: $0)) }
    }

    /// Restored on another device meanwhile: nothing left to ask.
    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        guard case .restoreCourse(let course) = question, !state.data.deletedCourses.contains(where: { $0.id == course.id })
        else { return }
        state.screen = .courseList(Screen.CourseList(cursor: 0, focus: course.id))
    }
}
