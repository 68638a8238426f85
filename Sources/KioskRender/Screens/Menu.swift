import Foundation
import HyzerKit
import KioskCore

extension Painter {
    func paint(_ menu: Screen.Menu) {
        paintList(
            title: "Menu", subtitle: state.round.map { "\($0.course.name) · round in progress" } ?? "No round in progress",
            items: state.menuItems.map { ListItem(title: $0.title) }, cursor: menu.cursor,
            hints: "Turn to choose · Press to select · Hold to go back")
    }
}
