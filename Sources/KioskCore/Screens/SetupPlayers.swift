import Foundation
import HyzerKit

extension Screen {
    /// Starting a round, step 2: who is playing. The rows are "Same group as last time" (when
    /// there was a last time: one press picks it), the registered players, the guests added
    /// so far, "Start round", "Add a player" (a new registered player, on the name wheel) and
    /// "Add a guest" (this round only). `selected` is in the order they were picked; the
    /// first is the organizer. Start asks first (`ConfirmRound`).
    public struct SetupPlayers: Sendable, Equatable {
        public var courseID: UUID
        public var selected: [UUID]
        public var cursor: Int
        /// Walk-up guests added here (FR12); each is picked (its id is in `selected`) until
        /// pressed again, which takes them off. Two guests of one name are two people (FR12b).
        public var guests: [Participant]

        public init(courseID: UUID, selected: [UUID], cursor: Int, guests: [Participant] = []) {
            self.courseID = courseID
            self.selected = selected
            self.cursor = cursor
            self.guests = guests
        }

        public enum Row: Sendable, Equatable {
            case sameGroup([Participant])
            case player(Player)
            case guest(Participant)
            case start, addPlayer, addGuest
        }

        /// The rows as shown, top to bottom.
        public func rows(in data: KioskData) -> [Row] {
            let last = Self.lastGroup(in: data)
            return (last.isEmpty ? [] : [.sameGroup(last)]) + data.players.map { .player($0) }
                + guests.map { .guest($0) } + [.start, .addPlayer, .addGuest]
        }

        /// The last round's players, in its order: the registered ones still registered, and
        /// its guests by name (as new guests: a guest is one round's label).
        static func lastGroup(in data: KioskData) -> [Participant] {
            guard let last = data.lastCompleted?.round.participants else { return [] }
            let registered = Set(data.players.map(\.id))
            return last.filter { $0.isGuest || registered.contains($0.id) }
        }

        /// Who plays, in the order picked.
        public func participants(in data: KioskData) -> [Participant] {
            selected.compactMap { id in
                data.players.first { $0.id == id }.map(Participant.registered) ?? guests.first { $0.id == id }
            }
        }

        var movedTo: (Int) -> Screen {
            { cursor in
                var setup = self
                setup.cursor = cursor
                return .setupPlayers(setup)
            }
        }
    }

    public static func setupPlayers(courseID: UUID, selected: [UUID], cursor: Int) -> Screen {
        .setupPlayers(SetupPlayers(courseID: courseID, selected: selected, cursor: cursor))
    }
}

extension Screen.SetupPlayers: ScreenBehavior {
    var name: String { "setup-players" }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        state.moveCursor(cursor, by: steps, count: rows(in: state.data).count, movedTo)
    }

    /// On a player or a guest: pick or drop them. On "Same group": pick that group, then the
    /// cursor waits on Start. On "Start round": the confirmation card. On "Add a player" /
    /// "Add a guest": the name wheel.
    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        let rows = rows(in: state.data)
        var setup = self
        switch rows[min(cursor, rows.count - 1)] {
        case .sameGroup(let group):
            // Guests come back as new guests (new ids), registered players as themselves.
            let fresh = group.map { $0.isGuest ? Participant(id: UUID(), name: $0.name, kind: .guest) : $0 }
            setup.guests = fresh.filter(\.isGuest)
            setup.selected = fresh.map(\.id)
            setup.cursor = setup.rows(in: state.data).firstIndex(of: .start) ?? 0
            state.screen = .setupPlayers(setup)
            return [.buzz(.confirm)]
        case .player(let player):
            if let index = setup.selected.firstIndex(of: player.id) {
                setup.selected.remove(at: index)
            } else {
                setup.selected.append(player.id)
            }
            state.screen = .setupPlayers(setup)
        case .guest(let guest):
            // A guest exists only as picked: pressing drops them from the list.
            setup.guests.removeAll { $0.id == guest.id }
            setup.selected.removeAll { $0 == guest.id }
            state.screen = .setupPlayers(setup)
        case .start:
            guard !selected.isEmpty else { return state.refuse("Pick at least one player", now: now) }
            state.screen = .confirmRound(Screen.ConfirmRound(setup: self))
        case .addPlayer:
            state.screen = .nameEntry(Screen.NameEntry(.newPlayer(from: self), in: state))
        case .addGuest:
            state.screen = .nameEntry(Screen.NameEntry(.guest(from: self), in: state))
        }
        return []
    }

    /// Back to the course list, on this course.
    func back(in state: inout KioskState) {
        state.screen = .setupCourse(cursor: state.data.courses.firstIndex { $0.id == courseID } ?? 0)
    }

    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        state.touchList(layout, y: y, rows: rows(in: state.data).count, cursor: cursor, now: now, movedTo)
    }

    /// Players removed elsewhere drop out of the selection; a course deleted elsewhere ends
    /// the setup, saying so.
    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        guard state.data.courses.contains(where: { $0.id == courseID }) else {
            let name = old.courses.first { $0.id == courseID }?.name ?? "The course"
            state.screen = .setupCourse(cursor: 0)
            _ = state.refuse("\(name) was deleted on another device", now: now)
            return
        }
        let known = Set(state.data.players.map(\.id)).union(guests.map(\.id))
        var setup = self
        setup.selected = selected.filter(known.contains)
        setup.cursor = min(cursor, setup.rows(in: state.data).count - 1)
        state.screen = .setupPlayers(setup)
    }
}
