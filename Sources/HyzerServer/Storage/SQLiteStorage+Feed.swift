import Foundation
import GRDB
import HyzerSyncProtocol

/// Reading a group's feed: its head, and pull's pages in seq order.
extension SQLiteStorage {
    public func head(groupID: String) async throws -> Int64 {
        try await pool.read { db in try ChangeRow.head(db, groupID: groupID) }
    }

    public func pull(groupID: String, after: Int64, limit: Int) async throws -> PullResponse {
        let epoch = self.epoch
        return try await pool.read { db in try Self.page(db, groupID: groupID, after: after, limit: limit, epoch: epoch) }
    }

    public func pull(as claim: DeviceClaim, after: Int64, limit: Int) async throws -> PullResponse {
        let epoch = self.epoch
        return try await pool.read { db in
            let (principal, _) = try Self.principal(db, token: claim.token).requireDevice(claimed: claim.device)
            return try Self.page(db, groupID: principal.groupID, after: after, limit: limit, epoch: epoch)
        }
    }

    private static func page(_ db: Database, groupID: String, after: Int64, limit: Int, epoch: String) throws -> PullResponse {
        let decoder = SyncCoding.decoder()
        let entries =
            try FeedEntry
            .filter(ChangeRow.Columns.groupID == groupID && ChangeRow.Columns.seq > after)
            .order(ChangeRow.Columns.seq)
            .limit(limit)
            .fetchAll(db)
        let records = try entries.map { entry in
            PulledRecord(seq: entry.seq, record: try decoder.decode(SyncRecord.self, from: entry.payload))
        }
        // Read in the same transaction as the page, so `hasMore` agrees with it.
        let head = try ChangeRow.head(db, groupID: groupID)
        let next = records.last?.seq ?? after
        return PullResponse(
            epoch: epoch, records: records, next: next, head: head, hasMore: next < head,
            reopenWindow: try reopenWindow(db, groupID: groupID))
    }
}
