import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 35 item 1: what destroys asks for the organizer code, entered with the knob; a new
/// code is chosen at the first locked action; five wrong codes lock it for a minute, and the
/// screen counts it down; scoring, resolving, browsing and a normal finish never ask.
@Suite struct OrganizerLockTests {
    static func harness(_ lock: OrganizerLock.Setting, code: String? = nil) throws -> Harness {
        var h = try Harness(players: 3, holes: 9)
        h.state.settings.organizerLock = lock
        h.organizerCode = code
        return h
    }

    /// Turns the dial to each digit and presses, as a person does.
    static func enter(_ code: String, _ h: inout Harness) {
        for character in code {
            guard case .codeEntry(let entry) = h.state.screen, let digit = character.wholeNumberValue else {
                Issue.record("not on the code entry: \(h.state.screen.name)")
                return
            }
            if digit != entry.dial { h.send(.turned(digit - entry.dial)) }
            h.send(.pressed)
        }
    }

    static func entry(_ h: Harness) -> Screen.CodeEntry? {
        if case .codeEntry(let entry) = h.state.screen { entry } else { nil }
    }

    @Test func aKioskWithNoCodeAsksForANewOneTwiceThenGoesOn() throws {
        var h = try Self.harness(.unset)
        FinishScreenTests.choose(.discardRound, &h)
        #expect(h.state.screen.name == "code-choose")
        #expect(Self.entry(h)?.status == "Choose 4 digits to be asked for.")
        Self.enter("2468", &h)
        #expect(h.state.screen.name == "code-confirm")
        #expect(h.organizerCode == nil, "nothing kept before the code is entered twice")
        Self.enter("2468", &h)
        #expect(h.organizerCode == "2468")
        #expect(h.effects.contains(.setOrganizerCode("2468")))
        #expect(h.state.settings.organizerLock == .set(length: 4))
        #expect(h.state.screen == .finishRound(kind: .discard), "on to what the code was asked for")
        // Back on the board, the next person is asked for it.
        h.send(.longPressed)
        h.send(.longPressed)
        #expect(h.state.screen == .board)
        FinishScreenTests.choose(.discardRound, &h)
        #expect(h.state.screen.name == "code")
    }

    @Test func twoDifferentNewCodesAreRefusedAndAskedAgain() throws {
        var h = try Self.harness(.unset)
        FinishScreenTests.choose(.discardRound, &h)
        Self.enter("1234", &h)
        Self.enter("1235", &h)
        #expect(h.effects.last == .buzz(.error))
        #expect(h.state.screen.name == "code-choose")
        #expect(Self.entry(h)?.message == .mismatch)
        #expect(h.organizerCode == nil && h.state.settings.organizerLock == .unset)
    }

    @Test func theRightCodeGoesOnAndAWrongOneSaysHowManyTriesAreLeft() throws {
        var h = try Self.harness(.set(length: 4), code: "9051")
        FinishScreenTests.scoreAll(&h, player: 0, holes: 1...3)
        FinishScreenTests.choose(.finishRound, &h)
        #expect(h.state.screen.name == "code")
        #expect(Self.entry(h)?.purpose == "Needed to finish the round early.")
        Self.enter("9050", &h)
        #expect(h.effects.contains(.checkOrganizerCode("9050")))
        #expect(h.effects.last == .buzz(.error))
        #expect(Self.entry(h)?.message == .wrong(triesLeft: 4))
        #expect(Self.entry(h)?.digits.isEmpty == true, "a wrong code is cleared for the next try")
        Self.enter("9051", &h)
        #expect(h.state.screen == .finishRound(kind: .finish))
        #expect(h.state.lock.failures == 0)
        // Unlocked until back on the board: the next locked action does not ask again.
        h.send(.longPressed)
        #expect(h.state.screen.name == "menu")
        let index = try #require(h.state.menuItems.firstIndex(of: .reduceMotion(false)))
        h.state.screen = .menu(cursor: index)
        h.send(.pressed)
        #expect(h.state.settings.reduceMotion)
        #expect(h.effects.last == .saveSettings(h.state.settings))
    }

