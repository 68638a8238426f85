import Foundation
import HyzerKit
import KioskCore

extension Painter {
    func paint(_ setup: Screen.SetupCourse) {
        paintList(
            title: "Start a round", subtitle: "Pick the course",
            items: state.data.courses.map(courseItem) + [ListItem(title: "New course", isAction: true)],
            cursor: setup.cursor, hints: "Turn to choose · Press to pick · Hold to go back")
    }

    /// A course as a list row: its name, holes and par.
    func courseItem(_ course: Course) -> ListItem {
        ListItem(title: course.name, detail: "\(course.holeCount) holes · par \(course.totalPar)")
    }
}
