import Foundation
import HyzerKit

extension Screen {
    /// "All scores recorded. Finalize round?" `cursor` 0 = Finalize, 1 = Keep scoring.
    public struct FinalizePrompt: Sendable, Equatable {
        public var cursor: Int
        public init(cursor: Int) { self.cursor = cursor }
    }

    public static func finalizePrompt(cursor: Int) -> Screen { .finalizePrompt(FinalizePrompt(cursor: cursor)) }
}

extension Screen.FinalizePrompt: ScreenBehavior {
    var name: String { "finalize" }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        state.moveCursor(cursor, by: steps, count: 2) { .finalizePrompt(cursor: $0) }
    }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        guard let snapshot = state.data.round else {
            state.screen = .board
            return []
        }
        if cursor == 0 {
            return [.buzz(.confirm), .finishRound(snapshot.round.id)] + state.showSummary(snapshot.round.id)
        }
        state.screen = .holeCard(hole: snapshot.course.holeCount, cursor: 0)
        return []
    }

    /// Back to the last hole's card, to check a score before finalizing.
    func back(in state: inout KioskState) {
        if let snapshot = state.data.round {
            state.screen = .holeCard(hole: snapshot.course.holeCount, cursor: 0)
        } else {
            state.screen = .board
        }
    }

    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        state.touchList(layout, y: y, rows: 2, now: now) { .finalizePrompt(cursor: $0) }
    }

    /// The round was finished elsewhere.
    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        if state.data.round == nil { state.screen = .board }
    }
}
