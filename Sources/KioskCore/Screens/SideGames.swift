import Foundation
import HyzerKit

extension Screen {
    /// Tonight's side games (issue 36 item 5), from the menu while a league night is on or
    /// just over: the skins (who has won how many, what rides on the next hole), each
    /// closest-to-the-pin hole with its winner, the aces and the ace pot. A press on a CTP
    /// hole lists the night's players ("Nobody" first): the organizer enters the winner
    /// after the round. Everything else is computed from the scores, never typed.
    public struct SideGames: Sendable, Equatable {
        public var cursor: Int
        /// Entering a CTP winner: the hole, and the cursor over "Nobody" and the players.
        public var picking: Picking?

        public struct Picking: Sendable, Equatable {
            public var hole: Int
            public var cursor: Int
        }

        public init(cursor: Int = 0, picking: Picking? = nil) {
            self.cursor = cursor
            self.picking = picking
        }

        public enum Row: Sendable, Equatable {
            /// A skins game: "Skins" (the field) or "Skins · card B", and what it says.
            case skins(title: String, detail: String)
            case closestToPin(hole: Int, winner: String?)
            case aces(String)
            case acePot(total: Int, detail: String)
        }

        /// The rows as shown, for the night on the kiosk.
        public static func rows(in data: KioskData) -> [Row] {
            guard let night = data.leagueNight else { return [] }
            let names = night.names
            var rows: [Row] = []
            for (card, game) in night.results.skinsGames {
                rows.append(
                    .skins(title: card.map { "Skins · card \($0)" } ?? "Skins", detail: game.summary { names[$0] ?? "?" }))
            }
            for ctp in night.event.closestToPin {
                rows.append(.closestToPin(hole: ctp.hole, winner: ctp.winner.map { names[$0] ?? "?" }))
            }
            let aces = night.results.aces.map { "\(names[$0.participantID] ?? "?") on \($0.hole)" }
            rows.append(.aces(aces.isEmpty ? "none yet" : aces.joined(separator: ", ")))
            if let pot = data.acePot {
                let paid = pot.payouts.map { "\(names[$0.player] ?? "?") won \($0.amount)" }
                rows.append(
                    .acePot(total: pot.total, detail: paid.isEmpty ? "nobody has won it yet" : paid.joined(separator: ", ")))
            }
            return rows
        }

        /// Who can win a CTP hole: the night's players, card by card.
        public static func players(in data: KioskData) -> [Participant] {
            data.leagueNight?.participants ?? []
        }
    }
}

extension Screen.SideGames: ScreenBehavior {
    var name: String { picking == nil ? "side-games" : "side-games-ctp" }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        if let picking {
            // "Nobody", then the players.
            return state.moveCursor(picking.cursor, by: steps, count: Self.players(in: state.data).count + 1) {
                var screen = self
                screen.picking?.cursor = $0
                return .sideGames(screen)
            }
        }
        return state.moveCursor(cursor, by: steps, count: max(1, Self.rows(in: state.data).count)) {
            var screen = self
            screen.cursor = $0
            return .sideGames(screen)
        }
    }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        guard let night = state.data.leagueNight else {
            state.screen = .board
            return []
        }
        var screen = self
        if let picking {
            let players = Self.players(in: state.data)
            let winner = picking.cursor == 0 ? nil : players[min(picking.cursor - 1, players.count - 1)].id
            screen.picking = nil
            state.screen = .sideGames(screen)
            return [.buzz(.confirm), .setClosestToPin(eventID: night.event.id, hole: picking.hole, winner: winner)]
        }
        let rows = Self.rows(in: state.data)
        guard cursor < rows.count, case .closestToPin(let hole, _) = rows[cursor] else {
            // The rest is computed from the scores: nothing to enter.
            return [.buzz(.limit)]
        }
        let current = night.event.closestToPin.first { $0.hole == hole }?.winner
        let index = current.flatMap { id in Self.players(in: state.data).firstIndex { $0.id == id } }
        screen.picking = Picking(hole: hole, cursor: index.map { $0 + 1 } ?? 0)
        state.screen = .sideGames(screen)
        return []
    }

    /// Picking: back to the rows, nothing entered. Otherwise back to the board.
    func back(in state: inout KioskState) {
        guard picking != nil else {
            state.screen = .board
            return
        }
        var screen = self
        screen.picking = nil
        state.screen = .sideGames(screen)
    }

    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        if let picking {
            return state.touchList(
                layout, y: y, rows: Self.players(in: state.data).count + 1, cursor: picking.cursor, now: now
            ) {
                var screen = self
                screen.picking?.cursor = $0
                return .sideGames(screen)
            }
        }
        return state.touchList(layout, y: y, rows: Self.rows(in: state.data).count, cursor: cursor, now: now) {
            var screen = self
            screen.cursor = $0
            return .sideGames(screen)
        }
    }

    /// The night gone (discarded elsewhere): back to the board.
    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        guard state.data.leagueNight != nil else {
            state.screen = .board
            return
        }
        var screen = self
        screen.cursor = min(cursor, max(0, Self.rows(in: state.data).count - 1))
        state.screen = .sideGames(screen)
    }
}
