import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// One disputed cell: who said what, from where and when, on the left; the value that
    /// will stand, large, on the right, with the offered values under it as a strip.
    func paint(_ resolve: Screen.Resolve) {
        guard let snapshot = state.round, let participant = snapshot.round.participant(resolve.cell.participantID) else {
            return paintCentered("Nothing to check", detail: nil)
        }
        let hole = resolve.cell.hole
        let par = snapshot.course.par(of: hole) ?? Course.defaultPar
        let position = resolve.position(in: state.data).map { " · \($0.index) of \($0.count)" } ?? ""
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm"
        let lines = resolve.statements(in: state).map { statement in
            Layout.ResolveLine(
                strokes: statement.strokes,
                says: "\(statement.reporter) says \(statement.strokes)" + (statement.isCurrent ? "" : " · corrected since"),
                source: "\(statement.device) · \(formatter.string(from: statement.recordedAt))",
                color: statement.isCurrent ? Palette.strokes(statement.strokes, par: par) : Palette.textSecondary)
        }
        let color = Palette.strokes(resolve.value, par: par)
        let choices = resolve.choices(in: state.data)
        let boxes = layout.resolveBoxes(
            caption: "Check a score" + position, title: "\(participant.name) · Hole \(hole) · Par \(par)", lines: lines,
            value: resolve.value,
            valueName: "\(toPar(resolve.value - par)) · \(Self.scoreName(strokes: resolve.value, par: par))",
            valueColor: color, choices: choices)
        draw(boxes.caption)
        draw(boxes.title)
        for row in boxes.statements {
            canvas.fillRounded(row.frame, radius: row.frame.h * 0.22, Palette.elevated)
            for text in row.texts { draw(text) }
        }
        if let more = boxes.more { draw(more) }
        draw(boxes.value)
        draw(boxes.valueName)
        for (chip, value) in zip(boxes.chips, choices) {
            let rect = chip.frame
            if value == resolve.value {
                canvas.strokeRounded(
                    rect, radius: rect.h * 0.25, width: max(2, 4 * layout.scale), Palette.accent, inner: Palette.elevated)
            } else {
                canvas.fillRounded(rect, radius: rect.h * 0.25, Palette.elevated)
            }
            for text in chip.texts { draw(text) }
        }
        paintFooter("Turn to pick the right score · Press to settle it · Hold to go back")
    }

    /// The open-discrepancy count as a pill ("2 to check"), right-aligned at `maxX`; nothing
    /// when there is none. Shared by the board and the hole card. Returns its width.
    @discardableResult
    func paintCheckBadge(_ snapshot: RoundSnapshot, maxX: Double, midY: Double, size: Int) -> Double {
        let open = snapshot.scorecard.discrepancies.count
        guard open > 0 else { return 0 }
        let text = "\(open) to check"
        // Whole pixels: a rounded fill on fractional edges shows seams between its parts.
        let h = (Double(size) * 1.7).rounded()
        let w = (canvas.measure(text, .title, size: size) + h).rounded()
        let rect = Rect(x: (maxX - w).rounded(), y: (midY - h / 2).rounded(), w: w, h: h)
        canvas.fillRounded(rect, radius: h / 2, Palette.overPar)
        canvas.text(text, .title, size: size, Palette.background, x: rect.midX, midY: midY, align: .center)
        return w
    }
}
