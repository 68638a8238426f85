import Foundation
import GRDB
import HyzerSyncProtocol

/// Accepting a device's batch into the group's feed.
extension SQLiteStorage {
    /// One transaction per batch: every result is decided and the batch committed (fsync)
    /// before this returns, so the caller's acknowledgement is never ahead of the disk.
    public func push(groupID: String, deviceID: String, records: [SyncRecord]) async throws -> PushResponse {
        let now = self.now
        let (results, head) = try await pool.write { db in
            let encoder = SyncCoding.encoder()
            var batch = try PushBatch(groupID: groupID, db: db, records: records)
            var results: [PushResult] = []
            results.reserveCapacity(records.count)
            for record in records {
                results.append(try batch.apply(record, deviceID: deviceID, now: now, encoder: encoder))
            }
            return (results, try ChangeRow.head(db, groupID: groupID))
        }
        // After the commit, so the state file is never ahead of the data.
        noteHead(head)
        return PushResponse(epoch: epoch, head: head, results: results)
    }
}
