import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 32 item 6, names typed on a phone: wherever the kiosk asks for a name, in a group
/// it also shows a code a phone types the name with; the name comes back into the wheel,
/// and a press uses it as if it had been entered with the knob. The shell's side (the
/// server's code, the polling) is `PhoneNameServiceTests` in KioskAppTests; here, what the
/// screens do with what the shell reports.
@Suite struct PhoneNameTests {
    static let url = "http://10.0.0.2:8630/n/K7MP2QXR"
    static let ready = PhoneNameProgress.ready(url: url, expiresIn: 300)

    static func inAGroup(players: Int = 2) throws -> Harness {
        var h = try Harness(players: players, startRound: false)
        h.send(.syncChanged(SyncIndicator(state: .idle)))
        h.effects = []
        return h
    }

    static func entry(_ h: Harness) throws -> Screen.NameEntry {
        guard case .nameEntry(let entry) = h.state.screen else {
            Issue.record("not on the name entry: \(h.state.screen.name)")
            throw CancellationError()
        }
        return entry
    }

    /// The phone's effects among `effects`, in order.
    static func phoneEffects(_ effects: [KioskEffect]) -> [KioskEffect] {
        effects.filter {
            switch $0 {
            case .requestPhoneName, .cancelPhoneName: true
            default: false
            }
        }
    }

