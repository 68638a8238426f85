import Foundation
import HyzerKit
import KioskCore

extension Painter {
    func paint(_ entry: Screen.Entry) {
        guard let snapshot = state.round, let participant = snapshot.round.participant(entry.participantID) else { return }
        let par = snapshot.course.par(of: entry.hole) ?? Course.defaultPar
        let header = layout.header
        canvas.text(
            participant.name, .title, size: Layout.fontSize(header.h * 0.5), Palette.textPrimary,
            x: layout.width / 2, midY: header.midY + layout.margin / 2, align: .center)
        canvas.text(
            "Hole \(entry.hole) · Par \(par)", .body, size: layout.captionFont + 4, Palette.accent,
            x: layout.width / 2, midY: header.maxY + Double(layout.captionFont), align: .center)
        let color = Palette.strokes(entry.value, par: par)
        let numberY = layout.height * 0.5
        canvas.text(
            "\(entry.value)", .score, size: layout.entryNumberFont, color, x: layout.width / 2, midY: numberY, align: .center)
        // The side marks show which way is which, for the knob and for touch.
        let side = Layout.fontSize(Double(layout.entryNumberFont) * 0.35)
        canvas.text(Self.minus, .score, size: side, Palette.textSecondary, x: layout.width * 0.18, midY: numberY, align: .center)
        canvas.text("+", .score, size: side, Palette.textSecondary, x: layout.width * 0.82, midY: numberY, align: .center)
        let relation = entry.value - par
        let label = "\(toPar(relation)) · \(Self.scoreName(strokes: entry.value, par: par))"
        canvas.text(
            label, .title, size: Layout.fontSize(layout.height * 0.055), color, x: layout.width / 2,
            midY: numberY + Double(layout.entryNumberFont) * 0.58, align: .center)
        var hint = "Turn to change · Press to save · Hold to cancel"
        if let previous = entry.previous { hint = "Correcting \(previous) · " + hint }
        paintFooter(hint)
    }

    static func scoreName(strokes: Int, par: Int) -> String {
        if strokes == 1 { return "Ace" }
        switch strokes - par {
        case ...(-3): return "Albatross"
        case -2: return "Eagle"
        case -1: return "Birdie"
        case 0: return "Par"
        case 1: return "Bogey"
        case 2: return "Double bogey"
        case 3: return "Triple bogey"
        default: return "\(strokes - par) over"
        }
    }
}
