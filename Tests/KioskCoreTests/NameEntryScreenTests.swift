import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// The name entry screen, reached from round setup's "Add a player", driven through the
/// machine with the in-memory shell (`Harness`).
@Suite struct NameEntryScreenTests {
    /// Setup players with `h`'s players, the cursor on "Add a player", pressed.
    static func openNameEntry(_ h: inout Harness) throws -> Screen.NameEntry {
        h.send(.pressed)  // the board's "start a round"
        h.send(.pressed)  // the course
        h.send(.turned(h.players.count + 1))
        h.send(.pressed)
        guard case .nameEntry(let entry) = h.state.screen else {
            Issue.record("not on the name entry: \(h.state.screen.name)")
            throw CancellationError()
        }
        #expect(h.state.screen.name == "name-entry")
        return entry
    }

    /// Turns the knob to `item` (the wheel says how far) and presses.
    @discardableResult
    static func choose(_ item: NameWheel.Item, _ h: inout Harness) -> [KioskEffect] {
        guard case .nameEntry(let entry) = h.state.screen, let detents = entry.wheel.detents(to: item) else {
            Issue.record("\(item) is not on the wheel")
            return []
        }
        if detents != 0 { h.send(.turned(detents)) }
        return h.send(.pressed)
    }

    @Test func aNewPlayerIsEnteredSavedAndPicked() throws {
        var h = try Harness(players: 2, startRound: false)
        _ = try Self.openNameEntry(&h)
        for character in "zed" { Self.choose(.character(character), &h) }
        guard case .nameEntry(let typed) = h.state.screen else { throw CancellationError() }
        #expect(typed.wheel.text == "Zed")
        let effects = Self.choose(.done, &h)
        guard case .addPlayer(let player) = effects.last else {
            Issue.record("no player added: \(effects)")
            return
        }
        #expect(effects == [.buzz(.confirm), .addPlayer(player)])
        #expect(player.displayName == "Zed")
        #expect(h.players.map(\.displayName) == ["Nate", "Mike", "Zed"])
        // Back on the list with Zed picked, the cursor on "Start round" (below the new row).
        #expect(h.state.screen == .setupPlayers(courseID: h.course.id, selected: [player.id], cursor: 3))
        h.send(.pressed)
        #expect(h.state.screen.name == "confirm-round")
        h.send(.pressed)
        #expect(h.round?.participants.map(\.name) == ["Zed"])
    }

    /// A long press leaves without saving anything, from any point of the typing.
    @Test func aLongPressGoesBackWithoutSaving() throws {
        var h = try Harness(players: 2, startRound: false)
        _ = try Self.openNameEntry(&h)
        Self.choose(.character("a"), &h)
        h.effects = []
        h.send(.longPressed)
        #expect(h.state.screen == .setupPlayers(courseID: h.course.id, selected: [], cursor: 3))
        #expect(h.effects.isEmpty)
        #expect(h.players.count == 2)
    }

    /// Done on nothing: a clear message on the screen, an error buzz, nothing returned.
    @Test func anEmptyNameIsRefusedOnTheScreen() throws {
        var h = try Harness(players: 2, startRound: false)
        _ = try Self.openNameEntry(&h)
        let effects = Self.choose(.done, &h)
        #expect(effects == [.buzz(.error)])
        #expect(h.state.notice?.text == "Enter a name first")
        #expect(h.state.notice?.kind == .error)
        #expect(h.state.screen.name == "name-entry")
        #expect(h.players.count == 2)
    }

    /// Past what the board can show: refused with the limit said, the text kept.
    @Test func aNameTooLongForTheBoardIsRefused() throws {
        var h = try Harness(players: 1, startRound: false)
        _ = try Self.openNameEntry(&h)
        for _ in 0..<Player.maxNameLength { Self.choose(.character("o"), &h) }
        let effects = Self.choose(.character("o"), &h)
        #expect(effects == [.buzz(.error)])
        #expect(h.state.notice?.text == "A name has at most \(Player.maxNameLength) characters")
        guard case .nameEntry(let entry) = h.state.screen else { throw CancellationError() }
        #expect(entry.wheel.text.count == Player.maxNameLength)
    }

