import Foundation
import HyzerKit

extension Screen {
    /// Starting a round, step 2: who is playing. The rows are the players, "Start round", then
    /// "Add a player" (the name wheel);
    /// `selected` is in the order they were picked (the first is the organizer).
    public struct SetupPlayers: Sendable, Equatable {
        public var courseID: UUID
        public var selected: [UUID]
        public var cursor: Int
        public init(courseID: UUID, selected: [UUID], cursor: Int) {
            self.courseID = courseID
            self.selected = selected
            self.cursor = cursor
        }
    }

    public static func setupPlayers(courseID: UUID, selected: [UUID], cursor: Int) -> Screen {
        .setupPlayers(SetupPlayers(courseID: courseID, selected: selected, cursor: cursor))
    }
}

extension Screen.SetupPlayers: ScreenBehavior {
    var name: String { "setup-players" }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        state.moveCursor(cursor, by: steps, count: state.data.players.count + 2) {
            .setupPlayers(courseID: courseID, selected: selected, cursor: $0)
        }
    }

    /// On a player: add or remove them. On "Start round": start it with the players picked. On
    /// "Add a player": enter their name.
    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        let players = state.data.players
        if cursor == players.count + 1 {
            state.screen = .nameEntry(Screen.NameEntry(.newPlayer(from: self), in: state))
            return []
        }
        if players.indices.contains(cursor) {
            var selected = selected
            let id = players[cursor].id
            if let index = selected.firstIndex(of: id) { selected.remove(at: index) } else { selected.append(id) }
            state.screen = .setupPlayers(courseID: courseID, selected: selected, cursor: cursor)
            return []
        }
        guard !selected.isEmpty else { return state.refuse("Pick at least one player", now: now) }
        // The round appears with the next data change; the card waits on hole 1.
        state.screen = .holeCard(hole: 1, cursor: 0)
        return [.buzz(.confirm), .startRound(courseID: courseID, playerIDs: selected)]
    }

    /// Back to the course list, on this course.
    func back(in state: inout KioskState) {
        state.screen = .setupCourse(cursor: state.data.courses.firstIndex { $0.id == courseID } ?? 0)
    }

    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        state.touchList(layout, y: y, rows: state.data.players.count + 2, cursor: cursor, now: now) {
            .setupPlayers(courseID: courseID, selected: selected, cursor: $0)
        }
    }

    /// Players removed elsewhere drop out of the selection.
    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        let known = Set(state.data.players.map(\.id))
        state.screen = .setupPlayers(
            courseID: courseID, selected: selected.filter(known.contains),
            cursor: min(cursor, state.data.players.count))
    }
}
