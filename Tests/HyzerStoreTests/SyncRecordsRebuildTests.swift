import Foundation
import GRDB
import HyzerTestSupport
import Testing

@testable import HyzerKit
@testable import HyzerStore

/// v9 (league nights) and v10 (seasons) each make `sync_records` again to widen its `kind`
/// (`Schema.rebuildSyncRecords`): a store from before either keeps every row and its pending
/// flag through to the newest schema, and the shipped triggers go on writing to the new table.
@Suite struct SyncRecordsRebuildTests {
    @Test(arguments: ["v8 retractions and start holes", "v9 league nights"])
    func everySyncRecordAndItsFlagComeThrough(from version: String) throws {
        let queue = try DatabaseQueue()
        try Schema.domainMigrator.migrate(queue, upTo: version)
        let course = try Course(name: "Test Nine", holeCount: 9)
        try queue.write { db in
            try db.execute(
                sql: "INSERT INTO courses (id, name, updated_at) VALUES (?, 'Test Nine', 1)", arguments: [course.id])
            try db.execute(
                sql: "INSERT INTO players (id, display_name, aliases, updated_at) VALUES (?, 'Ann', '[]', 1)",
                arguments: [UUID()])
            try db.execute(sql: "UPDATE sync_records SET pending = 0 WHERE kind = 'course'")
        }
        let before = try queue.read { try Row.fetchAll($0, sql: "SELECT * FROM sync_records ORDER BY kind") }
        try Schema.domainMigrator.migrate(queue)
        let after = try queue.read { try Row.fetchAll($0, sql: "SELECT * FROM sync_records ORDER BY kind") }
        #expect(before.count == 2)
        #expect(after == before)
        try queue.write { db in
            try db.execute(sql: "UPDATE courses SET name = 'Renamed' WHERE id = ?", arguments: [course.id])
        }
        let pending = try queue.read {
            try Int.fetchOne($0, sql: "SELECT pending FROM sync_records WHERE kind = 'course'")
        }
        #expect(pending == 1)
    }
}
