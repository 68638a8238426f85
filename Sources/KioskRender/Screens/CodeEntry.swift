import Foundation
import KioskCore

extension Painter {
    /// The organizer code: a slot a digit, the entered ones as dots (never the digits: the
    /// kiosk stands in public), the one being entered showing the knob's digit.
    func paint(_ entry: Screen.CodeEntry) {
        let waiting = entry.secondsShown != nil || entry.checking
        let color = entry.secondsShown != nil || entry.message != nil ? Palette.wayOver : Palette.accent
        let boxes = layout.codeEntryBoxes(
            title: entry.title, purpose: entry.purpose, status: entry.status, statusColor: color, length: entry.length,
            entered: entry.digits.count, dial: waiting ? nil : entry.dial)
        draw(boxes.title)
        draw(boxes.purpose)
        if let status = boxes.status { draw(status) }
        let radius = max(4, (boxes.slots[0].w * 0.14).rounded())
        // Whole pixels: a fractional ring leaves a seam between the inner fill's rectangles.
        let ring = max(2, (3 * layout.scale).rounded())
        for (index, slot) in boxes.slots.enumerated() {
            let current = index == entry.digits.count && !waiting
            canvas.strokeRounded(
                slot, radius: radius, width: ring, current ? Palette.accent : Palette.tertiary, inner: Palette.elevated)
            if index < entry.digits.count {
                let d = (slot.w * 0.32).rounded()
                canvas.fillRounded(
                    Rect(x: (slot.midX - d / 2).rounded(), y: (slot.midY - d / 2).rounded(), w: d, h: d), radius: d / 2,
                    Palette.textPrimary)
            }
        }
        if let digit = boxes.digit { draw(digit) }
        if let up = boxes.up { canvas.triangle(in: up, up: true, Palette.textSecondary, alpha: 1) }
        if let down = boxes.down { canvas.triangle(in: down, up: false, Palette.textSecondary, alpha: 1) }
        paintFooter(
            entry.secondsShown != nil
                ? "Hold to go back" : "Turn to a digit · Press to enter it · Hold to take one back")
    }
}
