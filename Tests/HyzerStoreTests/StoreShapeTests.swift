import Foundation
import GRDB
import Testing

@testable import HyzerKit
@testable import HyzerStore

/// The store on in-memory databases, its clock, and its schema's upgrade path.
@Suite struct StoreShapeTests {
    func nine() throws -> Course { try Course(name: "Test Nine", holeCount: 9) }

    @Test func anInMemoryStoreHasTheDeviceSchemaAndItsTriggers() throws {
        let db = try HyzerDatabase.inMemory()
        #expect(db.directory == nil)
        let applied = try db.domain.read { try Schema.domainMigrator.appliedIdentifiers($0) }
        #expect(applied == Set(Schema.domainMigrator.migrations))
        let course = try nine()
        try db.write(.saveCourse(course))
        let player = try Player(displayName: "Nate")
        try db.write(.savePlayer(player))
        var round = try db.write(.createRound(courseID: course.id, organizerID: player.id, participants: [.registered(player)]))
        round = try db.write(.startRound(round.id))
        let recorded = try db.write(
            .recordScore(
                ScoreEntry(
                    roundID: round.id, participantID: player.id, hole: 1, strokes: 3,
                    reportedBy: player.id)))
        #expect(try db.read(.events(round: round.id)).map(\.id) == [recorded.event.id])
        // The same append-only trigger as on a device.
        #expect(throws: DatabaseError.self) { try db.domain.write { try $0.execute(sql: "DELETE FROM score_events") } }
        #expect(try db.domainSizeOnDisk() == 0)
    }

    @Test func theStoreStampsWritesWithItsClock() throws {
        let clock = ManualClock(date: Date(timeIntervalSince1970: 1_800_000_000))
        let db = try HyzerDatabase.inMemory(clock: clock)
        let course = try nine()
        try db.write(.saveCourse(course))
        let player = try Player(displayName: "Nate")
        try db.write(.savePlayer(player))
        let round = try db.write(.createRound(courseID: course.id, organizerID: player.id, participants: [.registered(player)]))
        #expect(round.createdAt == clock.date)
        clock.advance(by: .seconds(60))
        let started = try db.write(.startRound(round.id))
        #expect(started.startedAt == clock.date)
        clock.advance(by: .seconds(5))
        let recorded = try db.write(
            .recordScore(
                ScoreEntry(
                    roundID: round.id, participantID: player.id, hole: 1, strokes: 3,
                    reportedBy: player.id)))
        #expect(recorded.event.createdAt == clock.date)
        // An explicit time still wins (imports, tests that replay a round).
        let explicit = Date(timeIntervalSince1970: 1_700_000_000)
        let corrected = try db.write(
            .recordScore(
                ScoreEntry(
                    roundID: round.id, participantID: player.id, hole: 1, strokes: 4,
                    reportedBy: player.id), at: explicit))
        #expect(corrected.event.createdAt == explicit)
        #expect(try db.domain.read { try Double.fetchOne($0, sql: "SELECT updated_at FROM rounds") } == 1_800_000_060)
    }

    @Test func anInMemoryStoreReportsItsOwnCommitsToTheChangeMonitor() throws {
        let db = try HyzerDatabase.inMemory()
        let monitor = try ChangeMonitor(database: db)
        #expect(try monitor.poll() == false)
        try db.write(.saveCourse(try nine()))
        #expect(try monitor.poll() == true)
        #expect(try monitor.poll() == false)
    }

    @Test func asyncWritesRunTheSameNamedWrites() async throws {
        let db = try HyzerDatabase.inMemory()
        let course = try nine()
        try await db.write(.saveCourse(course))
        #expect(try await db.read(.courses) == [course])
    }

    /// v3 moved score events out of `sync_records`: a device upgraded from v2 keeps
    /// exactly its pending events pending, and what was acknowledged stays acknowledged.
    @Test func upgradingFromV2KeepsWhichEventsArePending() throws {
        let domain = try DatabaseQueue()
        try Schema.domainMigrator.migrate(domain, upTo: "v2 sync records")
        let course = UUID()
        let round = UUID()
        let player = UUID()
        let events = (0..<4).map { _ in UUID() }
        try domain.write { db in
            try db.execute(sql: "INSERT INTO courses (id, name, updated_at) VALUES (?, 'Nine', 1)", arguments: [course])
            for hole in 1...9 {
                try db.execute(sql: "INSERT INTO holes (course_id, number, par) VALUES (?, ?, 3)", arguments: [course, hole])
            }
            try db.execute(
                sql: """
                    INSERT INTO rounds (id, course_id, organizer_id, status, created_at, updated_at)
                    VALUES (?, ?, ?, 'setup', 1, 1)
                    """, arguments: [round, course, player])
            try db.execute(
                sql: """
                    INSERT INTO round_participants (round_id, participant_id, ordinal, name, kind)
                    VALUES (?, ?, 0, 'Nate', 'registered')
                    """, arguments: [round, player])
            try db.execute(sql: "UPDATE rounds SET status = 'active' WHERE id = ?", arguments: [round])
            for (hole, id) in events.enumerated() {
                try db.execute(
                    sql: """
                        INSERT INTO score_events (id, round_id, participant_id, hole, strokes, reported_by, device_id, created_at)
                        VALUES (?, ?, ?, ?, 3, ?, 'old-device', 1)
                        """, arguments: [id, round, player, hole + 1, player])
            }
            // The server acknowledged the first two.
            try db.execute(
                sql: "UPDATE sync_records SET pending = 0 WHERE kind = 'scoreEvent' AND record_id IN (?, ?)",
                arguments: [events[0], events[1]])
        }
        let store = try HyzerDatabase(domain: domain, operational: DatabaseQueue())
        let pending = try store.read(.changeLedger { try $0.pendingChanges(limit: 100) })
        let pendingEvents = pending.compactMap { change -> UUID? in
            if case .scoreEvent(let event, _) = change { return event.id }
            return nil
        }
        #expect(pendingEvents == [events[2], events[3]])
        #expect(try domain.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM sync_records WHERE kind = 'scoreEvent'") } == 0)
        // New events are tracked by the new trigger, and an acknowledgement clears them.
        let recorded = try store.write(
            .recordScore(
                ScoreEntry(
                    roundID: round, participantID: player, hole: 5, strokes: 2,
                    reportedBy: player)))
        try store.write(
            .changeLedger { ledger in
                try ledger.acknowledge([ChangeKey(kind: .scoreEvent, id: events[2], version: events[2])])
            })
        let after = try store.read(.changeLedger { try $0.pendingChanges(limit: 100) }).compactMap { change -> UUID? in
            if case .scoreEvent(let event, _) = change { return event.id }
            return nil
        }
        #expect(after == [events[3], recorded.event.id])
    }
}
