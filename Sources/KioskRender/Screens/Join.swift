import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// The join screen: the code as large as the width allows (read from where the admin
    /// stands, 3 m off), and the command and server under it.
    func paint(_ join: Screen.Join) {
        let text = join.text
        let head = layout.listTitle
        let width = layout.width - 2 * layout.margin
        canvas.text(
            text.headline, .title, size: Layout.fontSize(head.h * 0.5), Palette.textPrimary, x: head.x,
            midY: head.y + head.h * 0.5, maxWidth: width)
        var y = head.maxY + layout.margin
        if let code = text.code {
            // Nine glyphs of the monospaced face across at most 80% of the width, and at
            // most a third of the height.
            let size = Layout.fontSize(min(layout.height * 0.3, width * 0.8 / (9 * Layout.glyphAdvance)))
            let h = Double(size) * 1.2
            canvas.text(code, .score, size: size, Palette.accent, x: layout.width / 2, midY: y + h / 2, align: .center)
            y += h + layout.margin
        }
        let lineSize = Layout.fontSize(layout.listRowHeight * 0.4)
        for line in text.lines {
            let h = Double(lineSize) * 1.5
            canvas.text(
                line, .body, size: lineSize, Palette.textPrimary, x: layout.width / 2, midY: y + h / 2, align: .center,
                maxWidth: width)
            y += h
        }
        paintFooter(text.footer)
    }
}
