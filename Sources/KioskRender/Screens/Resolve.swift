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
        let head = layout.listTitle
        let position = resolve.position(in: state.data).map { " · \($0.index) of \($0.count)" } ?? ""
        canvas.text(
            "Check a score" + position, .body, size: Layout.fontSize(head.h * 0.26), Palette.overPar, x: head.x,
            midY: head.y + head.h * 0.16, maxWidth: layout.width - 2 * layout.margin)
        canvas.text(
            "\(participant.name) · Hole \(hole) · Par \(par)", .title, size: Layout.fontSize(head.h * 0.46),
            Palette.textPrimary, x: head.x, midY: head.y + head.h * 0.62, maxWidth: layout.width - 2 * layout.margin)

        let portrait = layout.isPortrait
        let area = layout.listArea
        let listW = portrait ? area.w : area.w * 0.58
        let valueArea =
            portrait
            ? Rect(x: area.x, y: area.y + area.h * 0.55, w: area.w, h: area.h * 0.45)
            : Rect(x: area.x + listW + layout.margin, y: area.y, w: area.w - listW - layout.margin, h: area.h)
        paintStatements(
            resolve.statements(in: state), par: par,
            in: Rect(x: area.x, y: area.y, w: listW, h: portrait ? area.h * 0.53 : area.h))
        paintChoice(resolve, par: par, in: valueArea)
        paintFooter("Turn to pick the right score · Press to settle it · Hold to go back")
    }

    private func paintStatements(_ statements: [ResolveStatement], par: Int, in area: Rect) {
        guard !statements.isEmpty else { return }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm"
        let rowH = min(area.h / Double(statements.count), layout.listRowHeight * 1.3).rounded(.down)
        for (index, statement) in statements.enumerated() {
            let rect = Rect(
                x: area.x.rounded(), y: (area.y + Double(index) * rowH).rounded(), w: area.w.rounded(),
                h: (rowH - max(2, rowH * 0.1)).rounded())
            canvas.fillRounded(rect, radius: rect.h * 0.22, Palette.elevated)
            let pad = rect.h * 0.3
            let valueW = rect.h * 0.9
            canvas.text(
                "\(statement.strokes)", .score, size: Layout.fontSize(rect.h * 0.6),
                statement.isCurrent ? Palette.strokes(statement.strokes, par: par) : Palette.textSecondary,
                x: rect.x + pad + valueW / 2, midY: rect.midY, align: .center)
            let textX = rect.x + pad * 2 + valueW
            let textW = rect.maxX - textX - pad
            canvas.text(
                "\(statement.reporter) says \(statement.strokes)" + (statement.isCurrent ? "" : " · corrected since"), .title,
                size: Layout.fontSize(rect.h * 0.3), Palette.textPrimary, x: textX, midY: rect.y + rect.h * 0.34,
                maxWidth: textW)
            canvas.text(
                "\(statement.device) · \(formatter.string(from: statement.recordedAt))", .body,
                size: Layout.fontSize(rect.h * 0.22), Palette.textSecondary, x: textX, midY: rect.y + rect.h * 0.72,
                maxWidth: textW)
        }
    }

    /// The picked value, and the offered ones as a strip of chips, the picked one outlined.
    private func paintChoice(_ resolve: Screen.Resolve, par: Int, in area: Rect) {
        let choices = resolve.choices(in: state.data)
        let number = Layout.fontSize(min(area.h * 0.45, area.w * 0.4))
        let numberY = area.y + area.h * 0.36
        let color = Palette.strokes(resolve.value, par: par)
        canvas.text("\(resolve.value)", .score, size: number, color, x: area.midX, midY: numberY, align: .center)
        canvas.text(
            "\(toPar(resolve.value - par)) · \(Self.scoreName(strokes: resolve.value, par: par))", .title,
            size: Layout.fontSize(Double(number) * 0.16), color, x: area.midX, midY: numberY + Double(number) * 0.55,
            align: .center, maxWidth: area.w)
        guard !choices.isEmpty else { return }
        // Whole pixels, as for the badge.
        let chip = min(area.w / Double(choices.count) * 0.8, layout.listRowHeight * 0.9).rounded(.down)
        let gap = (chip * 0.25).rounded()
        let total = Double(choices.count) * chip + Double(choices.count - 1) * gap
        var x = (area.midX - total / 2).rounded()
        let y = (area.maxY - chip - layout.margin / 2).rounded()
        for value in choices {
            let rect = Rect(x: x, y: y, w: chip, h: chip)
            if value == resolve.value {
                canvas.strokeRounded(
                    rect, radius: chip * 0.25, width: max(2, 4 * layout.scale), Palette.accent, inner: Palette.elevated)
            } else {
                canvas.fillRounded(rect, radius: chip * 0.25, Palette.elevated)
            }
            canvas.text(
                "\(value)", .score, size: Layout.fontSize(chip * 0.5), Palette.textPrimary, x: rect.midX, midY: rect.midY,
                align: .center)
            x += chip + gap
        }
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
