import Foundation
import HyzerKit

extension Screen {
    /// A finished round's score corrected from history (issue 35): crown-style entry as on
    /// the hole card, from the value that counts now, saved as a correction with the
    /// organizer code (asked before this screen). Back to the player's card, read again.
    public struct CorrectScore: Sendable, Equatable {
        /// The history screen at the player's card it was opened from.
        public var history: History
        public var hole: Int
        public var value: Int
        /// What counted before.
        public var previous: Int?

        /// On `hole` of the player open in `history`.
        public init?(history: History, hole: Int) {
            guard case .player(let opened, let participant, _, _) = history.level else { return nil }
            let par = opened.snapshot.course.par(of: hole) ?? Course.defaultPar
            previous = opened.snapshot.scorecard.value(participant: participant, hole: hole)
            self.history = history
            self.hole = hole
            value = previous ?? par
        }

        public var opened: History.Opened? {
            guard case .player(let opened, _, _, _) = history.level else { return nil }
            return opened
        }

        public var participantID: UUID? {
            guard case .player(_, let participant, _, _) = history.level else { return nil }
            return participant
        }
    }
}

extension Screen.CorrectScore: ScreenBehavior {
    var name: String { "correct-hole-\(hole)" }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        var copy = self
        let effects: [KioskEffect]
        (copy.value, effects) = Screen.Entry.strokes(value, turned: steps)
        state.screen = .correctScore(copy)
        return effects
    }

    /// Saves the correction (when it changes anything) and reads the round again.
    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        guard let opened, let participantID else {
            back(in: &state)
            return []
        }
        var history = self.history
        guard value != previous else {
            state.screen = .history(history)
            return [.buzz(.confirm)]
        }
        let roundID = opened.snapshot.round.id
        history.opening = roundID
        state.screen = .history(history)
        return [
            .buzz(.confirm),
            .correctScore(roundID: roundID, participantID: participantID, hole: hole, strokes: value),
            .loadHistoryRound(roundID),
        ]
    }

    /// Back to the player's card, nothing saved.
    func back(in state: inout KioskState) { state.screen = .history(history) }

    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        touchedStrokes(x: x, y: y, layout: layout, in: &state, now: now)
    }
}
