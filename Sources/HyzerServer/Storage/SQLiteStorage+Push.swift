import Foundation
import GRDB
import HyzerSyncProtocol
import Logging
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
        let (principal, results, head) = try await commits.submit(
            PendingPush(records: records, access: access), via: { try await self.commitPushes($0) })
        return (principal, PushResponse(epoch: epoch, head: head, results: results))
    }

    /// Applies every push waiting for the writer in one transaction (group commit): SQLite
    /// has one writer and each commit is an fsync, so one transaction a push capped the
    /// server at a few hundred pushes a second with the CPU half idle. Each push runs in a
    /// savepoint of its own, so one that fails (a token revoked meanwhile) is rolled back
    /// alone; a failed commit fails them all, and none was acknowledged.
    func commitPushes(_ pushes: [PendingPush]) async throws -> [Result<PushOutcome, any Error>] {
        let now = self.now
        let memo = recordMemo
        return try await named {
            try await self.pool.write { db in
                var outcomes: [Result<PushOutcome, any Error>] = []
                for push in pushes {
                    do {
                        var outcome: PushOutcome?
                        try db.inSavepoint {
                            outcome = try Self.apply(push, db: db, memo: memo, now: now)
                            return .commit
                        }
                        guard let outcome else { throw DatabaseError(message: "a push's savepoint ended without its results") }
                        outcomes.append(.success(outcome))
                    } catch {
                        // An error that ended the whole transaction (SQLite rolls back on a
                        // full disk, for one) fails every push in it, as itself.
                        guard db.isInsideTransaction else { throw error }
                        outcomes.append(.failure(error))
                    }
                }
                // Decoded statements may be remembered up to the head as this commits (not
                // before: a rolled-back seq can be drawn again by another statement).
                let committed = try Self.globalHead(db)
                db.afterNextTransaction(onCommit: { _ in memo.committed(through: committed) })
                return outcomes
            }
        }
    }

    private static func apply(_ push: PendingPush, db: Database, memo: RecordMemo, now: Double) throws -> PushOutcome {
        let (principal, deviceID) = try push.access(db)
        let encoder = SyncCoding.encoder()
        var batch = try PushBatch(
            groupID: principal.groupID, ledger: SQLiteFeedLedger(db: db, memo: memo), records: push.records)
        // Only a reopening needs the group's window (issue 35): no read for the rest.
        if PushBatch<SQLiteFeedLedger>.reopens(push.records) {
            batch.reopenWindow = try reopenWindow(db, groupID: principal.groupID)
        }
        var results: [PushResult] = []
        results.reserveCapacity(push.records.count)
        for record in push.records {
            results.append(try batch.apply(record, deviceID: deviceID, now: now, encoder: encoder))
        }
        return (principal, results, try groupHead(db, groupID: principal.groupID))
    }

    /// A group's head, in a statement SQLite keeps prepared (once a push).
    static func groupHead(_ db: Database, groupID: String) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(seq) FROM changes WHERE group_id = ?"), arguments: [groupID])
            ?? 0
    }

    static func globalHead(_ db: Database) throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(seq) FROM changes")) ?? 0
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
