import Foundation
import HyzerKit

extension Screen {
    /// "Enter a paper card" (issue 35 item 3): a round scored on paper, typed in player by
    /// player, a press a hole. The knob sets the hole's strokes from where they start (the
    /// score already there, else par); a press keeps them and moves to the next hole; after
    /// the last hole, the next player's first. A long press goes back one hole (before the
    /// first player's first, out to the menu). The player's running total and to-par show.
    ///
    /// Through the hole card the same cell costs a press to open crown entry, the turns and a
    /// press to save, with the cursor and the cards to move between (`hyzer-bench
    /// paper-card` counts both).
    public struct PaperCard: Sendable, Equatable {
        /// The participant, by their place in the round.
        public var player: Int
        public var hole: Int
        /// The strokes under the knob.
        public var value: Int

        public init(player: Int, hole: Int, value: Int) {
            (self.player, self.hole, self.value) = (player, hole, value)
        }

        /// Where the knob starts on a cell: the score already there, else the hole's par.
        static func start(_ snapshot: RoundSnapshot, player: Int, hole: Int) -> Int {
            let participant = snapshot.round.participants[player]
            return snapshot.scorecard.value(participant: participant.id, hole: hole)
                ?? snapshot.course.par(of: hole) ?? Course.defaultPar
        }

        static func at(_ snapshot: RoundSnapshot, player: Int, hole: Int) -> Screen {
            .paperCard(PaperCard(player: player, hole: hole, value: start(snapshot, player: player, hole: hole)))
        }

        /// The player's total and to-par over the holes before this one that have a score,
        /// and this hole at the knob's value: what the paper card's total column says so far.
        public func runningTotal(in snapshot: RoundSnapshot) -> (strokes: Int, toPar: Int) {
            let id = snapshot.round.participants[player].id
            var strokes = value
            var par = snapshot.course.par(of: hole) ?? Course.defaultPar
            for earlier in 1..<max(hole, 1) {
                guard let score = snapshot.scorecard.value(participant: id, hole: earlier) else { continue }
                strokes += score
                par += snapshot.course.par(of: earlier) ?? Course.defaultPar
            }
            return (strokes, strokes - par)
        }
    }
}

extension Screen.PaperCard: ScreenBehavior {
    var name: String { "paper-card" }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        var card = self
        let effects: [KioskEffect]
        (card.value, effects) = Screen.Entry.strokes(value, turned: steps)
        state.screen = .paperCard(card)
        return effects
    }

    /// Keeps the hole's strokes (a new score only when they differ from the one there) and
    /// moves on: the next hole, the next player, and after the last, the board.
    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        guard let snapshot = state.data.round, snapshot.round.participants.indices.contains(player) else {
            state.screen = .board
            return []
        }
        let participant = snapshot.round.participants[player]
        let kept = snapshot.scorecard.value(participant: participant.id, hole: hole)
        var effects: [KioskEffect] = [.buzz(.confirm)]
        if kept != value {
            effects.append(.saveScore(roundID: snapshot.round.id, participantID: participant.id, hole: hole, strokes: value))
        }
        // The next cell starts from the data as it will be once this save is in: its own cell
        // is another, so the snapshot at hand says where it starts.
        if hole < snapshot.course.holeCount {
            state.screen = Self.at(snapshot, player: player, hole: hole + 1)
        } else if player + 1 < snapshot.round.participants.count {
            state.screen = Self.at(snapshot, player: player + 1, hole: 1)
        } else {
            state.screen = .board
        }
        return effects
    }

    /// Back one hole (the previous player's last from a first hole); before the first
    /// player's first hole, out to the menu. What was kept stays kept.
    func back(in state: inout KioskState) {
        guard let snapshot = state.data.round else {
            state.screen = .board
            return
        }
        if hole > 1 {
            state.screen = Self.at(snapshot, player: player, hole: hole - 1)
        } else if player > 0 {
            state.screen = Self.at(snapshot, player: player - 1, hole: snapshot.course.holeCount)
        } else {
            state.screen = .menu(cursor: state.menuItems.firstIndex(of: .paperCard) ?? 0)
        }
    }

    /// Touch as in crown entry.
    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        touchedStrokes(x: x, y: y, layout: layout, in: &state, now: now)
    }

    /// The round ended elsewhere: nothing left to type in.
    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        guard let snapshot = state.data.round, snapshot.round.participants.indices.contains(player) else {
            state.screen = .board
            return
        }
        if old.round?.round.id != snapshot.round.id { state.screen = Self.at(snapshot, player: 0, hole: 1) }
    }
}
