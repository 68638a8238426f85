import Foundation
import GRDB
import HyzerSyncProtocol
import SQLiteFaults

/// Accepting a device's batch into the group's feed.
extension SQLiteStorage {
    /// One transaction per batch: every result is decided and the batch committed (fsync)
    /// before this returns, so the caller's acknowledgement is never ahead of the disk.
    public func push(groupID: String, deviceID: String, records: [SyncRecord]) async throws -> PushResponse {
        let response = try await push(records: records) { _ in
            (Principal(groupID: groupID, role: .device, deviceID: deviceID), deviceID)
        }.response
        noteCommitted(head: response.head)
        return response
    }

    public func push(as claim: DeviceClaim, records: [SyncRecord]) async throws -> (principal: Principal, response: PushResponse)
    {
        try await push(records: records) { db in try Self.principal(db, token: claim.token).requireDevice(claimed: claim.device) }
    }

    /// After the commit, so the state file is never ahead of the data; the route calls it
    /// once the other devices are poked (the file write is not on the path of a score).
    public func noteCommitted(head: Int64) {
        noteHead(head)
        noteSpace()
    }

    /// `access` names the pushing device inside the write transaction, so a token revoked a
    /// moment ago cannot slip a batch in after its check.
    private func push(
        records: [SyncRecord], access: @escaping @Sendable (Database) throws -> (principal: Principal, deviceID: String)
    ) async throws -> (principal: Principal, response: PushResponse) {
        let now = self.now
        let (principal, results, head) = try await named {
            try await self.pool.write { db in
                let (principal, deviceID) = try access(db)
                let encoder = SyncCoding.encoder()
                var batch = try PushBatch(groupID: principal.groupID, ledger: SQLiteFeedLedger(db: db), records: records)
                var results: [PushResult] = []
                results.reserveCapacity(records.count)
                for record in records {
                    results.append(try batch.apply(record, deviceID: deviceID, now: now, encoder: encoder))
                }
                return (principal, results, try ChangeRow.head(db, groupID: principal.groupID))
            }
        }
        return (principal, PushResponse(epoch: epoch, head: head, results: results))
    }

    /// A write that failed on the disk is named (a full disk is not a bug to a person
    /// reading the journal); the batch was rolled back, so nothing was acknowledged and
    /// the device keeps it to push again.
    func named<Value>(_ body: () async throws -> Value) async throws -> Value {
        do {
            return try await body()
        } catch {
            guard let fault = StorageFault.classify(error, path: directory.appendingPathComponent(Self.fileName).path) else {
                throw error
            }
            logger.error("\(fault)")
            throw fault
        }
    }
}
