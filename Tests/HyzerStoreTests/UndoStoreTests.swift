import Foundation
import GRDB
import HyzerTestSupport
import Testing

@testable import HyzerKit
@testable import HyzerStore

/// Issue 35: undo in the store. Every undo adds a record or a new version of one, says who
/// did it, and leaves the append-only log as it was.
@Suite struct UndoStoreTests {
    static let kiosk = ActionContext(authority: .organizerCode, deviceName: "Clubhouse kiosk")
    static let t0 = Date(timeIntervalSince1970: 1_700_000_000)

    /// A 9-hole round, every hole scored for both players, finished at `t0`.
    func finishedRound(_ s: TempStore) throws -> Round {
        let round = try s.activeRound()
        for hole in 1...9 {
            _ = try s.score(round, 0, hole: hole, 3)
            _ = try s.score(round, 1, hole: hole, 4)
        }
        return try s.db.write(.finishRound(round.id, by: Self.kiosk, at: Self.t0))
    }

    @Test func aReopenedRoundIsPlayedAndFinishedAgainAndSaysWhoReopenedIt() throws {
        let s = try TempStore()
        let round = try finishedRound(s)
        // Every hole was scored: the finish itself needs no saying.
        #expect(round.actions.isEmpty)
        #expect(try s.db.read(.history()).map(\.id) == [round.id])
        let reopened = try s.db.write(.reopenRound(round.id, by: Self.kiosk, at: Self.t0.addingTimeInterval(3600)))
        // Every hole has a value: it waits to be finalized again (FR14).
        #expect(reopened.status == .awaitingFinalization)
        #expect(reopened.generation == 1)
        let action = try #require(reopened.actions.first)
        #expect(action.kind == .reopened)
        #expect(action.deviceID == s.db.deviceID)
        #expect(action.deviceName == "Clubhouse kiosk")
        #expect(action.authority == .organizerCode)
        // Active again: out of history, scored as usual, and back once finished.
        #expect(try s.db.read(.history()).isEmpty)
        #expect(try s.db.read(.activeRounds).map(\.id) == [round.id])
        _ = try s.score(reopened, 1, hole: 9, 3)
        let again = try s.db.write(.finishRound(round.id))
        #expect(again.generation == 1)
        let line = try #require(try s.db.read(.historyPage()).lines.first)
        #expect(line.actions.map(\.kind) == [.reopened])
        #expect(try s.db.read(.snapshot(round: round.id)).standings.rows.map(\.toPar) == [0, 8])
    }

