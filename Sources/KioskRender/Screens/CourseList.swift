import Foundation
import HyzerKit
import KioskCore

extension Painter {
    func paint(_ list: Screen.CourseList) {
        paintList(
            title: "Courses", subtitle: "Pick one to change or delete it",
            items: state.data.courses.map(courseItem) + [ListItem(title: "New course", isAction: true)],
            cursor: list.cursor, hints: "Turn to choose · Press to open · Hold to go back")
    }
}
