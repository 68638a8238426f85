import Foundation
import HyzerKit
import HyzerStore
import HyzerTestSupport
import KioskCore
import KioskHardware
import KioskRender
import Logging
import Testing

@testable import KioskApp

/// The name wheel against a real store and the real bundled list: a player entered with the
/// knob is a row in SQLite and plays the round started next.
@Suite struct NameEntrySessionTests {
    @Test func aPlayerEnteredWithTheKnobIsSavedAndPlays() throws {
        let store = try HyzerDatabase.inMemory()
        let course = try Course(name: "Wheel Nine", holeCount: 9)
        try store.write(.saveCourse(course))
        try store.write(.savePlayer(try Player(displayName: "Ana")))
        let session = try KioskSession(store: store, viewport: Viewport(width: 800, height: 480), now: 0)
        let list = repositoryRoot.appendingPathComponent("assets/first-names.tsv")
        session.loadNameList(list, logger: Logger(label: "test"))
        #expect(session.state.nameList.count >= 2_000)

        // Board → course → players (Ana, Start round, Add a player) → the wheel.
        for event in [KioskEvent.pressed, .pressed, .turned(2), .pressed] { session.send(event, now: 10) }
        guard case .nameEntry(var entry) = session.state.screen else {
            Issue.record("not on the name entry: \(session.state.screen.name)")
            return
        }
        // "Bo" and then Bobby as the list offers him, which finishes: turning as far as the wheel says.
        for item in [NameWheel.Item.character("b"), .character("o"), .completion("Bobby")] {
            guard case .nameEntry(let current) = session.state.screen else { break }
            entry = current
            let detents = try #require(entry.wheel.detents(to: item), "\(item) not offered after \"\(entry.wheel.text)\"")
            if detents != 0 { session.send(.turned(detents), now: 20) }
            session.send(.pressed, now: 20)
        }
        let players = try store.read(.players)
        let bobby = try #require(players.first { $0.displayName == "Bobby" })
        #expect(players.count == 2)
        #expect(session.state.screen == .setupPlayers(courseID: course.id, selected: [bobby.id], cursor: 2))
        session.send(.pressed, now: 30)  // Start round
        #expect(session.state.screen.name == "confirm-round")
        session.send(.pressed, now: 40)  // the card: Start round
        #expect(try store.read(.activeRounds).first?.participants.map(\.name) == ["Bobby"])
    }

    /// A long press on the wheel leaves nothing behind in the store.
    @Test func backingOutSavesNothing() throws {
        let store = try HyzerDatabase.inMemory()
        try store.write(.saveCourse(try Course(name: "Wheel Nine", holeCount: 9)))
        let session = try KioskSession(store: store, viewport: Viewport(width: 800, height: 480), now: 0)
        // No players: the list is Start round, Add a player.
        for event in [KioskEvent.pressed, .pressed, .turned(1), .pressed, .pressed, .longPressed] {
            session.send(event, now: 10)
        }
        #expect(session.state.screen.name == "setup-players")
        #expect(try store.read(.players).isEmpty)
    }

    /// On the name wheel a keyboard types: Enter is done, Backspace deletes, Space's text types
    /// (its key does nothing more); arrows stay the knob. Elsewhere Space and Backspace are still
    /// the knob's press and long press.
    @Test func keysTypeOnTheWheelAndAreTheKnobElsewhere() {
        #expect(KnobInput.typingEvents(.text("é")) == [.typed(.text("é"))])
        #expect(KnobInput.typingEvents(.key(.enter, down: true, isRepeat: false)) == [.typed(.done)])
        #expect(KnobInput.typingEvents(.key(.enter, down: false, isRepeat: false)) == [])
        #expect(KnobInput.typingEvents(.key(.backspace, down: true, isRepeat: true)) == [.typed(.delete)])
        #expect(KnobInput.typingEvents(.key(.space, down: true, isRepeat: false)) == [])
        #expect(KnobInput.typingEvents(.key(.up, down: true, isRepeat: false)) == nil)
        var mapping = KeyboardKnobMapping()
        func knob(_ key: DisplayEvent.Key) -> [KioskEvent] {
            KnobInput.keyboardEvents(.key(key, down: true, isRepeat: false), mapping: &mapping, nowNs: 1)
                + KnobInput.keyboardEvents(.key(key, down: false, isRepeat: false), mapping: &mapping, nowNs: 2)
        }
        #expect(knob(.space) == [.pressed])
        #expect(knob(.backspace) == [.longPressed])
        #expect(KnobInput.keyboardEvents(.text("a"), mapping: &mapping, nowNs: 3).isEmpty)
    }
}
