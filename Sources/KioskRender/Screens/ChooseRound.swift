import Foundation
import HyzerKit
import KioskCore

extension Painter {
    func paint(_ choose: Screen.ChooseRound) {
        paintList(
            title: "Enter scores", subtitle: "Which card?",
            items: state.data.rounds.map {
                ListItem(title: state.data.chooserTitle($0), detail: KioskData.chooserDetail($0))
            },
            cursor: choose.cursor, hints: "Turn to choose · Press to pick · Hold to go back")
    }
}
