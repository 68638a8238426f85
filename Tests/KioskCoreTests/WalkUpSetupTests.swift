import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 14 item 2: round setup at the kiosk: walk-up guests, a new player (and one whose
/// name is taken), "same group as last time", the card before the start, and guests marked
/// on the board and the summary.
@Suite struct WalkUpSetupTests {
    /// Board → menu → Start a new round → the first course.
    func openSetup(_ h: inout Harness) {
        h.send(.longPressed)
        h.send(.turned(h.state.menuItems.firstIndex(of: .startRound)!))
        h.send(.pressed)
        h.send(.pressed)
    }

    var setup: (KioskState) -> Screen.SetupPlayers? = { state in
        if case .setupPlayers(let setup) = state.screen { return setup }
        return nil
    }

    func move(_ h: inout Harness, to row: Screen.SetupPlayers.Row) throws {
        let current = try #require(setup(h.state))
        let index = try #require(current.rows(in: h.state.data).firstIndex(of: row), "\(row)")
        if index != current.cursor { h.send(.turned(index - current.cursor)) }
    }

    @Test func twoGuestsOfOneNameAreTwoPeopleAndNeverRegistered() throws {
        var h = try Harness(players: 2, startRound: false)
        openSetup(&h)
        try move(&h, to: .player(h.players[0]))
        h.send(.pressed)
        for _ in 0..<2 {
            try move(&h, to: .addGuest)
            h.send(.pressed)
            guard case .nameEntry(let entry) = h.state.screen else {
                Issue.record("\(h.state.screen)")
                return
            }
            #expect(entry.title == "Guest's name")
            h.send(.typed(.text("Marcus")))
            h.send(.typed(.done))
        }
        let picked = try #require(setup(h.state))
        #expect(picked.guests.map(\.name) == ["Marcus", "Marcus"])
        #expect(Set(picked.guests.map(\.id)).count == 2)
        #expect(picked.rows(in: h.state.data)[picked.cursor] == .start, "after a guest, the cursor waits on Start")
        h.send(.pressed)
        guard case .confirmRound(let confirm) = h.state.screen else {
            Issue.record("\(h.state.screen)")
            return
        }
        #expect(confirm.card(in: h.state.data).players == ["Nate · organizer", "Marcus · guest", "Marcus · guest"])
        h.send(.pressed)
        let round = try #require(h.round)
        #expect(round.participants.map(\.kind) == [.registered, .guest, .guest])
        #expect(h.players.count == 2, "guests are not registered")
        #expect(h.state.screen == .holeCard(hole: 1, cursor: 0))
    }

    @Test func aGuestIsTakenOffByPressingThemAndBadNamesAreRefused() throws {
        var h = try Harness(players: 1, startRound: false)
        openSetup(&h)
        try move(&h, to: .addGuest)
        h.send(.pressed)
        h.send(.typed(.done))
        #expect(h.state.notice?.text == "Enter a name first")
        h.send(.typed(.text(String(repeating: "x", count: Player.maxNameLength))))
        h.send(.typed(.text("y")))
        #expect(h.state.notice != nil, "the wheel refuses a name past the limit")
        h.send(.longPressed)  // back without a guest
        #expect(setup(h.state)?.guests == [])
        try move(&h, to: .addGuest)
        h.send(.pressed)
        h.send(.typed(.text("Walk Up")))
        h.send(.typed(.done))
        let guest = try #require(setup(h.state)?.guests.first)
        try move(&h, to: .guest(guest))
        h.send(.pressed)
        #expect(setup(h.state)?.guests == [] && setup(h.state)?.selected == [])
    }

    /// A new player whose name a registered player has: said once; Done again picks the
    /// registered one, and nobody is registered twice.
    @Test func aTakenNameAsksFirstThenPicksTheRegisteredPlayer() throws {
        var h = try Harness(players: 2, startRound: false)
        openSetup(&h)
        try move(&h, to: .addPlayer)
        h.send(.pressed)
        h.send(.typed(.text("mike")))
        h.send(.typed(.done))
        #expect(h.state.notice?.text == "Mike is already registered: Done again picks them")
        #expect(h.state.screen.name == "name-entry")
        h.effects = []
        h.send(.typed(.done))
        #expect(setup(h.state)?.selected == [h.players[1].id])
        #expect(h.state.notice == nil)
        #expect(!h.effects.contains { if case .addPlayer = $0 { true } else { false } })
        #expect(h.players.count == 2)
    }

    @Test func sameGroupAsLastTimeIsOnePress() throws {
        var h = try Harness(players: 3, startRound: false)
        // Last time: Jake organized, with Nate and a guest.
        var last = Round(courseID: h.course.id, organizerID: h.players[2].id, createdAt: h.clock.date)
        try last.add(.registered(h.players[2]))
        try last.add(.registered(h.players[0]))
        try last.add(try .guest(named: "Marcus"))
        try last.start(at: h.clock.date)
        try last.finish(at: h.clock.date)
        h.completed = RoundSnapshot(round: last, course: h.course, events: [])
        h.publish(.localScore)
        openSetup(&h)
        let opened = try #require(setup(h.state))
        guard case .sameGroup(let group) = opened.rows(in: h.state.data)[opened.cursor] else {
            Issue.record("the cursor is not on Same group: \(opened)")
            return
        }
        #expect(group.map(\.name) == ["Jake", "Nate", "Marcus"])
        h.send(.pressed)
        let picked = try #require(setup(h.state))
        #expect(picked.participants(in: h.state.data).map(\.name) == ["Jake", "Nate", "Marcus"])
        #expect(picked.guests.first?.id != last.participants[2].id, "a guest comes back as a new guest")
        #expect(picked.rows(in: h.state.data)[picked.cursor] == .start)
        h.send(.pressed)
        h.send(.pressed)
        #expect(h.round?.participants.map(\.name) == ["Jake", "Nate", "Marcus"])
        #expect(h.round?.organizerID == h.players[2].id)
    }

    /// With nothing last time there is no such row: the first row is the first player.
    @Test func noLastGroupNoRow() throws {
        var h = try Harness(players: 2, startRound: false)
        openSetup(&h)
        let opened = try #require(setup(h.state))
        #expect(opened.rows(in: h.state.data).first == .player(h.players[0]))
    }

    @Test func theCardGoesBackWithTheSelectionKept() throws {
        var h = try Harness(players: 2, startRound: false)
        openSetup(&h)
        try move(&h, to: .player(h.players[1]))
        h.send(.pressed)
        try move(&h, to: .start)
        h.send(.pressed)
        h.send(.turned(2))  // Change players (after the first hole)
        h.send(.pressed)
        #expect(setup(h.state)?.selected == [h.players[1].id])
        try move(&h, to: .start)
        h.send(.pressed)
        h.send(.longPressed)
        #expect(setup(h.state)?.selected == [h.players[1].id])
        #expect(h.round == nil)
    }

    @Test func aCourseDeletedElsewhereDuringSetupIsSaid() throws {
        var h = try Harness(players: 2, startRound: false)
        openSetup(&h)
        h.courses = []
        h.publish(.remoteSync)
        #expect(h.state.screen.name == "setup-course")
        #expect(h.state.notice?.text == "Riverside Nine was deleted on another device")
    }

    @Test func guestsAreMarkedOnTheBoardAndTheSummary() throws {
        var h = try Harness(players: 2, startRound: false)
        var round = Round(courseID: h.course.id, organizerID: h.players[0].id, createdAt: h.clock.date)
        try round.add(.registered(h.players[0]))
        let guest = try Participant.guest(named: "Marcus")
        try round.add(guest)
        try round.start(at: h.clock.date)
        h.round = round
        h.publish(.localScore)
        let layout = Layout(viewport: Viewport(width: 1280, height: 720))
        let board = h.state.boardBoxes(layout: layout, now: h.now, minus: "-")
        let marcus = try #require(board.rows.first { $0.standing.participantID == guest.id })
        let nate = try #require(board.rows.first { $0.standing.participantID == h.players[0].id })
        #expect(marcus.boxes.texts.contains { $0.text == "guest" })
        #expect(!nate.boxes.texts.contains { $0.text == "guest" })
        let standings = try #require(h.snapshot).standings.rows
        let summary = layout.summaryBoxes(standings, heading: false, minus: "-", guests: [guest.id])
        let texts = summary.rows.flatMap { $0.boxes.texts.map { $0.text } }
        #expect(texts.contains("guest · 0 strokes"))
        #expect(texts.filter { $0.hasPrefix("guest") }.count == 1)
    }
}
