import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// The maintainer's status screen: sections of labelled facts, in two columns on a
    /// landscape screen, and the two buttons along the bottom.
    func paint(_ status: Screen.Status) {
        let head = layout.listTitle
        canvas.text(
            "Status", .title, size: Layout.fontSize(head.h * 0.5), Palette.textPrimary, x: head.x,
            midY: head.y + head.h * 0.36, maxWidth: layout.width - 2 * layout.margin)
        let subtitle = state.status.map { "Hyzer \($0.version) · \($0.addresses.first ?? "no network")" } ?? ""
        canvas.text(
            subtitle, .body, size: Layout.fontSize(head.h * 0.26), Palette.accent, x: head.x, midY: head.y + head.h * 0.84,
            maxWidth: layout.width - 2 * layout.margin)
        for (index, (rect, item)) in zip(layout.statusButtons(count: StatusItem.allCases.count), StatusItem.allCases)
            .enumerated()
        {
            let selected = index == status.cursor
            if selected {
                canvas.strokeRounded(
                    rect, radius: rect.h * 0.25, width: max(2, 4 * layout.scale), Palette.accent, inner: Palette.elevated)
            } else {
                canvas.fillRounded(rect, radius: rect.h * 0.25, Palette.elevated)
            }
            canvas.text(
                item.title, .title, size: Layout.fontSize(rect.h * 0.42), Palette.textPrimary, x: rect.midX, midY: rect.midY,
                align: .center, maxWidth: rect.w - rect.h * 0.6)
        }
        // After the buttons: facts that ever ran over them would show, not hide behind them.
        paintStatusFacts(state.statusSections(wallClock: wallClock))
        paintFooter("Turn to choose · Press to select · Hold to go back")
    }

    /// One drawn line of a section: a heading, or a label and (a piece of) its value.
    private struct FactRow {
        var heading: String?
        var label = ""
        var value = ""
        var tone = StatusSection.Tone.normal
    }

    private func paintStatusFacts(_ sections: [StatusSection]) {
        let area = layout.statusFacts
        let columns = layout.width > layout.height * 1.2 ? 2 : 1
        let gap = layout.margin * 2
        let columnW = (area.w - gap * Double(columns - 1)) / Double(columns)
        // The largest rows (up to about the list rows' type size) at which every fact fits,
        // its value wrapped at word breaks within its column.
        var rowH = (layout.listRowHeight * 0.62).rounded(.down)
        // Labels are drawn anyway: measured once at the largest size, scaled for smaller ones
        // (text width grows with the type size), so a tight screen adds no extra textures.
        let firstSize = Layout.fontSize(rowH * 0.56)
        let widestLabel =
            Set(sections.flatMap(\.lines).map(\.label)).map { canvas.measure($0, .body, size: firstSize) }.max() ?? 0
        var size = 10
        var labelW = 0.0
        var laidOut: [[FactRow]] = []
        while true {
            size = Layout.fontSize(rowH * 0.56)
            labelW = min(columnW * 0.35, widestLabel * Double(size) / Double(firstSize) + Double(size))
            let wrapped = sections.map { Self.wrap($0, chars: Int((columnW - labelW) / (Self.glyphWidth * Double(size)))) }
            laidOut = Self.columns(wrapped, split: Self.split(wrapped.map(\.count), columns))
            if Double(laidOut.map(\.count).max() ?? 1) * rowH <= area.h || size <= 10 { break }
            rowH -= 2
        }
        for (column, rows) in laidOut.enumerated() {
            let x = area.x + Double(column) * (columnW + gap)
            for (index, row) in rows.enumerated() {
                let midY = area.y + (Double(index) + 0.5) * rowH
                if let heading = row.heading {
                    canvas.text(
                        heading.uppercased(), .title, size: size, Palette.accent, x: x, midY: midY + rowH * 0.1,
                        maxWidth: columnW)
                    continue
                }
                let color: RGB =
                    switch row.tone {
                    case .normal: Palette.textPrimary
                    case .warning: Palette.overPar
                    case .hint: Palette.accent
                    }
                canvas.text(
                    row.label, .body, size: size, Palette.textSecondary, x: x, midY: midY, maxWidth: labelW - layout.margin / 2)
                canvas.text(row.value, .body, size: size, color, x: x + labelW, midY: midY, maxWidth: columnW - labelW)
            }
        }
    }

    /// A generous average advance of the body face, in ems: wrapping estimates line widths
    /// with it rather than rasterizing every candidate line into the text cache (the one
    /// that does not quite fit is scaled down by `Canvas.text`).
    private static let glyphWidth = 0.5

    /// A section as drawn rows: its heading, then each line, wrapped at word breaks to `chars`.
    private static func wrap(_ section: StatusSection, chars: Int) -> [FactRow] {
        var rows = [FactRow(heading: section.title)]
        for line in section.lines {
            var current = ""
            var label = line.label
            for word in line.value.split(separator: " ") {
                if !current.isEmpty, current.count + 1 + word.count > chars {
                    rows.append(FactRow(label: label, value: current, tone: line.tone))
                    label = ""
                    current = String(word)
                } else {
                    current += current.isEmpty ? String(word) : " " + word
                }
            }
            rows.append(FactRow(label: label, value: current, tone: line.tone))
        }
        return rows
    }

    /// Where the sections break into columns: each column's row count, filled in order so
    /// the fuller column is as short as it can be.
    private static func split(_ counts: [Int], _ columns: Int) -> [Int] {
        guard columns > 1, counts.count > 1 else { return [counts.reduce(0, +)] }
        let total = counts.reduce(0, +)
        var best = [total]
        var first = 0
        for cut in 1..<counts.count {
            first += counts[cut - 1]
            let candidate = [first, total - first]
            if candidate.max()! < best.max()! { best = candidate }
        }
        return best
    }

    /// The wrapped sections dealt into columns of the row counts `split` chose.
    private static func columns(_ sections: [[FactRow]], split: [Int]) -> [[FactRow]] {
        var result: [[FactRow]] = [[]]
        for section in sections {
            if result.count < split.count, result[result.count - 1].count >= split[result.count - 1] { result.append([]) }
            result[result.count - 1] += section
        }
        return result
    }
}
