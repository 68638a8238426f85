import Foundation
import HyzerKit

extension Screen {
    /// Starting a round, step 1: pick the course, or make a new one (the last row).
    public struct SetupCourse: Sendable, Equatable {
        public var cursor: Int
        public init(cursor: Int) { self.cursor = cursor }

        /// Starts setting up a round. With no course at all, it starts by creating one.
        static func begin(in state: inout KioskState, now: Millis) -> [KioskEffect] {
            guard !state.data.courses.isEmpty else {
                Screen.CourseEditor.create(origin: .setupCourse, in: &state)
                return []
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
        state.moveCursor(cursor, by: steps, count: state.data.courses.count + 1) { .setupCourse(cursor: $0) }
    }

    /// A course: on to the players; with none registered yet, straight to adding one.
    /// "New course": its name first, then its holes, then on to the players.
    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        guard state.data.courses.indices.contains(cursor) else {
            Screen.CourseEditor.create(origin: .setupCourse, in: &state)
            return []
        }
        let setup = Screen.SetupPlayers(courseID: state.data.courses[cursor].id, selected: [], cursor: 0)
        if state.data.players.isEmpty {
            state.screen = .nameEntry(Screen.NameEntry(.newPlayer(from: setup), in: state))
        } else {
            state.screen = .setupPlayers(setup)
        }
        return []
    }

    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        state.touchList(layout, y: y, rows: state.data.courses.count + 1, cursor: cursor, now: now) { .setupCourse(cursor: $0) }
    }

    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        state.screen = .setupCourse(cursor: min(cursor, state.data.courses.count))
    }
}
