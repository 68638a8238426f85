import Foundation
import HyzerKit
import KioskCore

extension Painter {
    func paint(_ list: Screen.CourseList) {
        paintList(
            title: "Courses", subtitle: "Pick one to change or delete it",
            items: courseItems, cursor: list.cursor, hints: "Turn to choose · Press to open · Hold to go back")
    }
}
