import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// "Add a phone": the QR code as large as the screen allows beside its headline and lines
    /// (a phone's camera reads it from an arm's length), black on white with its quiet zone,
    /// whatever the kiosk's dark palette.
    func paint(_ screen: Screen.AddPhone) {
        let text = screen.text
        let head = layout.listTitle
        let width = layout.width - 2 * layout.margin
        canvas.text(
            text.headline, .title, size: Layout.fontSize(head.h * 0.5), Palette.textPrimary, x: head.x,
            midY: head.y + head.h * 0.5, maxWidth: width)
        var y = head.maxY + layout.margin / 2
        let lineSize = Layout.fontSize(layout.listRowHeight * 0.36)
        let lineHeight = Double(lineSize) * 1.5
        if let url = text.url, let code = QRCode(url) {
            // What is left between the title and the lines under the code.
            let room = min(layout.footer.y - y - Double(text.lines.count) * lineHeight - layout.margin, width * 0.6)
            let drawn = paint(code, in: Rect(x: ((layout.width - room) / 2).rounded(.down), y: y, w: room, h: room))
            y += drawn.h + layout.margin / 2
        }
        for line in text.lines {
            canvas.text(
                line, .body, size: lineSize, Palette.textPrimary, x: layout.width / 2, midY: y + lineHeight / 2,
                align: .center, maxWidth: width)
            y += lineHeight
        }
        paintFooter(text.footer)
    }
}
