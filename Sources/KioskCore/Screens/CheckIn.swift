import Foundation
import HyzerKit

extension Screen {
    /// League night, step 1 (issue 36 item 2): who is here, and the night's settings. The
    /// rows are "Same as last week" (when there was a last week: one press checks them all
    /// in), the registered players (a press checks one in or out), the walk-up guests added
    /// so far, "Draw the cards", the course, the skins game, the closest-to-the-pin holes, the
    /// ace pot's buy-in and who is in it, gross or net (issue 37), and "Add a guest".
    /// `checkedIn` is in the order they came.
    public struct CheckIn: Sendable, Equatable {
        public var checkedIn: [UUID]
        public var guests: [Participant]
        public var courseID: UUID?
        public var skins: LeagueEvent.SkinsGame
        /// The closest-to-the-pin holes, in course order.
        public var closestToPin: [Int]
        /// The ace pot's buy-in a player, in the group's units; 0: no ace pot tonight.
        public var acePot: Int
        /// Players here who stay out of the ace pot (everyone else is in: the usual night).
        public var acePotOut: Set<UUID>
        public var cursor: Int
        /// The knob turns to a CTP hole (after a press on its row) rather than moving the
        /// cursor; the next press adds the hole, or takes it off if it was one.
        public var settingClosestToPin: Bool
        /// The hole under the knob while setting; 0 is "no change", where it starts, so a
        /// press and a press change nothing.
        public var closestToPinCursor: Int
        /// Choosing who is in the ace pot: the cursor over the players here.
        public var pickingAcePot: Int?
        /// Ranked by net (issue 37): each player's to par less their handicap on the course.
        public var net: Bool

        public init(
            checkedIn: [UUID] = [], guests: [Participant] = [], courseID: UUID? = nil, skins: LeagueEvent.SkinsGame = .field,
            closestToPin: [Int] = [], acePot: Int = 1, acePotOut: Set<UUID> = [], cursor: Int = 0,
            settingClosestToPin: Bool = false, closestToPinCursor: Int = 0, pickingAcePot: Int? = nil, net: Bool = false
        ) {
            self.checkedIn = checkedIn
            self.guests = guests
            self.courseID = courseID
            self.skins = skins
            self.closestToPin = closestToPin
            self.acePot = acePot
            self.acePotOut = acePotOut
            self.cursor = cursor
            self.settingClosestToPin = settingClosestToPin
            self.closestToPinCursor = closestToPinCursor
            self.pickingAcePot = pickingAcePot
            self.net = net
        }

        public enum Row: Sendable, Equatable {
            case sameAsLastWeek([UUID])
            case player(Player)
            case guest(Participant)
            case draw
            case course(Course?)
            case skins
            case closestToPin
            case acePot
            /// Who is in the ace pot, while there is one tonight.
            case acePotPlayers
            /// Gross or net.
            case ranking
            case addGuest
        }

        /// The ace pot's buy-ins a press steps through (0: none tonight).
        public static let buyIns = [0, 1, 2, 5, 10]

        /// The rows as shown, top to bottom.
        public func rows(in data: KioskData) -> [Row] {
            let registered = Set(data.players.map(\.id))
            let lastWeek = data.lastNightPlayers.filter(registered.contains)
            return (lastWeek.isEmpty ? [] : [.sameAsLastWeek(lastWeek)]) + data.players.map { .player($0) }
                + guests.map { .guest($0) } + [.draw, .course(course(in: data)), .skins, .closestToPin, .acePot]
                + (acePot > 0 ? [.acePotPlayers] : []) + [.ranking, .addGuest]
        }

        /// The course tonight: the one chosen, else the first.
        public func course(in data: KioskData) -> Course? {
            data.courses.first { $0.id == courseID } ?? data.courses.first
        }

        /// Who is in the ace pot: everyone here but those kept out.
        public func acePotPlayers(in data: KioskData) -> [Participant] {
            participants(in: data).filter { !acePotOut.contains($0.id) }
        }

        /// Who is here, in the order they checked in.
        public func participants(in data: KioskData) -> [Participant] {
            checkedIn.compactMap { id in
                data.players.first { $0.id == id }.map(Participant.registered) ?? guests.first { $0.id == id }
            }
        }

        public static func skinsTitle(_ game: LeagueEvent.SkinsGame) -> String {
            switch game {
            case .off: "Skins: off"
            case .field: "Skins: the whole field"
            case .card: "Skins: each card"
            }
        }

        /// The ranking row: what the night is ranked by, and what a press does.
        public static func rankingTexts(net: Bool) -> (title: String, detail: String) {
            net
                ? ("Ranked by net", "less each player's handicap here · press for gross")
                : ("Ranked by gross", "press to rank by net (handicaps)")
        }

        var movedTo: (Int) -> Screen {
            { cursor in
                var checkIn = self
                checkIn.cursor = cursor
                return .checkIn(checkIn)
            }
        }

        /// From the menu: everyone out, the settings at their defaults, on the first row.
        static func begin(in state: inout KioskState, now: Millis) -> [KioskEffect] {
            guard !state.data.courses.isEmpty else { return state.refuse("Add a course first (Menu · Courses)", now: now) }
            state.screen = .checkIn(CheckIn())
            return []
        }
    }
}

