import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// The confirmation before finishing (who is missing which holes) or discarding a round.
    func paint(_ finish: Screen.FinishRound) {
        guard let snapshot = state.round else { return paintCentered("No round in progress", detail: nil) }
        let missing = Screen.FinishRound.missing(in: snapshot)
        let (title, subtitle): (String, String) =
            switch finish.kind {
            case .finish:
                (
                    "Finish the round now?",
                    missing.isEmpty
                        ? "Every score is in."
                        : "\(missing.count) player\(missing.count == 1 ? "" : "s") will be DNF (did not finish)."
                )
            case .discard: ("Discard this round?", "No scores yet. It leaves the board and is not kept in history.")
            }
        let head = layout.listTitle
        canvas.text(
            title, .title, size: Layout.fontSize(head.h * 0.5), Palette.textPrimary, x: head.x,
            midY: head.y + head.h * 0.36, maxWidth: layout.width - 2 * layout.margin)
        canvas.text(
            subtitle, .body, size: Layout.fontSize(head.h * 0.26), finish.kind == .discard ? Palette.accent : Palette.overPar,
            x: head.x, midY: head.y + head.h * 0.84, maxWidth: layout.width - 2 * layout.margin)

        if finish.kind == .finish {
            // One line per player who is missing holes, as many as fit; then how many more.
            let facts = layout.statusFacts
            // A little air under the subtitle.
            let area = Rect(x: facts.x, y: facts.y + layout.margin / 2, w: facts.w, h: facts.h - layout.margin / 2)
            let size = Layout.fontSize(min(layout.listRowHeight * 0.36, area.h / 6 * 0.6))
            let lineH = Double(size) * 1.6
            let fit = max(1, Int(area.h / lineH))
            let shown = missing.count > fit ? fit - 1 : missing.count
            for (index, entry) in missing.prefix(shown).enumerated() {
                canvas.text(
                    entry.line, .body, size: size, Palette.textPrimary, x: area.x,
                    midY: area.y + lineH * (Double(index) + 0.5), maxWidth: area.w)
            }
            if shown < missing.count {
                canvas.text(
                    "… and \(missing.count - shown) more", .body, size: size, Palette.textSecondary, x: area.x,
                    midY: area.y + lineH * (Double(shown) + 0.5), maxWidth: area.w)
            }
        }

        for (index, (rect, label)) in zip(layout.statusButtons(count: 2), finish.choices).enumerated() {
            let selected = index == finish.cursor
            if selected && index == 0 {
                canvas.fillRounded(rect, radius: rect.h * 0.25, Palette.accent)
            } else if selected {
                canvas.strokeRounded(
                    rect, radius: rect.h * 0.25, width: max(2, 4 * layout.scale), Palette.accent, inner: Palette.elevated)
            } else {
                canvas.fillRounded(rect, radius: rect.h * 0.25, Palette.elevated)
            }
            canvas.text(
                label, .title, size: Layout.fontSize(rect.h * 0.42),
                selected && index == 0 ? Palette.background : Palette.textPrimary,
                x: rect.midX, midY: rect.midY, align: .center, maxWidth: rect.w - rect.h * 0.6)
        }
        paintFooter("Turn to choose · Press to confirm · Hold to go back")
    }
}
