import Foundation
import HyzerKit

extension Screen {
    /// One hole's card; `cursor` selects a participant row.
    public struct HoleCard: Sendable, Equatable {
        public var hole: Int
        public var cursor: Int
        public init(hole: Int, cursor: Int) {
            self.hole = hole
            self.cursor = cursor
        }

        /// The card of the hole being played, on its first participant without a score.
        static func resuming(_ snapshot: RoundSnapshot) -> Screen {
            let hole = snapshot.currentHole
            return .holeCard(hole: hole, cursor: firstUnscored(snapshot, hole: hole) ?? 0)
        }

        static func firstUnscored(_ snapshot: RoundSnapshot, hole: Int) -> Int? {
            snapshot.round.participants.firstIndex { snapshot.scorecard.value(participant: $0.id, hole: hole) == nil }
        }
    }

    public static func holeCard(hole: Int, cursor: Int) -> Screen { .holeCard(HoleCard(hole: hole, cursor: cursor)) }
}

extension Screen.HoleCard: ScreenBehavior {
    var name: String { "hole-\(hole)" }

    /// Past the last row the card moves to the next hole; before the first, to the
    /// previous one (free navigation, FR38).
    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        guard let snapshot = state.data.round else { return [] }
        let rows = snapshot.round.participants.count
        var (hole, cursor) = (hole, cursor + steps)
        var hitEnd = false
        while cursor >= rows {
            if hole < snapshot.course.holeCount {
                cursor -= rows
                hole += 1
            } else {
                cursor = rows - 1
                hitEnd = true
            }
        }
        while cursor < 0 {
            if hole > 1 {
                cursor += rows
                hole -= 1
            } else {
                cursor = 0
                hitEnd = true
            }
        }
        state.screen = .holeCard(hole: hole, cursor: cursor)
        return hitEnd ? [.buzz(.limit)] : []
    }

    /// Opens crown entry for the selected participant, at their score or at par.
    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        guard let snapshot = state.data.round, snapshot.round.participants.indices.contains(cursor) else { return [] }
        let participant = snapshot.round.participants[cursor]
        // A score in dispute is settled, not overwritten: a correction would only add one
        // more statement to the dispute.
        if let discrepancy = snapshot.discrepancy(at: ScoreCell(participantID: participant.id, hole: hole)) {
            state.screen = Screen.Resolve.showing(discrepancy, in: snapshot, origin: .holeCard(hole: hole, cursor: cursor))
            return []
        }
        let previous = snapshot.scorecard.value(participant: participant.id, hole: hole)
        let par = snapshot.course.par(of: hole) ?? Course.defaultPar
        state.screen = .entry(
            .init(
                hole: hole, participantID: participant.id, cursor: cursor,
                value: previous ?? par, previous: previous))
        return []
    }

    /// A tap on a row scores that participant.
    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        guard let rows = state.data.round?.round.participants.count,
            let row = layout.listRow(at: y, rows: rows, cursor: 0, style: .holeCard)
        else { return [] }
        state.screen = .holeCard(hole: hole, cursor: row)
        return state.press(now: now)
    }

    /// FR20: when this hole has just been completed (or the last scores are in), the card
    /// moves on by itself after a moment.
    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        guard let snapshot = state.data.round else {
            state.screen = .board
            return
        }
        let sameRound = old.round?.round.id == snapshot.round.id
        let justCompleted =
            snapshot.scorecard.isHoleComplete(hole)
            && !(sameRound && old.round?.scorecard.isHoleComplete(hole) == true)
        let rows = snapshot.round.participants.count
        if cursor >= rows || hole > snapshot.course.holeCount { state.screen = Self.resuming(snapshot) }
        if justCompleted || (snapshot.round.status == .awaitingFinalization && old.round?.round.status == .active) {
            state.autoAdvanceAt = now + MotionTokens.autoAdvanceDelay
        }
    }

    /// FR20: the hole is complete; move on, or ask to finalize after the last scores.
    func advance(in state: inout KioskState) {
        guard let snapshot = state.data.round else { return }
        if snapshot.round.status == .awaitingFinalization {
            state.screen = .finalizePrompt(cursor: 0)
        } else if hole < snapshot.course.holeCount {
            let next = hole + 1
            state.screen = .holeCard(hole: next, cursor: Self.firstUnscored(snapshot, hole: next) ?? 0)
        }
    }
}
