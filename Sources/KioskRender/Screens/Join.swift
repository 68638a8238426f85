import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// The join screen: the code as large as the room allows (read from where the admin
    /// stands, 3 m off), and the command and server under it (`Layout.messageBoxes`).
    func paint(_ join: Screen.Join) {
        let text = join.text
        let boxes = layout.messageBoxes(
            headline: text.headline, feature: text.code.map { .code($0) } ?? .none, lines: text.lines)
        paint(boxes)
        paintFooter(text.footer)
    }

    /// A message screen's boxes; the square, if any, is the caller's to fill.
    func paint(_ boxes: Layout.MessageBoxes) {
        draw(boxes.title)
        if let code = boxes.code { draw(code) }
        for line in boxes.lines { draw(line) }
    }
}