    @Test func aRoundIsNotReopenedPastItsWindowNorWhenItWasDiscarded() throws {
        let s = try TempStore()
        let round = try finishedRound(s)
        #expect(throws: StoreError.round(.reopenWindowPassed(hours: 24))) {
            try s.db.write(.reopenRound(round.id, by: Self.kiosk, at: Self.t0.addingTimeInterval(25 * 3600)))
        }
        #expect(try s.db.read(.round(id: round.id))?.status == .completed)
        let mistake = try s.activeRound(["C"])
        let discarded = try s.db.write(.discardRound(mistake.id, by: Self.kiosk))
        #expect(discarded.actions.map(\.kind) == [.discarded])
        #expect(throws: StoreError.self) { try s.db.write(.reopenRound(mistake.id, by: Self.kiosk)) }
    }

    @Test func finishingEarlyIsSaidAndAFullFinishIsNot() throws {
        let s = try TempStore()
        let round = try s.activeRound()
        _ = try s.score(round, 0, hole: 1, 3)
        let early = try s.db.write(.finishRound(round.id, by: ActionContext(authority: .lockOff)))
        #expect(early.actions.map(\.kind) == [.finishedEarly])
        #expect(early.actions.first?.authority == .lockOff)
    }

    @Test func aCorrectionAfterTheFinishCountsIsMarkedAndOnlyAddsAnEvent() throws {
        let s = try TempStore()
        let round = try finishedRound(s)
        let before = try s.eventCount()
        let entry = ScoreEntry(
            roundID: round.id, participantID: round.participants[1].id, hole: 2, strokes: 2, reportedBy: ScoreEvent.nobody)
        // An ordinary score is still refused after the finish (control).
        #expect(throws: StoreError.scoring(.roundCompleted)) { try s.db.write(.recordScore(entry)) }
        let fixed = try s.db.write(.correctFinishedScore(entry, authority: .organizerCode))
        #expect(fixed.event.correction == .organizerCode)
        #expect(fixed.cell.value == 2)
        #expect(fixed.cell.isCorrected)
        #expect(fixed.roundStatus == .completed)
        #expect(try s.eventCount() == before + 1)
        let snapshot = try s.db.read(.snapshot(round: round.id))
        #expect(snapshot.scorecard.resolution(participant: round.participants[1].id, hole: 2).isCorrected)
        #expect(snapshot.standings.rows.first { $0.name == "Mike" }?.toPar == 7)
        #expect(try s.db.read(.historyPage()).lines.first?.correctedCells == 1)
        // A round still being played is scored as usual, not corrected.
        let playing = try s.activeRound(["D"])
        let playingEntry = ScoreEntry(
            roundID: playing.id, participantID: playing.participants[0].id, hole: 1, strokes: 3, reportedBy: ScoreEvent.nobody)
        #expect(throws: StoreError.self) { try s.db.write(.correctFinishedScore(playingEntry, authority: .organizerCode)) }
    }

    /// The log stays append-only with corrections in it, and the trigger that keeps
    /// ordinary scores out of a finished round still does. Negative control: with the
    /// update trigger dropped, the same UPDATE goes through.
    @Test func appendOnlyAndRoundOpenTriggersStillHold() throws {
        let s = try TempStore()
        let round = try finishedRound(s)
        _ = try s.db.write(
            .correctFinishedScore(
                ScoreEntry(
                    roundID: round.id, participantID: round.participants[0].id, hole: 1, strokes: 2,
                    reportedBy: ScoreEvent.nobody), authority: .organizerCode))
        for sql in [
            "UPDATE score_events SET strokes = 9", "DELETE FROM score_events",
            "UPDATE score_events SET correction = NULL WHERE correction IS NOT NULL",
            "DELETE FROM score_events WHERE correction IS NOT NULL",
        ] {
            let error = #expect(throws: DatabaseError.self) { try s.db.domain.write { try $0.execute(sql: sql) } }
            #expect(error?.message?.contains("append-only") == true, "\(sql)")
        }
        let insert = """
            INSERT INTO score_events (id, round_id, participant_id, hole, strokes, reported_by, device_id, created_at, correction)
            VALUES (?, ?, ?, 3, 3, ?, 'raw', 1, ?)
            """
        let refused = #expect(throws: DatabaseError.self) {
            try s.db.domain.write {
                try $0.execute(sql: insert, arguments: [UUID(), round.id, round.participants[0].id, UUID(), nil as String?])
            }
        }
        #expect(refused?.message?.contains("only for active rounds") == true)
        try s.db.domain.write {
            try $0.execute(sql: insert, arguments: [UUID(), round.id, round.participants[0].id, UUID(), "organizerCode"])
        }
        try s.db.domain.write { db in
            try db.execute(sql: "DROP TRIGGER score_events_append_only_update")
            try db.execute(sql: "UPDATE score_events SET strokes = 9 WHERE correction IS NOT NULL")
        }
        #expect(try s.db.read(.events(round: round.id)).filter { $0.strokes == 9 }.count == 2)
    }

    @Test func aDeletedCourseIsListedAndRestoredAsItsNextGeneration() throws {
        let s = try TempStore()
        let round = try finishedRound(s)
        let courseID = round.courseID
        try s.db.write(.deleteCourse(id: courseID, by: Self.kiosk))
        let deleted = try #require(try s.db.read(.deletedCourses).first)
        #expect(deleted.id == courseID)
        #expect(deleted.restorable)
        #expect(deleted.deletedBy?.kind == .courseDeleted)
        #expect(try s.db.read(.course(id: courseID)) == nil)
        try s.db.write(.restoreCourse(id: courseID, by: Self.kiosk))
        #expect(try s.db.read(.course(id: courseID))?.name == "Test Nine")
        #expect(try s.db.read(.deletedCourses).isEmpty)
        #expect(
            try s.db.domain.read {
                try Int.fetchOne($0, sql: "SELECT generation FROM courses WHERE id = ?", arguments: [courseID])
            } == 1)
        // Not deleted now: nothing to restore.
        #expect(throws: StoreError.refused("Test Nine is not deleted")) {
            try s.db.write(.restoreCourse(id: courseID, by: Self.kiosk))
        }
        // Deleted again, and a new course took its name: the restore says so.
        try s.db.write(.deleteCourse(id: courseID))
        try s.db.write(.saveCourse(try Course(name: "test nine", holeCount: 9)))
        #expect(throws: StoreError.self) { try s.db.write(.restoreCourse(id: courseID, by: Self.kiosk)) }
    }

    @Test func aRemovedPlayerLeavesTheRosterAndKeepsTheRoundsTheyPlayed() throws {
        let s = try TempStore()
        let round = try finishedRound(s)
        let mike = round.participants[1]
        try s.db.write(.removePlayer(id: mike.id, by: Self.kiosk))
        #expect(try s.db.read(.players).map(\.displayName) == ["Nate"])
        let all = try s.db.read(.allPlayers)
        #expect(all.first { $0.player.id == mike.id }?.retirement?.action?.kind == .playerRemoved)
        #expect(try s.db.read(.historyPage()).lines.first?.players == ["Nate", "Mike"])
        // An edit from a screen that still showed them does not bring them back.
        #expect(throws: StoreError.self) { try s.db.write(.savePlayer(try Player(id: mike.id, displayName: "Mikey"))) }
        #expect(throws: StoreError.self) { try s.db.write(.removePlayer(id: mike.id, by: Self.kiosk)) }
    }

    @Test func mergedPlayersCountAsOneInHistory() throws {
        let s = try TempStore()
        let first = try finishedRound(s)
        let nate = first.participants[0]
        // "Nathan" is Nate entered again in another round.
        let course = try #require(try s.db.read(.courses).first)
        let second = try s.db.startedRound(on: course, names: ["Nathan", "Kim"])
        let nathan = second.participants[0]
        #expect(throws: StoreError.self) {
            try s.db.write(.mergePlayer(id: nate.id, into: first.participants[1].id, by: Self.kiosk))
        }
        try s.db.write(.mergePlayer(id: nathan.id, into: nate.id, by: Self.kiosk))
        _ = try s.db.write(.finishRound(second.id))
        let lines = try s.db.read(.historyPage()).lines
        let ids = Set(lines.flatMap(\.playerIDs))
        #expect(ids.contains(nate.id))
        #expect(!ids.contains(nathan.id))
        #expect(try s.db.read(.players).map(\.displayName).contains("Nathan") == false)
        // Into someone no longer on the roster: refused.
        try s.db.write(.removePlayer(id: second.participants[1].id, by: Self.kiosk))
        #expect(throws: StoreError.self) {
            try s.db.write(.mergePlayer(id: first.participants[1].id, into: second.participants[1].id, by: Self.kiosk))
        }
    }
}

