import Foundation
import HyzerKit
import KioskCore

extension Painter {
    func paint(_ prompt: Screen.FinalizePrompt) {
        paintList(
            title: "All scores recorded.", subtitle: "Finalize round?",
            items: [ListItem(title: "Finalize round", isAction: true), ListItem(title: "Keep scoring")],
            cursor: prompt.cursor, hints: "Turn to choose · Press to confirm")
    }
}
