import Foundation
import GRDB
import HyzerTestSupport
import Testing

@testable import HyzerKit
@testable import HyzerStore

/// Issue 35's "Undo" toast in the store: `retractScore` withdraws the score this device
/// just saved by appending a retraction, never by changing or deleting the score.
@Suite struct RetractionStoreTests {
    func entry(_ round: Round, _ p: Int, hole: Int, _ strokes: Int) -> ScoreEntry {
        ScoreEntry(
            roundID: round.id, participantID: round.participants[p].id, hole: hole, strokes: strokes,
            reportedBy: round.participants[0].id)
    }

    func value(_ s: TempStore, _ round: Round, _ p: Int, hole: Int) throws -> Int? {
        try s.db.read(.snapshot(round: round.id)).scorecard.value(participant: round.participants[p].id, hole: hole)
    }

    @Test func anUndoneFirstScoreLeavesTheCellEmptyAndTheRoundUnfinished() throws {
        let s = try TempStore()
        let round = try s.activeRound()
        _ = try s.score(round, 1, hole: 1, 4)
        let undone = try s.db.write(.retractScore(entry(round, 1, hole: 1, 4)))
        #expect(undone.event.isRetraction)
        #expect(undone.event.strokes == 4)
        #expect(undone.cell.value == nil)
        #expect(try value(s, round, 1, hole: 1) == nil)
        #expect(try s.eventCount() == 2)
        // Every other cell filled: one is still empty, so the round is not "all scored".
        for hole in 1...9 { _ = try s.score(round, 0, hole: hole, 3) }
        for hole in 2...9 { _ = try s.score(round, 1, hole: hole, 3) }
        #expect(try s.db.read(.round(id: round.id))?.status == .active)
        // The right score fills it; it supersedes the retraction too.
        let right = try s.score(round, 1, hole: 1, 5)
        #expect(right.event.supersedes == [undone.event.id])
        #expect(right.roundStatus == .awaitingFinalization)
        #expect(try value(s, round, 1, hole: 1) == 5)
        // The retraction is pending for the server like any score.
        let pending = try s.db.domain.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sync_pending_events") }
        #expect(try pending == s.eventCount())
    }

    @Test func anUndoneChangeBringsBackThePreviousScore() throws {
        let s = try TempStore()
        let round = try s.activeRound()
        _ = try s.score(round, 0, hole: 2, 3)
        _ = try s.score(round, 0, hole: 2, 6)
        let undone = try s.db.write(.retractScore(entry(round, 0, hole: 2, 6)))
        #expect(undone.cell.value == 3)
        // An older device reads the retraction as a statement of the value after the undo.
        #expect(undone.event.strokes == 3)
        #expect(try value(s, round, 0, hole: 2) == 3)
    }

