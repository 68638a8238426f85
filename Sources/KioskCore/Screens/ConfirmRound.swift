import Foundation
import HyzerKit

extension Screen {
    /// The card before a round starts (issue 14 item 2): the course, its holes and par, and
    /// who plays, in order (the first organizes; guests marked). Start is under the cursor,
    /// so a group that is sure presses twice; "Change players" (or a long press) goes back
    /// with everything as it was.
    public struct ConfirmRound: Sendable, Equatable {
        public var setup: SetupPlayers
        /// 0 = start, 1 = change players.
        public var cursor: Int

        public init(setup: SetupPlayers, cursor: Int = 0) {
            self.setup = setup
            self.cursor = cursor
        }

        public static let choices = ["Start round", "Change players"]

        /// What the card says: the course line, then one line per player.
        public func card(in data: KioskData) -> (title: String, course: String, players: [String]) {
            let course = data.courses.first { $0.id == setup.courseID }
            let players = setup.participants(in: data).enumerated().map { index, p in
                p.name + (index == 0 ? " · organizer" : "") + (p.isGuest ? " · guest" : "")
            }
            return (
                course?.name ?? "Start the round?",
                course.map { "\($0.holeCount) holes · par \($0.totalPar) · \(players.count) playing" } ?? "",
                players
            )
        }
    }
}

extension Screen.ConfirmRound: ScreenBehavior {
    var name: String { "confirm-round" }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        state.moveCursor(cursor, by: steps, count: 2) { .confirmRound(Screen.ConfirmRound(setup: setup, cursor: $0)) }
    }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        guard cursor == 0 else {
            state.screen = .setupPlayers(setup)
            return []
        }
        let participants = setup.participants(in: state.data)
        guard !participants.isEmpty else {
            state.screen = .setupPlayers(setup)
            return state.refuse("Pick at least one player", now: now)
        }
        // The round appears with the next data change; the card waits on hole 1.
        state.screen = .holeCard(hole: 1, cursor: 0)
        return [.buzz(.confirm), .startRound(courseID: setup.courseID, participants: participants)]
    }

    func back(in state: inout KioskState) { state.screen = .setupPlayers(setup) }

    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        state.touchChoices(layout, x: x, y: y, count: 2, now: now) {
            .confirmRound(Screen.ConfirmRound(setup: setup, cursor: $0))
        }
    }

    /// A course deleted, or a player removed, elsewhere meanwhile: back to the list, which
    /// says so or shows who is left.
    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        let courseGone = !state.data.courses.contains { $0.id == setup.courseID }
        let playerGone = setup.participants(in: state.data).count != setup.selected.count
        guard courseGone || playerGone else { return }
        setup.dataChanged(from: old, in: &state, now: now)
    }
}
