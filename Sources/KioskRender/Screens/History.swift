import Foundation
import HyzerKit
import KioskCore

extension Painter {
    func paint(_ history: Screen.History) {
        let (title, subtitle) = history.heading
        paintListTitle(title, subtitle)
        let boxes = state.historyBoxes(history, layout: layout, now: now, minus: Self.minus)
        if boxes.rows.isEmpty {
            let text = history.loading != nil ? "Reading the history…" : "No finished rounds yet"
            canvas.text(
                text, .body, size: layout.captionFont + 4, Palette.textSecondary, x: layout.width / 2,
                midY: boxes.geometry.area.midY, align: .center)
        }
        paintScrollingRows(
            boxes.rows.map { ($0.index, $0.boxes) }, cursor: history.cursorOnLevel, geometry: boxes.geometry,
            thumb: boxes.thumb)
        let hint =
            switch history.level {
            case .list: "Turn to scroll · Press to open a round · Hold to go back"
            case .round(let opened, let cursor) where cursor >= opened.standings.rows.count:
                opened.extraRows[cursor - opened.standings.rows.count] == .reopen
                    ? "Turn to choose · Press to reopen it · Hold to go back" : "Turn to choose · Hold to go back"
            case .round: "Turn to choose · Press for a player's holes · Hold to go back"
            case .player(let opened, _, _, _) where opened.undo.canCorrect:
                "Turn to scroll · Press to correct a hole · Hold to go back"
            case .player: "Turn to scroll · Hold to go back to the standings"
            }
        paintFooter(hint)
    }

    /// A list screen's title and, under it in the accent colour, its subtitle (the menu, history).
    func paintListTitle(_ title: String, _ subtitle: String) {
        let head = layout.listTitle
        canvas.text(
            title, .title, size: Layout.fontSize(head.h * 0.5), Palette.textPrimary, x: head.x, midY: head.y + head.h * 0.36,
            maxWidth: layout.width - 2 * layout.margin)
        canvas.text(
            subtitle, .body, size: Layout.fontSize(head.h * 0.26), Palette.accent, x: head.x, midY: head.y + head.h * 0.84,
            maxWidth: layout.width - 2 * layout.margin)
    }

    /// Rows that scroll (the hole card, history): cards clipped to their area, the cursor's
    /// outlined, and the scroll indicator when they do not all fit.
    func paintScrollingRows(
        _ rows: [(index: Int, boxes: RowBoxes)], cursor: Int, geometry: Layout.HoleCardGeometry, thumb: Rect?
    ) {
        clipped(to: geometry.area) {
            for row in rows {
                let rect = row.boxes.frame
                let radius = rect.h * 0.22
                if row.index == cursor {
                    canvas.strokeRounded(
                        rect, radius: radius, width: max(2, 4 * layout.scale), Palette.accent, inner: Palette.elevated)
                } else {
                    canvas.fillRounded(rect, radius: radius, Palette.elevated)
                }
                for text in row.boxes.texts { draw(text) }
            }
        }
        if let track = geometry.track, let thumb {
            canvas.fillRounded(track, radius: track.w / 2, Palette.elevated)
            canvas.fillRounded(thumb, radius: thumb.w / 2, Palette.textSecondary)
        }
    }
}
