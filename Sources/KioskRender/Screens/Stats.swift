import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// The menu's Stats: the players and courses, or one's page, as a list; a player's last
    /// rounds also as a small line in their row (lower is better, so under par is up).
    func paint(_ stats: Screen.Stats) {
        let heading = stats.heading(in: state.data)
        guard let open = stats.open else {
            let subjects = Screen.Stats.subjects(in: state.data)
            paintList(
                title: heading.title, subtitle: heading.subtitle,
                items: subjects.map { ListItem(title: $0.title, detail: $0.detail) }, cursor: stats.cursor,
                hints: "Turn to a player or a course · Press to open · Hold to go back")
            return
        }
        let rows = Screen.Stats.rows(open.page, minus: Self.minus)
        paintList(
            title: heading.title, subtitle: heading.subtitle,
            items: rows.map { ListItem(title: $0.title, detail: $0.trend == nil ? $0.detail : nil, isAction: $0.opens != nil) },
            cursor: open.cursor,
            hints: rows.contains { $0.opens != nil }
                ? "Press a best to see its course · Hold to go back" : "Hold to go back")
        for (index, row) in rows.enumerated() {
            guard let trend = row.trend, let rect = layout.listRow(index, rows: rows.count, cursor: open.cursor) else { continue }
            // After the title as drawn (a portrait panel's big title leaves less), to the row's end.
            let title = layout.listRowBoxes(rect, title: row.title, detail: nil, checkbox: false, color: Palette.textPrimary)
                .row.texts[0]
            let start = title.frame.x + canvas.drawnWidth(title.text, title.role, size: title.size) + rect.h * 0.5
            let box = Rect(x: start, y: rect.y + rect.h * 0.2, w: rect.maxX - rect.h * 0.4 - start, h: rect.h * 0.6)
            if box.w >= rect.h { paintTrend(trend, in: box) }
        }
    }

    /// A round's to-par a dot, joined by a line of small steps, the lowest score at the top;
    /// the last round's dot in the accent.
    private func paintTrend(_ values: [Int], in box: Rect) {
        guard let low = values.min(), let high = values.max() else { return }
        let span = Double(max(1, high - low))
        let dot = max(3, (box.h * 0.14).rounded())
        func point(_ index: Int) -> (x: Double, y: Double) {
            let x = values.count == 1 ? box.midX : box.x + box.w * Double(index) / Double(values.count - 1)
            return (x, box.y + box.h * Double(values[index] - low) / span)
        }
        let thin = max(1.5, dot / 3)
        for index in values.indices.dropLast() {
            let (a, b) = (point(index), point(index + 1))
            let steps = max(1, Int(max(abs(b.x - a.x), abs(b.y - a.y)) / (thin * 0.8)))
            for step in 0...steps {
                let t = Double(step) / Double(steps)
                canvas.fill(
                    Rect(x: a.x + (b.x - a.x) * t - thin / 2, y: a.y + (b.y - a.y) * t - thin / 2, w: thin, h: thin),
                    Palette.textSecondary)
            }
        }
        for index in values.indices {
            let p = point(index)
            canvas.fillRounded(
                Rect(x: p.x - dot / 2, y: p.y - dot / 2, w: dot, h: dot), radius: dot / 2,
                index == values.count - 1 ? Palette.accent : Palette.textPrimary)
        }
    }
}
