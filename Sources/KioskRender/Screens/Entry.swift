import Foundation
import HyzerKit
import KioskCore

extension Painter {
    func paint(_ entry: Screen.Entry) {
        guard let snapshot = state.round, let participant = snapshot.round.participant(entry.participantID) else { return }
        let par = snapshot.course.par(of: entry.hole) ?? Course.defaultPar
        let color = Palette.strokes(entry.value, par: par)
        let label = "\(toPar(entry.value - par)) · \(Self.scoreName(strokes: entry.value, par: par))"
        let rows = layout.entryBoxes(
            name: participant.name, hole: "Hole \(entry.hole) · Par \(par)", value: entry.value, label: label,
            minus: Self.minus, color: color)
        for row in rows {
            for text in row.texts { draw(text) }
        }
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
