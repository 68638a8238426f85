import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 9 item 2: finishing asks first and names who is missing what; an empty round is
/// discarded, not finished.
@Suite struct FinishScreenTests {
    /// Opens the menu from wherever the kiosk is and presses `item`.
    static func choose(_ item: MenuItem, _ h: inout Harness) {
        h.state.screen = .board
        h.send(.longPressed)
        let index = h.state.menuItems.firstIndex(of: item)!
        h.send(.turned(index))
        h.send(.pressed)
    }

    /// Scores every hole for player `index` at par, through the machine's effects.
    static func scoreAll(_ h: inout Harness, player index: Int, holes: ClosedRange<Int>) {
        for hole in holes {
            h.perform(
                .saveScore(
                    roundID: h.round!.id, participantID: h.id(index), hole: hole, strokes: h.course.par(of: hole) ?? 3))
        }
    }

    @Test func holesAreNamedAsRuns() {
        #expect(Screen.FinishRound.describe([7]) == "hole 7")
        #expect(Screen.FinishRound.describe([16, 17, 18]) == "holes 16–18")
        #expect(Screen.FinishRound.describe([1, 3, 4, 5, 9]) == "holes 1, 3–5 and 9")
        #expect(Screen.FinishRound.describe([9, 2, 1]) == "holes 1–2 and 9")
    }

    @Test func finishingListsWhoIsMissingWhichHolesAndAsks() throws {
        var h = try Harness(players: 3, holes: 9)
        Self.scoreAll(&h, player: 0, holes: 1...9)
        Self.scoreAll(&h, player: 1, holes: 1...6)
        Self.scoreAll(&h, player: 2, holes: 1...8)
        Self.choose(.finishRound, &h)
        #expect(h.state.screen == .finishRound(kind: .finish))
        #expect(h.state.screen.name == "finish")
        #expect(!h.effects.contains(.finishRound(h.round!.id)), "nothing is finished before the confirmation")
        let missing = Screen.FinishRound.missing(in: h.state.round!)
        #expect(missing.map(\.line) == ["Mike: holes 7–9, will be DNF", "Jake: hole 9, will be DNF"])
    }

    @Test func confirmingFinishesAndShowsTheSummary() throws {
        var h = try Harness()
        Self.scoreAll(&h, player: 0, holes: 1...3)
        Self.choose(.finishRound, &h)
        let id = h.round!.id
        #expect(h.send(.pressed) == [.buzz(.confirm), .finishRound(id)])
        #expect(h.state.screen == .summary(roundID: id))
        #expect(h.completed?.round.status == .completed)
    }

    @Test func keepScoringAndALongPressLeaveTheRoundOpen() throws {
        var h = try Harness()
        Self.scoreAll(&h, player: 0, holes: 1...3)
        Self.choose(.finishRound, &h)
        #expect(h.send(.turned(1)).isEmpty)
        #expect(h.send(.turned(1)) == [.buzz(.limit)])
        #expect(h.send(.pressed).isEmpty)
        #expect(h.state.screen.name == "hole-1", "back to scoring, on the hole being played")
        Self.choose(.finishRound, &h)
        h.send(.longPressed)
        #expect(h.state.screen == .menu(cursor: 0))
        #expect(h.round?.status == .active)
        #expect(!h.effects.contains(.finishRound(h.round!.id)))
    }

    @Test func anEmptyRoundOffersDiscardInsteadOfFinish() throws {
        var h = try Harness()
        #expect(h.state.menuItems.prefix(2) == [.enterScores, .discardRound])
        #expect(!h.state.menuItems.contains(.finishRound))
        Self.choose(.discardRound, &h)
        #expect(h.state.screen == .finishRound(kind: .discard))
        #expect(h.state.screen.name == "discard")
        let id = h.round!.id
        #expect(h.send(.pressed) == [.buzz(.confirm), .discardRound(id)])
        #expect(h.state.screen == .board)
        #expect(h.state.round == nil)
        #expect(h.completed == nil, "a discarded round leaves no summary behind")
    }

    @Test func aScoreArrivingWhileDiscardIsAskedTurnsItIntoAFinish() throws {
        var h = try Harness()
        Self.choose(.discardRound, &h)
        // Another device's score arrives by sync.
        h.record(h.id(1), hole: 1, strokes: 3, resolution: false, device: "phone", reporter: h.id(1))
        h.publish(.remoteSync)
        #expect(h.state.screen == .finishRound(kind: .finish, cursor: 1), "asked again, on \"Keep scoring\"")
        #expect(h.state.menuItems.contains(.finishRound))
    }

    @Test func aRoundFinishedElsewhereClosesTheQuestion() throws {
        var h = try Harness()
        Self.scoreAll(&h, player: 0, holes: 1...2)
        Self.choose(.finishRound, &h)
        h.perform(.finishRound(h.round!.id))
        #expect(h.state.screen == .board)
    }
}