    @Test func fiveWrongCodesLockItForAMinuteCountedDownOnScreen() throws {
        var h = try Self.harness(.set(length: 4), code: "9051")
        FinishScreenTests.choose(.discardRound, &h)
        for _ in 0..<OrganizerLock.maxTries { Self.enter("1111", &h) }
        #expect(h.state.screen.name == "code-locked")
        #expect(Self.entry(h)?.status == "5 wrong codes: try again in 60 s")
        // Nothing is taken while it holds, not even the right code.
        #expect(h.send(.pressed) == [.buzz(.limit)])
        #expect(h.send(.turned(1)) == [.buzz(.limit)])
        #expect(!h.effects.contains(.checkOrganizerCode("9051")))
        // The machine wakes for each second, and the screen changes with it.
        #expect(h.state.nextWakeUp(after: h.now) == h.now + 1_000)
        h.advance(1_000)
        #expect(Self.entry(h)?.status == "5 wrong codes: try again in 59 s")
        // Leaving and coming back does not lift it.
        h.send(.longPressed)
        #expect(h.state.screen.name == "menu")
        FinishScreenTests.choose(.discardRound, &h)
        #expect(h.state.screen.name == "code-locked")
        for _ in 0..<59 { h.advance(1_000) }
        #expect(h.state.screen.name == "code")
        #expect(Self.entry(h)?.message == nil)
        Self.enter("9051", &h)
        #expect(h.state.screen == .finishRound(kind: .discard))
    }

    @Test func aLongPressTakesADigitBackThenLeavesWithNothingDone() throws {
        var h = try Self.harness(.set(length: 4), code: "9051")
        var editor = Screen.CourseEditor(draft: CourseDraft(h.course), isNew: false, origin: .courseList)
        editor.cursor = try #require(editor.rows.firstIndex(of: .delete))
        h.state.screen = .courseEditor(editor)
        h.send(.pressed)
        #expect(h.state.screen.name == "code")
        #expect(Self.entry(h)?.purpose == "Needed to delete Riverside Nine.")
        Self.enter("90", &h)
        h.send(.longPressed)
        #expect(Self.entry(h)?.digits == [9])
        #expect(Self.entry(h)?.dial == 0, "the digit taken back is under the dial again")
        h.send(.longPressed)
        h.send(.longPressed)
        #expect(h.state.screen.name == "course-editor")
        #expect(!h.effects.contains { if case .deleteCourse = $0 { true } else { false } })
    }

    /// What never asks: scoring, checking scores, browsing, and finishing a round whose
    /// every hole is scored.
    @Test func scoringBrowsingAndANormalFinishNeverAsk() throws {
        var h = try Self.harness(.set(length: 4), code: "9051")
        FinishScreenTests.choose(.enterScores, &h)
        #expect(h.state.screen.name.hasPrefix("hole-"))
        FinishScreenTests.choose(.history, &h)
        #expect(h.state.screen.name.hasPrefix("history"))
        FinishScreenTests.choose(.status, &h)
        #expect(h.state.screen.name == "status")
        for player in 0..<3 { FinishScreenTests.scoreAll(&h, player: player, holes: 1...9) }
        h.state.screen = .board
        #expect(h.round?.status == .awaitingFinalization, "every hole is in; the round waits to be finished")
        FinishScreenTests.choose(.finishRound, &h)
        #expect(h.state.screen == .finishRound(kind: .finish))
        #expect(!h.effects.contains { if case .checkOrganizerCode = $0 { true } else { false } })
    }

    /// Negative control: with the lock off (a garage kiosk), the same actions go straight on.
    @Test func withTheLockOffNothingAsks() throws {
        var h = try Self.harness(.off)
        FinishScreenTests.choose(.discardRound, &h)
        #expect(h.state.screen == .finishRound(kind: .discard))
        FinishScreenTests.scoreAll(&h, player: 0, holes: 1...3)
        FinishScreenTests.choose(.finishRound, &h)
        #expect(h.state.screen == .finishRound(kind: .finish))
    }

    @Test func theDialGoesRoundFromNineToZero() throws {
        var h = try Self.harness(.set(length: 4), code: "9051")
        FinishScreenTests.choose(.discardRound, &h)
        h.send(.turned(-1))
        #expect(Self.entry(h)?.dial == 9)
        h.send(.turned(3))
        #expect(Self.entry(h)?.dial == 2)
        h.send(.turned(-23))
        #expect(Self.entry(h)?.dial == 9)
    }
}
