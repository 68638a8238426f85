import Foundation
import HyzerKit
import KioskCore

extension Painter {
    func paint(_ list: Screen.CourseList) {
        let deleted = state.data.deletedCourses.map { course in
            // The name as a live course's (the detail says it is deleted): a "Restore …"
            // prefix cost the name its room on a narrow panel.
            ListItem(
                title: course.name,
                detail: course.restorable
                    ? "Deleted \(Screen.History.dayAndMonth(course.deletedAt))" : "Deleted · holes unknown")
        }
        paintList(
            title: "Courses",
            subtitle: deleted.isEmpty ? "Pick one to change or delete it" : "Pick one to change, delete or restore it",
            items: courseItems + deleted, cursor: list.cursor, hints: "Turn to choose · Press to open · Hold to go back")
    }
}
