import Foundation
import GRDB

extension SQLiteStorage {
    /// Record versions per group, for `/metrics`: one grouped count that SQLite answers
    /// from the feed index (`changes_feed`), without reading a payload.
    public func recordCounts() async throws -> [String: Int] {
        try await pool.read { db in
            var counts: [String: Int] = [:]
            let rows = try Row.fetchAll(db, sql: "SELECT group_id, COUNT(*) FROM changes GROUP BY group_id")
            for row in rows { counts[row[0]] = row[1] }
            return counts
        }
    }
}
