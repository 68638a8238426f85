import Foundation
import HyzerKit

/// The screens that say one thing and show one thing (issue 15): joining a group (its code,
/// large) and adding a phone (its QR code, large), each with a headline and a few lines
/// under it. The lines wrap at word breaks, never under the readable minimum; what is left
/// of the height goes to the code. Pure, so LayoutCheckTests checks what is drawn.
extension Layout {
    public enum MessageFeature: Sendable, Equatable {
        case none
        /// A code to read from 3 m (nine glyphs of the monospaced face).
        case code(String)
        /// A square to draw into (a QR code).
        case square
    }

    public struct MessageBoxes: Sendable, Equatable {
        public var title: TextBox
        public var code: TextBox?
        public var square: Rect?
        public var lines: [TextBox]
    }

    public func messageBoxes(headline: String, feature: MessageFeature, lines: [String]) -> MessageBoxes {
        let minimum = minimumTextSize
        let width = self.width - 2 * margin
        let head = listTitle
        let title = TextBox(
            headline, .title, size: max(minimum, Layout.fontSize(head.h * 0.5)), Palette.textPrimary,
            span: Span(x: margin, w: width), midY: head.midY, ellipsized: true)
        let top = head.maxY + margin / 2
        // What the feature needs at the least: a code an eighth of the short side tall (from
        // 3 m), a square a third of it (a phone's camera at an arm's length).
        let short = min(self.width, height)
        let needed: Double =
            switch feature {
            case .none: 0
            case .code: (short / 8).rounded(.up) * Layout.lineHeight
            case .square: (short / 3).rounded(.up)
            }
        // The lines' type from the list rows' size down to the minimum, until the lines
        // leave the feature its room.
        var size = max(minimum, Layout.fontSize(listRowHeight * 0.4))
        var lineH = 0.0
        var wrapped: [String] = []
        var room = 0.0
        while true {
            lineH = (Double(size) * 1.5).rounded()
            let chars = max(8, Int(width / (Double(size) * Layout.glyphAdvance)))
            wrapped = lines.flatMap { Self.wrap($0, chars: chars) }
            room = footer.y - top - Double(wrapped.count) * lineH - margin
            if room >= needed || size <= minimum { break }
            size = max(minimum, size - 2)
        }
        var y = top
        var code: TextBox?
        var square: Rect?
        switch feature {
        case .none:
            y += margin / 2
        case .code(let text):
            let codeSize = max(
                minimum, Layout.fontSize(min(height * 0.3, width * 0.8 / (9 * Layout.glyphAdvance), room / Layout.lineHeight)))
            let h = Double(codeSize) * Layout.lineHeight
            code = TextBox(
                text, .score, size: codeSize, Palette.accent, span: Span(x: margin, w: width), midY: y + h / 2,
                align: .center)
            y += h + margin / 2
        case .square:
            let side = max(0, min(room, width * 0.6)).rounded(.down)
            square = Rect(x: ((self.width - side) / 2).rounded(.down), y: y.rounded(.down), w: side, h: side)
            y += side + margin / 2
        }
        let boxes = wrapped.enumerated().map { index, line in
            TextBox(
                line, .body, size: size, Palette.textPrimary, span: Span(x: margin, w: width),
                midY: y + (Double(index) + 0.5) * lineH, align: .center)
        }
        return MessageBoxes(title: title, code: code, square: square, lines: boxes)
    }

    /// The size for one line of `text` in `width`: `preferred` (a height in pixels) or smaller
    /// to fit, never under the readable minimum; `cut` when even that does not fit, and the
    /// text must be ellipsized.
    func fitted(_ text: String, preferred: Double, width: Double) -> (size: Int, cut: Bool) {
        let size = max(
            minimumTextSize,
            min(Layout.fontSize(preferred), Int(width / (Double(max(text.count, 1)) * Layout.glyphAdvance))))
        return (size, Layout.textWidth(text, size: size) > width)
    }

