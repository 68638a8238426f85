import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// League night's check-in: who is here (ticked, in the order they came), then the
    /// night's settings as rows a press changes.
    func paint(_ checkIn: Screen.CheckIn) {
        if let picking = checkIn.pickingAcePot { return paintAcePotPlayers(checkIn, cursor: picking) }
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
                let holes =
                    checkIn.closestToPin.isEmpty
                    ? "none" : "hole " + checkIn.closestToPin.map(String.init).joined(separator: ", ")
                guard checkIn.settingClosestToPin else {
                    return ListItem(title: "Closest to the pin: \(holes)", detail: "press, turn to a hole, press")
                }
                let hole = checkIn.closestToPinCursor
                return ListItem(
                    title: hole == 0 ? "Closest to the pin: turn to a hole" : "Closest to the pin: hole \(hole)",
                    detail: hole == 0
                        ? "now \(holes)" : checkIn.closestToPin.contains(hole) ? "press to take it off" : "press to add it")
            case .acePot:
                return ListItem(
                    title: checkIn.acePot == 0 ? "Ace pot: not tonight" : "Ace pot: \(checkIn.acePot) a player",
                    detail: checkIn.acePot == 0 ? "press to add one" : "press for another buy-in")
            case .acePotPlayers:
                let out = checkIn.acePotOut.intersection(here).count
                return ListItem(
                    title: out == 0 ? "In the ace pot: everyone here" : "In the ace pot: \(here.count - out) of \(here.count)",
                    detail: "press to choose")
            case .ranking:
                let texts = Screen.CheckIn.rankingTexts(net: checkIn.net)
                return ListItem(title: texts.title, detail: texts.detail)
            case .addGuest:
                return ListItem(title: "Add a guest", detail: "tonight only", isAction: true)
            }
        }
        paintList(
            title: "League night: who is here?", subtitle: checkIn.course(in: state.data)?.name ?? "",
            items: items, cursor: checkIn.cursor,
            hints: checkIn.settingClosestToPin
                ? "Turn to the hole · Press to add or take it off" : "Press to check in or out · Draw when everyone is here")
    }

    /// Who is in tonight's ace pot: the players here, ticked when in; a press puts one in or out.
    private func paintAcePotPlayers(_ checkIn: Screen.CheckIn, cursor: Int) {
        let items = checkIn.participants(in: state.data).map { player in
            let isIn = !checkIn.acePotOut.contains(player.id)
            return ListItem(
                title: player.name, detail: isIn ? "in · \(checkIn.acePot)" : "out", checked: isIn)
        }
        paintList(
            title: "Ace pot: who is in?", subtitle: "\(checkIn.acePot) a player", items: items, cursor: cursor,
            hints: "Press to put in or out · Hold when done")
    }
}
