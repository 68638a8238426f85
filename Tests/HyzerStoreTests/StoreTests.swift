import Foundation
import GRDB
import HyzerTestSupport
import Testing

@testable import HyzerKit
@testable import HyzerStore

/// A fresh data directory per test, removed afterwards.
final class TempStore {
    let dir: URL
    let db: HyzerDatabase
    /// The clock of the other device whose events a test imports.
    let phoneClock = ManualClock()
    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-store-\(UUID().uuidString)")
        db = try HyzerDatabase(directory: dir)
    }
    deinit { try? FileManager.default.removeItem(at: dir) }

    static let seedFile = repositoryRoot.appendingPathComponent("assets/courses.json")

    /// A started round of `names` on a 9-hole par-3 course.
    func activeRound(_ names: [String] = ["Nate", "Mike"]) throws -> Round {
        let course = try Course(name: "Test Nine", holeCount: 9)
        try db.write(.saveCourse(course))
        return try db.startedRound(on: course, names: names)
    }

    func score(_ round: Round, _ p: Int, hole: Int, _ strokes: Int) throws -> RecordedScore {
        try db.write(
            .recordScore(
                ScoreEntry(
                    roundID: round.id, participantID: round.participants[p].id, hole: hole,
                    strokes: strokes, reportedBy: round.participants[0].id)))
    }

    func eventCount() throws -> Int {
        try db.domain.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM score_events") ?? 0 }
    }
}

@Suite struct AppendOnlyTests {
    @Test func rawUpdateAndDeleteOnScoreEventsAbort() throws {
        let s = try TempStore()
        let round = try s.activeRound()
        _ = try s.score(round, 0, hole: 1, 3)
        for sql in [
            "UPDATE score_events SET strokes = 9", "DELETE FROM score_events",
            "UPDATE score_events SET supersedes = x''", "DELETE FROM score_events WHERE hole = 1",
        ] {
            let error = #expect(throws: DatabaseError.self) { try s.db.domain.write { try $0.execute(sql: sql) } }
            #expect(error?.message?.contains("append-only") == true, "\(sql): \(String(describing: error))")
        }
        #expect(try s.eventCount() == 1)
        #expect(try s.db.read(.events(round: round.id)).first?.strokes == 3)
    }

    @Test func rawInsertIntoParticipantsOfAnActiveRoundAborts() throws {
        let s = try TempStore()
        let round = try s.activeRound()
        let error = #expect(throws: DatabaseError.self) {
            try s.db.domain.write { db in
                try db.execute(
                    sql:
                        "INSERT INTO round_participants (round_id, participant_id, ordinal, name, kind) VALUES (?, ?, 9, 'Late', 'guest')",
                    arguments: [round.id, UUID()])
            }
        }
        #expect(error?.message?.contains("locked") == true)
        #expect(throws: DatabaseError.self) {
            try s.db.domain.write { try $0.execute(sql: "DELETE FROM round_participants") }
        }
        #expect(try s.db.read(.round(id: round.id))?.participants.count == 2)
    }

    @Test func namedParticipantWritesAreLockedToo() throws {
        let s = try TempStore()
        let round = try s.activeRound()
        #expect(throws: StoreError.round(.participantsLocked(.active))) {
            _ = try s.db.write(.addParticipant(try Participant.guest(named: "Late"), to: round.id))
        }
    }
}

@Suite struct DurabilityTests {
    @Test func everyConnectionUsesWALWithFullSync() throws {
        let s = try TempStore()
        for pool in [s.db.domain, s.db.operational] {
            #expect(try pool.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
            #expect(try pool.read { try Int.fetchOne($0, sql: "PRAGMA synchronous") } == 2)  // FULL
            #expect(try pool.write { try Int.fetchOne($0, sql: "PRAGMA synchronous") } == 2)
        }
    }

    @Test func aReturnedWriteIsSeenByAnIndependentConnection() throws {
        let s = try TempStore()
        let round = try s.activeRound()
        let recorded = try s.score(round, 1, hole: 1, 4)
        // A separate connection (as after a restart) sees the committed event.
        let reopened = try HyzerDatabase(directory: s.dir)
        #expect(try reopened.read(.events(round: round.id)).map(\.id) == [recorded.event.id])
        #expect(reopened.deviceID == s.db.deviceID)
    }

