import Foundation
import HyzerKit
import KioskCore

extension Painter {
    func paint(_ setup: Screen.SetupCourse) {
        paintList(
            title: "Start a round", subtitle: "Pick the course",
            items: state.data.courses.map { ListItem(title: $0.name, detail: "\($0.holeCount) holes · par \($0.totalPar)") },
            cursor: setup.cursor, hints: "Turn to choose · Press to pick · Hold to go back")
    }
}
