import Foundation
import HyzerKit

extension Screen {
    /// The idle live board; with no round, the last summary and "press to start a round".
    public struct Board: Sendable, Equatable {
        public init() {}
    }
}

extension Screen.Board: ScreenBehavior {
    var name: String { "board" }
    var isTransient: Bool { false }

    /// Into the round being played (or its finalize prompt), or into setting one up.
    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        guard let snapshot = state.data.round else { return Screen.SetupCourse.begin(in: &state, now: now) }
        state.screen =
            snapshot.round.status == .awaitingFinalization
            ? .finalizePrompt(cursor: 0) : Screen.HoleCard.resuming(snapshot)
        return []
    }

    func back(in state: inout KioskState) { state.screen = .menu(cursor: 0) }
}
