import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// The roster, a player's two choices, or whom to merge them into.
    func paint(_ players: Screen.Players) {
        let (title, subtitle) = players.heading
        let rows = players.rows(in: state.data)
        let items: [ListItem] =
            switch players.level {
            case .choose: rows.map { ListItem(title: $0, isAction: true) }
            case .roster, .mergeInto: rows.map { ListItem(title: $0) }
            }
        paintList(
            title: title, subtitle: rows.isEmpty ? "No players registered yet" : subtitle, items: items,
            cursor: players.cursor, hints: "Turn to choose · Press to open · Hold to go back")
    }
}
