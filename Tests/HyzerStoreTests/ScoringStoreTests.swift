import Foundation
import GRDB
import Testing

@testable import HyzerKit
@testable import HyzerStore

@Suite struct ScoringStoreTests {
    @Test func correctionSupersedesTheCurrentValue() throws {
        let s = try TempStore()
        let round = try s.activeRound()
        let first = try s.score(round, 0, hole: 1, 5)
        let second = try s.score(round, 0, hole: 1, 3)
        #expect(second.event.supersedes == [first.event.id])
        #expect(second.cell.value == 3)
        #expect(second.cell.discrepancy == nil)
        #expect(try s.eventCount() == 2)  // both kept: the audit trail (FR62)
    }

    @Test func badScoresAreRejectedAndNothingIsStored() throws {
        let s = try TempStore()
        let round = try s.activeRound()
        let p = round.participants[0].id
        #expect(throws: StoreError.scoring(.strokesOutOfRange(11))) { _ = try s.score(round, 0, hole: 1, 11) }
        #expect(throws: StoreError.scoring(.unknownHole(10, holeCount: 9))) { _ = try s.score(round, 0, hole: 10, 3) }
        let stranger = UUID()
        #expect(throws: StoreError.scoring(.unknownParticipant(stranger))) {
            try s.db.write(
                .recordScore(ScoreEntry(roundID: round.id, participantID: stranger, hole: 1, strokes: 3, reportedBy: p)))
        }
        let missing = UUID()
        #expect(throws: StoreError.notFound("round \(missing)")) {
            try s.db.write(.recordScore(ScoreEntry(roundID: missing, participantID: p, hole: 1, strokes: 3, reportedBy: p)))
        }
        #expect(try s.eventCount() == 0)
    }

    @Test func completionMovesTheRoundToAwaitingFinalizationThenFinishCompletesIt() throws {
        let s = try TempStore()
        let round = try s.activeRound(["A", "B"])
        var last: RecordedScore?
        for hole in 1...9 {
            for p in 0..<2 where !(hole == 9 && p == 1) { last = try s.score(round, p, hole: hole, 3) }
        }
        #expect(last?.roundStatus == .active)
        last = try s.score(round, 1, hole: 9, 4)
        #expect(last?.roundStatus == .awaitingFinalization)
        #expect(try s.db.read(.round(id: round.id))?.status == .awaitingFinalization)
        // Corrections are still allowed before finalizing, and do not move it back.
        #expect(try s.score(round, 1, hole: 9, 3).roundStatus == .awaitingFinalization)
        let done = try s.db.write(.finishRound(round.id))
        #expect(done.status == .completed)
        #expect(throws: StoreError.scoring(.roundCompleted)) { _ = try s.score(round, 0, hole: 1, 2) }
        #expect(try s.db.read(.history()).map(\.id) == [round.id])
        let standings = try s.db.read(.snapshot(round: round.id)).standings
        #expect(standings.rows.map(\.status) == [.finished, .finished])
    }

    @Test func manualFinishWithHolesMissingGivesDNF() throws {
        let s = try TempStore()
        let round = try s.activeRound(["A", "B"])
        for hole in 1...9 { _ = try s.score(round, 0, hole: hole, 3) }
        _ = try s.score(round, 1, hole: 1, 2)
        _ = try s.db.write(.finishRound(round.id))
        let rows = try s.db.read(.snapshot(round: round.id)).standings.rows
        #expect(rows.map(\.name) == ["A", "B"])
        #expect(rows[1].status == .dnf && rows[1].position == nil)
    }

    @Test func importedEventsAreIdempotentAndValidated() throws {
        let s = try TempStore()
        let round = try s.activeRound()
        let p = round.participants[1].id
        let good = ScoreEvent(
            roundID: round.id, participantID: p, hole: 2, strokes: 4, reportedBy: p, deviceID: "phone",
            createdAt: s.phoneClock.date)
        let bad = ScoreEvent(
            roundID: round.id, participantID: p, hole: 2, strokes: 12, reportedBy: p, deviceID: "phone",
            createdAt: s.phoneClock.date)
        let orphan = ScoreEvent(
            roundID: UUID(), participantID: p, hole: 2, strokes: 4, reportedBy: p, deviceID: "phone", createdAt: s.phoneClock.date
        )
        let first = try s.db.write(.importEvents([good, bad, orphan]))
        #expect(first.inserted == [good.id])
        #expect(first.rejected[bad.id] == "strokes must be between 1 and 10, not 12")
        #expect(first.rejected[orphan.id]?.hasPrefix("unknown round") == true)
        let again = try s.db.write(.importEvents([good]))
        #expect(again.inserted.isEmpty && again.duplicates == [good.id])
        #expect(try s.eventCount() == 1)
    }

    @Test func discrepancyFromAnotherDeviceThenResolution() throws {
        let s = try TempStore()
        let round = try s.activeRound()
        let p = round.participants[1].id
        _ = try s.score(round, 1, hole: 3, 3)
        let phone = ScoreEvent(
            roundID: round.id, participantID: p, hole: 3, strokes: 4, reportedBy: p, deviceID: "phone",
            createdAt: s.phoneClock.date)
        _ = try s.db.write(.importEvents([phone]))
        let disputed = try s.db.read(.snapshot(round: round.id)).scorecard
        #expect(disputed.discrepancies.map(\.values) == [[3, 4]])
        let entry = ScoreEntry(roundID: round.id, participantID: p, hole: 3, strokes: 4, reportedBy: round.organizerID)
        let resolved = try s.db.write(.resolveDiscrepancy(entry))
        #expect(resolved.event.isResolution)
        #expect(Set(resolved.event.supersedes).count == 2)
        #expect(resolved.cell.discrepancy == nil && resolved.cell.value == 4)
        #expect(try s.db.read(.snapshot(round: round.id)).scorecard.discrepancies.isEmpty)
        #expect(throws: StoreError.noDiscrepancy(participant: p, hole: 3)) { try s.db.write(.resolveDiscrepancy(entry)) }
    }

    @Test func kioskCorrectionOfAPhoneScoreRaisesAnOverrideDiscrepancy() throws {
        let s = try TempStore()
        let round = try s.activeRound()
        let p = round.participants[0].id
        _ = try s.db.write(
            .importEvents([
                ScoreEvent(
                    roundID: round.id, participantID: p, hole: 1, strokes: 3, reportedBy: p, deviceID: "phone",
                    createdAt: s.phoneClock.date)
            ]))
        let override = try s.score(round, 0, hole: 1, 5)
        #expect(override.cell.value == 5)
        #expect(override.cell.discrepancy?.kinds == [.crossDeviceOverride])
    }

    @Test func changesFromAnotherConnectionAreNoticed() throws {
        let s = try TempStore()
        let round = try s.activeRound()
        let monitor = try ChangeMonitor(database: s.db)
        #expect(try monitor.poll() == false)
        // A second, independent opening of the same files stands in for `hyzer demo`.
        let other = try HyzerDatabase(directory: s.dir)
        _ = try other.write(
            .recordScore(
                ScoreEntry(
                    roundID: round.id, participantID: round.participants[0].id, hole: 1,
                    strokes: 3, reportedBy: round.participants[0].id)))
        #expect(try monitor.poll() == true)
        #expect(try monitor.poll() == false)
        _ = try s.score(round, 1, hole: 1, 3)
        #expect(try monitor.poll() == true)
    }

    @Test func demoRoundIsActiveWithCorrections() throws {
        let s = try TempStore()
        try s.db.write(.seedCourses(from: TempStore.seedFile))
        let round = try s.db.createDemoRound(players: 6, holesPlayed: 7)
        let snap = try s.db.read(.snapshot(round: round.id))
        #expect(round.status == .active)
        #expect(snap.standings.rows.allSatisfy { $0.thru == 7 })
        #expect(snap.events.count > 42)
        #expect(snap.events.contains { !$0.supersedes.isEmpty })
        #expect(snap.currentHole == 8)
        // Running it again reuses the registered players instead of duplicating them.
        _ = try s.db.createDemoRound(players: 6, holesPlayed: 1)
        #expect(try s.db.read(.players).count == 6)
    }

    @Test func observationDeliversANewSnapshotAfterACommit() async throws {
        let s = try TempStore()
        let round = try s.activeRound()
        var iterator = s.db.observe(round: round.id).makeAsyncIterator()
        let initial = try await iterator.next()
        #expect(initial?.events.isEmpty == true)
        _ = try s.score(round, 0, hole: 1, 3)
        let next = try await iterator.next()
        #expect(next?.events.count == 1)
    }
}
