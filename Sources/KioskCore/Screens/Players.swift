import Foundation
import HyzerKit

extension Screen {
    /// The menu's "Players" (issue 35): the roster; a player's choices (remove from the
    /// roster, merge into another player); and, for a merge, whom into. Either asks for the
    /// organizer code, then `UndoConfirm` asks once more. Played rounds keep every player.
    public struct Players: Sendable, Equatable {
        public enum Level: Sendable, Equatable {
            case roster
            /// What to do with `player`: 0 = remove, 1 = merge.
            case choose(Player)
            /// Whom to merge `player` into.
            case mergeInto(Player)
        }

        public var level: Level
        public var cursor: Int

        public init(level: Level = .roster, cursor: Int = 0) {
            self.level = level
            self.cursor = cursor
        }

        /// The rows of the level on show, as the screen names them.
        public func rows(in data: KioskData) -> [String] {
            switch level {
            case .roster: data.players.map(\.displayName)
            case .choose(let player): ["Remove \(player.displayName) from the roster", "Merge \(player.displayName) into…"]
            case .mergeInto(let player): targets(for: player, in: data).map(\.displayName)
            }
        }

        /// Whom to merge `player` into, the cursor on `into` (back from the code or the question).
        static func mergingInto(_ player: Player, at into: Player, in data: KioskData) -> Players {
            let level = Level.mergeInto(player)
            return Players(level: level, cursor: Players(level: level).targets(for: player, in: data).firstIndex(of: into) ?? 0)
        }

        /// Everyone on the roster but `player`.
        public func targets(for player: Player, in data: KioskData) -> [Player] {
            data.players.filter { $0.id != player.id }
        }

        public var heading: (title: String, subtitle: String) {
            switch level {
            case .roster: ("Players", "Pick one to remove or merge")
            case .choose(let player): (player.displayName, "Their played rounds keep them either way")
            case .mergeInto(let player): ("Merge \(player.displayName) into…", "The same person, entered twice")
            }
        }
    }
}

extension Screen.Players: ScreenBehavior {
    var name: String {
        switch level {
        case .roster: "players"
        case .choose: "player-choose"
        case .mergeInto: "player-merge-into"
        }
    }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        let level = self.level
        return state.moveCursor(cursor, by: steps, count: rows(in: state.data).count) {
            .players(Screen.Players(level: level, cursor: $0))
        }
    }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        switch level {
        case .roster:
            guard state.data.players.indices.contains(cursor) else { return [.buzz(.limit)] }
            state.screen = .players(Screen.Players(level: .choose(state.data.players[cursor])))
            return []
        case .choose(let player):
            if cursor == 0 { return state.guarded(.removePlayer(player), now: now) }
            guard !targets(for: player, in: state.data).isEmpty else { return [.buzz(.limit)] }
            state.screen = .players(Screen.Players(level: .mergeInto(player)))
            return []
        case .mergeInto(let player):
            let targets = targets(for: player, in: state.data)
            guard targets.indices.contains(cursor) else { return [.buzz(.limit)] }
            return state.guarded(.mergePlayer(player, into: targets[cursor]), now: now)
        }
    }

    /// One level up; from the roster, back to the menu on its Players entry.
    func back(in state: inout KioskState) {
        switch level {
        case .roster:
            state.screen = .menu(cursor: state.menuItems.firstIndex(of: .players) ?? 0)
        case .choose(let player):
            state.screen = .players(Screen.Players(cursor: state.data.players.firstIndex(of: player) ?? 0))
        case .mergeInto(let player):
            state.screen = .players(Screen.Players(level: .choose(player), cursor: 1))
        }
    }

    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        let level = self.level
        return state.touchList(layout, y: y, rows: rows(in: state.data).count, cursor: cursor, now: now) {
            .players(Screen.Players(level: level, cursor: $0))
        }
    }

    /// The roster changed (a player removed here or elsewhere): keep the cursor on a row,
    /// and leave a player who is gone.
    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        switch level {
        case .choose(let player), .mergeInto(let player):
            guard state.data.players.contains(where: { $0.id == player.id }) else {
                state.screen = .players(Screen.Players())
                return
            }
        case .roster: break
        }
        state.screen = .players(Screen.Players(level: level, cursor: min(cursor, max(0, rows(in: state.data).count - 1))))
    }
}
