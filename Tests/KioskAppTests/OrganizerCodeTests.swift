import Foundation
import HyzerKit
import KioskCore
import Testing

@testable import HyzerStore
@testable import KioskApp

/// Issue 35 item 1 at the shell: the organizer code is kept hashed (never its digits), a
/// code chosen at the kiosk outlives a restart, kiosk.conf's code is the one asked for, and a
/// wrong one is refused.
@Suite struct OrganizerCodeTests {
    @Test func aCodeMatchesItselfOnlyAndReadsBackFromItsKeptForm() throws {
        let code = try OrganizerCode.hashing("2468", rounds: 2_000)
        #expect(code.matches("2468"))
        for wrong in ["2469", "246", "24680", "", "abcd"] { #expect(!code.matches(wrong), "\(wrong)") }
        let read = try OrganizerCode(encoded: code.encoded)
        #expect(read == code && read.matches("2468") && read.digits == 4)
        #expect(!code.encoded.contains("2468"), "the kept form holds no digits of the code")
        // The same code twice: different salts, different kept forms.
        #expect(try OrganizerCode.hashing("2468", rounds: 2_000).encoded != code.encoded)
    }

    @Test(arguments: [
        ("1234", "not an organizer code hash"),
        ("hyzer-code-v1$3$100000$AAAAAAAAAAA=$" + String(repeating: "A", count: 44), "4 to 8 digits"),
        ("hyzer-code-v1$4$10$AAAAAAAAAAA=$" + String(repeating: "A", count: 44), "rounds"),
        ("hyzer-code-v1$4$100000$!!$" + String(repeating: "A", count: 44), "base64"),
    ])
    func aBrokenKeptFormSaysWhatIsWrong(text: String, says: String) {
        #expect(throws: OrganizerCodeError.self) { try OrganizerCode(encoded: text) }
        do { _ = try OrganizerCode(encoded: text) } catch { #expect(error.description.contains(says), "\(error)") }
    }

    @Test func onlyFourToEightDigitsAreACode() {
        for bad in ["123", "123456789", "12a4", "١٢٣٤", " 1234"] {
            #expect(throws: OrganizerCodeError.self, "\(bad)") { try OrganizerCode.hashing(bad, rounds: 1_000) }
        }
    }

    /// The store with one started round, and a kiosk session on it with the lock on.
    static func session(_ dir: URL, lock: KioskConfiguration.Lock) throws -> KioskSession {
        try KioskSession(
            store: try HyzerDatabase(directory: dir), viewport: Viewport(width: 800, height: 480), now: 0, lock: lock)
    }

    static func enter(_ code: String, _ session: KioskSession, now: Millis) {
        for character in code {
            guard case .codeEntry(let entry) = session.state.screen, let digit = character.wholeNumberValue else { return }
            if digit != entry.dial { session.send(.turned(digit - entry.dial), now: now) }
            session.send(.pressed, now: now)
        }
    }

    static func openDiscard(_ session: KioskSession, now: Millis) throws {
        session.send(.longPressed, now: now)
        let index = try #require(session.state.menuItems.firstIndex(of: .discardRound))
        session.send(.turned(index), now: now)
        session.send(.pressed, now: now)
    }

    @Test func aCodeChosenAtTheKioskIsKeptHashedAndAskedForAfterARestart() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-code-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        do {
            let store = try HyzerDatabase(directory: dir)
            let course = try Course(name: "Lock Nine", holeCount: 9)
            try store.write(.saveCourse(course))
            let player = try Player(displayName: "Ana")
            try store.write(.savePlayer(player))
            let round = try store.write(
                .createRound(courseID: course.id, organizerID: player.id, participants: [.registered(player)]))
            _ = try store.write(.startRound(round.id))
        }
        let first = try Self.session(dir, lock: .init())
        #expect(first.state.settings.organizerLock == .unset)
        try Self.openDiscard(first, now: 10)
        #expect(first.state.screen.name == "code-choose")
        Self.enter("7315", first, now: 20)
        Self.enter("7315", first, now: 30)
        #expect(first.state.screen == .finishRound(kind: .discard))
        let kept = try String(contentsOf: dir.appendingPathComponent("kiosk-settings.json"), encoding: .utf8)
        #expect(kept.contains("hyzer-code-v1"), "\(kept)")
        #expect(!kept.contains("7315"), "the digits are never written")

        // Restarted: the code is asked for, a wrong one refused, the right one goes on.
        let second = try Self.session(dir, lock: .init())
        #expect(second.state.settings.organizerLock == .set(length: 4))
        try Self.openDiscard(second, now: 10)
        #expect(second.state.screen.name == "code")
        Self.enter("7316", second, now: 20)
        #expect(second.state.screen.name == "code" && second.state.lock.failures == 1)
        Self.enter("7315", second, now: 30)
        #expect(second.state.screen == .finishRound(kind: .discard))

        // kiosk.conf's code is the one asked for, whatever was chosen here; and its lock off asks nothing.
        let configured = try Self.session(dir, lock: .init(code: try OrganizerCode.hashing("13579", rounds: 2_000)))
        #expect(configured.state.settings.organizerLock == .set(length: 5))
        try Self.openDiscard(configured, now: 10)
        Self.enter("73150", configured, now: 20)
        #expect(configured.state.lock.failures == 1)
        Self.enter("13579", configured, now: 30)
        #expect(configured.state.screen == .finishRound(kind: .discard))
        let off = try Self.session(dir, lock: .init(enabled: false))
        try Self.openDiscard(off, now: 10)
        #expect(off.state.screen == .finishRound(kind: .discard))
    }
}
