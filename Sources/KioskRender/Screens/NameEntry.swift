import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// The name wheel: the text so far on its card, the strip of choices with the one under the
    /// cursor outlined in teal (or the on-screen keyboard, once touched), and the completions;
    /// in a group, the code a phone types the name with beside the wheel (under it in
    /// portrait). Every box comes from `Layout.nameEntryBoxes`, which touch hit-tests against too.
    func paint(_ entry: Screen.NameEntry) {
        let boxes = layout.nameEntryBoxes(entry)
        draw(boxes.title)
        canvas.fillRounded(boxes.field.frame, radius: boxes.field.frame.h * 0.18, Palette.elevated)
        for text in boxes.field.texts { draw(text) }
        let outline = max(2, 4 * layout.scale)
        for cell in boxes.cells + boxes.completions {
            let rect = cell.row.frame
            let lit = cell.offset == 0 && entry.wheel.selected == cell.item && !entry.keyboard
            if lit {
                canvas.strokeRounded(rect, radius: rect.h * 0.22, width: outline, Palette.accent, inner: Palette.elevated)
            } else {
                canvas.fillRounded(rect, radius: rect.h * 0.22, Palette.tertiary)
            }
            for text in cell.row.texts { draw(text) }
        }
        if let phone = boxes.phone {
            // While the server is asked, the code's place is held (the wheel does not move
            // when it comes, a moment later).
            if let url = entry.phoneCode?.url, let code = canvas.qrCode(url) {
                paint(code, in: phone.square)
            } else {
                canvas.fillRounded(phone.square, radius: phone.square.w * 0.04, Palette.tertiary)
            }
            for line in phone.caption { draw(line) }
        }
        paintFooter(entry.hint)
    }
}
