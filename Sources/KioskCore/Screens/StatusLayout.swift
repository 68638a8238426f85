import Foundation
import HyzerKit

/// The status screen's facts as boxes (issue 15): headings and labelled lines in two columns
/// on a landscape panel, one in portrait, each value wrapped at word breaks within its
/// column. The type is as large as lets every fact fit, and never under the readable minimum:
/// past it, the facts page with the clock (one page a board interval, as the summary does),
/// and the title says which page is on show. Pure, so LayoutCheckTests checks what is drawn.
extension Layout {
    public struct StatusFactBoxes: Sendable, Equatable {
        /// The page's rows, column by column: a heading (one text) or a line (label, value).
        public var rows: [RowBoxes]
        public var pages: Int
        /// "1/2" at the right of the title while the facts page.
        public var indicator: TextBox?
    }

    /// One drawn row before it is placed: a heading, or a label and (a piece of) its value.
    struct FactRow: Equatable {
        var heading: String?
        var label = ""
        var value = ""
        var tone = StatusSection.Tone.normal
    }

    /// How many columns the facts take: two beside each other where the panel is wide.
    var statusColumns: Int { width > height * 1.2 ? 2 : 1 }

    public func statusFactBoxes(_ sections: [StatusSection], page: Int = 0) -> StatusFactBoxes {
        let area = statusFacts
        let columns = statusColumns
        let gap = margin * 2
        let columnW = (area.w - gap * Double(columns - 1)) / Double(columns)
        let minimum = minimumTextSize
        // From about the list rows' type size down to the minimum: the largest at which
        // every fact fits on one page.
        var rowH = (listRowHeight * 0.62).rounded(.down)
        let minimumRowH = (Double(minimum) * Layout.lineHeight * 1.15).rounded(.up)
        var size = minimum
        var labelW = 0.0
        var laidOut: [[FactRow]] = []
        var perColumn = 1
        while true {
            size = max(minimum, Layout.fontSize(rowH * 0.56))
            let widest = sections.flatMap(\.lines).map { Layout.textWidth($0.label, size: size) }.max() ?? 0
            labelW = min(columnW * 0.4, widest + Double(size))
            let chars = max(8, Int((columnW - labelW) / (Double(size) * Layout.glyphAdvance)))
            let wrapped = sections.map { Self.wrap($0, chars: chars) }
            perColumn = max(1, Int(area.h / rowH))
            let total = wrapped.map(\.count).reduce(0, +)
            laidOut = Self.deal(wrapped, columns: columns, perColumn: perColumn)
            if total <= perColumn * columns || rowH <= minimumRowH { break }
            rowH = max(minimumRowH, rowH - 2)
        }
        // Columns beyond the first `columns` are later pages.
        let pages = max(1, (laidOut.count + columns - 1) / columns)
        let shown = page % pages
        var rows: [RowBoxes] = []
        for (slot, column) in laidOut.dropFirst(shown * columns).prefix(columns).enumerated() {
            let x = area.x + Double(slot) * (columnW + gap)
            for (index, row) in column.enumerated() {
                let rect = Rect(x: x, y: area.y + Double(index) * rowH, w: columnW, h: rowH)
                if let heading = row.heading {
                    rows.append(
                        RowBoxes(
                            frame: rect,
                            texts: [
                                TextBox(
                                    heading.uppercased(), .title, size: size, Palette.accent,
                                    span: Span(x: rect.x, w: rect.w), midY: rect.midY + rowH * 0.05, ellipsized: true)
                            ]))
                    continue
                }
                let color: RGB =
                    switch row.tone {
                    case .normal: Palette.textPrimary
                    case .warning: Palette.overPar
                    case .hint: Palette.accent
                    }
                var texts = [
                    TextBox(
                        row.value, .body, size: size, color, span: Span(x: rect.x + labelW, w: rect.w - labelW),
                        midY: rect.midY, ellipsized: Layout.textWidth(row.value, size: size) > rect.w - labelW)
                ]
                if !row.label.isEmpty {
                    texts.insert(
                        TextBox(
                            row.label, .body, size: size, Palette.textSecondary,
                            span: Span(x: rect.x, w: labelW - margin / 2), midY: rect.midY, ellipsized: true), at: 0)
                }
                rows.append(RowBoxes(frame: rect, texts: texts))
            }
        }
        var indicator: TextBox?
        if pages > 1 {
            let head = listTitle
            let text = "\(shown + 1)/\(pages)"
            let w = Layout.textWidth(text, size: minimum) + margin
            indicator = TextBox(
                text, .body, size: max(minimum, Layout.fontSize(head.h * 0.26)), Palette.textSecondary,
                span: Span(x: head.maxX - w, w: w), midY: head.y + head.h * 0.84, align: .right, ellipsized: false)
        }
        return StatusFactBoxes(rows: rows, pages: pages, indicator: indicator)
    }

    /// A section as rows: its heading, then each line, wrapped at word breaks to `chars`
    /// (a word longer than that is cut, so nothing runs out of its column).
    static func wrap(_ section: StatusSection, chars: Int) -> [FactRow] {
        var rows = [FactRow(heading: section.title)]
        for line in section.lines {
            for (index, piece) in wrap(line.value, chars: chars).enumerated() {
                rows.append(FactRow(label: index == 0 ? line.label : "", value: piece, tone: line.tone))
            }
        }
        return rows
    }

    /// The wrapped sections dealt into columns of at most `perColumn` rows, in order. When
    /// everything fits on one page the split balances the columns at section breaks; past
    /// a page, a column takes what it holds. A section's heading never ends a column.
    static func deal(_ sections: [[FactRow]], columns: Int, perColumn: Int) -> [[FactRow]] {
        let total = sections.map(\.count).reduce(0, +)
        if total <= perColumn * columns, columns > 1, sections.count > 1 {
            // One page: the cut between sections that makes the fuller column shortest.
            var best: (cut: Int, longest: Int) = (sections.count, total)
            var first = 0
            for cut in 1..<sections.count {
                first += sections[cut - 1].count
                let longest = max(first, total - first)
                if longest < best.longest, longest <= perColumn { best = (cut, longest) }
            }
            if best.longest <= perColumn {
                return [Array(sections.prefix(best.cut).joined()), Array(sections.dropFirst(best.cut).joined())]
            }
        }
        var result: [[FactRow]] = [[]]
        for row in sections.joined() {
            let count = result[result.count - 1].count
            // A heading does not take a column's last slot: it would stand alone at its foot.
            if count >= perColumn || (row.heading != nil && count > 0 && count == perColumn - 1) { result.append([]) }
            result[result.count - 1].append(row)
        }
        return result
    }
}

extension KioskState {
    /// The status facts' page at `now`: one a board interval, when they do not fit.
    public func statusFactPage(at now: Millis) -> Int {
        Int(now / settings.boardPageInterval)
    }
}
