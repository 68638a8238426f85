import Foundation
import KioskCore

extension Painter {
    /// A league night's side games beside (or under) the board's rows (issue 36): a card
    /// like the rows', its lines as KioskCore laid them out.
    func paintSideGamesPanel() {
        guard let panel = state.sideGamesPanelBoxes(layout: layout) else { return }
        let frame = panel.frame
        canvas.fillRounded(frame, radius: min(frame.w, frame.h) * 0.06, Palette.elevated)
        for text in panel.texts { draw(text) }
    }
}
