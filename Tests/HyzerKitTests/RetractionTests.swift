import Foundation
import Testing

@testable import HyzerKit

/// Issue 35's "Undo" toast in the domain: a retraction withdraws the events it names, and
/// the cell resolves as if they had never been said. A device older than retractions
/// reads one as an ordinary statement of its `strokes`.
@Suite struct RetractionTests {
    let f: Fixture
    init() throws { f = try Fixture() }

    func retraction(of saved: ScoreEvent, strokes: Int? = nil, device: String = "A") -> ScoreEvent {
        ScoreEvent(
            roundID: saved.roundID, participantID: saved.participantID, hole: saved.hole,
            strokes: strokes ?? saved.strokes, supersedes: [saved.id], reportedBy: saved.reportedBy, deviceID: device,
            createdAt: saved.createdAt.addingTimeInterval(2), retraction: true)
    }

    /// What a device older than protocol 2 makes of the same events: the field is not in
    /// its type, so decoding drops it.
    func asOlderDevice(_ events: [ScoreEvent]) -> [ScoreEvent] {
        events.map {
            var copy = $0
            copy.retraction = nil
            return copy
        }
    }

    func cell(_ events: [ScoreEvent], _ participant: Int = 0, hole: Int = 1) -> CellResolution {
        f.scorecard(events).resolution(participant: f.ids[participant], hole: hole)
    }

    @Test func aRetractedFirstScoreLeavesTheCellEmpty() {
        let saved = f.event(0, hole: 1, 4)
        let undo = retraction(of: saved)
        // In either order of arrival.
        for events in [[saved, undo], [undo, saved], [undo]] {
            let resolved = cell(events)
            #expect(resolved.value == nil)
            #expect(resolved.leaves.isEmpty)
            #expect(resolved.discrepancy == nil)
            #expect(resolved.supersedable == [undo.id])
        }
        #expect(f.scorecard([saved, undo]).holesScored(by: f.ids[0]) == 0)
        #expect(!f.scorecard([saved, undo]).isHoleComplete(1))
        // Control: without the retraction the score counts.
        #expect(cell([saved]).value == 4)
        // An older device shows the withdrawn value: the retraction carries it.
        #expect(cell(asOlderDevice([saved, undo])).value == 4)
        #expect(cell(asOlderDevice([saved, undo])).discrepancy == nil)
    }

    @Test func aRetractedChangeBringsBackTheScoreItReplacedWithItsAttribution() {
        let phone = f.event(0, hole: 1, 3, device: "phone")
        // The kiosk changes the phone's 3 to 5 by mistake: an override the group would check.
        let wrong = f.event(0, hole: 1, 5, device: "kiosk", supersedes: [phone])
        #expect(cell([phone, wrong]).discrepancy?.kinds == [.crossDeviceOverride])
        let undo = retraction(of: wrong, strokes: 3, device: "kiosk")
        let resolved = cell([phone, wrong, undo])
        #expect(resolved.value == 3)
        #expect(resolved.leaves == [phone])
        #expect(resolved.discrepancy == nil)
        // The older device: the retraction's strokes are the value after the undo.
        let older = cell(asOlderDevice([phone, wrong, undo]))
        #expect(older.value == 3)
        #expect(older.discrepancy == nil)
    }

    @Test func aScoreAfterARetractionSupersedesItOnEveryDevice() {
        let saved = f.event(0, hole: 1, 4)
        let undo = retraction(of: saved)
        let right = ScoreEvent(
            roundID: f.round.id, participantID: f.ids[0], hole: 1, strokes: 2,
            supersedes: cell([saved, undo]).supersedable, reportedBy: f.ids[0], deviceID: "A",
            createdAt: saved.createdAt.addingTimeInterval(5))
        for events in [[saved, undo, right], asOlderDevice([saved, undo, right])] {
            let resolved = cell(events)
            #expect(resolved.value == 2)
            #expect(resolved.discrepancy == nil)
        }
        // Control: a score that superseded only the (empty) leaves would leave the older
        // device two statements that disagree.
        var careless = right
        careless.supersedes = []
        #expect(cell(asOlderDevice([saved, undo, careless])).discrepancy?.kinds == [.disagreeingLeaves])
    }

    @Test func aRetractionLeavesAnotherDevicesScoreInTheCell() {
        // The kiosk saved 4 while a phone, not yet synced, said 3: two leaves in dispute.
        let kiosk = f.event(0, hole: 1, 4, device: "kiosk")
        let phone = f.event(0, hole: 1, 3, device: "phone")
        #expect(cell([kiosk, phone]).discrepancy != nil)
        // Undoing the kiosk's withdraws only its own statement: the phone's counts, undisputed.
        let resolved = cell([kiosk, phone, retraction(of: kiosk, device: "kiosk")])
        #expect(resolved.value == 3)
        #expect(resolved.discrepancy == nil)
    }

    @Test func aRetractionOfTheWrongShapeIsRefused() throws {
        let saved = f.event(0, hole: 1, 4)
        var empty = retraction(of: saved)
        empty.supersedes = []
        #expect(throws: ScoringError.retractionWithoutTargets) { try empty.validate(in: f.round, course: f.course) }
        var resolving = retraction(of: saved)
        resolving.isResolution = true
        #expect(throws: ScoringError.retractionNotAStatement) { try resolving.validate(in: f.round, course: f.course) }
        var correcting = retraction(of: saved)
        correcting.correction = .organizerCode
        #expect(throws: ScoringError.retractionNotAStatement) { try correcting.validate(in: f.round, course: f.course) }
        #expect(ScoringError.retractionWithoutTargets.description.contains("name the events it withdraws"))
        // A retraction in another cell than its target's is refused as any supersession is.
        let elsewhere = ScoreEvent(
            roundID: f.round.id, participantID: f.ids[1], hole: 1, strokes: 4, supersedes: [saved.id],
            reportedBy: f.ids[0], deviceID: "A", createdAt: saved.createdAt, retraction: true)
        #expect(throws: ScoringError.supersedesOtherCell(saved.id)) {
            try elsewhere.validate(in: f.round, course: f.course, known: [saved.id: saved])
        }
        // Control: the right shape passes.
        try retraction(of: saved).validate(in: f.round, course: f.course, known: [saved.id: saved])
    }

    @Test func onlyARetractionSaysSoOnTheWire() throws {
        let saved = f.event(0, hole: 1, 4)
        let encoder = JSONEncoder()
        let plain = String(decoding: try encoder.encode(saved), as: UTF8.self)
        let undo = String(decoding: try encoder.encode(retraction(of: saved)), as: UTF8.self)
        #expect(!plain.contains("retraction"))
        #expect(undo.contains("\"retraction\":true"))
        let decoded = try JSONDecoder().decode(ScoreEvent.self, from: Data(undo.utf8))
        #expect(decoded.isRetraction)
    }

    @Test func aRoundWhoseOnlyScoreWasUndoneHasNoScores() {
        let saved = f.event(0, hole: 1, 4)
        let undone = RoundSnapshot(round: f.round, course: f.course, events: [saved, retraction(of: saved)])
        #expect(!undone.hasScores)
        #expect(RoundSnapshot(round: f.round, course: f.course, events: [saved]).hasScores)
        #expect(!RoundSnapshot(round: f.round, course: f.course, events: []).hasScores)
    }
}
