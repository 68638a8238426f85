import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// "Add a phone": the QR code as large as the screen allows over its lines (a phone's
    /// camera reads it from an arm's length), laid out by `Layout.messageBoxes`.
    func paint(_ screen: Screen.AddPhone) {
        let text = screen.text
        let code = text.url.flatMap(canvas.qrCode)
        let boxes = layout.messageBoxes(headline: text.headline, feature: code == nil ? .none : .square, lines: text.lines)
        if let code, let square = boxes.square { paint(code, in: square) }
        paint(boxes)
        paintFooter(text.footer)
    }
}
