import Foundation
import HyzerKit

extension Screen {
    /// Starting a round, step 1: pick the course.
    public struct SetupCourse: Sendable, Equatable {
        public var cursor: Int
        public init(cursor: Int) { self.cursor = cursor }

        /// Starts setting up a round, or says why it cannot.
        static func begin(in state: inout KioskState, now: Millis) -> [KioskEffect] {
            guard !state.data.courses.isEmpty else {
                return state.refuse("No courses yet: run `hyzer init`", now: now)
            }
            state.screen = .setupCourse(cursor: 0)
            return []
        }
    }

    public static func setupCourse(cursor: Int) -> Screen { .setupCourse(SetupCourse(cursor: cursor)) }
}

extension Screen.SetupCourse: ScreenBehavior {
    var name: String { "setup-course" }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        state.moveCursor(cursor, by: steps, count: state.data.courses.count) { .setupCourse(cursor: $0) }
    }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        guard state.data.courses.indices.contains(cursor) else { return [.buzz(.error)] }
        state.screen = .setupPlayers(courseID: state.data.courses[cursor].id, selected: [], cursor: 0)
        return []
    }

    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        state.touchList(layout, y: y, rows: state.data.courses.count, cursor: cursor, now: now) { .setupCourse(cursor: $0) }
    }

    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        let courses = state.data.courses
        state.screen = courses.isEmpty ? .board : .setupCourse(cursor: min(cursor, courses.count - 1))
    }
}
