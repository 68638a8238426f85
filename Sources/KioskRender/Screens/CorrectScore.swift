import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// A finished round's score being corrected: the hole card's entry, on the round open in
    /// history, saying what counted before.
    func paint(_ correction: Screen.CorrectScore) {
        guard let opened = correction.opened, let participantID = correction.participantID,
            let participant = opened.snapshot.round.participant(participantID)
        else { return }
        let par = opened.snapshot.course.par(of: correction.hole) ?? Course.defaultPar
        let value = correction.value
        let rows = layout.entryBoxes(
            name: participant.name, hole: "Hole \(correction.hole) · Par \(par)", value: value,
            label: "\(toPar(value - par)) · \(Self.scoreName(strokes: value, par: par))", minus: Self.minus,
            color: Palette.strokes(value, par: par))
        for row in rows {
            for text in row.texts { draw(text) }
        }
        let was = correction.previous.map { "Was \($0)" } ?? "No score yet"
        paintFooter("Correcting a finished round · \(was) · Press to save · Hold to cancel")
    }
}
