import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 9 item 1: the open-discrepancy count, and settling each disputed cell at the kiosk.
@Suite struct ResolveScreenTests {
    /// A statement on `hole` for player `index` as if made on another device and synced in.
    static func remote(
        _ h: inout Harness, _ index: Int, hole: Int, _ strokes: Int, device: String = "phone-7a1b2c3d",
        supersedes: [UUID] = [], at seconds: TimeInterval = 0
    ) -> ScoreEvent {
        let event = ScoreEvent(
            roundID: h.round!.id, participantID: h.id(index), hole: hole, strokes: strokes, supersedes: supersedes,
            reportedBy: h.id(index), deviceID: device, createdAt: h.clock.date.addingTimeInterval(seconds))
        h.events.append(event)
        h.publish(.remoteSync)
        return event
    }

    /// Two devices disagree on Mike's hole 1 (3 against 5) and on Jake's hole 2 (4 against 6).
    static func twoDisputes() throws -> Harness {
        var h = try Harness()
        _ = remote(&h, 1, hole: 1, 3, device: "phone-a")
        _ = remote(&h, 1, hole: 1, 5, device: "phone-b", at: 60)
        _ = remote(&h, 2, hole: 2, 4, device: "phone-a")
        _ = remote(&h, 2, hole: 2, 6, device: "phone-b", at: 60)
        return h
    }

    static func resolving(_ h: Harness) -> Screen.Resolve? {
        if case .resolve(let screen) = h.state.screen { return screen }
        return nil
    }

    static func openFromMenu(_ h: inout Harness) {
        h.send(.longPressed)
        let index = h.state.menuItems.firstIndex { if case .checkScores = $0 { true } else { false } }!
        h.send(.turned(index))
        h.send(.pressed)
    }

    @Test func theMenuOffersCheckScoresOnlyWhileSomethingIsOpen() throws {
        var h = try Harness()
        #expect(!h.state.menuItems.contains { if case .checkScores = $0 { true } else { false } })
        _ = Self.remote(&h, 1, hole: 1, 3, device: "phone-a")
        _ = Self.remote(&h, 1, hole: 1, 5, device: "phone-b")
        #expect(h.state.menuItems.prefix(3) == [.enterScores, .checkScores(1), .finishRound])
        #expect(MenuItem.checkScores(1).title == "Check 1 score")
        #expect(MenuItem.checkScores(2).title == "Check 2 scores")
    }

    @Test func theMenuEntryOpensTheFirstOpenCellOnTheValueThatCountsNow() throws {
        var h = try Self.twoDisputes()
        Self.openFromMenu(&h)
        let screen = try #require(Self.resolving(h))
        #expect(h.state.screen.name == "resolve")
        #expect(screen.cell == ScoreCell(participantID: h.id(1), hole: 1))
        // Until someone decides, the lower value counts (docs/scenario-format.md): start there.
        #expect(screen.value == 3)
        #expect(screen.origin == .menu)
        #expect(screen.position(in: h.state.data)! == (1, 2))
        #expect(screen.choices(in: h.state.data) == [2, 3, 4, 5, 6])
    }

    @Test func turningStepsThroughTheOfferedValuesAndTheEndsAreFelt() throws {
        var h = try Self.twoDisputes()
        Self.openFromMenu(&h)
        #expect(h.send(.turned(2)).isEmpty)
        #expect(Self.resolving(h)?.value == 5, "3 → 4 → 5: the other device's value is two detents away")
        #expect(h.send(.turned(5)) == [.buzz(.limit)])
        #expect(Self.resolving(h)?.value == 6)
        #expect(h.send(.turned(-9)) == [.buzz(.limit)])
        #expect(Self.resolving(h)?.value == 2)
    }

    @Test func pressResolvesWithOneEffectAndMovesToTheNextOpenCell() throws {
        var h = try Self.twoDisputes()
        Self.openFromMenu(&h)
        h.send(.turned(2))
        let effects = h.send(.pressed)
        #expect(effects == [.buzz(.confirm), .resolveScore(roundID: h.round!.id, participantID: h.id(1), hole: 1, strokes: 5)])
        #expect(h.state.round?.scorecard.value(participant: h.id(1), hole: 1) == 5)
        let next = try #require(Self.resolving(h))
        #expect(next.cell == ScoreCell(participantID: h.id(2), hole: 2))
        #expect(next.value == 4)
        #expect(next.position(in: h.state.data)! == (1, 1))
        // The last one: the count clears and, from the menu, the board shows the result.
        #expect(h.send(.pressed).contains(.resolveScore(roundID: h.round!.id, participantID: h.id(2), hole: 2, strokes: 4)))
        #expect(h.state.round?.scorecard.discrepancies.isEmpty == true)
        #expect(h.state.screen == .board)
        #expect(!h.state.menuItems.contains { if case .checkScores = $0 { true } else { false } })
    }