    @Test func migrationsAreNamedAndAppendOnly() throws {
        let s = try TempStore()
        let applied = try s.db.domain.read { try Schema.domainMigrator.appliedIdentifiers($0) }
        let registered = Schema.domainMigrator.migrations
        #expect(applied == Set(registered))
        // The shipped v1 migrations come first, unchanged; later ones (sync) are appended.
        #expect(Array(registered.prefix(5)) == ["v1 meta", "v1 courses and holes", "v1 players", "v1 rounds", "v1 score events"])
        #expect(registered.contains("v2 sync records"))
    }
}

@Suite struct RecoveryTests {
    func garbage(_ url: URL) throws {
        try Data(repeating: 0x5A, count: 8192).write(to: url)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }

    @Test func damagedOperationalDatabaseIsRecreatedAndDomainKept() throws {
        let s = try TempStore()
        let round = try s.activeRound()
        _ = try s.score(round, 0, hole: 1, 3)
        try garbage(s.dir.appendingPathComponent(HyzerDatabase.operationalFileName))
        let reopened = try HyzerDatabase(directory: s.dir)
        #expect(reopened.recoveries.map(\.store) == [.operational])
        #expect(try reopened.read(.events(round: round.id)).count == 1)
        #expect(try reopened.operational.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM outbox") } == 0)
    }

    @Test func damagedDomainDatabaseIsMovedAsideAndACleanOneStarted() throws {
        let s = try TempStore()
        _ = try s.activeRound()
        let domainURL = s.dir.appendingPathComponent(HyzerDatabase.domainFileName)
        try garbage(domainURL)
        let reopened = try HyzerDatabase(directory: s.dir)
        let recovery = try #require(reopened.recoveries.first)
        #expect(recovery.store == .domain)
        let aside = try #require(recovery.movedTo)
        #expect(aside.contains(".damaged-"))
        // The damaged bytes are kept for rescue, untouched.
        #expect(try Data(contentsOf: URL(fileURLWithPath: aside)) == Data(repeating: 0x5A, count: 8192))
        #expect(try reopened.read(.courses).isEmpty)
        #expect(try reopened.read(.activeRounds).isEmpty)
    }
}

@Suite struct SeedTests {
    @Test func seededCoursesAppearExactlyOnce() throws {
        let s = try TempStore()
        #expect(try s.db.write(.seedCourses(from: TempStore.seedFile)) == 3)
        #expect(try s.db.write(.seedCourses(from: TempStore.seedFile)) == 0)
        let again = try HyzerDatabase.open(dataDirectory: s.dir, assets: TempStore.seedFile.deletingLastPathComponent())
        let courses = try again.read(.courses)
        #expect(courses.count == 3)
        #expect(Set(courses.map(\.holeCount)) == [9, 18])
        #expect(courses.contains { $0.pars.contains(4) && $0.pars.contains(5) })
    }

    @Test func aDeletedSeedCourseDoesNotComeBack() throws {
        let s = try TempStore()
        try s.db.write(.seedCourses(from: TempStore.seedFile))
        let victim = try #require(try s.db.read(.courses).first)
        try s.db.write(.deleteCourse(id: victim.id))
        try s.db.write(.seedCourses(from: TempStore.seedFile))
        #expect(try s.db.read(.courses).count == 2)
    }

    @Test func badSeedFileIsAClearError() throws {
        let s = try TempStore()
        let file = s.dir.appendingPathComponent("bad.json")
        try Data(#"[{"id": "6F1C2A4E-3B1D-4C1E-9A57-0D2B8C9E1001", "name": "X", "holes": 40}]"#.utf8).write(to: file)
        #expect(throws: StoreError.seeds("X: a course has 1 to 36 holes, not 40")) { try s.db.write(.seedCourses(from: file)) }
        #expect(try s.db.read(.courses).isEmpty)
    }
}

/// Issue 12: every connection's page cache is bounded (256 KiB, not SQLite's 2 MiB), so a
/// kiosk that runs for weeks does not grow as its pool's caches fill. Without the pragma
/// every connection reports SQLite's default, -2000, and each expectation fails.
@Suite struct PageCacheTests {
    @Test func everyConnectionOfAFileStoreHasTheSmallPageCache() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-cache-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = try HyzerDatabase(directory: dir)
        let pragma = "PRAGMA cache_size"
        #expect(try db.domain.read { try Int.fetchOne($0, sql: pragma) } == -256)
        #expect(try db.domain.write { try Int.fetchOne($0, sql: pragma) } == -256)
        #expect(try db.operational.read { try Int.fetchOne($0, sql: pragma) } == -256)
        #expect(try db.operational.write { try Int.fetchOne($0, sql: pragma) } == -256)
    }
}