/// v7 on a store written by the v6 code: nothing is pushed again because of it, the
/// cursor goes back to the start once, and the schema is the one captured when v7 shipped.
@Suite struct UndoMigrationTests {
    static let v6 = "v6 score event device names"

    @Test func v6StoreMigratesWithNothingPendingAndItsCursorReset() throws {
        let queue = try DatabaseQueue()
        try Schema.domainMigrator.migrate(queue, upTo: Self.v6)
        let course = UUID()
        let round = UUID()
        let player = UUID()
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
                    UPDATE rounds SET status = 'completed', completed_at = 5;
                    UPDATE sync_records SET pending = 0;
                    INSERT INTO meta (key, value) VALUES ('sync_cursor', '42'), ('sync_stream', 's');
                    """,
                arguments: [course, course, player, round, course, player, round, player])
        }
        try Schema.domainMigrator.migrate(queue)
        let (pending, cursor, generation, actions) = try queue.read { db in
            (
                try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_records WHERE pending = 1"),
                try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'sync_cursor'"),
                try Int.fetchOne(db, sql: "SELECT generation FROM rounds"),
                try String.fetchOne(db, sql: "SELECT actions FROM rounds")
            )
        }
        #expect(pending == 0)
        #expect(cursor == "0")
        #expect(generation == 0)
        #expect(actions == "[]")
        #expect(try SchemaDump.of(queue) == SchemaDump.shipped("domain-v12"))
    }
}