    /// `text` in lines of at most `chars` characters, broken at spaces (a word longer than
    /// that is cut, so nothing runs out of the screen).
    static func wrap(_ text: String, chars: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        let words = text.split(separator: " ").flatMap { word in
            stride(from: 0, to: word.count, by: chars).map { String(word.dropFirst($0).prefix(chars)) }
        }
        for word in words {
            if !current.isEmpty, current.count + 1 + word.count > chars {
                lines.append(current)
                current = word
            } else {
                current += current.isEmpty ? word : " " + word
            }
        }
        if !current.isEmpty || lines.isEmpty { lines.append(current) }
        return lines
    }
}

extension Layout {
    /// A titled question over two buttons (the finish and discard question): its title and
    /// subtitle, then lines (who is missing which holes) in the facts' area, wrapped, at the
    /// largest size up to the list rows' that lets them fit, never under the minimum; what
    /// does not fit ends in a line saying how many more (`more(n)`).
    public struct QuestionBoxes: Sendable, Equatable {
        public var title: TextBox
        public var subtitle: TextBox
        public var lines: [TextBox]
    }

    /// A screen's title and the line under it in the list title's band: each read whole,
    /// smaller to fit the width, down to the minimum (then ellipsized); the subtitle kept
    /// clear of a title that grew.
    func headingBoxes(title: String, subtitle: String, subtitleColor: RGB) -> (title: TextBox, subtitle: TextBox) {
        let head = listTitle
        let span = Span(x: margin, w: width - 2 * margin)
        let titleFit = fitted(title, preferred: head.h * 0.5, width: span.w)
        let titleBox = TextBox(
            title, .title, size: titleFit.size, Palette.textPrimary, span: span, midY: head.y + head.h * 0.36,
            ellipsized: titleFit.cut)
        let subtitleFit = fitted(subtitle, preferred: head.h * 0.26, width: span.w)
        let subtitleBox = TextBox(
            subtitle, .body, size: subtitleFit.size, subtitleColor, span: span,
            midY: max(head.y + head.h * 0.84, titleBox.frame.maxY + Double(subtitleFit.size) * Layout.lineHeight / 2),
            ellipsized: subtitleFit.cut)
        return (titleBox, subtitleBox)
    }

    public func questionBoxes(
        title: String, subtitle: String, subtitleColor: RGB, lines: [String], more: (Int) -> String
    ) -> QuestionBoxes {
        let minimum = minimumTextSize
        let (titleBox, subtitleBox) = headingBoxes(title: title, subtitle: subtitle, subtitleColor: subtitleColor)
        let top = max(statusFacts.y, subtitleBox.frame.maxY) + margin / 2
        let area = Rect(x: statusFacts.x, y: top, w: statusFacts.w, h: statusFacts.maxY - top)
        var size = max(minimum, Layout.fontSize(min(listRowHeight * 0.36, area.h / 6 * 0.6)))
        var wrapped: [[String]] = []
        var lineH = 0.0
        while true {
            lineH = (Double(size) * 1.5).rounded()
            let chars = max(8, Int(area.w / (Double(size) * Layout.glyphAdvance)))
            wrapped = lines.map { Self.wrap($0, chars: chars) }
            if Double(wrapped.map(\.count).reduce(0, +)) * lineH <= area.h || size <= minimum { break }
            size = max(minimum, size - 2)
        }
        // Whole entries, as many as fit with room for the "more" line when some do not.
        let fit = max(0, Int(area.h / lineH))
        var shown: [[String]] = []
        var used = 0
        for (index, entry) in wrapped.enumerated() {
            let last = index == wrapped.count - 1
            guard used + entry.count + (last ? 0 : 1) <= fit || (last && used + entry.count <= fit) else { break }
            shown.append(entry)
            used += entry.count
        }
        var texts = shown.joined().map { ($0, Palette.textPrimary) }
        if shown.count < wrapped.count { texts.append((more(wrapped.count - shown.count), Palette.textSecondary)) }
        let boxes = texts.enumerated().map { index, text in
            TextBox(
                text.0, .body, size: size, text.1, span: Span(x: area.x, w: area.w),
                midY: area.y + (Double(index) + 0.5) * lineH)
        }
        return QuestionBoxes(title: titleBox, subtitle: subtitleBox, lines: boxes)
    }
}
