import Foundation
import HyzerKit
import KioskCore

extension Painter {
    func paint(_ setup: Screen.SetupPlayers) {
        let (courseID, selected, cursor) = (setup.courseID, setup.selected, setup.cursor)
        let course = state.data.courses.first { $0.id == courseID }
        var items = state.data.players.map { player -> ListItem in
            let order = selected.firstIndex(of: player.id)
            return ListItem(
                title: player.displayName, detail: order.map { $0 == 0 ? "organizer" : "#\($0 + 1)" },
                checked: order != nil)
        }
        items.append(
            ListItem(
                title: selected.isEmpty
                    ? "Start round" : "Start round · \(selected.count) player\(selected.count == 1 ? "" : "s")",
                isAction: true))
        items.append(ListItem(title: "Add a player", isAction: true))
        paintList(
            title: "Who is playing?", subtitle: course.map { "\($0.name) · \($0.holeCount) holes" } ?? "",
            items: items, cursor: cursor, hints: "Press to add or remove · Start when ready · Hold to go back")
    }
}
