import Foundation
import GRDB
import Testing

@testable import HyzerKit
@testable import HyzerStore

/// Issue 9 item 4: history read by keyset pages, newest first, each line with its winners
/// and players; discarded rounds (completed, no events) left out through `scored_rounds`.
@Suite struct HistoryPageTests {
    /// A finished round of `names`: participant i scores `strokes[i]` on hole 1 and par (3)
    /// on the other eight, so everyone finishes and hole 1 decides.
    static func finished(_ s: TempStore, _ names: [String], strokes: [Int], at seconds: Double) throws -> Round {
        let round = try s.activeRound(names)
        for (i, value) in strokes.enumerated() {
            for hole in 1...9 { _ = try s.score(round, i, hole: hole, hole == 1 ? value : 3) }
        }
        return try s.db.write(.finishRound(round.id, at: Date(timeIntervalSince1970: seconds)))
    }

    @Test func pagesWalkTheWholeHistoryNewestFirstWithoutGapsOrRepeats() throws {
        let s = try TempStore()
        var expected: [(Double, UUID)] = []
        // Two rounds finished in the same second: the id breaks the tie, so a page boundary
        // between them neither repeats nor skips one.
        for (n, seconds) in [1_000.0, 5_000, 3_000, 3_000, 9_000, 7_000, 2_000].enumerated() {
            let round = try Self.finished(s, ["A\(n)", "B\(n)"], strokes: [3, 4], at: seconds)
            expected.append((seconds, round.id))
        }
        // Scores that arrive by sync mark their round as scored too (the trigger, not the write path).
        let synced = try s.activeRound(["Sync"])
        let result = try s.db.write(
            .importEvents([
                ScoreEvent(
                    roundID: synced.id, participantID: synced.participants[0].id, hole: 1, strokes: 3,
                    reportedBy: synced.participants[0].id, deviceID: "phone", createdAt: Date(timeIntervalSince1970: 10))
            ]))
        #expect(result.inserted.count == 1)
        _ = try s.db.write(.finishRound(synced.id, at: Date(timeIntervalSince1970: 4_000)))
        expected.append((4_000, synced.id))
        let discarded = try s.activeRound(["Oops"])
        _ = try s.db.write(.discardRound(discarded.id, at: Date(timeIntervalSince1970: 8_000)))

        func bytes(_ id: UUID) -> [UInt8] { withUnsafeBytes(of: id.uuid) { Array($0) } }
        let order = expected.sorted { a, b in
            a.0 != b.0 ? a.0 > b.0 : bytes(b.1).lexicographicallyPrecedes(bytes(a.1))
        }.map(\.1)

        var seen: [UUID] = []
        var cursor: HistoryCursor?
        var pages = 0
        repeat {
            let page = try s.db.read(.historyPage(after: cursor, limit: 3))
            #expect(page.lines.count <= 3)
            seen += page.lines.map(\.roundID)
            cursor = page.next
            pages += 1
        } while cursor != nil && pages < 10
        #expect(seen == order)
        #expect(pages == 3, "8 rounds in pages of 3: the last page says there is no next")
        #expect(!seen.contains(discarded.id))
        // The one-shot list agrees with the pages.
        #expect(try s.db.read(.history()).map(\.id) == order)
    }

    @Test func aLineNamesTheWinnersTiesIncludedAndEveryPlayer() throws {
        let s = try TempStore()
        _ = try Self.finished(s, ["Ana", "Ben", "Cy"], strokes: [3, 3, 5], at: 100)
        let solo = try Self.finished(s, ["Dee", "Eve"], strokes: [4, 2], at: 200)
        let page = try s.db.read(.historyPage())
        #expect(page.next == nil)
        #expect(page.lines.map(\.roundID).first == solo.id)
        #expect(page.lines.map(\.winners) == [["Eve"], ["Ana", "Ben"]])
        #expect(page.lines.map(\.winnerText) == ["Eve", "Ana & Ben (tie)"])
        #expect(page.lines.map(\.players) == [["Dee", "Eve"], ["Ana", "Ben", "Cy"]])
        #expect(page.lines.map(\.courseName) == ["Test Nine", "Test Nine"])
        #expect(page.lines.first?.completedAt == Date(timeIntervalSince1970: 200))
    }

    /// The migration fills `scored_rounds` for rounds scored before it existed: a store
    /// upgraded in the field keeps its whole history.
    @Test func theMigrationBackFillsRoundsScoredBeforeIt() throws {
        let queue = try DatabaseQueue()
        try Schema.domainMigrator.migrate(queue, upTo: "v3 pending score events as seqs")
        let course = UUID()
        let (scored, empty) = (UUID(), UUID())
        try queue.write { db in
            try db.execute(sql: "INSERT INTO courses (id, name, updated_at) VALUES (?, 'Old Park', 0)", arguments: [course])
            for (id, at) in [(scored, 10.0), (empty, 20.0)] {
                try db.execute(
                    sql: """
                        INSERT INTO rounds (id, course_id, organizer_id, status, created_at, updated_at)
                        VALUES (?, ?, ?, 'active', ?, ?)
                        """, arguments: [id, course, UUID(), at, at])
            }
            try db.execute(
                sql: """
                    INSERT INTO score_events (id, round_id, participant_id, hole, strokes, reported_by, device_id, created_at)
                    VALUES (?, ?, ?, 1, 3, ?, 'kiosk', 10)
                    """, arguments: [UUID(), scored, UUID(), UUID()])
            try db.execute(sql: "UPDATE rounds SET status = 'completed', completed_at = created_at + 1")
        }
        try Schema.domainMigrator.migrate(queue)
        let ids = try queue.read { db in try UUID.fetchAll(db, sql: "SELECT round_id FROM scored_rounds") }
        #expect(ids == [scored])
        let listed = try queue.read { db in try Row.fetchAll(db, History.page(after: nil, limit: 10)) }
        #expect(listed.map { $0["id"] as UUID } == [scored])
    }
}