    @Test func aLongPressGoesBackWithoutResolving() throws {
        var h = try Self.twoDisputes()
        Self.openFromMenu(&h)
        h.send(.turned(1))
        h.send(.longPressed)
        #expect(h.state.screen == .menu(cursor: 0))
        #expect(!h.effects.contains { if case .resolveScore = $0 { true } else { false } })
        #expect(h.state.round?.scorecard.discrepancies.count == 2)
    }

    @Test func pressingADisputedRowOnTheHoleCardSettlesItThere() throws {
        var h = try Self.twoDisputes()
        h.send(.pressed)  // the board opens hole 1's card
        #expect(h.state.screen.name == "hole-1")
        h.state = Harness.moving(h.state, toRow: 1, hole: 1, now: h.now)
        h.send(.pressed)
        let screen = try #require(Self.resolving(h), "a disputed row opens the resolve screen, not crown entry")
        #expect(screen.origin == .holeCard(hole: 1, cursor: 1))
        h.send(.longPressed)
        #expect(h.state.screen == .holeCard(hole: 1, cursor: 1))
        // Settling it returns to the card after the last open cell.
        h.send(.pressed)
        h.send(.pressed)
        #expect(Self.resolving(h)?.cell == ScoreCell(participantID: h.id(2), hole: 2))
        h.send(.pressed)
        #expect(h.state.screen == .holeCard(hole: 1, cursor: 1))
        // An undisputed row still opens crown entry.
        h.state = Harness.moving(h.state, toRow: 0, hole: 1, now: h.now)
        h.send(.pressed)
        #expect(h.state.screen.name == "entry-hole-1")
    }

    @Test func aCellResolvedOnAnotherDeviceMovesTheScreenOn() throws {
        var h = try Self.twoDisputes()
        Self.openFromMenu(&h)
        // Another device's resolution arrives by sync.
        h.record(h.id(1), hole: 1, strokes: 5, resolution: true, device: "phone-c")
        h.publish(.remoteSync)
        #expect(Self.resolving(h)?.cell == ScoreCell(participantID: h.id(2), hole: 2))
        // And the other one: nothing left, back where the screen was opened from.
        h.record(h.id(2), hole: 2, strokes: 4, resolution: true, device: "phone-c")
        h.publish(.remoteSync)
        #expect(h.state.screen == .menu(cursor: 0))
    }

    /// The case: the kiosk corrects a phone's score, which is still a discrepancy
    /// (docs/scenario-format.md), and settling it takes a press.
    @Test func aKioskCorrectionOfAPhoneScoreListsBothStatements() throws {
        var h = try Harness()
        _ = Self.remote(&h, 0, hole: 1, 3, device: "7a1b2c3d-e5f6", at: -60)
        h.send(.pressed)
        h.state = Harness.moving(h.state, toRow: 0, hole: 1, now: h.now)
        h.send(.pressed)
        #expect(h.state.screen.name == "entry-hole-1", "no dispute yet: a plain correction")
        h.send(.turned(2))
        h.send(.pressed)
        let open = h.state.round!.scorecard.discrepancies
        #expect(open.map(\.kinds) == [[.crossDeviceOverride]])
        h.advance(MotionTokens.undoToastLifetime)  // until then a long press would undo it
        h.send(.longPressed)  // the card back to the board, then the menu
        Self.openFromMenu(&h)
        let screen = try #require(Self.resolving(h))
        let statements = screen.statements(in: h.state)
        #expect(statements.map(\.strokes) == [3, 5])
        #expect(statements.map(\.reporter) == ["Nate", "Nate"])
        #expect(statements.map(\.device) == ["device 7a1b2c", "this kiosk"])
        #expect(statements.map(\.isCurrent) == [false, true])
        #expect(screen.value == 5, "the kiosk's correction counts until settled")
        h.send(.turned(-2))
        #expect(h.send(.pressed).contains(.resolveScore(roundID: h.round!.id, participantID: h.id(0), hole: 1, strokes: 3)))
        #expect(h.state.round!.scorecard.discrepancies.isEmpty)
        #expect(h.state.round!.scorecard.value(participant: h.id(0), hole: 1) == 3)
    }
}
