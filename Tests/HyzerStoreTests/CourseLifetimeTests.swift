import Foundation
import GRDB
import Testing

@testable import HyzerKit
@testable import HyzerStore

/// Issue 14: rounds keep the pars they started with, courses are deleted as tombstones,
/// and a course may have any hole count from 1 to 36 with pars 2–7.
@Suite struct CourseLifetimeTests {
    /// A course's to-par after its pars change: the started round keeps the old ones.
    @Test func editingParsNeverChangesAStartedRound() throws {
        let s = try TempStore()
        let round = try s.activeRound()  // par 3 everywhere
        for hole in 1...9 { _ = try s.score(round, 0, hole: hole, 4) }
        let before = try s.db.read(.snapshot(round: round.id))
        #expect(before.standings.rows.first { $0.participantID == round.participants[0].id }?.toPar == 9)

        let course = try #require(try s.db.read(.course(id: round.courseID)))
        try s.db.write(.saveCourse(try Course(id: course.id, name: course.name, holeCount: 9, defaultPar: 4)))
        let after = try s.db.read(.snapshot(round: round.id))
        #expect(after.course.pars == Array(repeating: 3, count: 9))
        #expect(after.standings.rows.first { $0.participantID == round.participants[0].id }?.toPar == 9)
        #expect(try s.db.read(.course(id: course.id))?.pars == Array(repeating: 4, count: 9))
    }

    /// The pars are the course's when the round starts, not when it was set up.
    @Test func aRoundTakesTheParsItStartsWith() throws {
        let s = try TempStore()
        let course = try Course(name: "Willow", holeCount: 9)
        try s.db.write(.saveCourse(course))
        let player = try Player(displayName: "Nate")
        try s.db.write(.savePlayer(player))
        let round = try s.db.write(.createRound(courseID: course.id, organizerID: player.id, participants: [.registered(player)]))
        #expect(round.pars == course.pars)
        try s.db.write(.saveCourse(try Course(id: course.id, name: "Willow", holeCount: 9, exceptions: [9: 5])))
        let started = try s.db.write(.startRound(round.id))
        #expect(started.pars.last == 5)
        try s.db.write(.saveCourse(try Course(id: course.id, name: "Willow", holeCount: 9, exceptions: [9: 7])))
        #expect(try s.db.read(.snapshot(round: round.id)).course.pars.last == 5)
    }

    @Test func aDeletedCourseLeavesTheListsButItsRoundsStay() throws {
        let s = try TempStore()
        let round = try s.activeRound()
        _ = try s.score(round, 0, hole: 1, 2)
        let courseName = try #require(try s.db.read(.course(id: round.courseID))).name
        #expect(try s.db.read(.courseUsage(id: round.courseID)) == CourseUsage(rounds: 1, unfinished: 1))

        try s.db.write(.deleteCourse(id: round.courseID))
        #expect(try s.db.read(.courses).isEmpty)
        #expect(try s.db.read(.course(id: round.courseID)) == nil)
        // The round goes on, on its own pars, under the course's name.
        _ = try s.score(round, 1, hole: 2, 3)
        let snapshot = try s.db.read(.snapshot(round: round.id))
        #expect(snapshot.course.name == courseName)
        #expect(snapshot.course.holeCount == 9)
        _ = try s.db.write(.finishRound(round.id))
        #expect(try s.db.read(.historyPage()).lines.map(\.courseName) == [courseName])

        // What a screen that still showed the course may try: each a clear refusal.
        let player = round.participants[0]
        #expect(throws: StoreError.courseDeleted(courseName)) {
            try s.db.write(.createRound(courseID: round.courseID, organizerID: player.id, participants: [player]))
        }
        let revived = try Course(id: round.courseID, name: courseName, holeCount: 9)
        #expect(throws: StoreError.courseDeleted(courseName)) { try s.db.write(.saveCourse(revived)) }
        #expect(throws: StoreError.courseDeleted(courseName)) { try s.db.write(.deleteCourse(id: round.courseID)) }
    }

    /// Negative control for the refusals above: the same calls succeed on a course in use.
    @Test func aCourseInUseCanBePickedEditedAndDeleted() throws {
        let s = try TempStore()
        let round = try s.activeRound()
        let course = try #require(try s.db.read(.course(id: round.courseID)))
        let player = round.participants[0]
        _ = try s.db.write(.createRound(courseID: course.id, organizerID: player.id, participants: [player]))
        try s.db.write(.saveCourse(try Course(id: course.id, name: "Renamed", holeCount: 9)))
        try s.db.write(.deleteCourse(id: course.id))
    }

    @Test func thirtySixHolesAndParSeven() throws {
        let s = try TempStore()
        let course = try Course(name: "Double Loop", holeCount: 36, exceptions: [36: 7])
        try s.db.write(.saveCourse(course))
        let player = try Player(displayName: "Nate")
        try s.db.write(.savePlayer(player))
        let created = try s.db.write(
            .createRound(courseID: course.id, organizerID: player.id, participants: [.registered(player)]))
        let round = try s.db.write(.startRound(created.id))
        let recorded = try s.db.write(
            .recordScore(
                ScoreEntry(roundID: round.id, participantID: player.id, hole: 36, strokes: 7, reportedBy: player.id)))
        #expect(recorded.cell.value == 7)
        #expect(try s.db.read(.snapshot(round: round.id)).course.par(of: 36) == 7)
        #expect(throws: CourseError.invalidHoleCount(37)) { try Course(name: "x", holeCount: 37) }
        #expect(throws: CourseError.invalidPar(hole: 1, par: 8)) { try Course(name: "x", pars: [8]) }
        #expect(throws: CourseError.invalidHoleCount(0)) { try Course(name: "x", pars: []) }
    }
}

