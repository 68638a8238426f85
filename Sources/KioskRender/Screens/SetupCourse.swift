import Foundation
import HyzerKit
import KioskCore

extension Painter {
    func paint(_ setup: Screen.SetupCourse) {
        paintList(
            title: "Start a round", subtitle: "Pick the course",
            items: courseItems, cursor: setup.cursor, hints: "Turn to choose · Press to pick · Hold to go back")
    }

    /// Every course as a list row (its name, holes and par), then "New course".
    var courseItems: [ListItem] {
        state.data.courses.map { ListItem(title: $0.name, detail: "\($0.holeCount) holes · par \($0.totalPar)") }
            + [ListItem(title: "New course", isAction: true)]
    }
}