    /// The registered players' names are on the wheel as completions, first thing.
    @Test func registeredPlayersAreOfferedWhole() throws {
        var h = try Harness(players: 6, startRound: false)
        h.state.nameList = NameLexicon([NameLexicon.Candidate(name: "Pat", weight: 1)])
        let entry = try Self.openNameEntry(&h)
        #expect(Set(entry.wheel.completions).isSubset(of: Set(h.players.map(\.displayName))))
        #expect(entry.wheel.completions.count == 3)
        Self.choose(.character("p"), &h)
        guard case .nameEntry(let typed) = h.state.screen else { throw CancellationError() }
        #expect(typed.wheel.completions == ["Priya", "Pat"])
    }

    /// The bundled list arrives after the first frame (`.nameListLoaded`): a wheel already open
    /// with nothing entered takes it up, one with letters in keeps its order under the hand,
    /// and every wheel opened later has it.
    @Test func theNameListArrivingLaterReachesTheWheel() throws {
        var h = try Harness(players: 1, startRound: false)
        let before = try Self.openNameEntry(&h)
        #expect(before.wheel.predictor.bundled === NameLexicon.empty)
        let list = NameLexicon([.init(name: "Zelda", weight: 5), .init(name: "Zara", weight: 3)])
        h.send(.nameListLoaded(list))
        guard case .nameEntry(let open) = h.state.screen else { throw CancellationError() }
        #expect(open.wheel.predictor.bundled === list)
        #expect(open.wheel.text.isEmpty)

        Self.choose(.character("z"), &h)
        let other = NameLexicon([.init(name: "Zoe", weight: 9)])
        h.send(.nameListLoaded(other))
        guard case .nameEntry(let typed) = h.state.screen else { throw CancellationError() }
        #expect(typed.wheel.predictor.bundled === list, "a wheel with letters in keeps its order")
        #expect(typed.wheel.text == "z" || typed.wheel.text == "Z")
        #expect(h.state.nameList === other)
    }

    /// A tap on a cell of the strip takes that cell; a tap off the cells types nothing.
    @Test func tapsTakeTheCellTapped() throws {
        var h = try Harness(players: 1, startRound: false)
        let entry = try Self.openNameEntry(&h)
        let boxes = Layout(viewport: h.state.viewport).nameEntryBoxes(entry)
        let cell = try #require(boxes.cells.first { $0.offset == 2 })
        guard case .character(let character) = cell.item else { throw CancellationError() }
        h.send(.touch(x: cell.row.frame.midX, y: cell.row.frame.midY))
        guard case .nameEntry(let typed) = h.state.screen else { throw CancellationError() }
        #expect(typed.wheel.text == String(character).uppercased())
        #expect(typed.keyboard, "a touch brings up the on-screen keyboard")
        h.send(.touch(x: boxes.field.frame.midX, y: boxes.field.frame.midY))
        #expect(h.state.screen == .nameEntry(typed))
    }

    /// Once touched, the screen is an on-screen keyboard: every letter, space, -, ', Del and
    /// Done as keys; a tap on one types it; a turn of the knob brings the wheel back.
    @Test func theOnScreenKeyboardTypesWhatIsTapped() throws {
        var h = try Harness(players: 1, startRound: false)
        _ = try Self.openNameEntry(&h)
        h.send(.touch(x: 1, y: 1))  // on the title: nothing typed, the keyboard comes up
        guard case .nameEntry(let shown) = h.state.screen else { throw CancellationError() }
        #expect(shown.keyboard && shown.wheel.text.isEmpty)
        let layout = Layout(viewport: h.state.viewport)
        func tap(_ item: NameWheel.Item) throws {
            guard case .nameEntry(let entry) = h.state.screen else { throw CancellationError() }
            let key = try #require(layout.nameEntryBoxes(entry).cells.first { $0.item == item }, "\(item)")
            h.send(.touch(x: key.row.frame.midX, y: key.row.frame.midY))
        }
        let keys = layout.nameEntryBoxes(shown).cells.map(\.item)
        #expect(Set(keys) == Set(NameWheel.characters.map { .character($0) } + [.delete, .done]))
        #expect(keys.count == NameWheel.characters.count + 2)
        for character in "qi x" { try tap(.character(character)) }
        try tap(.delete)
        guard case .nameEntry(let typed) = h.state.screen else { throw CancellationError() }
        #expect(typed.wheel.text == "Qi ")
        h.send(.turned(1))
        guard case .nameEntry(let turned) = h.state.screen else { throw CancellationError() }
        #expect(!turned.keyboard)
        h.send(.touch(x: 1, y: 1))
        try tap(.done)
        #expect(h.players.map(\.displayName) == ["Nate", "Qi"])
    }

