import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// League night's check-in: who is here (ticked, in the order they came), then the
    /// night's settings as rows a press changes.
    func paint(_ checkIn: Screen.CheckIn) {
        let here = checkIn.checkedIn
        func came(_ id: UUID) -> (detail: String?, checked: Bool) {
            let order = here.firstIndex(of: id)
            return (order.map { "#\($0 + 1)" }, order != nil)
        }
        let items = checkIn.rows(in: state.data).map { row -> ListItem in
            switch row {
            case .sameAsLastWeek(let players):
                let names = players.compactMap { id in state.data.players.first { $0.id == id }?.displayName }
                return ListItem(title: "Same as last week", detail: names.joined(separator: ", "), isAction: true)
            case .player(let player):
                let (detail, checked) = came(player.id)
                return ListItem(title: player.displayName, detail: detail, checked: checked)
            case .guest(let guest):
                let (detail, _) = came(guest.id)
                return ListItem(
                    title: guest.name, detail: ["guest", detail].compactMap { $0 }.joined(separator: " · "), checked: true)
            case .draw:
                let count = here.count
                let cards = CardDraw.sizes(players: count).count
                return ListItem(
                    title: count == 0 ? "Draw the cards" : "Draw the cards · \(count) here",
                    detail: count == 0 ? nil : "\(cards) card\(cards == 1 ? "" : "s") of 3 to 5", isAction: true)
            case .course(let course):
                return ListItem(
                    title: "Course: \(course?.name ?? "none")",
                    detail: course.map { "\($0.holeCount) holes · press for the next" })
            case .skins:
                return ListItem(title: Screen.CheckIn.skinsTitle(checkIn.skins), detail: "press to change")
            case .closestToPin:
                let hole = checkIn.closestToPin.map { "hole \($0)" } ?? "none"
                return ListItem(
                    title: checkIn.settingClosestToPin ? "Closest to the pin: turn · \(hole)" : "Closest to the pin: \(hole)",
                    detail: checkIn.settingClosestToPin ? "press to keep it" : "press, turn, press")
            case .acePot:
                return ListItem(
                    title: checkIn.acePot == 0 ? "Ace pot: not tonight" : "Ace pot: \(checkIn.acePot) a player",
                    detail: checkIn.acePot == 0 ? "press to add one" : "everyone here is in")
            case .addGuest:
                return ListItem(title: "Add a guest", detail: "tonight only", isAction: true)
            }
        }
        paintList(
            title: "League night: who is here?", subtitle: checkIn.course(in: state.data)?.name ?? "",
            items: items, cursor: checkIn.cursor,
            hints: checkIn.settingClosestToPin
                ? "Turn to the hole · Press to keep it" : "Press to check in or out · Draw when everyone is here")
    }
}
