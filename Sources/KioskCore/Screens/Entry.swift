import Foundation
import HyzerKit

extension Screen {
    /// Crown-style entry for one participant on one hole: turn to change, press to save.
    public struct Entry: Sendable, Equatable {
        public var hole: Int
        public var participantID: UUID
        /// The row to return to on the hole card.
        public var cursor: Int
        public var value: Int
        /// Non-nil when the participant already had a score: saving is a correction.
        public var previous: Int?
    }
}

extension Screen.Entry: ScreenBehavior {
    var name: String { "entry-hole-\(hole)" }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        var entry = self
        let wanted = value + steps
        entry.value = min(max(wanted, ScoreEvent.allowedStrokes.lowerBound), ScoreEvent.allowedStrokes.upperBound)
        state.screen = .entry(entry)
        // The clamp is felt, not only seen: a double pulse.
        return wanted == entry.value ? [] : [.buzz(.limit)]
    }

    /// Saves, and puts the card's cursor on the next participant still without a score here.
    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        guard let snapshot = state.data.round else {
            state.screen = .board
            return []
        }
        let participants = snapshot.round.participants
        let next = (1..<max(participants.count, 1)).lazy
            .map { (cursor + $0) % participants.count }
            .first { snapshot.scorecard.value(participant: participants[$0].id, hole: hole) == nil }
        state.screen = .holeCard(hole: hole, cursor: next ?? cursor)
        return [
            .buzz(.confirm),
            .saveScore(
                roundID: snapshot.round.id, participantID: participantID,
                hole: hole, strokes: value),
        ]
    }

    /// Cancelled: back to the card, nothing saved.
    func back(in state: inout KioskState) { state.screen = .holeCard(hole: hole, cursor: cursor) }

    /// Touch: left and right halves step, the bottom band saves, the top band cancels.
    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        switch layout.entryZone(x: x, y: y) {
        case .minus: return turned(-1, in: &state)
        case .plus: return turned(1, in: &state)
        case .save: return pressed(in: &state, now: now)
        case .cancel:
            back(in: &state)
            return []
        }
    }

    /// The round went away (finished elsewhere): nothing to score.
    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        if state.data.round == nil { state.screen = .board }
    }
}
