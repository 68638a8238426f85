import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// Tonight's side games as a list; entering a CTP winner lists the night's players.
    func paint(_ games: Screen.SideGames) {
        let night = state.data.leagueNight
        if let picking = games.picking {
            let players = Screen.SideGames.players(in: state.data)
            let current = night?.event.closestToPin.first { $0.hole == picking.hole }?.winner
            let items =
                [ListItem(title: "Nobody", detail: "nobody hit the green", checked: current == nil)]
                + players.map { p in
                    ListItem(
                        title: p.name, detail: night?.card(of: p.id).map { "card \($0.letter)" }, checked: current == p.id)
                }
            paintList(
                title: "Closest to the pin · hole \(picking.hole)", subtitle: "Who was closest?", items: items,
                cursor: picking.cursor, hints: "Turn to the winner · Press to enter · Hold to go back")
            return
        }
        let items = Screen.SideGames.rows(in: state.data).map { row -> ListItem in
            switch row {
            case .skins(let title, let detail): ListItem(title: title, detail: detail)
            case .closestToPin(let hole, let winner):
                ListItem(title: "Closest to the pin · \(hole)", detail: winner ?? "press to enter", isAction: winner == nil)
            case .aces(let text): ListItem(title: "Aces", detail: text)
            case .acePot(let total, let detail): ListItem(title: "Ace pot: \(total)", detail: detail)
            }
        }
        paintList(
            title: "Tonight's side games", subtitle: night.map { "\($0.event.name) · \($0.event.day)" } ?? "",
            items: items, cursor: games.cursor, hints: "Press a closest-to-the-pin hole to enter its winner · Hold to go back")
    }
}