extension Screen.CheckIn: ScreenBehavior {
    var name: String { pickingAcePot == nil ? "check-in" : "check-in-ace-pot" }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        if let picking = pickingAcePot {
            return state.moveCursor(picking, by: steps, count: max(1, participants(in: state.data).count)) {
                var checkIn = self
                checkIn.pickingAcePot = $0
                return .checkIn(checkIn)
            }
        }
        guard settingClosestToPin else {
            return state.moveCursor(cursor, by: steps, count: rows(in: state.data).count, movedTo)
        }
        // 0 is "no change", then the course's holes.
        let holes = course(in: state.data)?.holeCount ?? 1
        return state.moveCursor(closestToPinCursor, by: steps, count: holes + 1) {
            var checkIn = self
            checkIn.closestToPinCursor = $0
            return .checkIn(checkIn)
        }
    }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        var checkIn = self
        if let picking = pickingAcePot {
            // In or out of the ace pot, one press a player.
            let here = participants(in: state.data)
            guard picking < here.count else { return [] }
            let id = here[picking].id
            if checkIn.acePotOut.remove(id) == nil { checkIn.acePotOut.insert(id) }
            state.screen = .checkIn(checkIn)
            return []
        }
        let rows = rows(in: state.data)
        switch rows[min(cursor, rows.count - 1)] {
        case .sameAsLastWeek(let players):
            for id in players where !checkIn.checkedIn.contains(id) { checkIn.checkedIn.append(id) }
            checkIn.cursor = checkIn.rows(in: state.data).firstIndex(of: .draw) ?? cursor
            state.screen = .checkIn(checkIn)
            return [.buzz(.confirm)]
        case .player(let player):
            if let index = checkIn.checkedIn.firstIndex(of: player.id) {
                checkIn.checkedIn.remove(at: index)
            } else {
                checkIn.checkedIn.append(player.id)
            }
        case .guest(let guest):
            // A guest exists only as checked in: pressing takes them off the list.
            checkIn.guests.removeAll { $0.id == guest.id }
            checkIn.checkedIn.removeAll { $0 == guest.id }
        case .draw:
            let players = participants(in: state.data)
            guard !players.isEmpty else { return state.refuse("Check in the players first", now: now) }
            guard let course = course(in: state.data) else { return state.refuse("Add a course first", now: now) }
            checkIn.courseID = course.id
            // The draw is by form: the screen waits for it (`formRead`), a moment.
            state.screen = .drawCards(Screen.DrawCards(checkIn: checkIn))
            return [.readForm(players.filter { !$0.isGuest }.map(\.id))]
        case .course:
            let courses = state.data.courses
            let index = courses.firstIndex { $0.id == course(in: state.data)?.id } ?? -1
            let next = courses.isEmpty ? nil : courses[(index + 1) % courses.count]
            checkIn.courseID = next?.id
            // CTP holes past the new course's end go.
            checkIn.closestToPin.removeAll { $0 > next?.holeCount ?? 0 }
        case .skins:
            let all = LeagueEvent.SkinsGame.allCases
            checkIn.skins = all[((all.firstIndex(of: skins) ?? 0) + 1) % all.count]
        case .closestToPin:
            guard settingClosestToPin else {
                checkIn.settingClosestToPin = true
                checkIn.closestToPinCursor = 0
                state.screen = .checkIn(checkIn)
                return []
            }
            checkIn.settingClosestToPin = false
            let hole = closestToPinCursor
            guard hole > 0 else {
                state.screen = .checkIn(checkIn)
                return []
            }
            if let index = checkIn.closestToPin.firstIndex(of: hole) {
                checkIn.closestToPin.remove(at: index)
            } else {
                checkIn.closestToPin = (checkIn.closestToPin + [hole]).sorted()
            }
            state.screen = .checkIn(checkIn)
            return [.buzz(.confirm)]
        case .acePot:
            let next = ((Self.buyIns.firstIndex(of: acePot) ?? 0) + 1) % Self.buyIns.count
            checkIn.acePot = Self.buyIns[next]
        case .acePotPlayers:
            guard !checkedIn.isEmpty else { return state.refuse("Check in the players first", now: now) }
            checkIn.pickingAcePot = 0
        case .ranking:
            checkIn.net.toggle()
        case .addGuest:
            state.screen = .nameEntry(Screen.NameEntry(.checkInGuest(from: self), in: state))
            return []
        }
        state.screen = .checkIn(checkIn)
        return []
    }

    /// Setting a CTP hole: done, no change. Choosing who is in the ace pot: done, as they
    /// are. Otherwise back to the board: nothing is made until the cards are drawn and started.
    func back(in state: inout KioskState) {
        guard settingClosestToPin || pickingAcePot != nil else {
            state.screen = .board
            return
        }
        var checkIn = self
        checkIn.settingClosestToPin = false
        checkIn.pickingAcePot = nil
        state.screen = .checkIn(checkIn)
    }

    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        if let picking = pickingAcePot {
            return state.touchList(layout, y: y, rows: participants(in: state.data).count, cursor: picking, now: now) {
                var checkIn = self
                checkIn.pickingAcePot = $0
                return .checkIn(checkIn)
            }
        }
        return state.touchList(layout, y: y, rows: rows(in: state.data).count, cursor: cursor, now: now, movedTo)
    }

    /// Players removed elsewhere are no longer checked in; the cursor stays on a row.
    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        let known = Set(state.data.players.map(\.id)).union(guests.map(\.id))
        var checkIn = self
        checkIn.checkedIn = checkedIn.filter(known.contains)
        checkIn.cursor = min(cursor, checkIn.rows(in: state.data).count - 1)
        if let picking = pickingAcePot {
            checkIn.pickingAcePot = checkIn.checkedIn.isEmpty ? nil : min(picking, checkIn.checkedIn.count - 1)
        }
        state.screen = .checkIn(checkIn)
    }
}
