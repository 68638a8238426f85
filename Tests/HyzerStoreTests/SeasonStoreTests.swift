import Foundation
import GRDB
import HyzerTestSupport
import Testing

@testable import HyzerKit
@testable import HyzerStore

/// Issue 37's seasons in the store: a definition kept as one row (the table is computed),
/// a change and a deletion each a new version to push (the v10 migration is checked with
/// v9's in `SyncRecordsRebuildTests`).
@Suite struct SeasonStoreTests {
    static func season(_ name: String, _ from: String, _ to: String, _ rule: Season.Rule = .bestRounds(5)) throws -> Season {
        try Season(name: name, from: from, to: to, rule: rule)
    }

    @Test func seasonsAreKeptReadBackNewestFirstAndEachChangeIsPending() throws {
        let s = try TempStore()
        let year = try Self.season("2026", "2026-01-01", "2026-12-31", .pointsByPlace([10, 8, 6, 5]))
        let summer = try Self.season("Summer", "2026-06-01", "2026-08-31", .averageToPar(minimumRounds: 3))
        let old = try Self.season("2025", "2025-01-01", "2025-12-31", .bestRounds(8))
        for season in [old, year, summer] { _ = try s.db.write(.saveSeason(season)) }
        #expect(try s.db.read(.seasons) == [summer, year, old])
        #expect(Season.current(try s.db.read(.seasons), on: "2026-07-04") == summer)
        #expect(Season.current(try s.db.read(.seasons), on: "2026-10-01") == year)
        #expect(Season.current(try s.db.read(.seasons), on: "2024-10-01") == nil)
        let pending = try s.db.domain.read {
            try Int.fetchOne($0, sql: "SELECT count(*) FROM sync_records WHERE kind = 'season' AND pending = 1")
        }
        #expect(pending == 3)

        var net = year
        net.net = true
        _ = try s.db.write(.saveSeason(net))
        #expect(try s.db.read(.seasons).contains(net))
        _ = try s.db.write(.deleteSeason(summer.id))
        #expect(try s.db.read(.seasons) == [net, old])
        #expect(throws: StoreError.notFound("season Summer")) { try s.db.write(.saveSeason(summer)) }
        #expect(throws: StoreError.self) { try s.db.write(.deleteSeason(summer.id)) }
    }

    /// The table's CHECKs hold a row to one rule's shape even against a write that skips
    /// the domain. Negative control: the same insert with the points rule's table succeeds.
    @Test func aRowOfNoRulesShapeIsRefusedBySQLite() throws {
        let s = try TempStore()
        let insert = """
            INSERT INTO seasons (id, name, from_day, to_day, rule, points, count, created_at, updated_at)
            VALUES (?, 'S', '2026-01-01', '2026-12-31', 'points', ?, ?, 1, 1)
            """
        #expect(throws: DatabaseError.self) {
            try s.db.domain.write { try $0.execute(sql: insert, arguments: [UUID(), nil, 5]) }
        }
        try s.db.domain.write { try $0.execute(sql: insert, arguments: [UUID(), "[3,2,1]", nil]) }
        #expect(try s.db.read(.seasons).map(\.rule) == [.pointsByPlace([3, 2, 1])])
    }
}
