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
        paintQuestion(
            title: title, subtitle: subtitle, color: finish.kind == .discard ? Palette.accent : Palette.overPar,
            lines: finish.kind == .finish ? missing.map(\.line) : [], choices: finish.choices, cursor: finish.cursor)
    }

    /// A question screen: its title, a coloured line, the details (as many as fit, the rest
    /// counted), the two answers as buttons, and the footer's hint.
    func paintQuestion(
        title: String, subtitle: String, color: RGB, lines: [String], choices: [String], cursor: Int,
        hint: String = "Turn to choose · Press to confirm · Hold to go back"
    ) {
        let boxes = layout.questionBoxes(
            title: title, subtitle: subtitle, subtitleColor: color, lines: lines, more: { "… and \($0) more" })
        draw(boxes.title)
        draw(boxes.subtitle)
        for line in boxes.lines { draw(line) }
        paintChoices(choices, cursor: cursor)
        paintFooter(hint)
    }

    /// A question's two answers as buttons: the first (doing it) filled when chosen, the
    /// other outlined.
    func paintChoices(_ labels: [String], cursor: Int) {
        for (index, (rect, label)) in zip(layout.statusButtons(count: labels.count), labels).enumerated() {
            let selected = index == cursor
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
    }
}
