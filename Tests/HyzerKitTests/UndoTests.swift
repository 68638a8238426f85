import Foundation
import Testing

@testable import HyzerKit

/// Issue 35: the domain's half of undo. A reopened round, a correction after the finish,
/// and merged players counted as one.
@Suite struct UndoTests {
    let f: Fixture
    init() throws { f = try Fixture() }

    static let kiosk = RecordedAction(
        kind: .reopened, at: Fixture.start, deviceID: "kiosk-1", deviceName: "Clubhouse kiosk", authority: .organizerCode)

    func finished(after seconds: TimeInterval) throws -> Round {
        var round = f.round
        try round.finish(at: Fixture.start.addingTimeInterval(seconds))
        return round
    }

    @Test func aFinishedRoundReopensWithinItsWindowAsTheNextGeneration() throws {
        var round = try finished(after: 3600)
        let finish = try #require(round.completedAt)
        #expect(round.canReopen(at: finish.addingTimeInterval(Round.defaultReopenWindow), window: Round.defaultReopenWindow))
        try round.reopen(at: finish.addingTimeInterval(600), window: Round.defaultReopenWindow, action: Self.kiosk)
        #expect(round.status == .active)
        #expect(round.completedAt == nil)
        #expect(round.generation == 1)
        #expect(round.actions == [Self.kiosk])
        #expect(round.participants == f.round.participants)
        // It is played and finished again as any round is.
        try round.finish(at: finish.addingTimeInterval(900))
        #expect(round.status == .completed)
        #expect(round.generation == 1)
    }

    @Test func aRoundPastItsWindowOrNotFinishedDoesNotReopen() throws {
        var late = try finished(after: 0)
        let finish = try #require(late.completedAt)
        let afterWindow = finish.addingTimeInterval(Round.defaultReopenWindow + 1)
        #expect(!late.canReopen(at: afterWindow, window: Round.defaultReopenWindow))
        #expect(throws: RoundError.reopenWindowPassed(hours: 24)) {
            try late.reopen(at: afterWindow, window: Round.defaultReopenWindow, action: Self.kiosk)
        }
        #expect(RoundError.reopenWindowPassed(hours: 24).description == "a round can be reopened only within 24 h of its finish")
        // A group that set a longer window gets it.
        try late.reopen(at: afterWindow, window: 48 * 3600, action: Self.kiosk)
        var playing = f.round
        #expect(throws: RoundError.invalidTransition(from: .active, to: .active)) {
            try playing.reopen(at: Fixture.start, window: Round.defaultReopenWindow, action: Self.kiosk)
        }
    }

    @Test func aCorrectionIsAcceptedAfterTheFinishAndAnOrdinaryLateScoreIsNot() throws {
        let round = try finished(after: 60)
        let late = f.event(0, hole: 1, 4, at: 120)
        #expect(throws: ScoringError.roundCompleted) { try late.validate(in: round, course: f.course) }
        var correction = late
        correction.correction = .organizerCode
        try correction.validate(in: round, course: f.course)
        // Not before the round has started.
        let setup = Round(courseID: f.course.id, organizerID: UUID(), createdAt: Fixture.start)
        var early = correction
        early.roundID = setup.id
        #expect(throws: ScoringError.roundNotStarted) { try early.validate(in: setup, course: f.course) }
    }

    @Test func aCorrectionCountsRaisesNoOverrideAndMarksTheCell() throws {
        let phone = f.event(1, hole: 3, 5, device: "phone")
        var fix = f.event(1, hole: 3, 3, device: "kiosk", supersedes: [phone], at: 5000)
        let plain = CellResolution.resolve(phone.cell, events: [phone, fix])
        // Without the flag, another device's value replaced: a discrepancy (control).
        #expect(plain.discrepancy != nil)
        #expect(!plain.isCorrected)
        fix.correction = .organizerCode
        let corrected = CellResolution.resolve(phone.cell, events: [phone, fix])
        #expect(corrected.value == 3)
        #expect(corrected.discrepancy == nil)
        #expect(corrected.isCorrected)
        // Against a concurrent ordinary leaf the correction is what counts, as a resolution does.
        let other = f.event(1, hole: 3, 2, device: "B")
        #expect(CellResolution.resolve(phone.cell, events: [phone, fix, other]).value == 3)
        #expect(f.scorecard([phone, fix]).correctedCells == 1)
        #expect(f.scorecard([phone]).correctedCells == 0)
    }

    @Test func mergedPlayersCountAsTheEndOfTheirChainAndALoopAsItsSmallestID() {
        let ids = (0..<4).map { _ in UUID() }
        let chain = PlayerMerges([ids[0]: ids[1], ids[1]: ids[2]])
        #expect(chain.canonical(ids[0]) == ids[2])
        #expect(chain.canonical(ids[1]) == ids[2])
        #expect(chain.canonical(ids[3]) == ids[3])
        // Two offline merges into each other: both count as the same one, whichever it is
        // asked about and in whatever order the merges were listed.
        let loop = PlayerMerges([ids[0]: ids[1], ids[1]: ids[0], ids[3]: ids[0]])
        let smallest = [ids[0], ids[1]].min { $0.precedes($1) }!
        #expect(loop.canonical(ids[0]) == smallest)
        #expect(loop.canonical(ids[1]) == smallest)
        #expect(loop.canonical(ids[3]) == smallest)
    }

    @Test func actionsAndAuthoritiesKeepValuesTheyDoNotKnow() throws {
        let json = #"{"kind":"somethingNew","at":1800000000,"deviceID":"k","authority":"aBadge"}"#
        let action = try JSONDecoder().decode(RecordedAction.self, from: Data(json.utf8))
        #expect(action.kind.rawValue == "somethingNew")
        #expect(action.authority.rawValue == "aBadge")
        let again = try JSONDecoder().decode(RecordedAction.self, from: JSONEncoder().encode(action))
        #expect(again == action)
        #expect(Authority.organizerCode.description == "with the organizer code")
    }
}
