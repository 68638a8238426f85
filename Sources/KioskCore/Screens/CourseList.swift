import Foundation
import HyzerKit

extension Screen {
    /// The menu's "Courses" (issue 14 item 3): every course, then "New course", then the
    /// deleted ones (issue 35). A press opens a course's editor (rename, pars, delete), or
    /// offers to restore a deleted one (with the organizer code).
    public struct CourseList: Sendable, Equatable {
        public var cursor: Int
        /// A course just saved: the cursor goes to it once it is in the list (the save
        /// reaches the data after the screen has changed).
        public var focus: UUID?
        public init(cursor: Int, focus: UUID? = nil) {
            self.cursor = cursor
            self.focus = focus
        }
    }

    public static func courseList(cursor: Int) -> Screen { .courseList(CourseList(cursor: cursor)) }
}

extension Screen.CourseList: ScreenBehavior {
    var name: String { "courses" }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        state.moveCursor(cursor, by: steps, count: state.courseListRows) { .courseList(cursor: $0) }
    }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        let courses = state.data.courses
        let deleted = cursor - courses.count - 1
        if state.data.deletedCourses.indices.contains(deleted) {
            let course = state.data.deletedCourses[deleted]
            guard course.restorable else {
                state.notice = Notice(
                    text: "This kiosk never had \(course.name)'s holes: restore it where it was played", kind: .error,
                    shownAt: now)
                return [.buzz(.limit)]
            }
            return state.guarded(.restoreCourse(course), now: now)
        }
        guard courses.indices.contains(cursor) else {
            Screen.CourseEditor.create(origin: .courseList, in: &state)
            return []
        }
        state.screen = .courseEditor(Screen.CourseEditor(draft: CourseDraft(courses[cursor]), isNew: false, origin: .courseList))
        return []
    }

    func back(in state: inout KioskState) { state.screen = .menu(cursor: 0) }

    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        state.touchList(layout, y: y, rows: state.courseListRows, cursor: cursor, now: now) { .courseList(cursor: $0) }
    }

    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        let courses = state.data.courses
        if let focus, let index = courses.firstIndex(where: { $0.id == focus }) {
            state.screen = .courseList(cursor: index)
        } else {
            state.screen = .courseList(Screen.CourseList(cursor: min(cursor, state.courseListRows - 1), focus: focus))
        }
    }
}

extension KioskState {
    /// The course list's rows: the courses, "New course", the deleted courses.
    var courseListRows: Int { data.courses.count + 1 + data.deletedCourses.count }

    /// The row of course `id` on the list, live or deleted; the first row when it is on neither.
    func courseListRow(of id: UUID) -> Int {
        if let live = data.courses.firstIndex(where: { $0.id == id }) { return live }
        if let deleted = data.deletedCourses.firstIndex(where: { $0.id == id }) { return data.courses.count + 1 + deleted }
        return 0
    }
}