    /// Round setup → "Add a guest".
    static func openGuestEntry(_ h: inout Harness) throws {
        h.send(.longPressed)
        h.send(.turned(try #require(h.state.menuItems.firstIndex(of: .startRound))))
        h.send(.pressed)
        h.send(.pressed)
        guard case .setupPlayers(let setup) = h.state.screen else {
            Issue.record("not on setup: \(h.state.screen.name)")
            throw CancellationError()
        }
        let row = try #require(setup.rows(in: h.state.data).firstIndex(of: .addGuest))
        h.send(.turned(row - setup.cursor))
        h.send(.pressed)
    }

    /// Menu → Courses → "New course".
    static func openNewCourseEntry(_ h: inout Harness) throws {
        h.send(.longPressed)
        h.send(.turned(try #require(h.state.menuItems.firstIndex(of: .courses))))
        h.send(.pressed)
        h.send(.turned(h.courses.count))
        h.send(.pressed)
    }

    @Test func openingTheNameEntryInAGroupAsksForACodeAndShowsIt() throws {
        var h = try Self.inAGroup()
        _ = try NameEntryScreenTests.openNameEntry(&h)
        #expect(Self.phoneEffects(h.effects) == [.requestPhoneName(label: "New player's name")])
        let asking = try Self.entry(h)
        #expect(asking.phone == .requesting)
        #expect(asking.phoneCode?.url == nil, "no code to draw while the server is asked")
        #expect(asking.phoneCode?.caption == "Type it on your phone")
        #expect(Layout(viewport: h.state.viewport).nameEntryBoxes(asking).phone != nil, "its place is kept meanwhile")

        #expect(h.send(.phoneNameChanged(Self.ready)).isEmpty)
        let shown = try Self.entry(h)
        #expect(shown.phoneCode?.url == Self.url)
        #expect(shown.phoneCode?.caption == "Type it on your phone")
        #expect(shown.headline == "New player's name")
        // The wheel goes on working beside it.
        NameEntryScreenTests.choose(.character("a"), &h)
        #expect(try Self.entry(h).wheel.text == "A")
        #expect(try Self.entry(h).phoneCode?.url == Self.url)
    }

    @Test func inNoGroupTheWheelIsAllThereIs() throws {
        var h = try Harness(players: 2, startRound: false)
        _ = try NameEntryScreenTests.openNameEntry(&h)
        #expect(Self.phoneEffects(h.effects).isEmpty)
        let entry = try Self.entry(h)
        #expect(entry.phone == nil && entry.phoneCode == nil)
        #expect(Layout(viewport: h.state.viewport).nameEntryBoxes(entry).phone == nil)
        // Reports nobody asked for change nothing.
        #expect(h.send(.phoneNameChanged(Self.ready)).isEmpty)
        #expect(h.send(.phoneNameArrived("Zoë")).isEmpty)
        #expect(h.state.screen == .nameEntry(entry))
        h.send(.longPressed)
        #expect(Self.phoneEffects(h.effects).isEmpty, "nothing to cancel")
    }

    /// The name arrives: it replaces what the wheel had, the cursor waits on Done, the
    /// screen says where it came from, and one press registers the player.
    @Test func aNewPlayersNameFromAPhoneIsUsedWithOnePress() throws {
        var h = try Self.inAGroup()
        _ = try NameEntryScreenTests.openNameEntry(&h)
        h.send(.phoneNameChanged(Self.ready))
        NameEntryScreenTests.choose(.character("m"), &h)
        #expect(h.send(.phoneNameArrived("Zoë")) == [.buzz(.confirm)])
        let arrived = try Self.entry(h)
        #expect(arrived.wheel.text == "Zoë")
        #expect(arrived.wheel.selected == .done)
        #expect(arrived.fromPhone == "Zoë")
        #expect(arrived.phoneCode == nil, "the code is spent")
        #expect(arrived.headline == "New player's name · from a phone")
        #expect(arrived.hint == "Press to use it · Turn to change it · Hold to go back")
        #expect(h.state.notice == Notice(text: "From a phone: Zoë — press to use it", kind: .info, shownAt: h.now))

        h.effects = []
        let effects = h.send(.pressed)
        guard case .addPlayer(let player) = effects.first(where: { if case .addPlayer = $0 { true } else { false } }) else {
            Issue.record("no player added: \(effects)")
            return
        }
        #expect(player.displayName == "Zoë")
        #expect(effects == [.buzz(.confirm), .addPlayer(player), .cancelPhoneName])
        #expect(h.players.map(\.displayName) == ["Nate", "Mike", "Zoë"])
        #expect(h.state.screen == .setupPlayers(courseID: h.course.id, selected: [player.id], cursor: 3))
    }

    @Test func aGuestsNameFromAPhoneAddsTheGuest() throws {
        var h = try Self.inAGroup()
        try Self.openGuestEntry(&h)
        #expect(Self.phoneEffects(h.effects) == [.requestPhoneName(label: "Guest's name")])
        h.send(.phoneNameChanged(Self.ready))
        h.send(.phoneNameArrived("Ana María"))
        h.send(.pressed)
        guard case .setupPlayers(let setup) = h.state.screen else {
            Issue.record("not back on setup: \(h.state.screen.name)")
            return
        }
        #expect(setup.guests.map(\.name) == ["Ana María"])
        #expect(setup.guests.allSatisfy { setup.selected.contains($0.id) }, "the guest is picked")
        #expect(h.players.count == 2, "a guest is not registered")
        #expect(Self.phoneEffects(h.effects).last == .cancelPhoneName)
    }

    @Test func aCoursesNameFromAPhoneNamesTheCourse() throws {
        var h = try Self.inAGroup()
        try Self.openNewCourseEntry(&h)
        #expect(Self.phoneEffects(h.effects) == [.requestPhoneName(label: "New course's name")])
        h.send(.phoneNameChanged(Self.ready))
        h.send(.phoneNameArrived("Ridge Run 東"))
        h.send(.pressed)
        guard case .courseEditor(let editor) = h.state.screen else {
            Issue.record("not on the course editor: \(h.state.screen.name)")
            return
        }
        #expect(editor.draft.name == "Ridge Run 東")
    }

    /// A name the board cannot take is refused as one entered with the knob would be, and the
    /// wheel mends it: the phone's text is kept whole, not cut silently.
    @Test func aNameTooLongIsRefusedOnScreenAndTheWheelMendsIt() throws {
        var h = try Self.inAGroup()
        _ = try NameEntryScreenTests.openNameEntry(&h)
        h.send(.phoneNameChanged(Self.ready))
        let long = String(repeating: "Ö", count: Player.maxNameLength + 2)
        h.send(.phoneNameArrived(long))
        #expect(h.send(.pressed) == [.buzz(.error)])
        #expect(h.state.notice?.text == "A name has at most \(Player.maxNameLength) characters")
        #expect(try Self.entry(h).wheel.text == long)
        NameEntryScreenTests.choose(.delete, &h)
        NameEntryScreenTests.choose(.delete, &h)
        let effects = NameEntryScreenTests.choose(.done, &h)
        #expect(
            effects.contains { if case .addPlayer(let p) = $0 { p.displayName.count == Player.maxNameLength } else { false } })
    }

    /// Control characters (a pasted line break) are dropped, as from a keyboard; the on-screen
    /// keyboard gives way to the wheel, so the press lands on Done.
    @Test func theArrivalIsCleanedAndTakesTheKeyboardAway() throws {
        var h = try Self.inAGroup()
        _ = try NameEntryScreenTests.openNameEntry(&h)
        h.send(.phoneNameChanged(Self.ready))
        h.send(.touch(x: 1, y: 1))
        #expect(try Self.entry(h).keyboard)
        h.send(.phoneNameArrived("  Li\nWei \u{7}"))
        let entry = try Self.entry(h)
        #expect(entry.wheel.text == "LiWei")
        #expect(!entry.keyboard && entry.wheel.selected == .done)
    }

    /// Leaving the screen, by any way, tells the shell to stop waiting; a name that comes
    /// after is for nobody, and a stale one never lands in the next name entry.
    @Test func leavingCancelsAndALateNameIsIgnored() throws {
        var h = try Self.inAGroup()
        _ = try NameEntryScreenTests.openNameEntry(&h)
        h.send(.phoneNameChanged(Self.ready))
        h.effects = []
        h.send(.longPressed)
        #expect(h.effects == [.cancelPhoneName])
        let left = h.state
        #expect(h.send(.phoneNameArrived("Zoë")).isEmpty)
        #expect(h.send(.phoneNameChanged(.expired)).isEmpty)
        #expect(h.state == left)

        // Back in: a new code is asked for; a name for the old one, arriving while the new
        // one is asked, is not taken.
        h.effects = []
        h.send(.pressed)  // the cursor is still on "Add a player"
        #expect(Self.phoneEffects(h.effects) == [.requestPhoneName(label: "New player's name")])
        #expect(h.send(.phoneNameArrived("Zoë")).isEmpty)
        #expect(try Self.entry(h).wheel.text.isEmpty)

        // Walking away: the idle time-out takes the screen, and the code with it.
        h.effects = []
        h.advance(MotionTokens.idleTimeout)
        #expect(h.state.screen == .board)
        #expect(Self.phoneEffects(h.effects) == [.cancelPhoneName])
    }

    /// Someone still at the wheel when the code runs out gets a new one, once, quietly; a
    /// second expiry takes the code away and the wheel is all there is.
    @Test func anExpiredCodeIsRenewedOnceThenGoes() throws {
        var h = try Self.inAGroup()
        _ = try NameEntryScreenTests.openNameEntry(&h)
        h.send(.phoneNameChanged(Self.ready))
        #expect(h.send(.phoneNameChanged(.expired)) == [.requestPhoneName(label: "New player's name")])
        #expect(try Self.entry(h).phone == .requesting)
        #expect(try Self.entry(h).phoneCode != nil, "the code's place stays")
        let second = "http://10.0.0.2:8630/n/BCDFGHJK"
        h.send(.phoneNameChanged(.ready(url: second, expiresIn: 300)))
        #expect(try Self.entry(h).phoneCode?.url == second)
        #expect(h.send(.phoneNameChanged(.expired)).isEmpty, "no buzz, no third code")
        let gone = try Self.entry(h)
        #expect(gone.phone == .expired && gone.phoneCode == nil)
        #expect(Layout(viewport: h.state.viewport).nameEntryBoxes(gone).phone == nil)
        #expect(h.send(.phoneNameArrived("Zoë")).isEmpty, "an expired code brings no name")
        NameEntryScreenTests.choose(.character("z"), &h)
        #expect(try Self.entry(h).wheel.text == "Z")
    }

    /// Offline: no code, no buzz, no notice; the wheel works as before.
    @Test func aFailureTakesTheCodeAwayQuietly() throws {
        var h = try Self.inAGroup()
        _ = try NameEntryScreenTests.openNameEntry(&h)
        #expect(h.send(.phoneNameChanged(.failed("Cannot get a code from http://x: offline"))).isEmpty)
        let entry = try Self.entry(h)
        #expect(entry.phone == .failed("Cannot get a code from http://x: offline"))
        #expect(entry.phoneCode == nil && h.state.notice == nil)
        for character in "bo" { NameEntryScreenTests.choose(.character(character), &h) }
        #expect(try Self.entry(h).wheel.text == "Bo")
        h.effects = []
        h.send(.longPressed)
        #expect(h.effects == [.cancelPhoneName])
    }

    /// Turning off Done: the hint is the wheel's again; the text still says where it came from.
    @Test func turningAfterTheArrivalEditsAsUsual() throws {
        var h = try Self.inAGroup()
        _ = try NameEntryScreenTests.openNameEntry(&h)
        h.send(.phoneNameChanged(Self.ready))
        h.send(.phoneNameArrived("Zoe"))
        h.send(.turned(1))
        let turned = try Self.entry(h)
        #expect(turned.hint == "Turn to choose · Press to add · Hold to go back")
        #expect(turned.headline == "New player's name · from a phone")
        NameEntryScreenTests.choose(.character("y"), &h)
        let edited = try Self.entry(h)
        #expect(edited.wheel.text == "Zoey")
        #expect(edited.headline == "New player's name")
        #expect(edited.phoneCode == nil, "a spent code does not come back")
    }

    /// The bundled names arriving while the screen is open rebuild its wheel, not its code.
    @Test func theNameListArrivingKeepsTheCode() throws {
        var h = try Self.inAGroup()
        _ = try NameEntryScreenTests.openNameEntry(&h)
        h.send(.phoneNameChanged(Self.ready))
        h.effects = []
        h.send(.nameListLoaded(NameLexicon([.init(name: "Zelda", weight: 5)])))
        #expect(try Self.entry(h).phoneCode?.url == Self.url)
        #expect(h.effects.isEmpty)
    }

    /// The name wakes a dimmed screen and counts as someone at the kiosk (the time-out
    /// starts again).
    @Test func theArrivalWakesTheScreen() throws {
        var h = try Self.inAGroup()
        h.send(.settingsChanged(KioskSettings(dimAfter: 60_000)))
        _ = try NameEntryScreenTests.openNameEntry(&h)
        h.send(.phoneNameChanged(Self.ready))
        h.advance(60_000)
        #expect(h.state.dimmed)
        h.now += 30_000
        h.send(.phoneNameArrived("Zoë"))
        #expect(!h.state.dimmed)
        h.advance(MotionTokens.idleTimeout - 1_000)
        #expect(try Self.entry(h).wheel.text == "Zoë", "the time-out counts from the name")
    }

    /// The code's square and caption at every panel size: beside the wheel on a landscape
    /// panel (a third of the short side, the strip still seven cells), under it in
    /// portrait; on screen, apart from every row of the wheel, text at the minimum size at
    /// least and whole.
    @Test(arguments: LayoutCheckTests.sizes)
    func theCodeFitsBesideTheWheel(size: (Int, Int)) throws {
        var state = KioskState(viewport: Viewport(width: size.0, height: size.1))
        state.nameList = NameLexicon([
            .init(name: "Maximiliana Bartholomew", weight: 2), .init(name: "Max", weight: 1), .init(name: "Maxine", weight: 1),
        ])
        var entry = Screen.NameEntry(.guest(from: .init(courseID: UUID(), selected: [], cursor: 0)), in: state)
        let layout = Layout(viewport: state.viewport)
        let screen = Rect(x: 0, y: layout.header.maxY, w: layout.width, h: layout.footer.y - layout.header.maxY)
        for (text, phone) in [
            ("", PhoneNameProgress.requesting), ("", Self.ready), ("Ma", Self.ready),
            (String(repeating: "W", count: Player.maxNameLength), Self.ready),
        ] {
            entry.wheel = NameWheel(text: text, predictor: entry.wheel.predictor)
            entry.phone = phone
            let boxes = layout.nameEntryBoxes(entry)
            let what = "name entry with a code \(size.0)×\(size.1) \"\(text)\""
            let code = try #require(boxes.phone, "\(what)")
            let square = code.square
            #expect(square.w == square.h, "\(what)")
            #expect(square.w >= (min(layout.width, layout.height) / 3).rounded(.down), "\(what): the code is \(square.w) px")
            #expect(square.x >= layout.margin - 0.5 && square.maxX <= layout.width - layout.margin + 0.5, "\(what)")
            #expect(boxes.cells.count >= (layout.isPortrait ? 5 : 7), "\(what): \(boxes.cells.count) cells")
            #expect(boxes.cells.count % 2 == 1, "\(what)")
            #expect(boxes.completions.count == entry.wheel.completions.count, "\(what)")
            #expect(!code.caption.isEmpty, "\(what)")
            for line in code.caption {
                #expect(line.frame.x >= -0.5 && line.frame.maxX <= layout.width + 0.5, "\(what): \(line.text)")
            }
            let caption = RowBoxes(
                frame: Rect(
                    x: code.caption.map(\.frame.x).min()!, y: code.caption[0].frame.y,
                    w: code.caption.map(\.frame.maxX).max()! - code.caption.map(\.frame.x).min()!,
                    h: code.caption.last!.frame.maxY - code.caption[0].frame.y),
                texts: code.caption)
            // Every row of the wheel, the square and its caption: the checks of every screen
            // (inside the area, no two overlapping, texts whole and at the minimum size).
            let rows =
                [boxes.field] + (boxes.cells + boxes.completions).map(\.row) + [RowBoxes(frame: square, texts: []), caption]
            LayoutCheckTests.check(rows, in: screen, minimumRow: Layout.touchTarget, layout: layout, what)
            #expect(code.caption.map(\.text).joined(separator: " ") == "Type it on your phone", "\(what)")
        }
    }
}
