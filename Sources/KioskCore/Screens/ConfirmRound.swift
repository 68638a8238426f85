import Foundation
import HyzerKit

extension Screen {
    /// The card before a round starts (issue 14 item 2): the course, its holes and par, and
    /// who plays, in order (the first organizes; guests marked). Start is under the cursor,
    /// so a group that is sure presses twice; "Change players" (or a long press) goes back
    /// with everything as it was. "First hole" sets a shotgun start (issue 36): a press,
    /// turns to the hole, a press.
    public struct ConfirmRound: Sendable, Equatable {
        public var setup: SetupPlayers
        /// 0 = start, 1 = first hole, 2 = change players.
        public var cursor: Int
        /// The hole the card starts on.
        public var startHole: Int
        /// The knob sets the first hole (after a press on it) rather than moving the cursor.
        public var settingStart: Bool

        public init(setup: SetupPlayers, cursor: Int = 0, startHole: Int = 1, settingStart: Bool = false) {
            self.setup = setup
            self.cursor = cursor
            self.startHole = startHole
            self.settingStart = settingStart
        }

        /// The answers, as buttons: start, the first hole, change players.
        public var choices: [String] {
            ["Start round", settingStart ? "Turn: hole \(startHole)" : "First hole: \(startHole)", "Change players"]
        }

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
        guard settingStart else {
            return state.moveCursor(cursor, by: steps, count: 3) { moved(cursor: $0) }
        }
        let holes = state.data.courses.first { $0.id == setup.courseID }?.holeCount ?? 1
        return state.moveCursor(startHole - 1, by: steps, count: holes) {
            var confirm = self
            confirm.startHole = $0 + 1
            return .confirmRound(confirm)
        }
    }

    private func moved(cursor: Int) -> Screen {
        var confirm = self
        confirm.cursor = cursor
        return .confirmRound(confirm)
    }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        if cursor == 1 {
            // First press: the knob sets the hole; second: it is kept.
            var confirm = self
            confirm.settingStart.toggle()
            state.screen = .confirmRound(confirm)
            return confirm.settingStart ? [] : [.buzz(.confirm)]
        }
        guard cursor == 0 else {
            state.screen = .setupPlayers(setup)
            return []
        }
        let participants = setup.participants(in: state.data)
        guard !participants.isEmpty else {
            state.screen = .setupPlayers(setup)
            return state.refuse("Pick at least one player", now: now)
        }
        // The round appears with the next data change; the card waits on its first hole.
        state.screen = .holeCard(hole: startHole, cursor: 0)
        return [
            .buzz(.confirm), .startRound(courseID: setup.courseID, participants: participants, startHole: startHole),
        ]
    }

    /// Setting the first hole: done, keeping it. Otherwise back to the players.
    func back(in state: inout KioskState) {
        guard settingStart else {
            state.screen = .setupPlayers(setup)
            return
        }
        var confirm = self
        confirm.settingStart = false
        state.screen = .confirmRound(confirm)
    }

    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        state.touchChoices(layout, x: x, y: y, count: 3, now: now) { moved(cursor: $0) }
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