    /// The screen's boxes at every panel size, the wheel and the keyboard: inside the screen, none
    /// overlapping, at least the minimum text size, every fixed label whole, cells tappable.
    @Test(arguments: LayoutCheckTests.sizes)
    func theScreenHoldsItsContent(size: (Int, Int)) throws {
        let bundled = NameLexicon([
            .init(name: "Maximiliana Bartholomew", weight: 2), .init(name: "Max", weight: 1), .init(name: "Maxine", weight: 1),
        ])
        var state = KioskState(viewport: Viewport(width: size.0, height: size.1))
        state.nameList = bundled
        var entry = Screen.NameEntry(.newPlayer(from: .init(courseID: UUID(), selected: [], cursor: 0)), in: state)
        for (text, keyboard) in [
            ("", false), ("Ma", false), (String(repeating: "W", count: Player.maxNameLength), false),
            ("", true), ("Ma", true),
        ] {
            entry.wheel = NameWheel(text: text, predictor: entry.wheel.predictor)
            entry.keyboard = keyboard
            let layout = Layout(viewport: state.viewport)
            let boxes = layout.nameEntryBoxes(entry)
            let what = "name entry \(size.0)×\(size.1) \"\(text)\"\(keyboard ? " keyboard" : "")"
            if keyboard {
                #expect(boxes.cells.count == NameWheel.characters.count + 2, "\(what)")
            } else {
                #expect(boxes.cells.count >= 5, "\(what)")
                #expect(boxes.cells.count % 2 == 1, "\(what)")
                #expect(boxes.cells[boxes.cells.count / 2].item == entry.wheel.selected, "\(what)")
            }
            #expect(boxes.completions.count == entry.wheel.completions.count, "\(what)")
            let rows = [boxes.field] + (boxes.cells + boxes.completions).map(\.row)
            let screen = Rect(x: 0, y: layout.header.maxY, w: layout.width, h: layout.footer.y - layout.header.maxY)
            for row in rows {
                #expect(row.frame.w >= Layout.touchTarget && row.frame.h >= Layout.touchTarget, "\(what)")
                for text in row.texts where !text.ellipsized {
                    #expect(Layout.textWidth(keyboard ? "W" : "Space", size: text.size) <= text.frame.w + 0.5, "\(what)")
                }
            }
            LayoutCheckTests.check(rows, in: screen, minimumRow: Layout.touchTarget, layout: layout, what)
        }
    }
}

/// A USB keyboard on the name wheel: text types (any script), Backspace deletes, Enter is done.
@Suite struct NameEntryKeyboardTests {
    @Test func aKeyboardTypesDeletesAndFinishes() throws {
        var h = try Harness(players: 1, startRound: false)
        _ = try NameEntryScreenTests.openNameEntry(&h)
        #expect(h.state.screen.takesTyping)
        h.send(.typed(.text("josé")))
        h.send(.typed(.text("x\n")))
        h.send(.typed(.delete))
        guard case .nameEntry(let entry) = h.state.screen else { throw CancellationError() }
        #expect(entry.wheel.text == "José")
        let effects = h.send(.typed(.done))
        guard case .addPlayer(let player) = effects.last else {
            Issue.record("no player: \(effects)")
            return
        }
        #expect(player.displayName == "José")
        #expect(h.players.map(\.displayName) == ["Nate", "José"])
        #expect(!h.state.screen.takesTyping)
    }

    /// The wheel's own rules hold for typing: the 41st character is refused with the message.
    @Test func typingPastTheLimitIsRefused() throws {
        var h = try Harness(players: 1, startRound: false)
        _ = try NameEntryScreenTests.openNameEntry(&h)
        let effects = h.send(.typed(.text(String(repeating: "ß", count: Player.maxNameLength + 1))))
        #expect(effects.last == .buzz(.error))
        #expect(h.state.notice?.text == "A name has at most \(Player.maxNameLength) characters")
        guard case .nameEntry(let entry) = h.state.screen else { throw CancellationError() }
        #expect(entry.wheel.text == String(repeating: "ß", count: Player.maxNameLength))
    }

    /// Elsewhere typing does nothing: the keyboard is the knob there.
    @Test func otherScreensIgnoreTyping() throws {
        var h = try Harness(players: 1, startRound: false)
        #expect(!h.state.screen.takesTyping)
        let before = h.state
        #expect(h.send(.typed(.text("a"))).isEmpty)
        #expect(h.state.screen == before.screen)
    }
}