/// The v5 migration on a store written by the shipped v4 code: every round gets its
/// course's pars, nothing is pushed again because of it, and the event log and its
/// guarantees are intact after the table is rebuilt.
@Suite struct CourseMigrationTests {
    static let v4 = "v4 scored rounds and history index"

    @Test func v4StoreMigratesWithItsRoundsParsAndEvents() throws {
        let queue = try DatabaseQueue()
        try Schema.domainMigrator.migrate(queue, upTo: Self.v4)
        let course = UUID()
        let round = UUID()
        let player = UUID()
        try queue.write { db in
            try db.execute(
                sql: """
                    INSERT INTO courses (id, name, updated_at) VALUES (?, 'Old Park', 1);
                    INSERT INTO holes (course_id, number, par) VALUES (?, 1, 3), (?, 2, 4), (?, 3, 5);
                    INSERT INTO rounds (id, course_id, organizer_id, status, created_at, updated_at)
                        VALUES (?, ?, ?, 'setup', 1, 1);
                    INSERT INTO round_participants (round_id, participant_id, ordinal, name, kind)
                        VALUES (?, ?, 0, 'Nate', 'registered');
                    UPDATE rounds SET status = 'active';
                    """,
                arguments: [course, course, course, course, round, course, player, round, player])
            for hole in 1...3 {
                try db.execute(
                    sql: """
                        INSERT INTO score_events (id, round_id, participant_id, hole, strokes, reported_by, device_id, created_at)
                        VALUES (?, ?, ?, ?, 3, ?, 'kiosk', 2)
                        """,
                    arguments: [UUID(), round, player, hole, player])
            }
            // The server has the round and one event.
            try db.execute(sql: "UPDATE sync_records SET pending = 0 WHERE kind = 'round'")
            try db.execute(sql: "DELETE FROM sync_pending_events WHERE event_seq = 1")
        }
        let versionBefore = try queue.read { db in
            try Data.fetchOne(db, sql: "SELECT version FROM sync_records WHERE kind = 'round'")
        }

        try Schema.domainMigrator.migrate(queue)
        try queue.write { db in
            let row = try #require(try RoundRow.fetchOne(db, key: round))
            #expect(Rows.parsList(row.pars) == [3, 4, 5])
            let tracked = try Row.fetchOne(db, sql: "SELECT version, pending FROM sync_records WHERE kind = 'round'")
            #expect(tracked?["version"] == versionBefore)
            #expect(tracked?["pending"] == 0)
            #expect(try Int64.fetchAll(db, sql: "SELECT event_seq FROM sync_pending_events") == [2, 3])
            // The rebuilt event table continues the sequence and keeps its guarantees.
            try db.execute(
                sql: """
                    INSERT INTO score_events (id, round_id, participant_id, hole, strokes, reported_by, device_id, created_at)
                    VALUES (?, ?, ?, 3, 4, ?, 'kiosk', 3)
                    """,
                arguments: [UUID(), round, player, player])
            #expect(db.lastInsertedRowID == 4)
            #expect(try Int64.fetchAll(db, sql: "SELECT event_seq FROM sync_pending_events") == [2, 3, 4])
            #expect(throws: DatabaseError.self) { try db.execute(sql: "UPDATE score_events SET strokes = 9") }
            #expect(throws: DatabaseError.self) { try db.execute(sql: "DELETE FROM score_events") }
            try db.execute(sql: "UPDATE sync_records SET pending = 0 WHERE kind = 'course'")
            // Holes past 18 and par 7 are now allowed, past 36 and 8 still refused.
            try db.execute(sql: "INSERT INTO holes (course_id, number, par) VALUES (?, 36, 7)", arguments: [course])
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO holes (course_id, number, par) VALUES (?, 37, 3)", arguments: [course])
            }
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO holes (course_id, number, par) VALUES (?, 30, 8)", arguments: [course])
            }
            // A hole change is still a new version of the course to push.
            #expect(try Int.fetchOne(db, sql: "SELECT pending FROM sync_records WHERE kind = 'course'") == 1)
        }
    }
}
