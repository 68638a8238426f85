import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// A paper card typed in: crown entry's layout, with the player's running total on the
    /// hole's line ("Hole 5 · Par 3 · Total 23 (+2)").
    func paint(_ card: Screen.PaperCard) {
        guard let snapshot = state.round, snapshot.round.participants.indices.contains(card.player) else { return }
        let participant = snapshot.round.participants[card.player]
        let par = snapshot.course.par(of: card.hole) ?? Course.defaultPar
        let color = Palette.strokes(card.value, par: par)
        let total = card.runningTotal(in: snapshot)
        let rows = layout.entryBoxes(
            name: participant.name, hole: "Hole \(card.hole) · Par \(par) · Total \(total.strokes) (\(toPar(total.toPar)))",
            value: card.value, label: "\(toPar(card.value - par)) · \(Self.scoreName(strokes: card.value, par: par))",
            minus: Self.minus, color: color)
        for row in rows {
            for text in row.texts { draw(text) }
        }
        paintFooter("Turn to set · Press: next hole · Hold: back a hole")
    }
}
