import Foundation
import HyzerKit

/// The resolve screen as boxes (issue 15): who said what on the left (each statement a card:
/// its value, "Nate says 3", the device and time), the value that will stand on the right with
/// the offered values as chips under it; in portrait the statements above, the choice under
/// them. Every text at least the readable minimum; statements that do not fit end in a line
/// saying how many more. Pure, so LayoutCheckTests checks what is drawn.
extension Layout {
    public struct ResolveBoxes: Sendable, Equatable {
        public var caption: TextBox
        public var title: TextBox
        public var statements: [RowBoxes]
        /// "… and 2 more" under the statements, when some do not fit.
        public var more: TextBox?
        public var value: TextBox
        public var valueName: TextBox
        public var chips: [RowBoxes]
    }

    /// One statement as the screen words it.
    public struct ResolveLine: Sendable, Equatable {
        public var strokes: Int
        public var says: String
        public var source: String
        public var color: RGB
        public init(strokes: Int, says: String, source: String, color: RGB) {
            (self.strokes, self.says, self.source, self.color) = (strokes, says, source, color)
        }
    }

    public func resolveBoxes(
        caption: String, title: String, lines: [ResolveLine], value: Int, valueName: String, valueColor: RGB,
        choices: [Int]
    ) -> ResolveBoxes {
        let minimum = minimumTextSize
        let head = listTitle
        let span = Span(x: margin, w: width - 2 * margin)
        let captionSize = max(minimum, Layout.fontSize(head.h * 0.26))
        let captionBox = TextBox(
            caption, .body, size: captionSize, Palette.overPar, span: span,
            midY: head.y + Double(captionSize) * Layout.lineHeight / 2, ellipsized: true)
        let titleFit = fitted(title, preferred: head.h * 0.46, width: span.w)
        let titleBox = TextBox(
            title, .title, size: titleFit.size, Palette.textPrimary, span: span,
            midY: captionBox.frame.maxY + Double(titleFit.size) * Layout.lineHeight / 2, ellipsized: titleFit.cut)
        let top = max(listArea.y, titleBox.frame.maxY + margin / 2)
        let area = Rect(x: listArea.x, y: top, w: listArea.w, h: listArea.maxY - top)
        let listW = isPortrait ? area.w : (area.w * 0.58).rounded(.down)
        let listArea = Rect(x: area.x, y: area.y, w: listW, h: isPortrait ? (area.h * 0.53).rounded(.down) : area.h)
        let valueArea =
            isPortrait
            ? Rect(x: area.x, y: area.y + (area.h * 0.55).rounded(.down), w: area.w, h: (area.h * 0.45).rounded(.down))
            : Rect(x: area.x + listW + margin, y: area.y, w: area.w - listW - margin, h: area.h)

        // Statements: two lines a card, never under the minimum.
        let minimumRow = (Double(minimum) * Layout.lineHeight * 2.3).rounded(.up)
        let rowH = max(minimumRow, min(listArea.h / Double(max(lines.count, 1)), listRowHeight * 1.3).rounded(.down))
        let fit = max(1, Int(listArea.h / rowH))
        let shown = lines.count > fit ? fit - 1 : lines.count
        var statements: [RowBoxes] = []
        for (index, line) in lines.prefix(shown).enumerated() {
            let rect = Rect(
                x: listArea.x, y: listArea.y + Double(index) * rowH, w: listArea.w, h: rowH - Layout.rowGap(rowH))
            let pad = (rect.h * 0.15).rounded()
            let inner = rect.h - 2 * pad
            let saysSize = max(minimum, Layout.fontSize(inner * 0.38))
            let sourceSize = max(minimum, Layout.fontSize(inner * 0.28))
            let valueSize = max(minimum, Layout.fontSize(min(inner * 0.8, rect.w * 0.12)))
            let valueW = Layout.textWidth("10", size: valueSize)
            let textX = rect.x + pad * 2 + valueW
            let textSpan = Span(x: textX, w: max(0, rect.maxX - textX - pad))
            let saysH = Double(saysSize) * Layout.lineHeight
            let sourceH = Double(sourceSize) * Layout.lineHeight
            let gapY = max(0, (rect.h - saysH - sourceH) / 3)
            statements.append(
                RowBoxes(
                    frame: rect,
                    texts: [
                        TextBox(
                            "\(line.strokes)", .score, size: valueSize, line.color,
                            span: Span(x: rect.x + pad, w: valueW), midY: rect.midY, align: .center),
                        TextBox(
                            line.says, .title, size: saysSize, Palette.textPrimary, span: textSpan,
                            midY: rect.y + gapY + saysH / 2, ellipsized: true),
                        TextBox(
                            line.source, .body, size: sourceSize, Palette.textSecondary, span: textSpan,
                            midY: rect.maxY - gapY - sourceH / 2, ellipsized: true),
                    ]))
        }
        var more: TextBox?
        if shown < lines.count {
            more = TextBox(
                "… and \(lines.count - shown) more", .body, size: minimum, Palette.textSecondary,
                span: Span(x: listArea.x, w: listArea.w), midY: listArea.y + (Double(shown) + 0.5) * rowH)
        }

        // The choice: chips along the bottom of its area (in rows, when one row would leave
        // them under the touch target), the value large above them.
        let chip = max(
            Layout.touchTarget,
            min(valueArea.w / Double(max(choices.count, 1)) * 0.8, listRowHeight * 0.9).rounded(.down))
        let gap = (chip * 0.25).rounded()
        let perRow = max(1, min(choices.count, Int((valueArea.w + gap) / (chip + gap))))
        let chipRows = (choices.count + perRow - 1) / perRow
        let chipTop = (valueArea.maxY - margin / 2 - Double(chipRows) * chip - Double(max(chipRows - 1, 0)) * gap).rounded()
        var chips: [RowBoxes] = []
        let chipSize = max(minimum, Layout.fontSize(chip * 0.5))
        for (index, choice) in choices.enumerated() {
            let row = index / perRow
            let inRow = min(perRow, choices.count - row * perRow)
            let rowW = Double(inRow) * chip + Double(inRow - 1) * gap
            let x = (valueArea.midX - rowW / 2).rounded() + Double(index % perRow) * (chip + gap)
            let rect = Rect(x: x, y: chipTop + Double(row) * (chip + gap), w: chip, h: chip)
            chips.append(
                RowBoxes(
                    frame: rect,
                    texts: [
                        TextBox(
                            "\(choice)", .score, size: chipSize, Palette.textPrimary, span: Span(x: rect.x, w: rect.w),
                            midY: rect.midY, align: .center)
                    ]))
        }
        let chipY = chipTop
        let above = (choices.isEmpty ? valueArea.maxY : chipY - margin / 2) - valueArea.y
        let nameSize = max(minimum, Layout.fontSize(min(above * 0.12, valueArea.w / 12)))
        let nameH = Double(nameSize) * Layout.lineHeight
        let numberSize = max(
            minimum, Layout.fontSize(min((above - nameH) / Layout.lineHeight, valueArea.w * 0.4 / Layout.glyphAdvance / 2)))
        let numberH = Double(numberSize) * Layout.lineHeight
        let block = numberH + nameH
        let numberY = valueArea.y + max(0, (above - block) / 2) + numberH / 2
        let valueSpan = Span(x: valueArea.x, w: valueArea.w)
        return ResolveBoxes(
            caption: captionBox, title: titleBox, statements: statements, more: more,
            value: TextBox("\(value)", .score, size: numberSize, valueColor, span: valueSpan, midY: numberY, align: .center),
            valueName: TextBox(
                valueName, .title, size: nameSize, valueColor, span: valueSpan, midY: numberY + numberH / 2 + nameH / 2,
                align: .center, ellipsized: true),
            chips: chips)
    }
}