    @Test func aScoreChangedSinceOrNeverSavedHereIsNotUndone() throws {
        let s = try TempStore()
        let round = try s.activeRound()
        _ = try s.score(round, 0, hole: 1, 4)
        // Another device changed it since the save.
        let mine = try s.db.read(.events(round: round.id))[0]
        let phone = ScoreEvent(
            roundID: round.id, participantID: round.participants[0].id, hole: 1, strokes: 2, supersedes: [mine.id],
            reportedBy: round.participants[0].id, deviceID: "phone", createdAt: s.phoneClock.date)
        _ = try s.db.write(.importEvents([phone]))
        #expect(throws: StoreError.refused("that score was changed since: enter the right one instead")) {
            try s.db.write(.retractScore(entry(round, 0, hole: 1, 4)))
        }
        // Not this value, and not this cell: nothing to undo either.
        _ = try s.score(round, 1, hole: 1, 4)
        #expect(throws: StoreError.self) { try s.db.write(.retractScore(entry(round, 1, hole: 1, 5))) }
        #expect(throws: StoreError.self) { try s.db.write(.retractScore(entry(round, 1, hole: 2, 4))) }
        #expect(try value(s, round, 0, hole: 1) == 2)
        #expect(try s.db.read(.events(round: round.id)).filter(\.isRetraction).isEmpty)
        // Control: the score saved here and still current is undone.
        _ = try s.db.write(.retractScore(entry(round, 1, hole: 1, 4)))
        #expect(try value(s, round, 1, hole: 1) == nil)
    }

    @Test func aRoundWithEveryScoreInDoesNotGoBackToEmptyCells() throws {
        let s = try TempStore()
        let round = try s.activeRound(["Nate"])
        for hole in 1...8 { _ = try s.score(round, 0, hole: hole, 3) }
        let last = try s.score(round, 0, hole: 9, 3)
        #expect(last.roundStatus == .awaitingFinalization)
        #expect(throws: StoreError.refused("every score of the round is in: enter the right one instead")) {
            try s.db.write(.retractScore(entry(round, 0, hole: 9, 3)))
        }
        // A change there can still be undone: the cell keeps a value.
        _ = try s.score(round, 0, hole: 9, 5)
        let undone = try s.db.write(.retractScore(entry(round, 0, hole: 9, 5)))
        #expect(undone.cell.value == 3)
        #expect(undone.roundStatus == .awaitingFinalization)
    }

    @Test func aRoundWhoseScoresWereAllUndoneCanBeDiscarded() throws {
        let s = try TempStore()
        let round = try s.activeRound()
        _ = try s.score(round, 0, hole: 1, 4)
        #expect(throws: StoreError.roundHasScores(round.id)) { try s.db.write(.discardRound(round.id)) }
        _ = try s.db.write(.retractScore(entry(round, 0, hole: 1, 4)))
        let discarded = try s.db.write(.discardRound(round.id))
        #expect(discarded.status == .completed)
    }

    /// The log stays append-only with retractions in it, and a retraction of the wrong
    /// shape is refused by the schema too. Negative control: with the shape trigger
    /// dropped, the same insert goes in.
    @Test func retractionsKeepTheLogAppendOnlyAndTheirShape() throws {
        let s = try TempStore()
        let round = try s.activeRound()
        _ = try s.score(round, 0, hole: 1, 4)
        _ = try s.db.write(.retractScore(entry(round, 0, hole: 1, 4)))
        for sql in [
            "UPDATE score_events SET retraction = 0 WHERE retraction = 1", "DELETE FROM score_events WHERE retraction = 1",
        ] {
            let error = #expect(throws: DatabaseError.self) { try s.db.domain.write { try $0.execute(sql: sql) } }
            #expect(error?.message?.contains("append-only") == true, "\(sql)")
        }
        let insert = """
            INSERT INTO score_events (id, round_id, participant_id, hole, strokes, supersedes, reported_by, device_id,
                created_at, retraction)
            VALUES (?, ?, ?, 2, 3, ?, ?, 'raw', 1, 1)
            """
        let arguments: StatementArguments = [UUID(), round.id, round.participants[0].id, Data(), UUID()]
        let refused = #expect(throws: DatabaseError.self) {
            try s.db.domain.write { try $0.execute(sql: insert, arguments: arguments) }
        }
        #expect(refused?.message?.contains("a retraction names what it withdraws") == true)
        try s.db.domain.write { db in
            try db.execute(sql: "DROP TRIGGER score_events_retraction_shape")
            try db.execute(sql: insert, arguments: arguments)
        }
        #expect(try s.eventCount() == 3)
    }

    /// v7 → v8 adds a column with a default: a stored event reads as before, not a
    /// retraction, and nothing becomes pending.
    @Test func migratingAV7StoreChangesNoEvent() throws {
        let queue = try DatabaseQueue()
        try Schema.domainMigrator.migrate(queue, upTo: "v7 undo: generations, removals, corrections and who did them")
        let (course, round, player, event) = (UUID(), UUID(), UUID(), UUID())
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO courses (id, name, updated_at) VALUES (?, 'Old Park', 1);
                    INSERT INTO holes (course_id, number, par) VALUES (?, 1, 3);
                    INSERT INTO players (id, display_name, updated_at) VALUES (?, 'Nate', 1);
                    INSERT INTO rounds (id, course_id, organizer_id, status, created_at, updated_at, pars)
                        VALUES (?, ?, ?, 'setup', 1, 1, '3');
                    INSERT INTO round_participants (round_id, participant_id, ordinal, name, kind)
                        VALUES (?, ?, 0, 'Nate', 'registered');
                    UPDATE rounds SET status = 'active', started_at = 2;
                    INSERT INTO score_events (id, round_id, participant_id, hole, strokes, reported_by, device_id, created_at)
                        VALUES (?, ?, ?, 1, 4, ?, 'kiosk', 3);
                    UPDATE sync_records SET pending = 0;
                    DELETE FROM sync_pending_events;
                    """,
                arguments: [course, course, player, round, course, player, round, player, event, round, player, player])
        }
        try Schema.domainMigrator.migrate(queue)
        let (events, pending) = try queue.read { db in
            (
                try Rows.events(round: round, db),
                try Int.fetchOne(
                    db,
                    sql:
                        "SELECT (SELECT count(*) FROM sync_records WHERE pending = 1) + (SELECT count(*) FROM sync_pending_events)"
                )
            )
        }
        #expect(events.map(\.id) == [event])
        #expect(events.first?.isRetraction == false)
        #expect(events.first?.retraction == nil)
        #expect(pending == 0)
    }
}
