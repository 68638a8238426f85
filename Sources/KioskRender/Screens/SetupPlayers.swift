import Foundation
import HyzerKit
import KioskCore

extension Painter {
    func paint(_ setup: Screen.SetupPlayers) {
        let selected = setup.selected
        let course = state.data.courses.first { $0.id == setup.courseID }
        func picked(_ id: UUID) -> (detail: String?, checked: Bool) {
            let order = selected.firstIndex(of: id)
            return (order.map { $0 == 0 ? "organizer" : "#\($0 + 1)" }, order != nil)
        }
        let items = setup.rows(in: state.data).map { row -> ListItem in
            switch row {
            case .sameGroup(let group):
                return ListItem(
                    title: "Same group as last time", detail: group.map(\.name).joined(separator: ", "), isAction: true)
            case .player(let player):
                let (detail, checked) = picked(player.id)
                return ListItem(title: player.displayName, detail: detail, checked: checked)
            case .guest(let guest):
                let (detail, _) = picked(guest.id)
                return ListItem(
                    title: guest.name, detail: ["guest", detail].compactMap { $0 }.joined(separator: " · "), checked: true)
            case .start:
                return ListItem(
                    title: selected.isEmpty
                        ? "Start round" : "Start round · \(selected.count) player\(selected.count == 1 ? "" : "s")",
                    isAction: true)
            case .addPlayer: return ListItem(title: "Add a player", isAction: true)
            case .addGuest: return ListItem(title: "Add a guest", detail: "this round only", isAction: true)
            }
        }
        paintList(
            title: "Who is playing?", subtitle: course.map { "\($0.name) · \($0.holeCount) holes" } ?? "",
            items: items, cursor: setup.cursor,
            hints: state.undoToast(at: now) != nil
                ? "Hold to undo · Press to add or remove · Start when ready"
                : "Press to add or remove · Start when ready · Hold to go back")
    }
}
